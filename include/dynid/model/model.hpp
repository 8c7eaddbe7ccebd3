#pragma once
// The immutable description of a robot: a kinematic tree of rigid bodies, each attached to its
// parent by one moving joint, plus named frames. Algorithms take a Model and fill a Data workspace
// (dynamics/data.hpp).
//
// Conventions (docs/conventions.md):
//  - bodies[0] is the universe (the world, fixed). A fixed-base robot's root link and everything
//    welded to it belong to the universe; a floating-base robot's base link is body 1 with a
//    FreeFlyer joint.
//  - Each body's frame is its joint frame (the URDF child-link frame of that joint).
//  - URDF links connected by fixed joints are merged into one body; every URDF link stays a named
//    frame, so nothing a user refers to by name is lost.
//  - q = [base position in world, base quaternion (x, y, z, w), joint positions] for a floating
//    base; v = [base linear velocity in base frame, base angular velocity in base frame, joint rates].

#include <optional>
#include <string>
#include <vector>

#include "dynid/model/joint.hpp"
#include "dynid/spatial/inertia.hpp"

namespace dynid {

struct Body {
  std::string name;        ///< name of the URDF link that carries the joint frame
  std::string joint_name;  ///< name of the joint connecting this body to its parent
  JointType joint_type = JointType::Revolute;
  int parent = -1;                  ///< parent body index (0 = universe)
  SE3 joint_placement;              ///< parent body frame -> this body's frame at q = 0
  Vector3 axis = Vector3::UnitZ();  ///< unit joint axis in this body's frame (revolute / prismatic)
  int idx_q = 0, idx_v = 0;         ///< first index of this joint in q and in v
  int nq = 0, nv = 0;               ///< size of this joint in q and in v
  JointLimits limits;
  Inertia inertia;                 ///< in this body's frame, including merged fixed children
  std::vector<std::string> links;  ///< URDF links merged into this body (the body's own link first)

  /// parent body frame -> this body's frame with its 1-DOF (revolute or prismatic) joint at
  /// `position` [rad] or [m]. Inline: the recursive algorithms call it for every body.
  SE3 placement_at(double position) const {
    if (joint_type == JointType::Prismatic)
      return {joint_placement.rotation, joint_placement.translation + joint_placement.rotation * (axis * position)};
    return {joint_placement.rotation * rotation_about_axis(axis, position), joint_placement.translation};
  }
};

enum class FrameKind { Link, Imu, Accelerometer, ForceTorque, Contact, Marker, Site };
const char* to_string(FrameKind kind);

/// A named frame rigidly attached to a body.
struct Frame {
  std::string name;
  FrameKind kind = FrameKind::Link;
  int body = 0;      ///< body the frame moves with
  SE3 placement;     ///< body frame -> this frame
  std::string link;  ///< URDF link it was defined on (itself, for link frames)
};

/// A URDF link as it was read, kept so identified parameters can be written back (urdf_writer).
struct LinkRecord {
  std::string name;
  int body = 0;
  SE3 placement_in_body;  ///< body frame -> link frame
  Inertia inertia;        ///< the link's own inertial, in the link frame (zero if absent)
  bool has_inertial = false;
  std::string parent_link;        ///< empty for the root link
  std::string parent_joint;       ///< URDF joint that attaches it (empty for the root link)
  std::string parent_joint_type;  ///< URDF type: revolute, continuous, prismatic, fixed, floating
};

class Model {
 public:
  std::string name;
  std::vector<Body> bodies;  ///< bodies[0] = universe
  std::vector<Frame> frames;
  std::vector<LinkRecord> links;
  int nq = 0;
  int nv = 0;
  bool floating_base = false;
  Vector3 gravity{0.0, 0.0, -9.81};   ///< [m/s^2] in world
  std::string source_path;            ///< file the model was read from (empty if built in code)
  std::vector<std::string> warnings;  ///< non-fatal findings of the reader (inconsistent inertias, ...)

  /// Number of bodies that carry a joint (parameters: 10 per moving body).
  int num_moving_bodies() const { return static_cast<int>(bodies.size()) - 1; }
  /// Total mass, universe included [kg].
  double total_mass() const;
  /// How errors name this model: its source file, or "model 'NAME'" for a model built in code.
  std::string label() const;

  std::optional<int> find_body(const std::string& link_or_body) const;
  std::optional<int> find_frame(const std::string& name) const;
  /// Index into bodies of the body whose joint has this name.
  std::optional<int> find_joint(const std::string& joint_name) const;

  int body_index(const std::string& name) const;   ///< throws naming the model when absent
  int frame_index(const std::string& name) const;  ///< throws naming the model when absent
  int joint_index(const std::string& joint_name) const;

  /// Names of the velocity coordinates: base_vx.. base_wz for a floating base, then joint names.
  std::vector<std::string> velocity_names() const;
  /// Names of the configuration coordinates: root_joint.px .. root_joint.qw, then joint names.
  std::vector<std::string> configuration_names() const;
  /// Names of the 10 parameters of each moving body: "<body>.m", "<body>.mcx", ...
  std::vector<std::string> parameter_names() const;
  /// Stacked inertial parameters of the moving bodies (10 * num_moving_bodies()).
  VectorX inertial_parameters() const;
  /// Replaces the inertias of the moving bodies from a stacked parameter vector.
  void set_inertial_parameters(const VectorX& pi);

  /// Neutral configuration: base at the origin, identity orientation, joints at 0 (clamped into limits).
  VectorX neutral_configuration() const;

  /// Adds a bookkeeping body; used by readers and tests that build trees in code.
  int add_body(Body body);
  void add_frame(Frame frame);
};

/// The 10 parameter suffixes in Pinocchio order.
extern const char* const kParameterSuffixes[10];

}  // namespace dynid
