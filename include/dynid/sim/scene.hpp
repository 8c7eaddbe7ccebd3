#pragma once
// What the simulated robot stands on: a floor (level or inclined) or force plates, and the contact
// geometry of its soles taken from the sidecar's contact surfaces. Produces the MJCF MuJoCo loads.

#include <string>
#include <vector>

#include "dynid/model/sidecar.hpp"
#include "dynid/sim/mjcf_export.hpp"

namespace dynid {

/// A force plate set into the floor; its top surface is the walking surface.
struct ForcePlateSpec {
  std::string name;
  Vector3 top_center_world = Vector3::Zero();  ///< centre of the top surface [m]
  double size_x = 0.9;                         ///< [m]
  double size_y = 0.6;                         ///< [m]
  double thickness = 0.05;                     ///< [m]
};

struct SceneSpec {
  bool floor = true;       ///< infinite plane through the origin (excluded when plates are used)
  double slope_rad = 0.0;  ///< floor inclination about the world y axis (uphill toward +x)
  double floor_friction = 1.0;
  std::vector<ForcePlateSpec> plates;
  double timestep = 0.001;  ///< physics step [s]
  /// Per body (Model::bodies index): joint damping MuJoCo applies implicitly [N m s/rad]. The
  /// servos' derivative action lives here, so stiff servos stay stable at a 1 ms step.
  std::vector<double> joint_damping;
  /// Joints held rigidly at a value (locked joints, e.g. `walk --lock-upper-body`): MuJoCo gets no
  /// joint there, so they move neither by servo error nor by chatter (sim/mjcf_export.hpp).
  std::vector<MjcfWeld> welds;
  /// Per body (Model::bodies index): the joint's own friction, applied against its velocity v_k
  /// at the step's start (explicitly, unlike `joint_damping`): viscous [N m s/rad] and Coulomb
  /// [N m] with the sign smoothed as tanh(v / joint_coulomb_smoothing_velocity), the model
  /// `identify inertial --friction` estimates (docs/scenarios.md, "excite on a fixed-base arm").
  std::vector<double> joint_viscous, joint_coulomb;
  double joint_coulomb_smoothing_velocity = 0.02;  ///< [rad/s]
};

/// Two 0.9 x 0.6 m plates side by side (left at +y, right at -y), as in a gait lab.
std::vector<ForcePlateSpec> default_force_plates();

/// MJCF of the robot (`truth` inertials) on the scene. Sole polygons become thin boxes whose bottom
/// face is the sole plane, point contacts small spheres; joint limits are not exported (the
/// controller keeps joints in range; limit forces would be unmeasured joint torques).
std::string scene_mjcf(const Model& truth, const RobotSidecar& sidecar, const SceneSpec& scene);

/// Geom names the scene gives contact surfaces and plates, so the simulation can find them.
std::string contact_geom_name(const std::string& contact, int index);
std::string plate_geom_name(const std::string& plate);

}  // namespace dynid
