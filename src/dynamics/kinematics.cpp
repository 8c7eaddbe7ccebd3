#include "dynid/dynamics/kinematics.hpp"

#include <stdexcept>
#include <string>

#include "dynid/dynamics/forward_recursion.hpp"

#include <Eigen/Geometry>

namespace dynid {

void forward_kinematics(const Model& model, Data& data, const ConstVectorRef& q) {
  detail::forward_recursion<false, false, false>(model, data, q, q, q, [](std::size_t) {});
}

void forward_kinematics(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v) {
  detail::forward_recursion<true, false, false>(model, data, q, v, v, [](std::size_t) {});
}

void forward_kinematics(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v,
                        const ConstVectorRef& a) {
  detail::forward_recursion<true, true, false>(model, data, q, v, a, [](std::size_t) {});
}

Motion frame_velocity(const Model& model, const Data& data, int frame) {
  const Frame& fr = model.frames[static_cast<std::size_t>(frame)];
  return fr.placement.act_inv(data.v[static_cast<std::size_t>(fr.body)]);
}

Motion frame_acceleration(const Model& model, const Data& data, int frame) {
  const Frame& fr = model.frames[static_cast<std::size_t>(frame)];
  return fr.placement.act_inv(data.a[static_cast<std::size_t>(fr.body)]);
}

Motion frame_classical_acceleration(const Model& model, const Data& data, int frame) {
  const Motion vel = frame_velocity(model, data, frame);
  Motion acc = frame_acceleration(model, data, frame);
  // Spatial -> classical: the origin's acceleration adds omega x v (Featherstone, RBDA 2.11).
  acc.linear += vel.angular.cross(vel.linear);
  return acc;
}

void integrate(const Model& model, const ConstVectorRef& q, const ConstVectorRef& v, Eigen::Ref<VectorX> q_out) {
  for (std::size_t i = 1; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    if (b.joint_type != JointType::FreeFlyer) {
      q_out[b.idx_q] = q[b.idx_q] + v[b.idx_v];
      continue;
    }
    const Eigen::Quaterniond quat(q[b.idx_q + 6], q[b.idx_q + 3], q[b.idx_q + 4], q[b.idx_q + 5]);
    const SE3 M0(quat.normalized().toRotationMatrix(), q.segment<3>(b.idx_q));
    const SE3 M1 = M0 * exp6(Motion(v.segment<3>(b.idx_v), v.segment<3>(b.idx_v + 3)));
    Eigen::Quaterniond q1(M1.rotation);
    if (q1.dot(quat) < 0.0) q1.coeffs() = -q1.coeffs();  // stay in the hemisphere of q
    q_out.segment<3>(b.idx_q) = M1.translation;
    q_out.segment<4>(b.idx_q + 3) = q1.normalized().coeffs();  // Eigen's coeffs order is x y z w
  }
}

void check_configuration(const Model& model, const ConstVectorRef& q) {
  if (q.size() != model.nq)
    throw std::invalid_argument("configuration has " + std::to_string(q.size()) +
                                " entries, the model needs nq = " + std::to_string(model.nq));
  for (Eigen::Index k = 0; k < q.size(); ++k)
    if (!std::isfinite(q[k]))
      throw std::invalid_argument("configuration entry " + std::to_string(k) + " is not finite");
  for (std::size_t i = 1; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    if (b.joint_type != JointType::FreeFlyer) continue;
    const double n = q.segment<4>(b.idx_q + 3).norm();
    if (std::abs(n - 1.0) > 1e-6)
      throw std::invalid_argument("base orientation quaternion of '" + b.name + "' has norm " + std::to_string(n) +
                                  ", expected 1");
  }
}

void check_tangent(const Model& model, const ConstVectorRef& x, const char* what) {
  if (x.size() != model.nv)
    throw std::invalid_argument(std::string(what) + " has " + std::to_string(x.size()) +
                                " entries, the model needs nv = " + std::to_string(model.nv));
  for (Eigen::Index k = 0; k < x.size(); ++k)
    if (!std::isfinite(x[k]))
      throw std::invalid_argument(std::string(what) + " entry " + std::to_string(k) + " is not finite");
}

}  // namespace dynid
