#pragma once
// The robot's force/torque sensors are not perfectly calibrated (issue 19, `--perturb ft`,
// docs/scenarios.md): what a six-axis strain-gauge sensor (ATI Mini45 class, tared while the
// robot hangs) adds to its noise, per sensor, seeded:
//   - calibration matrix: each force channel reads its own axis with a gain uniform within
//     ±kFtGainTolerance and each other force axis with a crosstalk uniform within ±kFtCrosstalk;
//     the moment channels likewise among the moments (the calibration's residual: ATI specifies
//     a measurement uncertainty of 1-2 % of full scale);
//   - origin: the moments are taken about a point off the sidecar frame's origin by a vector
//     uniform within ±kFtOriginErrorM per axis (where the calibration puts the sensing origin);
//   - temperature zero drift: every channel's zero moves linearly from the tare at t = 0, forces
//     uniform within ±kFtForceDriftNPerS, moments within ±kFtMomentDriftNmPerS (a sensor warmed
//     by the ankle motors; thermal zero shift of tenths of a newton per kelvin).
// The recorded stream and the simulated controllers (the squat's and walk's balance stabilizer)
// read the perturbed sensor, as they read its noise.

#include <random>
#include <vector>

#include "dynid/core/types.hpp"

namespace dynid {

inline constexpr double kFtGainTolerance = 0.01;           ///< ± relative, per channel
inline constexpr double kFtCrosstalk = 0.01;               ///< ± fraction of another axis of the same kind
inline constexpr double kFtOriginErrorM = 5e-4;            ///< ± per axis [m]
inline constexpr double kFtForceDriftNPerS = 0.5 / 60;     ///< ± per force channel [N/s]
inline constexpr double kFtMomentDriftNmPerS = 0.02 / 60;  ///< ± per moment channel [N m/s]

struct FtError {
  Matrix3 force_matrix = Matrix3::Identity();   ///< read force = this * true force (sensor axes)
  Matrix3 moment_matrix = Matrix3::Identity();  ///< read moment = this * true moment about the origin
  Vector3 origin_error = Vector3::Zero();       ///< [m] sensor axes
  Vector6 drift_per_s = Vector6::Zero();        ///< [N/s] x3, [N m/s] x3
};

/// One error per sensor, seeded (its own generator).
std::vector<FtError> perturb_ft_sensors(std::size_t sensors, unsigned seed);

/// What the sensor reads for the wrench `x` (force [N], moment about the sidecar frame's origin
/// [N m], sensor axes) at `time_s` after the tare.
Vector6 ft_reading(const FtError& e, const Vector6& x, double time_s);

}  // namespace dynid
