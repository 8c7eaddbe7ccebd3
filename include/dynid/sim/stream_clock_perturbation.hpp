#pragma once
// The `time` perturbation of the testbed (`dynid simulate --perturb time`, docs/scenarios.md): the
// streams a lab records on other devices' clocks stamped off the robot's own log. The encoders, the
// joint torque sensors and the truth stay on the robot's clock (one field bus).
//
// Magnitudes (seeded, uniform): a constant offset within +-50 ms (a lab PC's or a USB IMU's
// start-up, buffering and transport latency: tens of ms between unsynchronised devices) and a
// drift within +-30 ppm (quartz oscillators' frequency tolerance, +-20-50 ppm).

#include <map>
#include <string>
#include <vector>

#include "dynid/io/stream_clock.hpp"

namespace dynid {

inline constexpr double kStreamClockMaxOffsetS = 0.05;
inline constexpr double kStreamClockMaxDriftPpm = 30.0;

/// The streams whose clocks the `time` perturbation moves, where recorded.
const std::vector<std::string>& streams_on_other_clocks();

/// One clock per stream of streams_on_other_clocks(), seeded (independent of the other random
/// draws of the testbed), reference time 0 (the simulation's start).
std::map<std::string, StreamClock> perturb_stream_clocks(unsigned seed);

}  // namespace dynid
