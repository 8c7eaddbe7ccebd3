#pragma once
// Forward kinematics: body poses, twists and spatial accelerations.
//
// q (dim nq), v (dim nv), a (dim nv) follow docs/conventions.md. Results land in Data:
// liMi, oMi (poses), v (twists, body frame), a (spatial accelerations, body frame, without gravity).
// Real-time safe: no allocation.

#include "dynid/dynamics/data.hpp"

namespace dynid {

using ConstVectorRef = Eigen::Ref<const VectorX>;

void forward_kinematics(const Model& model, Data& data, const ConstVectorRef& q);
void forward_kinematics(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v);
void forward_kinematics(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v,
                        const ConstVectorRef& a);

/// World pose of a frame; call forward_kinematics first.
inline SE3 frame_placement(const Model& model, const Data& data, int frame) {
  const Frame& fr = model.frames[static_cast<std::size_t>(frame)];
  return data.oMi[static_cast<std::size_t>(fr.body)] * fr.placement;
}

/// Twist of a frame expressed in that frame (forward_kinematics with v first).
Motion frame_velocity(const Model& model, const Data& data, int frame);

/// Spatial acceleration of a frame expressed in that frame (forward_kinematics with v and a first).
Motion frame_acceleration(const Model& model, const Data& data, int frame);

/// Classical acceleration of a frame: linear = second derivative of its origin's position, angular
/// = angular acceleration, both expressed in the frame's own axes. With a = 0 this is the bias
/// term Jdot*v of the frame Jacobian.
Motion frame_classical_acceleration(const Model& model, const Data& data, int frame);

/// q (+) v: the configuration reached from q after unit time at constant velocity v (dim nv).
/// The floating base moves on SE(3) with its body twist; joints add linearly.
void integrate(const Model& model, const ConstVectorRef& q, const ConstVectorRef& v, Eigen::Ref<VectorX> q_out);

/// Checks q: size nq, finite, unit base quaternion (within 1e-6). Throws naming the problem.
void check_configuration(const Model& model, const ConstVectorRef& q);
/// Checks a velocity-sized vector: size nv and finite. `what` names it in the error.
void check_tangent(const Model& model, const ConstVectorRef& x, const char* what);

}  // namespace dynid
