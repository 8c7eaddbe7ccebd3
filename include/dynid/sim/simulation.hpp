#pragma once
// A dynid robot simulated by MuJoCo (Debian's libmujoco-dev). MuJoCo's dynamics are independent of
// dynid's, so data recorded here is evidence, not tautology, when dynid identifies from it.
//
// The state is exchanged in dynid's conventions (docs/conventions.md): q with quaternion x y z w,
// base velocity and acceleration in the base frame. Each step is split into forward() (accelerations
// and contact forces for the applied torques at the current state) and integrate() (semi-implicit
// Euler), so that q, v, a and the contact wrenches read between the two satisfy the equations of
// motion exactly: rnea(q, v, a, contact wrenches) = applied torques.
//
// Joints the scene welds (SceneSpec::welds) are absent from MuJoCo: dynid's q, v, a keep their
// full size, with the lock value, zero velocity and zero acceleration at those joints, and the
// torques passed for them are ignored (nothing actuates a weld).

#include <memory>
#include <string>
#include <vector>

#include "dynid/model/sidecar.hpp"
#include "dynid/sim/scene.hpp"

struct mjModel_;
struct mjData_;

namespace dynid {

class Simulation {
 public:
  /// `truth` is the model MuJoCo simulates (its sidecar frames attached). Throws with MuJoCo's
  /// message if the model does not compile.
  Simulation(const Model& truth, const RobotSidecar& sidecar, const SceneSpec& scene);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  /// Sets position (nq) and velocity (nv); time is kept.
  void set_state(const VectorX& q, const VectorX& v);

  /// Accelerations and contact forces at the current state with joint torques `tau` (dim nv; the
  /// floating-base entries must be zero: nothing actuates the base).
  void forward(const VectorX& tau);
  /// Advances one time step with the accelerations of the last forward().
  void integrate();

  double time() const;
  double timestep() const;
  const VectorX& q() const { return q_; }
  const VectorX& v() const { return v_; }
  /// Acceleration from the last forward() (dim nv): the velocity change the next integrate() makes,
  /// divided by the time step (MuJoCo's qacc with its joint damping taken implicitly, as mj_Euler
  /// does). With q() and v(): the second central difference of the positions at this state.
  const VectorX& a() const { return a_; }

  /// Joint torques acting on the links at the last forward() (dim nv): the applied actuator torque
  /// plus the joint damping the step applies (-D v_{k+1}, mj_Euler's implicit damping), minus the
  /// joint friction (friction_torques()) and what accelerating the rotor took (armature * a). A joint torque sensor at
  /// the joint output reads this; rnea of the links gives it back. At a welded joint: the torque the weld carries, from
  /// MuJoCo's interaction force between the body and its parent.
  const VectorX& link_torques() const { return link_tau_; }
  /// The joint friction torques of the last forward() (dim nv; SceneSpec::joint_viscous and
  /// joint_coulomb at the step's starting velocity): applied torque = link torque + friction +
  /// armature * a at joints without MuJoCo damping.
  const VectorX& friction_torques() const { return friction_tau_; }

  /// Wrench the environment applies to each body at the last forward(): world axes, about the world
  /// origin (index as Model::bodies).
  const std::vector<Force>& external_wrenches_world() const { return body_wrench_world_; }
  /// Wrench the environment applies through each sidecar contact surface (same frame and point).
  const std::vector<Force>& contact_wrenches_world() const { return contact_wrench_world_; }
  /// Wrench the robot applies to each force plate: world axes, about the plate's top centre.
  const std::vector<Force>& plate_wrenches() const { return plate_wrench_; }
  /// Number of active contact points at the last forward().
  int active_contacts() const { return active_contacts_; }

  /// Whether the joint of dynid body `body` is welded (absent from MuJoCo).
  bool welded(int body) const { return weld_body_id_[static_cast<std::size_t>(body)] >= 0; }

  const Model& model() const { return model_; }
  const std::string& mjcf() const { return mjcf_; }

 private:
  struct JointAddress {
    int body, qadr, dadr;
  };
  void read_state();
  /// Torques the welds carry (link_tau_ at welded joints), from mj_rnePostConstraint.
  void read_weld_torques();

  Model model_;
  std::string mjcf_;
  mjModel_* m_ = nullptr;
  mjData_* d_ = nullptr;
  std::vector<JointAddress> joints_;
  std::vector<MjcfWeld> welds_;
  std::vector<int> weld_body_id_;  // per dynid body: MuJoCo body id when its joint is welded, else -1
  std::vector<int> geom_body_;     // per MuJoCo geom: dynid body or -1
  std::vector<int> geom_contact_;  // per MuJoCo geom: sidecar contact index or -1
  std::vector<int> geom_plate_;    // per MuJoCo geom: plate index or -1
  std::vector<Vector3> plate_origin_;
  VectorX q_, v_, a_, link_tau_;
  Eigen::VectorXd qacc_step_;  // MuJoCo dofs: the acceleration mj_Euler applies (implicit damping)
  std::vector<double> armature_;
  std::vector<double> viscous_, coulomb_;  // per body: SceneSpec::joint_viscous, joint_coulomb
  double coulomb_velocity_ = 0.02;
  VectorX friction_tau_;
  std::vector<Force> body_wrench_world_, contact_wrench_world_, plate_wrench_;
  int active_contacts_ = 0;
};

}  // namespace dynid
