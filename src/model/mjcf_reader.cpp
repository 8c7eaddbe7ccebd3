#include "dynid/model/mjcf_reader.hpp"

#include <mujoco/mujoco.h>

#include <Eigen/Geometry>
#include <cstring>
#include <memory>
#include <set>
#include <stdexcept>

#include "dynid/model/mjcf_compat.hpp"
#include "dynid/spatial/skew.hpp"

namespace dynid {
namespace {

[[noreturn]] void fail(const std::string& label, const std::string& what) {
  throw std::runtime_error(label + ": " + what);
}

struct ModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
using ModelPtr = std::unique_ptr<mjModel, ModelDeleter>;

/// Compiles the text in memory (asset paths are absolute already).
ModelPtr compile(const std::string& xml, std::string& error) {
  mjVFS vfs;
  mj_defaultVFS(&vfs);
  const char* name = "dynid_model.xml";
  if (xml.empty()) {  // MuJoCo's virtual file system ends the process on an empty file
    error = "empty model text";
    return nullptr;
  }
  if (mj_makeEmptyFileVFS(&vfs, name, static_cast<int>(xml.size())) != 0) {
    mj_deleteVFS(&vfs);
    error = "MuJoCo's virtual file system refused the model text";
    return nullptr;
  }
  std::memcpy(vfs.filedata[mj_findFileVFS(&vfs, name)], xml.data(), xml.size());
  char buffer[1000] = "";
  ModelPtr model(mj_loadXML(name, &vfs, buffer, sizeof buffer));
  mj_deleteVFS(&vfs);
  error = buffer;
  return model;
}

Vector3 vec3(const mjtNum* x) { return {x[0], x[1], x[2]}; }
Matrix3 rotation(const mjtNum* wxyz) {
  return Eigen::Quaterniond(wxyz[0], wxyz[1], wxyz[2], wxyz[3]).normalized().toRotationMatrix();
}

class Converter {
 public:
  Converter(const mjModel& m, const MjcfCompat& compat, const std::string& label, const UrdfReadOptions& options)
      : m_(m), compat_(compat), label_(label), options_(options) {}

  MjcfRead run() {
    out_.model.name = compat_.model_name();
    out_.model.source_path = label_;
    out_.model.warnings = compat_.warnings();
    out_.model.gravity = vec3(m_.opt.gravity);
    Body universe;
    universe.name = "universe";
    universe.joint_name = "universe";
    universe.parent = -1;
    out_.model.bodies.push_back(universe);
    choose_base();
    dyn_.assign(static_cast<std::size_t>(m_.nbody), 0);
    in_dyn_.assign(static_cast<std::size_t>(m_.nbody), SE3::Identity());
    skip_.assign(static_cast<std::size_t>(m_.nbody), false);
    if (!floating_) {
      out_.model.links.push_back({"world", 0, SE3::Identity(), Inertia::Zero(), false, "", "", ""});
      out_.model.frames.push_back({"world", FrameKind::Link, 0, SE3::Identity(), "world"});
    }
    for (int b = 1; b < m_.nbody; ++b) convert_body(b);
    convert_sites();
    Model& model = out_.model;
    model.floating_base = floating_;
    if (model.num_moving_bodies() == 0) fail(label_, "the robot has no moving joint");
    for (const LinkRecord& l : model.links) {
      if (!l.has_inertial) continue;
      const ConsistencyReport r = check_physical_consistency(l.inertia);
      if (!r.consistent) model.warnings.push_back("body '" + l.name + "' is not physically consistent: " + r.reason);
    }
    return std::move(out_);
  }

 private:
  std::string name(mjtObj type, int id) const {
    const char* n = mj_id2name(&m_, type, id);
    return n ? n : "";
  }
  std::string body_name(int b) const {
    if (b == 0) return "world";
    const std::string n = name(mjOBJ_BODY, b);
    return n.empty() ? "body" + std::to_string(b) : n;
  }
  int parent(int b) const { return m_.body_parentid[b]; }
  bool has_free_joint(int b) const {
    for (int k = 0; k < m_.body_jntnum[b]; ++k)
      if (m_.jnt_type[m_.body_jntadr[b] + k] == mjJNT_FREE) return true;
    return false;
  }
  bool subtree_has_joints(int b) const {
    for (int c = b; c < m_.nbody; ++c) {
      int a = c;
      while (a != 0 && a != b) a = parent(a);
      if (a == b && m_.body_jntnum[c] > 0) return true;
    }
    return false;
  }

  /// Which child of the world floats (free joint, or the one body when a floating base is forced).
  void choose_base() {
    std::vector<int> free_bodies;
    for (int j = 0; j < m_.njnt; ++j) {
      if (m_.jnt_type[j] != mjJNT_FREE) continue;
      const int b = m_.jnt_bodyid[j];
      if (parent(b) != 0)
        fail(label_, "free joint of body '" + body_name(b) +
                         "' is not on a child of the world: dynid has one "
                         "floating base");
      if (m_.body_jntnum[b] != 1) fail(label_, "body '" + body_name(b) + "' has a free joint and other joints");
      free_bodies.push_back(b);
    }
    if (free_bodies.size() > 1)
      fail(label_, "bodies '" + body_name(free_bodies[0]) + "' and '" + body_name(free_bodies[1]) +
                       "' both have a free joint: dynid reads one robot (remove the other objects)");
    floating_ = options_.floating_base.value_or(!free_bodies.empty());
    if (!floating_) return;
    if (!free_bodies.empty()) {
      base_ = free_bodies.front();
      return;
    }
    std::vector<int> tops;
    for (int b = 1; b < m_.nbody; ++b)
      if (parent(b) == 0 && subtree_has_joints(b)) tops.push_back(b);
    if (tops.size() != 1 || m_.body_jntnum[tops.front()] != 0)
      fail(label_,
           "a floating base was requested, but the world does not have exactly one child body without "
           "joints carrying the robot");
    base_ = tops.front();
  }

  void convert_body(int b) {
    const int p = parent(b);
    const std::string bname = body_name(b);
    if (skip_[static_cast<std::size_t>(p)]) {
      skip_[static_cast<std::size_t>(b)] = true;
      return;
    }
    if (floating_ && p == 0 && b != base_) {
      // Scenery, or a dummy a simulator keeps for its joint indexing: not part of the robot.
      out_.model.warnings.push_back("body '" + bname + "' is attached to the world, not to the floating robot '" +
                                    body_name(base_) + "'" + (subtree_has_joints(b) ? " (it has joints)" : "") +
                                    ": ignored");
      skip_[static_cast<std::size_t>(b)] = true;
      return;
    }
    Model& model = out_.model;
    const SE3 local(rotation(m_.body_quat + 4 * b), vec3(m_.body_pos + 3 * b));
    const SE3 f0 = in_dyn_[static_cast<std::size_t>(p)] * local;
    const int parent_dyn = dyn_[static_cast<std::size_t>(p)];

    LinkRecord record;
    record.name = bname;
    record.parent_link = p == 0 && floating_ ? "" : body_name(p);
    int body = parent_dyn;
    SE3 frame = f0;
    if (b == base_) {
      Body base;
      base.name = bname;
      base.joint_name = m_.body_jntnum[b] == 1 ? name(mjOBJ_JOINT, m_.body_jntadr[b]) : "";
      if (base.joint_name.empty()) base.joint_name = "root_joint";
      base.joint_type = JointType::FreeFlyer;
      base.parent = 0;
      base.links = {bname};
      body = model.add_body(base);
      frame = SE3::Identity();
      record.parent_link = "";
    } else if (m_.body_jntnum[b] > 0 && !has_free_joint(b)) {
      Vector3 previous_anchor = Vector3::Zero();
      for (int k = 0; k < m_.body_jntnum[b]; ++k) {
        const int j = m_.body_jntadr[b] + k;
        std::string jname = name(mjOBJ_JOINT, j);
        if (jname.empty()) {
          jname = bname + "_joint" + std::to_string(k);
          model.warnings.push_back("an unnamed joint of body '" + bname + "' is named '" + jname + "'");
        }
        if (m_.jnt_type[j] == mjJNT_BALL)
          fail(label_, "joint '" + jname + "' of body '" + bname +
                           "' is a ball joint; dynid has no ball joint (write it as three hinges)");
        const bool hinge = m_.jnt_type[j] == mjJNT_HINGE;
        const Vector3 axis = vec3(m_.jnt_axis + 3 * j).normalized();
        const Vector3 anchor = hinge ? vec3(m_.jnt_pos + 3 * j) : Vector3::Zero();
        const double ref = m_.qpos0[m_.jnt_qposadr[j]];
        const SE3 to_anchor(Matrix3::Identity(), k == 0 ? anchor : Vector3(anchor - previous_anchor));
        const SE3 at_ref =
            hinge ? SE3(rotation_about_axis(axis, -ref), Vector3::Zero()) : SE3(Matrix3::Identity(), -ref * axis);
        Body joint_body;
        const bool last = k + 1 == m_.body_jntnum[b];
        joint_body.name = last ? bname : bname + "__" + jname;
        joint_body.joint_name = jname;
        joint_body.joint_type = hinge ? JointType::Revolute : JointType::Prismatic;
        joint_body.parent = body;
        joint_body.joint_placement = (k == 0 ? f0 * to_anchor : to_anchor) * at_ref;
        joint_body.axis = axis;
        if (last) joint_body.links = {bname};
        if (m_.jnt_limited[j]) {
          joint_body.limits.lower = m_.jnt_range[2 * j];
          joint_body.limits.upper = m_.jnt_range[2 * j + 1];
        }
        if (const auto e = compat_.effort_limits().find(jname); e != compat_.effort_limits().end())
          joint_body.limits.effort = e->second;
        if (model.find_body(joint_body.name)) fail(label_, "two bodies are named '" + joint_body.name + "'");
        body = model.add_body(joint_body);
        add_actuator(jname, m_.jnt_dofadr[j]);
        previous_anchor = anchor;
        record.parent_joint = jname;
        record.parent_joint_type = hinge ? "revolute" : "prismatic";
        if (!last) {  // the chain's massless link, so every joint is listed with its parent and child
          LinkRecord link{joint_body.name,    body,  SE3::Identity(),         Inertia::Zero(), false,
                          record.parent_link, jname, record.parent_joint_type};
          model.links.push_back(link);
          model.frames.push_back({joint_body.name, FrameKind::Link, body, SE3::Identity(), joint_body.name});
          record.parent_link = joint_body.name;
        }
      }
      frame = SE3(Matrix3::Identity(), -previous_anchor);
    } else {
      if (has_free_joint(b))
        model.warnings.push_back("body '" + bname + "' is welded at its pose: a fixed base was requested");
      if (body != 0) model.bodies[static_cast<std::size_t>(body)].links.push_back(bname);
    }
    dyn_[static_cast<std::size_t>(b)] = body;
    in_dyn_[static_cast<std::size_t>(b)] = frame;

    const double mass = m_.body_mass[b];
    const Matrix3 R = rotation(m_.body_iquat + 4 * b);
    const Matrix3 I = R * vec3(m_.body_inertia + 3 * b).asDiagonal() * R.transpose();
    record.body = body;
    record.placement_in_body = frame;
    record.inertia = Inertia::from_com(mass, vec3(m_.body_ipos + 3 * b), I);
    record.has_inertial = mass > 0.0;
    model.bodies[static_cast<std::size_t>(body)].inertia += record.inertia.transformed(frame);
    model.links.push_back(record);
    if (model.find_frame(bname)) fail(label_, "two bodies are named '" + bname + "'");
    model.frames.push_back({bname, FrameKind::Link, body, frame, bname});
  }

  void add_actuator(const std::string& joint, int dof) {
    ActuatorInfo a;
    a.joint = joint;
    if (m_.dof_armature[dof] > 0.0) a.armature = m_.dof_armature[dof];
    if (m_.dof_damping[dof] > 0.0) a.damping = m_.dof_damping[dof];
    if (m_.dof_frictionloss[dof] > 0.0) a.coulomb_friction = m_.dof_frictionloss[dof];
    if (a.armature || a.damping || a.coulomb_friction) out_.actuators.push_back(a);
  }

  void convert_sites() {
    for (int s = 0; s < m_.nsite; ++s) {
      const std::string sname = name(mjOBJ_SITE, s);
      const int b = m_.site_bodyid[s];
      if (sname.empty() || skip_[static_cast<std::size_t>(b)]) continue;
      if (out_.model.find_frame(sname)) {
        out_.model.warnings.push_back("site '" + sname + "' has the name of a body: not added as a frame");
        continue;
      }
      const SE3 placement =
          in_dyn_[static_cast<std::size_t>(b)] * SE3(rotation(m_.site_quat + 4 * s), vec3(m_.site_pos + 3 * s));
      out_.model.frames.push_back({sname, FrameKind::Site, dyn_[static_cast<std::size_t>(b)], placement, body_name(b)});
    }
  }

  const mjModel& m_;
  const MjcfCompat& compat_;
  std::string label_;
  UrdfReadOptions options_;
  MjcfRead out_;
  bool floating_ = false;
  int base_ = -1;
  std::vector<int> dyn_;     ///< MuJoCo body -> dynid body it moves with
  std::vector<SE3> in_dyn_;  ///< MuJoCo body frame in that dynid body's frame
  std::vector<bool> skip_;   ///< scenery of a floating robot
};

}  // namespace

MjcfRead read_mjcf_file(const std::string& path, const UrdfReadOptions& options) {
  MjcfCompat compat(path);
  std::string error;
  ModelPtr m;
  for (int attempt = 0; attempt < 200; ++attempt) {
    const std::string text = compat.xml();
    // Each resolve drops what MuJoCo refused; when that was the whole model, MuJoCo would be handed
    // an empty file, which its own error handler answers by ending the process.
    if (text.find('<') == std::string::npos)
      fail(path, "MuJoCo 2.2.2 cannot compile it: " +
                     (error.empty() ? std::string("no model element") : error.substr(0, error.find('\n'))));
    m = compile(text, error);
    if (m) break;
    if (!compat.resolve(error)) throw std::runtime_error(compat.refusal());
  }
  if (!m) fail(path, "MuJoCo 2.2.2 cannot compile it: " + error.substr(0, error.find('\n')));
  MjcfRead read = Converter(*m, compat, path, options).run();
  if (!error.empty()) read.model.warnings.push_back("MuJoCo: " + error.substr(0, error.find('\n')));
  return read;
}

}  // namespace dynid
