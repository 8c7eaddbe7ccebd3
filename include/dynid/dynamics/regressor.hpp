#pragma once
// Linear-in-parameters form of inverse dynamics (papers 003 eq. 1, 004 eq. 4):
//   rnea(q, v, a) = Y(q, v, a) pi
// pi stacks the 10 inertial parameters of every moving body in model order (Model::parameter_names),
// about each body frame's origin, in body axes. For a floating base the first 6 rows of Y are the
// base-link equations (wrench in the base frame about its origin), which need no joint torques.
// Real-time safe: no allocation.

#include "dynid/dynamics/kinematics.hpp"

namespace dynid {

using BodyRegressor = Eigen::Matrix<double, 6, 10>;

/// Y_b with I(pi) a + v x* I(pi) v = Y_b(v, a) pi for one body; v, a in the body frame (a includes
/// the gravity offset when used for inverse dynamics).
void body_regressor(const Motion& v, const Motion& a, BodyRegressor& Y);

/// Joint-torque regressor, nv x (10 * num_moving_bodies), into data.regressor.
const MatrixX& joint_torque_regressor(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v,
                                      const ConstVectorRef& a);

/// The 6 base-link rows of the joint-torque regressor of a floating-base model (base wrench
/// [force; moment] in the base frame about its origin), 6 x (10 * num_moving_bodies), into
/// data.base_link_regressor. Contact-force identification needs only these rows (paper 003 eq. 4);
/// they cost one force transform per body instead of one per (body, ancestor) pair. Throws
/// std::invalid_argument naming the model if it has a fixed base.
const BaseLinkRegressor& base_link_regressor(const Model& model, Data& data, const ConstVectorRef& q,
                                             const ConstVectorRef& v, const ConstVectorRef& a);

}  // namespace dynid
