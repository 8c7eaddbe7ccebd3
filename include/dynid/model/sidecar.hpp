#pragma once
// The robot sidecar: what a URDF cannot say (docs/robot-sidecar.md). Read from ROBOT.yaml beside
// ROBOT.urdf (read by model/sidecar_reader.hpp); every name in it is checked against the model.

#include <optional>
#include <string>
#include <vector>

#include "dynid/model/model.hpp"

namespace dynid {

/// A sensor or marker frame on a URDF link.
struct SidecarFrame {
  std::string name;
  std::string link;
  SE3 placement;  ///< link frame -> sensor frame
};

enum class WrenchMeasured {
  External,  ///< wrench the environment applies to the link
  Internal,  ///< wrench the parent side applies, through the link's joint, to the link and its subtree
};

struct ForceTorqueSensor : SidecarFrame {
  WrenchMeasured measures = WrenchMeasured::External;
};

struct ContactSurface : SidecarFrame {
  std::vector<Eigen::Vector2d> polygon;  ///< vertices in the sole frame x-y plane [m]
  std::vector<Vector3> points;           ///< point contacts in the sole frame [m]
  double friction = 0.8;
};

struct ActuatorInfo {
  std::string joint;
  std::optional<double> gear_ratio, torque_constant, resistance, rotor_inertia, armature, damping, coulomb_friction,
      stribeck_friction, stribeck_velocity, effort_limit, velocity_limit, p_gain, supply_voltage;
  /// Torsional stiffness behind the joint's encoder (gear, bearings, housing) [N m/rad]: a
  /// catalogue's or a bench's; `identify inertial --gear-stiffness sidecar` takes the wind-up off.
  std::optional<double> torsional_stiffness;
  /// The gear's play as a motor-side encoder sees it [rad, total, joint side]: `identify inertial
  /// --gear-backlash sidecar` takes the rotor's place in it off the encoders.
  std::optional<double> backlash;
  /// Identified by `dynid identify actuator` (docs/actuators.md): the Stribeck exponent delta and
  /// the reaction time t_d [s] of paper 002's model.
  std::optional<double> stribeck_exponent, reaction_time;
};

struct RobotSidecar {
  std::string source_path;
  std::string robot;
  std::string base_link;
  std::optional<bool> floating_base;
  std::optional<SidecarFrame> imu;
  std::vector<SidecarFrame> accelerometers;
  std::vector<ForceTorqueSensor> ft_sensors;
  std::vector<std::string> joint_torque_sensors;  ///< joint names (expanded from "all")
  /// Where the joint torque sensors read (`joint_torque_side`): false (default, "link") a sensor
  /// between gear and link, after joint friction and rotor inertia; true ("motor") the motor's
  /// torque (current x torque constant x gear ratio), which includes them.
  bool joint_torque_at_motor = false;
  std::vector<ContactSurface> contacts;
  std::vector<SidecarFrame> markers;
  std::vector<ActuatorInfo> actuators;
};

/// Reflected actuator inertia per body (index as Model::bodies) [kg m^2]: `armature`, else
/// gear_ratio^2 * rotor_inertia, else 0.
std::vector<double> joint_armature(const Model& model, const RobotSidecar& sidecar);

/// Checks every name against the model and adds the sidecar's sensor, contact and marker frames to
/// it. Expands joint_torque_sensors "all". Throws naming the entry, the sidecar and the model.
void attach_sidecar(Model& model, RobotSidecar& sidecar);

}  // namespace dynid
