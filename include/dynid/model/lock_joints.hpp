#pragma once
// Locking joints: the robot with some joints held at fixed positions, as UT-mu2 with the brakes on
// its upper body in paper 003 (section 3 and appendix B: 20 joints, arms locked -> 13 bodies, 18 DOF).
//
// The child body of each locked joint is welded to its parent: its inertia is added to the parent's
// exactly (10-parameter inertia moved with Inertia::transformed), its frames and URDF link records
// stay and ride on the body they are now part of, and the remaining joints are renumbered in q and v
// (model order otherwise unchanged). Bodies that still carry a joint keep their frame, so their
// parameters and regressor columns mean the same in both models.

#include <string>
#include <vector>

#include "dynid/model/model.hpp"

namespace dynid {

struct JointLock {
  std::string joint;      ///< name of a revolute or prismatic joint
  double position = 0.0;  ///< where it is held [rad] or [m]
};

/// The model with `locks` applied. Throws std::invalid_argument naming the model and the joint when a
/// joint is unknown, is the floating base, is locked twice, or its position is not finite or lies
/// outside its limits; and when no moving joint would remain.
Model lock_joints(const Model& model, const std::vector<JointLock>& locks);

/// "l_elbow=0.3" -> {l_elbow, 0.3} (the command-line spelling of a lock). Throws naming the text
/// when it is not JOINT=VALUE with a number.
JointLock parse_joint_lock(const std::string& text);

}  // namespace dynid
