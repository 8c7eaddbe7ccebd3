#include "dynid/model/urdf_reader.hpp"

#include <console_bridge/console.h>

#include <urdf_parser/urdf_parser.h>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace dynid {
namespace {

/// Collects urdfdom's console messages so a parse failure can be reported as one line.
class CapturingHandler : public console_bridge::OutputHandler {
 public:
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR) errors.push_back(text);
  }
  std::vector<std::string> errors;
};

class ScopedCapture {
 public:
  ScopedCapture() { console_bridge::useOutputHandler(&handler); }
  ~ScopedCapture() { console_bridge::restorePreviousOutputHandler(); }
  ScopedCapture(const ScopedCapture&) = delete;
  ScopedCapture& operator=(const ScopedCapture&) = delete;
  CapturingHandler handler;
};

SE3 to_se3(const urdf::Pose& pose) {
  double x, y, z, w;
  pose.rotation.getQuaternion(x, y, z, w);
  const Eigen::Quaterniond quat(w, x, y, z);
  return {quat.normalized().toRotationMatrix(), Vector3(pose.position.x, pose.position.y, pose.position.z)};
}

[[noreturn]] void fail(const std::string& label, const std::string& what) {
  throw std::runtime_error(label + ": " + what);
}

const char* joint_type_name(int type) {
  switch (type) {
    case urdf::Joint::REVOLUTE:
      return "revolute";
    case urdf::Joint::CONTINUOUS:
      return "continuous";
    case urdf::Joint::PRISMATIC:
      return "prismatic";
    case urdf::Joint::FLOATING:
      return "floating";
    case urdf::Joint::PLANAR:
      return "planar";
    case urdf::Joint::FIXED:
      return "fixed";
    default:
      return "unknown";
  }
}

bool finite(double x) { return std::isfinite(x); }

Inertia link_inertia(const urdf::Link& link, const std::string& label) {
  const urdf::InertialSharedPtr& in = link.inertial;
  const double vals[7] = {in->mass, in->ixx, in->ixy, in->ixz, in->iyy, in->iyz, in->izz};
  for (double v : vals)
    if (!finite(v)) fail(label, "link '" + link.name + "' has a non-finite inertial value");
  if (in->mass < 0.0) fail(label, "link '" + link.name + "' has negative mass " + std::to_string(in->mass) + " kg");
  Matrix3 I_inertial;
  I_inertial << in->ixx, in->ixy, in->ixz, in->ixy, in->iyy, in->iyz, in->ixz, in->iyz, in->izz;
  const SE3 linkMinertial = to_se3(in->origin);
  return Inertia::from_com(in->mass, linkMinertial.translation,
                           linkMinertial.rotation * I_inertial * linkMinertial.rotation.transpose());
}

JointLimits read_limits(const urdf::Joint& joint) {
  JointLimits lim;
  if (joint.limits) {
    if (joint.type != urdf::Joint::CONTINUOUS && joint.limits->lower < joint.limits->upper) {
      lim.lower = joint.limits->lower;
      lim.upper = joint.limits->upper;
    }
    if (joint.limits->velocity > 0.0) lim.velocity = joint.limits->velocity;
    if (joint.limits->effort > 0.0) lim.effort = joint.limits->effort;
  }
  return lim;
}

Model build_model(const urdf::ModelInterface& urdf_model, const std::string& label, const UrdfReadOptions& options) {
  Model model;
  model.name = urdf_model.getName();
  model.source_path = label;
  urdf::LinkConstSharedPtr root = urdf_model.getRoot();
  if (!root) fail(label, "URDF has no root link");

  Body universe;
  universe.name = "universe";
  universe.joint_name = "universe";
  universe.parent = -1;
  model.bodies.push_back(universe);

  const bool root_is_world = root->name == "world";
  const bool floating = options.floating_base.value_or(!root_is_world);

  // Depth-first walk in the URDF's child order (the order Pinocchio uses too), on a stack of its own:
  // recursing once per link overflowed the call stack on a chain of 20,000 links.
  struct Step {
    const urdf::Link* link = nullptr;    // the root link (no joint) ...
    const urdf::Joint* joint = nullptr;  // ... or the joint to the link to visit
    int body = 0;                        // the body the link, or the joint's parent link, is part of
    SE3 bodyMparent = SE3::Identity();   // that link's placement in the body
  };
  // The body of a joint that moves, placed at bodyMjoint in its parent body `body`.
  const auto moving_body = [&](const urdf::Joint& joint, const urdf::Link& child, int body, const SE3& bodyMjoint) {
    Body b;
    b.name = child.name;
    b.joint_name = joint.name;
    b.parent = body;
    b.joint_placement = bodyMjoint;
    b.links = {child.name};
    switch (joint.type) {
      case urdf::Joint::REVOLUTE:
      case urdf::Joint::CONTINUOUS:
        b.joint_type = JointType::Revolute;
        break;
      case urdf::Joint::PRISMATIC:
        b.joint_type = JointType::Prismatic;
        break;
      case urdf::Joint::FLOATING:
        b.joint_type = JointType::FreeFlyer;
        if (body != 0) fail(label, "floating joint '" + joint.name + "' is not attached to the world link");
        break;
      default:
        fail(label, "joint '" + joint.name + "' has a type dynid does not support (planar or unknown)");
    }
    if (b.joint_type != JointType::FreeFlyer) {
      const Vector3 axis(joint.axis.x, joint.axis.y, joint.axis.z);
      if (!(axis.norm() > 1e-9) || !axis.allFinite())
        fail(label, "joint '" + joint.name + "' has a zero or invalid axis");
      b.axis = axis.normalized();
      b.limits = read_limits(joint);
      if (joint.mimic)
        model.warnings.push_back("joint '" + joint.name + "' mimics '" + joint.mimic->joint_name +
                                 "'; dynid treats it as an independent joint");
    }
    return b;
  };
  const auto record_link = [&](const urdf::Link& link, int body, const SE3& bodyMlink) {
    LinkRecord record;
    record.name = link.name;
    record.body = body;
    record.placement_in_body = bodyMlink;
    if (const urdf::JointConstSharedPtr pj = link.parent_joint) {
      record.parent_joint = pj->name;
      record.parent_link = pj->parent_link_name;
      record.parent_joint_type = joint_type_name(pj->type);
    }
    if (link.inertial) {
      record.inertia = link_inertia(link, label);
      record.has_inertial = true;
      Inertia& target = model.bodies[static_cast<std::size_t>(body)].inertia;
      target = target + record.inertia.transformed(bodyMlink);
    }
    model.links.push_back(record);
    model.frames.push_back({link.name, FrameKind::Link, body, bodyMlink, link.name});
    if (body != 0 && model.bodies[static_cast<std::size_t>(body)].name != link.name)
      model.bodies[static_cast<std::size_t>(body)].links.push_back(link.name);
  };

  std::vector<Step> pending(1);
  pending[0].link = root.get();
  if (floating && !root_is_world) {
    Body base;
    base.name = root->name;
    base.joint_name = "root_joint";
    base.joint_type = JointType::FreeFlyer;
    base.parent = 0;
    base.links = {root->name};
    pending[0].body = model.add_body(base);
  } else if (floating && root_is_world) {
    fail(label, "a floating base was requested but the root link is 'world'; remove the world link");
  }
  while (!pending.empty()) {
    const Step step = pending.back();
    pending.pop_back();
    const urdf::Link* link = step.link;
    int body = step.body;
    SE3 bodyMlink = step.bodyMparent;
    if (step.joint) {
      const urdf::Joint& joint = *step.joint;
      const urdf::LinkConstSharedPtr child = urdf_model.getLink(joint.child_link_name);
      if (!child) fail(label, "joint '" + joint.name + "' names unknown child link '" + joint.child_link_name + "'");
      link = child.get();  // held by urdf_model
      bodyMlink = step.bodyMparent * to_se3(joint.parent_to_joint_origin_transform);
      if (joint.type != urdf::Joint::FIXED) {
        body = model.add_body(moving_body(joint, *child, step.body, bodyMlink));
        bodyMlink = SE3::Identity();
      }
    }
    record_link(*link, body, bodyMlink);
    // Last child first on the stack, so the first child's subtree is walked first.
    for (auto joint = link->child_joints.rbegin(); joint != link->child_joints.rend(); ++joint)
      pending.push_back({nullptr, joint->get(), body, bodyMlink});
  }
  model.floating_base = false;
  for (const Body& b : model.bodies)
    if (b.joint_type == JointType::FreeFlyer && b.parent == 0) model.floating_base = true;

  if (model.num_moving_bodies() == 0) fail(label, "the robot has no moving joint");
  for (const LinkRecord& l : model.links) {
    if (!l.has_inertial || l.inertia.mass == 0.0) continue;
    const ConsistencyReport r = check_physical_consistency(l.inertia);
    if (!r.consistent) model.warnings.push_back("link '" + l.name + "' is not physically consistent: " + r.reason);
  }
  return model;
}

std::string describe_errors(const std::vector<std::string>& errors) {
  if (errors.empty()) return "not a valid URDF";
  // urdfdom reports the root cause first and its consequences after.
  std::string msg = errors.front();
  while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
  return msg;
}

}  // namespace

Model read_urdf_string(const std::string& xml, const std::string& label, const UrdfReadOptions& options) {
  urdf::ModelInterfaceSharedPtr parsed;
  {
    ScopedCapture capture;
    try {
      parsed = urdf::parseURDF(xml);
    } catch (const std::exception& e) {
      fail(label, std::string("invalid URDF: ") + e.what());
    }
    if (!parsed) fail(label, "invalid URDF: " + describe_errors(capture.handler.errors));
  }
  return build_model(*parsed, label, options);
}

Model read_urdf_file(const std::string& path, const UrdfReadOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().empty()) throw std::runtime_error(path + ": the file is empty");
  return read_urdf_string(text.str(), path, options);
}

}  // namespace dynid
