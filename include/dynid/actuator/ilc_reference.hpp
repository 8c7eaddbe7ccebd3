#pragma once
// Reference trajectories for learning a servo (paper 002, fig. 2): a joint position over time on a
// uniform grid, with its velocity and acceleration (the model needs both, eq. 14).

#include <string>
#include <vector>

namespace dynid {

struct SampledTrajectory {
  double dt_s = 0.001;
  std::vector<double> position_rad, velocity_rad_s, acceleration_rad_s2;

  std::size_t size() const { return position_rad.size(); }
  double duration_s() const { return position_rad.empty() ? 0.0 : dt_s * double(position_rad.size() - 1); }
};

/// The built-in reference of `dynid identify actuator`, shaped like paper 002's fig. 2 around
/// `center_rad`: 0.5 s at rest, 6 s of walking-like oscillation (0.3 rad at 1 Hz plus 0.08 rad at
/// 2 Hz, faded in and out over 1 s), then kick-like segments: a fast oscillation (0.3 rad at 1.6 Hz,
/// two periods, faded), a wind-up, a fast swing through 1 rad and a return (minimum-jerk moves,
/// peak speed about 3 rad/s), then two slow moves by 0.15 rad and back (2.5 s each, peak 0.11 rad/s:
/// the Stribeck region, where static friction shows), 0.5 s at rest. 18 s; analytic derivatives.
/// `scale` (> 0) scales the amplitudes (a joint with a small range).
SampledTrajectory default_ilc_reference(double center_rad, double dt_s = 0.001, double scale = 1.0);

/// A trajectory from positions sampled every `dt_s`: velocity and acceleration by central
/// differences (one-sided at the ends). Throws with fewer than 3 samples or a non-finite sample.
SampledTrajectory trajectory_from_positions(double dt_s, std::vector<double> position_rad);

/// Reads a reference file: CSV with a header, first column time [s] (uniform), second column the
/// joint position [rad] (further columns ignored); resampled to `dt_s` by linear interpolation.
/// Throws "PATH: reason" (unreadable, no rows, non-uniform or non-increasing time, non-finite value).
SampledTrajectory read_reference_csv(const std::string& path, double dt_s = 0.001);

}  // namespace dynid
