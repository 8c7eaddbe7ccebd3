#include "dynid/model/sidecar_reader.hpp"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace dynid {
namespace {

[[noreturn]] void fail(const std::string& label, const std::string& what) {
  throw std::runtime_error(label + ": " + what);
}

template <typename T>
T scalar(const YAML::Node& node, const std::string& key, const std::string& where, const std::string& label) {
  try {
    return node.as<T>();
  } catch (const YAML::Exception&) {
    fail(label, where + ": '" + key + "' has the wrong type (line " + std::to_string(node.Mark().line + 1) + ")");
  }
}

double number(const YAML::Node& node, const std::string& key, const std::string& where, const std::string& label) {
  const double x = scalar<double>(node, key, where, label);
  if (!std::isfinite(x)) fail(label, where + ": '" + key + "' is not a finite number");
  return x;
}

Vector3 vec3(const YAML::Node& node, const std::string& key, const std::string& where, const std::string& label) {
  if (!node) return Vector3::Zero();
  if (!node.IsSequence() || node.size() != 3) fail(label, where + ": '" + key + "' must be a list of 3 numbers");
  return {number(node[0], key, where, label), number(node[1], key, where, label), number(node[2], key, where, label)};
}

std::string required_string(const YAML::Node& map, const std::string& key, const std::string& where,
                            const std::string& label) {
  if (!map[key]) fail(label, where + ": missing '" + key + "'");
  return scalar<std::string>(map[key], key, where, label);
}

SidecarFrame read_frame(const YAML::Node& node, const std::string& where, const std::string& label) {
  if (!node.IsMap()) fail(label, where + " must be a mapping with name, link, position, rpy");
  SidecarFrame f;
  f.name = required_string(node, "name", where, label);
  const std::string here = where + " '" + f.name + "'";
  f.link = required_string(node, "link", here, label);
  f.placement =
      SE3(rotation_from_rpy(vec3(node["rpy"], "rpy", here, label)), vec3(node["position"], "position", here, label));
  return f;
}

template <typename Fn>
void for_each_in_list(const YAML::Node& root, const char* key, const std::string& label, Fn&& fn) {
  const YAML::Node list = root[key];
  if (!list) return;
  if (!list.IsSequence()) fail(label, std::string("'") + key + "' must be a list");
  for (std::size_t i = 0; i < list.size(); ++i) fn(list[i], std::string(key) + "[" + std::to_string(i) + "]");
}

/// The sidecar of `text`; an actuators file (`dynid identify actuator`'s actuator.yaml) has no
/// base_link, so `require_base_link` is off for it.
RobotSidecar parse_sidecar_yaml(const std::string& text, const std::string& label, bool require_base_link) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    fail(label, "malformed YAML at line " + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  if (!root.IsMap()) fail(label, "the sidecar must be a YAML mapping");

  static const std::set<std::string> known = {"robot",          "base_link",  "floating_base",        "imu",
                                              "accelerometers", "ft_sensors", "joint_torque_sensors", "contacts",
                                              "markers",        "actuators",  "joint_torque_side"};
  for (const auto& kv : root) {
    const std::string key = kv.first.as<std::string>();
    if (!known.count(key)) fail(label, "unknown key '" + key + "' (see docs/robot-sidecar.md)");
  }

  RobotSidecar s;
  s.source_path = label;
  if (root["robot"]) s.robot = scalar<std::string>(root["robot"], "robot", "sidecar", label);
  if (require_base_link || root["base_link"]) s.base_link = required_string(root, "base_link", "sidecar", label);
  if (root["floating_base"]) s.floating_base = scalar<bool>(root["floating_base"], "floating_base", "sidecar", label);
  if (root["imu"]) s.imu = read_frame(root["imu"], "imu", label);
  for_each_in_list(root, "accelerometers", label, [&](const YAML::Node& n, const std::string& w) {
    s.accelerometers.push_back(read_frame(n, w, label));
  });
  for_each_in_list(root, "ft_sensors", label, [&](const YAML::Node& n, const std::string& w) {
    ForceTorqueSensor ft;
    static_cast<SidecarFrame&>(ft) = read_frame(n, w, label);
    const std::string m = n["measures"] ? scalar<std::string>(n["measures"], "measures", w, label) : "external";
    if (m == "external")
      ft.measures = WrenchMeasured::External;
    else if (m == "internal")
      ft.measures = WrenchMeasured::Internal;
    else
      fail(label, w + " '" + ft.name + "': 'measures' must be external or internal, not '" + m + "'");
    s.ft_sensors.push_back(ft);
  });
  if (const YAML::Node jts = root["joint_torque_sensors"]) {
    if (jts.IsScalar()) {
      const std::string v = jts.as<std::string>();
      if (v == "all")
        s.joint_torque_sensors = {"all"};
      else if (v != "none")
        fail(label, "joint_torque_sensors must be 'all', 'none' or a list of joint names");
    } else if (jts.IsSequence()) {
      for (const auto& j : jts)
        s.joint_torque_sensors.push_back(scalar<std::string>(j, "joint_torque_sensors", "sidecar", label));
    } else {
      fail(label, "joint_torque_sensors must be 'all', 'none' or a list of joint names");
    }
  }
  if (root["joint_torque_side"]) {
    const std::string side = scalar<std::string>(root["joint_torque_side"], "joint_torque_side", "sidecar", label);
    if (side != "link" && side != "motor")
      fail(label, "joint_torque_side must be 'link' or 'motor', not '" + side + "'");
    s.joint_torque_at_motor = side == "motor";
  }
  for_each_in_list(root, "contacts", label, [&](const YAML::Node& n, const std::string& w) {
    ContactSurface c;
    static_cast<SidecarFrame&>(c) = read_frame(n, w, label);
    const std::string here = w + " '" + c.name + "'";
    if (n["polygon"]) {
      if (!n["polygon"].IsSequence() || n["polygon"].size() < 3)
        fail(label, here + ": 'polygon' needs at least 3 [x, y] vertices");
      for (const auto& v : n["polygon"]) {
        if (!v.IsSequence() || v.size() != 2) fail(label, here + ": each polygon vertex is [x, y]");
        c.polygon.emplace_back(number(v[0], "polygon", here, label), number(v[1], "polygon", here, label));
      }
    }
    if (n["points"]) {
      if (!n["points"].IsSequence() || n["points"].size() < 1)
        fail(label, here + ": 'points' needs at least one [x, y, z]");
      for (const auto& v : n["points"]) c.points.push_back(vec3(v, "points", here, label));
    }
    if (c.polygon.empty() && c.points.empty()) fail(label, here + ": give a 'polygon' or 'points'");
    if (n["friction"]) {
      c.friction = number(n["friction"], "friction", here, label);
      if (c.friction <= 0.0) fail(label, here + ": 'friction' must be positive");
    }
    s.contacts.push_back(c);
  });
  for_each_in_list(root, "markers", label,
                   [&](const YAML::Node& n, const std::string& w) { s.markers.push_back(read_frame(n, w, label)); });
  for_each_in_list(root, "actuators", label, [&](const YAML::Node& n, const std::string& w) {
    if (!n.IsMap()) fail(label, w + " must be a mapping");
    ActuatorInfo a;
    a.joint = required_string(n, "joint", w, label);
    const std::string here = w + " '" + a.joint + "'";
    const std::pair<const char*, std::optional<double>*> fields[] = {{"gear_ratio", &a.gear_ratio},
                                                                     {"torque_constant", &a.torque_constant},
                                                                     {"resistance", &a.resistance},
                                                                     {"rotor_inertia", &a.rotor_inertia},
                                                                     {"armature", &a.armature},
                                                                     {"damping", &a.damping},
                                                                     {"coulomb_friction", &a.coulomb_friction},
                                                                     {"stribeck_friction", &a.stribeck_friction},
                                                                     {"stribeck_velocity", &a.stribeck_velocity},
                                                                     {"effort_limit", &a.effort_limit},
                                                                     {"velocity_limit", &a.velocity_limit},
                                                                     {"p_gain", &a.p_gain},
                                                                     {"supply_voltage", &a.supply_voltage},
                                                                     {"stribeck_exponent", &a.stribeck_exponent},
                                                                     {"reaction_time", &a.reaction_time},
                                                                     {"torsional_stiffness", &a.torsional_stiffness},
                                                                     {"backlash", &a.backlash}};
    for (const auto& kv : n) {
      const std::string key = kv.first.as<std::string>();
      if (key == "joint") continue;
      bool found = false;
      for (const auto& [name, slot] : fields)
        if (key == name) {
          *slot = number(kv.second, key, here, label);
          found = true;
        }
      if (!found) fail(label, here + ": unknown actuator key '" + key + "'");
    }
    s.actuators.push_back(a);
  });
  return s;
}

/// parse_sidecar_yaml, with what yaml-cpp throws past the checks above (a key that is a list or a
/// mapping, ...) also reported as "LABEL: line N: reason".
RobotSidecar parse_sidecar(const std::string& text, const std::string& label, bool require_base_link) {
  try {
    return parse_sidecar_yaml(text, label, require_base_link);
  } catch (const YAML::Exception& e) {
    fail(label, (e.mark.is_null() ? std::string() : "line " + std::to_string(e.mark.line + 1) + ": ") + e.msg);
  }
}

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the file");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

RobotSidecar read_sidecar_string(const std::string& text, const std::string& label) {
  return parse_sidecar(text, label, true);
}

RobotSidecar read_sidecar_file(const std::string& path) { return read_sidecar_string(file_text(path), path); }

std::vector<ActuatorInfo> read_actuators_file(const std::string& path) {
  const RobotSidecar s = parse_sidecar(file_text(path), path, false);
  if (s.actuators.empty()) throw std::runtime_error(path + ": no 'actuators' entries (docs/robot-sidecar.md)");
  return s.actuators;
}

}  // namespace dynid
