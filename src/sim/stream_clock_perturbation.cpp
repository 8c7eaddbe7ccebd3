#include "dynid/sim/stream_clock_perturbation.hpp"

#include <random>

namespace dynid {

const std::vector<std::string>& streams_on_other_clocks() {
  static const std::vector<std::string> names = {"ft", "imu", "plates", "markers"};
  return names;
}

std::map<std::string, StreamClock> perturb_stream_clocks(unsigned seed) {
  std::mt19937 rng(seed * 2654435761u + 19u);  // its own stream of draws: other perturbations keep theirs
  std::uniform_real_distribution<double> offset(-kStreamClockMaxOffsetS, kStreamClockMaxOffsetS);
  std::uniform_real_distribution<double> drift(-kStreamClockMaxDriftPpm, kStreamClockMaxDriftPpm);
  std::map<std::string, StreamClock> out;
  for (const std::string& name : streams_on_other_clocks()) {
    StreamClock c;
    c.offset_s = offset(rng);
    c.drift_ppm = drift(rng);
    out[name] = c;
  }
  return out;
}

}  // namespace dynid
