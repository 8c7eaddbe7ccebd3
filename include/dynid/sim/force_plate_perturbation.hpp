#pragma once
// The lab's force plates are not perfect (issue 19, `--perturb force-plates`, docs/scenarios.md):
// what a strain-gauge plate (AMTI/Bertec class) and its amplifier add besides noise and
// quantisation, per plate, seeded:
//   - channel gains: each force channel off by a factor uniform within ±kPlateGainTolerance;
//   - crosstalk: each horizontal force reads a fraction of the vertical force uniform within
//     ±kPlateCrosstalk (manufacturers specify < 2 % between channels);
//   - centre-of-pressure error: the moment about the top centre is that of the force applied
//     at COP + δ, δ = b + s ⊙ (COP − centre) in the plate plane, b uniform within ±kPlateCopBiasM per
//     axis and s within ±kPlateCopScale (worse toward the edges: the plate's accuracy class);
//   - zero drift: every channel's zero moves linearly from the moment the plates were zeroed (the
//     start of the recording), forces uniform within ±kPlateForceDriftNPerS, moments within
//     ±kPlateMomentDriftNmPerS.

#include <random>
#include <vector>

#include "dynid/core/types.hpp"

namespace dynid {

inline constexpr double kPlateGainTolerance = 0.005;          ///< ± relative, per force channel
inline constexpr double kPlateCrosstalk = 0.01;               ///< ± fraction of Fz read by Fx and Fy
inline constexpr double kPlateCopBiasM = 1e-3;                ///< ± per axis [m]
inline constexpr double kPlateCopScale = 0.005;               ///< ± relative, per axis
inline constexpr double kPlateForceDriftNPerS = 0.2 / 60;     ///< ± per force channel [N/s]
inline constexpr double kPlateMomentDriftNmPerS = 0.02 / 60;  ///< ± per moment channel [N m/s]

struct PlateError {
  Vector3 gain = Vector3::Ones();               ///< per force channel
  double crosstalk_x = 0.0, crosstalk_y = 0.0;  ///< Fx, Fy read this fraction of Fz
  double cop_bias_x = 0.0, cop_bias_y = 0.0;    ///< [m]
  double cop_scale_x = 0.0, cop_scale_y = 0.0;  ///< relative
  Vector6 drift_per_s = Vector6::Zero();        ///< [N/s] x3, [N m/s] x3
};

/// One error per plate, seeded (its own generator).
std::vector<PlateError> perturb_force_plates(std::size_t plates, unsigned seed);

/// What the plate reads for the wrench `x` (force the robot applies to the plate [N], moment about
/// the plate's top centre [N m], plate axes = world axes) at `time_s` after zeroing.
Vector6 plate_reading(const PlateError& e, const Vector6& x, double time_s);

}  // namespace dynid
