#pragma once
// Static (centre-of-mass) regressor (paper 000 eq. 2): the first moment of the robot in world,
//   M_total * com_world = Y_com(q) pi + (first moment of links fixed to the universe),
// linear in the same stacked parameter vector pi as the joint-torque regressor. Only the m and m c
// columns are non-zero: static poses say nothing about rotational inertia.
// Real-time safe: no allocation.

#include "dynid/dynamics/kinematics.hpp"

namespace dynid {

/// 3 x (10 * num_moving_bodies) into data.com_regressor. Runs forward_kinematics(q).
const Eigen::Matrix<double, 3, Eigen::Dynamic>& com_regressor(const Model& model, Data& data, const ConstVectorRef& q);

}  // namespace dynid
