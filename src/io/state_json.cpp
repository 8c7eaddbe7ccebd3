#include "dynid/io/state_json.hpp"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "dynid/dynamics/kinematics.hpp"

namespace dynid {
namespace {

using json = nlohmann::json;

[[noreturn]] void fail(const std::string& label, const std::string& what) {
  throw std::runtime_error(label + ": " + what);
}

double number(const json& j, const std::string& where, const std::string& label) {
  if (!j.is_number()) fail(label, where + " is not a number");
  const double x = j.get<double>();
  if (!std::isfinite(x)) fail(label, where + " is not finite");
  return x;
}

VectorX numbers(const json& j, std::size_t n, const std::string& where, const std::string& label) {
  if (!j.is_array() || j.size() != n) fail(label, where + " must be a list of " + std::to_string(n) + " numbers");
  VectorX out(static_cast<Eigen::Index>(n));
  for (std::size_t i = 0; i < n; ++i)
    out[static_cast<Eigen::Index>(i)] = number(j[i], where + "[" + std::to_string(i) + "]", label);
  return out;
}

void reject_unknown(const json& obj, std::initializer_list<const char*> keys, const std::string& where,
                    const std::string& label) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool ok = false;
    for (const char* k : keys) ok = ok || it.key() == k;
    if (!ok) fail(label, "unknown key '" + it.key() + "' in " + where);
  }
}

}  // namespace

RobotState read_state_json_string(const Model& model, const std::string& text, const std::string& label) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for a number past double
    fail(label, std::string("malformed JSON: ") + e.what());
  }
  if (!root.is_object()) fail(label, "the state must be a JSON object");
  reject_unknown(root, {"base", "joints", "gravity"}, "the state", label);

  RobotState s;
  s.q = model.neutral_configuration();
  for (std::size_t i = 1; i < model.bodies.size(); ++i)
    if (model.bodies[i].joint_type != JointType::FreeFlyer) s.q[model.bodies[i].idx_q] = 0.0;
  s.v = VectorX::Zero(model.nv);
  s.a = VectorX::Zero(model.nv);
  if (root.contains("gravity")) s.gravity = numbers(root["gravity"], 3, "gravity", label);

  if (root.contains("base")) {
    const json& base = root["base"];
    if (!model.floating_base) fail(label, "'base' is given but " + model.name + " has a fixed base");
    if (!base.is_object()) fail(label, "'base' must be an object");
    reject_unknown(base, {"position", "orientation", "velocity", "acceleration"}, "base", label);
    const Body& b = model.bodies[1];
    if (base.contains("position")) s.q.segment<3>(b.idx_q) = numbers(base["position"], 3, "base.position", label);
    if (base.contains("orientation")) {
      const VectorX quat = numbers(base["orientation"], 4, "base.orientation", label);
      const double n = quat.norm();
      if (std::abs(n - 1.0) > 1e-6)
        fail(label, "base.orientation [x, y, z, w] has norm " + std::to_string(n) + ", expected a unit quaternion");
      s.q.segment<4>(b.idx_q + 3) = quat / n;
    }
    if (base.contains("velocity")) s.v.segment<6>(b.idx_v) = numbers(base["velocity"], 6, "base.velocity", label);
    if (base.contains("acceleration"))
      s.a.segment<6>(b.idx_v) = numbers(base["acceleration"], 6, "base.acceleration", label);
  }

  if (root.contains("joints")) {
    const json& joints = root["joints"];
    if (!joints.is_object()) fail(label, "'joints' must be an object keyed by joint name");
    for (auto it = joints.begin(); it != joints.end(); ++it) {
      const auto index = model.find_joint(it.key());
      if (!index || model.bodies[static_cast<std::size_t>(*index)].joint_type == JointType::FreeFlyer)
        fail(label, "joint '" + it.key() + "' is not a joint of " +
                        (model.source_path.empty() ? model.name : model.source_path));
      const Body& b = model.bodies[static_cast<std::size_t>(*index)];
      const json& j = it.value();
      if (!j.is_object()) fail(label, "joints." + it.key() + " must be an object with q, v, a");
      reject_unknown(j, {"q", "v", "a"}, "joints." + it.key(), label);
      if (j.contains("q")) s.q[b.idx_q] = number(j["q"], "joints." + it.key() + ".q", label);
      if (j.contains("v")) s.v[b.idx_v] = number(j["v"], "joints." + it.key() + ".v", label);
      if (j.contains("a")) s.a[b.idx_v] = number(j["a"], "joints." + it.key() + ".a", label);
    }
  }
  return s;
}

RobotState read_state_json_file(const Model& model, const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the file");
  std::stringstream text;
  text << in.rdbuf();
  return read_state_json_string(model, text.str(), path);
}

}  // namespace dynid
