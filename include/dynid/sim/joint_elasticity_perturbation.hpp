#pragma once
// The joints are not rigid behind their encoders (issue 19, `--perturb joint-elasticity`,
// docs/scenarios.md): a gear winds up under the torque it transmits, and an encoder on the motor
// side of it (or before a compliant housing or link) reads the link's angle plus that wind-up,
//     q_encoder = q_link + tau_link / k,
// tau_link the torque the gear carries to the link (Simulation::link_torques). Per joint, seeded:
// k is set so that the joint's effort limit (URDF) winds it up by an angle uniform within
// [kJointWindupMinDeg, kJointWindupMaxDeg] — harmonic-drive class (torsional stiffness K3 of the
// catalogues, a few arcmin at rated torque) plus bearings and housing. A joint without an effort
// limit stays rigid. The recorded encoders read it; the simulated controllers still servo the link
// angle (issue 19's controllers on their own sensors are not built).

#include <vector>

#include "dynid/model/model.hpp"

namespace dynid {

inline constexpr double kJointWindupMinDeg = 0.1;  ///< wind-up at the effort limit, lower end [deg]
inline constexpr double kJointWindupMaxDeg = 0.3;  ///< upper end [deg]

struct JointElasticity {
  /// Per body of the model (index as Model::bodies): 1 / k [rad per N m] (prismatic: m per N) of
  /// its joint; 0 for the root and for joints without an effort limit.
  std::vector<double> compliance;
  /// Per body: the wind-up at the effort limit drawn [rad] (0 where rigid).
  std::vector<double> windup_at_effort_limit;
};

JointElasticity perturb_joint_elasticity(const Model& model, unsigned seed);

}  // namespace dynid
