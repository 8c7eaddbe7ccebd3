#pragma once
// Reads an MJCF (MuJoCo XML) file into a dynid Model (docs/mjcf.md). MuJoCo 2.2.2 compiles the file
// (default classes, childclass, include, meshes, every frame notation, compiler angle units, inertias
// computed from geoms where <inertial> is absent), after model/mjcf_compat.hpp has made a file
// written for MuJoCo 3.x readable; the compiled mjModel is then converted:
//
// - a body with no joint is welded to its parent (merged into the parent's dynid body, a named frame);
//   a body with several hinge/slide joints becomes a chain of massless dynid bodies named
//   "BODY__JOINT", one per joint but the last, which carries the body (its name, inertia, children);
// - hinge -> Revolute, slide -> Prismatic, a free joint on a child of the world -> FreeFlyer (the
//   floating base); a ball joint, or a free joint deeper in the tree, is refused naming it;
// - dynid's q of a joint is MuJoCo's qpos (a joint `ref` is honoured), so states carry over;
//   a dynid body's frame is the MuJoCo body frame moved to its joint's anchor (`pos`);
// - inertias: MuJoCo's body_mass, body_ipos, body_iquat, body_inertia -> Inertia in the dynid frame;
// - fixed base: the world and the bodies welded to it are the universe (links[0] is "world"); with a
//   free joint the robot floats and the other bodies under the world (scenery, a simulator's dummy
//   joints) are not part of it: ignored with a warning;
// - joint range -> limits; actuatorfrcrange -> effort limit; armature, damping, frictionloss -> the
//   joint's nominal actuator values (ActuatorInfo armature, damping, coulomb_friction);
// - every body is a Link frame, every named site a Site frame.

#include <string>
#include <vector>

#include "dynid/model/model.hpp"
#include "dynid/model/sidecar.hpp"
#include "dynid/model/urdf_reader.hpp"

namespace dynid {

struct MjcfRead {
  Model model;
  std::vector<ActuatorInfo> actuators;  ///< joints with a nonzero armature, damping or frictionloss
};

/// Reads an MJCF file. `options.floating_base` forces a floating base (the one body under the world
/// gets a free joint named "root_joint") or a fixed one (a free-joint body is welded at its pose).
/// Throws std::runtime_error with one line naming the file (and line) and the problem.
MjcfRead read_mjcf_file(const std::string& path, const UrdfReadOptions& options = {});

}  // namespace dynid
