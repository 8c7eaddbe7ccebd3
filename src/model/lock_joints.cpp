#include "dynid/model/lock_joints.hpp"

#include <cmath>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace dynid {
namespace {

std::vector<std::optional<double>> lock_positions(const Model& model, const std::vector<JointLock>& locks) {
  std::vector<std::optional<double>> position(model.bodies.size());
  for (const JointLock& lock : locks) {
    const std::size_t i = static_cast<std::size_t>(model.joint_index(lock.joint));  // throws naming the model
    const Body& b = model.bodies[i];
    const std::string joint = "joint '" + lock.joint + "' of " + model.label();
    if (b.joint_type == JointType::FreeFlyer)
      throw std::invalid_argument(joint + " is the floating base; it cannot be locked");
    if (position[i]) throw std::invalid_argument(joint + " is locked twice");
    if (!std::isfinite(lock.position)) throw std::invalid_argument(joint + ": lock position is not a finite number");
    if (lock.position < b.limits.lower || lock.position > b.limits.upper) {
      std::ostringstream message;
      message << joint << ": lock position " << lock.position << " is outside its limits [" << b.limits.lower << ", "
              << b.limits.upper << "]";
      throw std::invalid_argument(message.str());
    }
    position[i] = lock.position;
  }
  return position;
}

}  // namespace

Model lock_joints(const Model& model, const std::vector<JointLock>& locks) {
  const std::vector<std::optional<double>> locked = lock_positions(model, locks);

  Model out;
  out.name = model.name;
  out.source_path = model.source_path;
  out.gravity = model.gravity;
  out.warnings = model.warnings;
  out.bodies.push_back(model.bodies[0]);

  // For every body of `model`: the body of `out` it moves with, and its frame's pose in that body.
  const std::size_t nb = model.bodies.size();
  std::vector<int> host(nb, 0);
  std::vector<SE3> hostMbody(nb);
  for (std::size_t i = 1; i < nb; ++i) {
    const Body& b = model.bodies[i];
    const std::size_t parent = static_cast<std::size_t>(b.parent);
    if (!locked[i]) {
      Body moving = b;
      moving.parent = host[parent];
      moving.joint_placement = hostMbody[parent] * b.joint_placement;
      host[i] = out.add_body(moving);
      continue;
    }
    host[i] = host[parent];
    hostMbody[i] = hostMbody[parent] * b.placement_at(*locked[i]);
    Body& target = out.bodies[static_cast<std::size_t>(host[i])];
    target.inertia += b.inertia.transformed(hostMbody[i]);
    if (host[i] != 0) target.links.insert(target.links.end(), b.links.begin(), b.links.end());
  }
  if (out.num_moving_bodies() == 0)
    throw std::invalid_argument("locking these joints leaves " + model.label() + " without a moving joint");

  out.frames = model.frames;
  for (Frame& f : out.frames) {
    const std::size_t old_body = static_cast<std::size_t>(f.body);
    f.body = host[old_body];
    f.placement = hostMbody[old_body] * f.placement;
  }
  out.links = model.links;
  for (LinkRecord& l : out.links) {
    const std::size_t old_body = static_cast<std::size_t>(l.body);
    l.body = host[old_body];
    l.placement_in_body = hostMbody[old_body] * l.placement_in_body;
  }
  return out;
}

JointLock parse_joint_lock(const std::string& text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw std::invalid_argument("--lock '" + text + "' is not JOINT=VALUE");
  const std::string value = text.substr(eq + 1);
  std::size_t used = 0;
  double position = 0.0;
  try {
    position = std::stod(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size()) throw std::invalid_argument("--lock '" + text + "': '" + value + "' is not a number");
  return {text.substr(0, eq), position};
}

}  // namespace dynid
