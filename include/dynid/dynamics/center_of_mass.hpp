#pragma once
// Centre of mass of the whole robot (universe-fixed links included), in world coordinates, and its
// ground projection. Real-time safe: no allocation.

#include "dynid/dynamics/kinematics.hpp"

namespace dynid {

/// data.com and data.mass. Runs forward_kinematics(q).
const Vector3& center_of_mass(const Model& model, Data& data, const ConstVectorRef& q);

/// data.com, data.com_velocity, data.com_acceleration (world). Runs forward_kinematics(q, v, a).
const Vector3& center_of_mass(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v,
                              const ConstVectorRef& a);

/// Jacobian of the COM (3 x nv, world axes): com_dot = J v. Call forward_kinematics(q) first.
/// J must be 3 x nv. Uses data.subtree_mass/subtree_mc as scratch. Real-time safe.
void com_jacobian(const Model& model, Data& data, Eigen::Ref<Eigen::Matrix<double, 3, Eigen::Dynamic>> J);

/// Ground-projected COM (GCOM, paper 000 eq. 3): the COM moved along gravity onto the plane through
/// `ground_point` with normal `ground_normal` (world). On level ground (z up) this is (x, y, ground z).
Vector3 ground_projected_com(const Model& model, const Vector3& com_world,
                             const Vector3& ground_point = Vector3::Zero(),
                             const Vector3& ground_normal = Vector3::UnitZ());

}  // namespace dynid
