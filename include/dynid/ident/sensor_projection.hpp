#pragma once
// Identification from any subset of joint-torque and contact-wrench sensors (paper 004, III-C).
//
// The equations of motion, linear in the inertial parameters pi (eq. 3):
//   Y(q, v, a) pi = S^T tau + sum_c J_c^T lambda_c
// split the right-hand side into measured and unmeasured force sources (eq. 21):
//   Y pi = A_m f_m + A_x f_x,   A_m, A_x: columns S^T e_j (joint torques) and J_c^T (contact wrenches)
// and project onto the null space of A_x^T (eq. 22-25): V_x^T Y pi = V_x^T A_m f_m, where V_x^T A_x = 0.
// The unmeasured forces drop out. The projection keeps the information of the floating base only
// if rank(S_b V_x) = 6 (eq. 24); otherwise the sensor set cannot identify the robot.
// Contact wrenches are 6-D, expressed in the contact frame about its origin (the sidecar's sole
// frame), so J_c is that frame's Local Jacobian.

#include <string>
#include <vector>

#include "dynid/dynamics/data.hpp"
#include "dynid/model/sidecar.hpp"

namespace dynid {

/// Which force sources a data set measures.
struct SensorSet {
  std::string label;
  std::vector<int> torque_joints;   ///< bodies (Model::bodies index) whose joint torque is measured
  std::vector<int> contact_frames;  ///< sidecar contact frames (Model::frames index) whose wrench is measured
};

/// "full" (every joint torque and contact wrench), "contact" (contact wrenches only: the base-link
/// equations, paper 003), "joints" (joint torques only: contacts projected out, paper 004 III-B), or
/// a comma-separated list of joint names and sidecar contact names ("l_sole,r_sole,l_knee").
/// Throws naming an unknown name.
SensorSet parse_sensor_set(const Model& model, const RobotSidecar& sidecar, const std::string& spec);

/// The projection at one state and contact state.
struct SensorProjection {
  MatrixX projector;                        ///< V_x^T: r x nv, orthonormal rows, V_x^T A_x = 0
  MatrixX measured_map;                     ///< A_m: nv x (number of measured scalars), in the order of measured_names
  std::vector<std::string> measured_names;  ///< "l_knee", "l_sole.fx", ...
  int base_rank = 0;                        ///< rank(S_b V_x); 6 needed for a floating base
  int unmeasured_rank = 0;                  ///< rank(A_x)
};

/// V_x and A_m at configuration q for the contacts in `active_contacts` (frame indices; contacts
/// not listed carry no force). Runs forward_kinematics(q).
SensorProjection project_sensors(const Model& model, Data& data, const VectorX& q, const SensorSet& set,
                                 const std::vector<int>& active_contacts);

}  // namespace dynid
