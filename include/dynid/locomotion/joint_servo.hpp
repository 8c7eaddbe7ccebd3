#pragma once
// Joint position servos of the simulated robot: PD with torque limits. The P part is stiff (full
// torque at a small error, like a position-controlled servo); the D part is joint damping that
// MuJoCo integrates implicitly (SceneSpec::joint_damping), sized for the inertia the joint moves
// in stance: the whole robot for leg joints, the distal links for the others.

#include <vector>

#include "dynid/model/model.hpp"

namespace dynid {

class JointServo {
 public:
  /// kp = effort / `saturation_error`, capped at I w^2 (w = 2 pi `bandwidth_hz`, I = joint-space
  /// inertia + `armature`, both per body); damping for ratio `zeta` against the inertia the joint
  /// moves in stance. `support_bodies`: bodies standing on the ground (their chains to the base
  /// carry the whole robot).
  JointServo(const Model& nominal, const VectorX& q, const std::vector<double>& armature,
             const std::vector<int>& support_bodies, double bandwidth_hz = 25.0, double zeta = 0.8,
             double saturation_error = 0.02);

  /// Actuator torques (dim nv, zero on the floating base) such that, with the simulated joint
  /// damping -kd v, the joint receives kp (q_ref - q) + kd (v_ref - v) + tau_ff clamped to the
  /// effort limit (what a real servo's PD loop delivers).
  const VectorX& torque(const VectorX& q, const VectorX& v, const VectorX& q_ref, const VectorX& v_ref,
                        const VectorX& tau_ff);

  const VectorX& kp() const { return kp_; }
  const VectorX& kd() const { return kd_; }
  /// kd per body (Model::bodies index), for SceneSpec::joint_damping.
  std::vector<double> damping_per_body() const;

 private:
  const Model& model_;
  VectorX kp_, kd_, effort_, tau_;
};

}  // namespace dynid
