#pragma once
// Residual base wrench (paper 000, section 3.4 and Table 1): inverse dynamics of a recorded motion
// with the measured ground reaction applied; what is left on the floating base (which no actuator
// can produce) measures how wrong the model is.
//
// Motion from sampled configurations: each coordinate is low-passed with a zero-phase Butterworth
// (mocap/filtfilt.hpp; the base quaternion component-wise, sign-continuous, then renormalised),
// then differentiated by central differences: joint rates directly, base linear velocity
// R^T (p[k+1] - p[k-1]) / 2dt and angular velocity log(R[k-1]^T R[k+1]) / 2dt (body frame,
// docs/conventions.md); accelerations are central differences of v. One-sided at the ends.

#include <vector>

#include "dynid/dynamics/data.hpp"

namespace dynid {

struct SampledMotion {
  std::vector<double> time;  ///< [s], uniform
  std::vector<VectorX> q, v, a;
};

/// Filters (cutoff_hz, order per pass; cutoff <= 0: no filter) and differentiates `q` sampled at
/// nearly uniform `time` (a capture system's clock jitter, up to a quarter period, is tolerated;
/// the differences use the actual times). Throws on larger gaps or fewer than 5 samples.
SampledMotion differentiate_configurations(const Model& model, const std::vector<double>& time,
                                           const std::vector<VectorX>& q, double cutoff_hz, int order = 2);

struct ResidualWrench {
  std::vector<double> time;
  Eigen::Matrix<double, 6, Eigen::Dynamic> values;  ///< rows Tx Ty Tz [N m], Fx Fy Fz [N]: base frame, about its origin
  Vector6 mean_abs = Vector6::Zero();               ///< mean of |.| per row
  Vector6 std_abs = Vector6::Zero();                ///< standard deviation of |.| per row
};

/// rnea(q, v, a) with `ground_reaction_world[k]` (wrench on the robot, world axes, about the world
/// origin) applied: the base rows, reordered torque first as paper 000 Table 1.
ResidualWrench residual_base_wrench(const Model& model, const SampledMotion& motion,
                                    const std::vector<Force>& ground_reaction_world);

}  // namespace dynid
