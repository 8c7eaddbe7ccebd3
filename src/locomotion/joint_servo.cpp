#include "dynid/locomotion/joint_servo.hpp"

#include <cmath>

#include "dynid/dynamics/center_of_mass.hpp"
#include "dynid/dynamics/crba.hpp"

namespace dynid {

JointServo::JointServo(const Model& nominal, const VectorX& q, const std::vector<double>& armature,
                       const std::vector<int>& support_bodies, double bandwidth_hz, double zeta,
                       double saturation_error)
    : model_(nominal) {
  Data data(nominal);
  const MatrixX& M = crba(nominal, data, q);
  const double w = 2.0 * M_PI * bandwidth_hz;
  // A leg joint in stance swings the whole robot about itself: inertia ~ m h^2 with h the distance
  // from the joint to the COM.
  std::vector<bool> in_leg(nominal.bodies.size(), false);
  for (int s : support_bodies)
    for (int j = s; j > 0 && nominal.bodies[static_cast<std::size_t>(j)].joint_type != JointType::FreeFlyer;
         j = nominal.bodies[static_cast<std::size_t>(j)].parent)
      in_leg[static_cast<std::size_t>(j)] = true;
  const Vector3 com = center_of_mass(nominal, data, q);
  kp_ = kd_ = effort_ = tau_ = VectorX::Zero(nominal.nv);
  for (std::size_t i = 1; i < nominal.bodies.size(); ++i) {
    const Body& b = nominal.bodies[i];
    if (b.joint_type == JointType::FreeFlyer) continue;
    const int k = b.idx_v;
    const double inertia = std::max(M(k, k) + armature[i], 1e-6);
    const double effort = std::isfinite(b.limits.effort) ? b.limits.effort : 1e3;
    kp_[k] = std::min(inertia * w * w, effort / saturation_error);
    const double h = (com - data.oMi[i].translation).norm();
    const double moved = in_leg[i] ? std::max(inertia, nominal.total_mass() * h * h) : inertia;
    kp_[k] = in_leg[i] ? effort / saturation_error : kp_[k];
    kd_[k] = 2.0 * zeta * std::sqrt(kp_[k] * moved);
    effort_[k] = effort;
  }
}

std::vector<double> JointServo::damping_per_body() const {
  std::vector<double> d(model_.bodies.size(), 0.0);
  for (std::size_t i = 1; i < model_.bodies.size(); ++i)
    if (model_.bodies[i].joint_type != JointType::FreeFlyer) d[i] = kd_[model_.bodies[i].idx_v];
  return d;
}

const VectorX& JointServo::torque(const VectorX& q, const VectorX& v, const VectorX& q_ref, const VectorX& v_ref,
                                  const VectorX& tau_ff) {
  tau_.setZero();
  for (std::size_t i = 1; i < model_.bodies.size(); ++i) {
    const Body& b = model_.bodies[i];
    if (b.joint_type == JointType::FreeFlyer) continue;
    const int k = b.idx_v;
    // The motor's limit bounds the whole PD output. The joint damping MuJoCo applies (-kd v) is
    // part of it, so it is added back after the clamp: clamping kd v_ref alone would saturate a
    // leg joint as soon as it moves (its damping is sized for the whole robot) and stall it.
    const double t = kp_[k] * (q_ref[b.idx_q] - q[b.idx_q]) + kd_[k] * (v_ref[k] - v[k]) + tau_ff[k];
    tau_[k] = std::clamp(t, -effort_[k], effort_[k]) + kd_[k] * v[k];
  }
  return tau_;
}

}  // namespace dynid
