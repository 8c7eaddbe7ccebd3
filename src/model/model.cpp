#include "dynid/model/model.hpp"

#include <algorithm>
#include <stdexcept>

namespace dynid {

const char* const kParameterSuffixes[10] = {"m", "mcx", "mcy", "mcz", "Ixx", "Ixy", "Iyy", "Ixz", "Iyz", "Izz"};

const char* to_string(JointType type) {
  switch (type) {
    case JointType::Revolute:
      return "revolute";
    case JointType::Prismatic:
      return "prismatic";
    case JointType::FreeFlyer:
      return "free_flyer";
  }
  return "unknown";
}

const char* to_string(FrameKind kind) {
  switch (kind) {
    case FrameKind::Link:
      return "link";
    case FrameKind::Imu:
      return "imu";
    case FrameKind::Accelerometer:
      return "accelerometer";
    case FrameKind::ForceTorque:
      return "force_torque";
    case FrameKind::Contact:
      return "contact";
    case FrameKind::Marker:
      return "marker";
    case FrameKind::Site:
      return "site";
  }
  return "unknown";
}

double Model::total_mass() const {
  double m = 0.0;
  for (const Body& b : bodies) m += b.inertia.mass;
  return m;
}

std::optional<int> Model::find_body(const std::string& link_or_body) const {
  for (std::size_t i = 0; i < bodies.size(); ++i)
    if (bodies[i].name == link_or_body) return static_cast<int>(i);
  for (const LinkRecord& l : links)
    if (l.name == link_or_body) return l.body;
  return std::nullopt;
}

std::optional<int> Model::find_frame(const std::string& frame_name) const {
  for (std::size_t i = 0; i < frames.size(); ++i)
    if (frames[i].name == frame_name) return static_cast<int>(i);
  return std::nullopt;
}

std::optional<int> Model::find_joint(const std::string& joint_name) const {
  for (std::size_t i = 1; i < bodies.size(); ++i)
    if (bodies[i].joint_name == joint_name) return static_cast<int>(i);
  return std::nullopt;
}

std::string Model::label() const { return source_path.empty() ? "model '" + name + "'" : source_path; }

int Model::body_index(const std::string& n) const {
  if (auto i = find_body(n)) return *i;
  throw std::invalid_argument("link '" + n + "' is not in " + label());
}

int Model::frame_index(const std::string& n) const {
  if (auto i = find_frame(n)) return *i;
  throw std::invalid_argument("frame '" + n + "' is not in " + label());
}

int Model::joint_index(const std::string& n) const {
  if (auto i = find_joint(n)) return *i;
  throw std::invalid_argument("joint '" + n + "' is not in " + label());
}

std::vector<std::string> Model::velocity_names() const {
  std::vector<std::string> names(static_cast<std::size_t>(nv));
  for (std::size_t i = 1; i < bodies.size(); ++i) {
    const Body& b = bodies[i];
    if (b.joint_type == JointType::FreeFlyer) {
      const char* axes[6] = {"vx", "vy", "vz", "wx", "wy", "wz"};
      for (int k = 0; k < 6; ++k) names[static_cast<std::size_t>(b.idx_v + k)] = b.joint_name + "." + axes[k];
    } else {
      names[static_cast<std::size_t>(b.idx_v)] = b.joint_name;
    }
  }
  return names;
}

std::vector<std::string> Model::configuration_names() const {
  std::vector<std::string> names(static_cast<std::size_t>(nq));
  for (std::size_t i = 1; i < bodies.size(); ++i) {
    const Body& b = bodies[i];
    if (b.joint_type == JointType::FreeFlyer) {
      const char* coords[7] = {"px", "py", "pz", "qx", "qy", "qz", "qw"};
      for (int k = 0; k < 7; ++k) names[static_cast<std::size_t>(b.idx_q + k)] = b.joint_name + "." + coords[k];
    } else {
      names[static_cast<std::size_t>(b.idx_q)] = b.joint_name;
    }
  }
  return names;
}

std::vector<std::string> Model::parameter_names() const {
  std::vector<std::string> names;
  names.reserve(10 * bodies.size());
  for (std::size_t i = 1; i < bodies.size(); ++i)
    for (const char* s : kParameterSuffixes) names.push_back(bodies[i].name + "." + s);
  return names;
}

VectorX Model::inertial_parameters() const {
  VectorX pi(10 * num_moving_bodies());
  for (int i = 1; i < static_cast<int>(bodies.size()); ++i)
    pi.segment<10>(10 * (i - 1)) = bodies[static_cast<std::size_t>(i)].inertia.to_parameters();
  return pi;
}

void Model::set_inertial_parameters(const VectorX& pi) {
  if (pi.size() != 10 * num_moving_bodies())
    throw std::invalid_argument("parameter vector has " + std::to_string(pi.size()) + " entries, model needs " +
                                std::to_string(10 * num_moving_bodies()));
  for (int i = 1; i < static_cast<int>(bodies.size()); ++i)
    bodies[static_cast<std::size_t>(i)].inertia = Inertia::from_parameters(pi.segment<10>(10 * (i - 1)));
}

VectorX Model::neutral_configuration() const {
  VectorX q = VectorX::Zero(nq);
  for (std::size_t i = 1; i < bodies.size(); ++i) {
    const Body& b = bodies[i];
    if (b.joint_type == JointType::FreeFlyer) {
      q[b.idx_q + 6] = 1.0;
    } else {
      q[b.idx_q] = std::clamp(0.0, b.limits.lower, b.limits.upper);
    }
  }
  return q;
}

int Model::add_body(Body body) {
  if (bodies.empty()) throw std::logic_error("add the universe body first");
  if (body.parent < 0 || body.parent >= static_cast<int>(bodies.size()))
    throw std::invalid_argument("body '" + body.name + "' has no valid parent");
  body.nq = body.joint_type == JointType::FreeFlyer ? 7 : 1;
  body.nv = body.joint_type == JointType::FreeFlyer ? 6 : 1;
  body.idx_q = nq;
  body.idx_v = nv;
  nq += body.nq;
  nv += body.nv;
  if (body.joint_type == JointType::FreeFlyer) floating_base = true;
  bodies.push_back(std::move(body));
  return static_cast<int>(bodies.size()) - 1;
}

void Model::add_frame(Frame frame) {
  if (find_frame(frame.name))
    throw std::invalid_argument("frame name '" + frame.name + "' is used twice in " + label());
  frames.push_back(std::move(frame));
}

}  // namespace dynid
