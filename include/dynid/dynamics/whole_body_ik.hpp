#pragma once
// Whole-body inverse kinematics for generating balanced reference poses: frames placed in the world
// (feet flat on the ground), the centre of mass over the support polygon, the base upright, chosen
// joints held at given values, the rest pulled toward a posture. Weighted, damped Gauss-Newton on
// the configuration manifold (floating base integrated on SE(3)).

#include <string>
#include <vector>

#include "dynid/dynamics/data.hpp"

namespace dynid {

struct FrameTarget {
  int frame = 0;
  SE3 pose_world;
  double weight = 1.0;
  bool orientation = true;  ///< false: position only
};

struct IkProblem {
  std::vector<FrameTarget> frames;
  bool com_target_enabled = false;
  Vector3 com_world = Vector3::Zero();
  Eigen::Vector3d com_axes_weight{1.0, 1.0, 0.0};  ///< weight per world axis (z usually free)
  bool base_orientation_enabled = true;
  Matrix3 base_orientation_world = Matrix3::Identity();
  double base_orientation_weight = 1.0;
  VectorX posture;  ///< reference configuration (nq) for the free joints
  double posture_weight = 1e-3;
  std::vector<int> locked_joints;  ///< body indices whose joint stays at its value in q0
};

struct IkResult {
  VectorX q;
  bool converged = false;
  int iterations = 0;
  double task_error = 0.0;  ///< weighted residual norm of the frame, COM and base tasks
};

/// Solves from q0 (its values of locked joints are kept). Joint limits are respected by clamping.
IkResult solve_whole_body_ik(const Model& model, const IkProblem& problem, const VectorX& q0, int max_iterations = 200,
                             double tolerance = 1e-10);

}  // namespace dynid
