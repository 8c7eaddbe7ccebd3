#include "dynid/model/sidecar.hpp"

#include <cmath>
#include <set>
#include <stdexcept>

namespace dynid {
namespace {

[[noreturn]] void fail(const std::string& label, const std::string& what) {
  throw std::runtime_error(label + ": " + what);
}

}  // namespace

std::vector<double> joint_armature(const Model& model, const RobotSidecar& sidecar) {
  std::vector<double> armature(model.bodies.size(), 0.0);
  for (const ActuatorInfo& a : sidecar.actuators) {
    const auto body = model.find_joint(a.joint);
    if (!body) continue;
    if (a.armature)
      armature[static_cast<std::size_t>(*body)] = *a.armature;
    else if (a.gear_ratio && a.rotor_inertia)
      armature[static_cast<std::size_t>(*body)] = *a.gear_ratio * *a.gear_ratio * *a.rotor_inertia;
  }
  return armature;
}

void attach_sidecar(Model& model, RobotSidecar& s) {
  const std::string& label = s.source_path;
  const std::string model_label = model.source_path.empty() ? model.name : model.source_path;
  auto link_body = [&](const std::string& link, const std::string& what) -> const LinkRecord& {
    for (const LinkRecord& l : model.links)
      if (l.name == link) return l;
    fail(label, what + " names link '" + link + "', which is not in " + model_label);
  };
  if (!model.find_body(s.base_link)) fail(label, "base_link '" + s.base_link + "' is not a link of " + model_label);
  if (model.floating_base && model.bodies[1].name != s.base_link)
    fail(label,
         "base_link '" + s.base_link + "' is not the root link '" + model.bodies[1].name + "' of " + model_label);

  std::set<std::string> names;
  auto add = [&](const SidecarFrame& f, FrameKind kind, const std::string& what) {
    if (!names.insert(f.name).second) fail(label, what + ": the name '" + f.name + "' is used twice");
    if (model.find_frame(f.name))
      fail(label, what + " '" + f.name + "' has the name of a link or frame of " + model_label);
    const LinkRecord& l = link_body(f.link, what + " '" + f.name + "'");
    model.add_frame({f.name, kind, l.body, l.placement_in_body * f.placement, f.link});
  };
  if (s.imu) add(*s.imu, FrameKind::Imu, "imu");
  for (const auto& f : s.accelerometers) add(f, FrameKind::Accelerometer, "accelerometer");
  for (const auto& f : s.ft_sensors) {
    add(f, FrameKind::ForceTorque, "ft_sensor");
    if (f.measures == WrenchMeasured::Internal && model.links[0].name == f.link)
      fail(label, "ft_sensor '" + f.name + "' measures the internal wrench of the root link, which has no joint");
  }
  for (const auto& f : s.contacts) add(f, FrameKind::Contact, "contact");
  for (const auto& f : s.markers) add(f, FrameKind::Marker, "marker");

  if (s.joint_torque_sensors.size() == 1 && s.joint_torque_sensors[0] == "all") {
    s.joint_torque_sensors.clear();
    for (std::size_t i = 1; i < model.bodies.size(); ++i)
      if (model.bodies[i].joint_type != JointType::FreeFlyer)
        s.joint_torque_sensors.push_back(model.bodies[i].joint_name);
  } else {
    for (const auto& j : s.joint_torque_sensors)
      if (!model.find_joint(j))
        fail(label, "joint_torque_sensors names joint '" + j + "', which is not in " + model_label);
  }
  for (const auto& a : s.actuators)
    if (!model.find_joint(a.joint)) fail(label, "actuator for joint '" + a.joint + "', which is not in " + model_label);
}

}  // namespace dynid
