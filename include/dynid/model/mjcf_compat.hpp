#pragma once
// An MJCF file made readable by Debian 12's MuJoCo 2.2.2 (docs/mjcf.md). Files written for MuJoCo
// 3.x (MuJoCo Menagerie) use attributes and elements 2.2.2 rejects; this class edits a copy of the
// XML (the file itself is never modified) so that MuJoCo can compile the same kinematic tree with the
// same inertias:
//
//  - <include> files are inlined; mesh, texture and height-field paths become absolute (compiler
//    meshdir / texturedir / assetdir honoured), so the copy compiles from memory;
//  - sections dynid does not read are not passed on: sensor, actuator (and actuator defaults),
//    keyframe, visual, contact, custom, extension, statistic; tendon and equality with a warning
//    (dynid models a tree: a loop closure or coupling is lost); textures and skins (visual only);
//  - compiler autolimits="true" unless the file says otherwise (MuJoCo >= 2.3 default: a `range`
//    without `limited` limits the joint);
//  - <replicate> (MuJoCo >= 3.1.5) is expanded into its copies, each in a <frame> (names suffixed
//    as MuJoCo does);
//  - <attach> (MuJoCo >= 3.2) is expanded: the attached model file is read on its own (same edits,
//    its own mesh directory, its own attachments; a cycle is an error) and the named body (frame, or
//    world contents) copied in at the <attach>, its own pose relative to the attaching body or frame,
//    names and references prefixed, the child's classes copied under a prefixed top-level class and
//    named on every copied element (this file's defaults undone for them: MuJoCo applies defaults
//    when it parses the child), its angles converted to this file's unit and eulerseq; a child
//    compiled with another inertiafromgeom, inertia bounds or autolimits is refused (docs/mjcf.md);
//  - <frame> (MuJoCo >= 3.1) is folded into its children's own poses, innermost first, its
//    childclass made explicit on what it reaches (nested frames folded first; a frame holding
//    anything else than bodies, geoms, sites, cameras and lights is refused);
//  - joint actuatorfrcrange becomes the joint's effort limit (effort_limits()), then is dropped;
//  - a mesh file that is absent or a Git LFS pointer: its geoms are dropped with a warning when no
//    body needs them for its inertia, otherwise an error naming the file and the body;
//  - then, driven by MuJoCo's own complaints (resolve()): an attribute or keyword 2.2.2 does not
//    know is dropped with a warning when it cannot change the tree or the inertias (on a joint,
//    site, camera, light, option, material, default actuator, ... or on a geom/mesh that no inertia
//    comes from); anything else (flex and composite, an unknown attribute of a body,
//    inertial or mass-carrying geom) is refused with one line naming it.

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace dynid {

class MjcfCompat {
 public:
  /// Reads `path` and applies the edits that need no compiler. Throws one line naming the file
  /// (and the line) when it is not XML, not MJCF, or needs a missing mesh for an inertia.
  explicit MjcfCompat(const std::string& path);
  ~MjcfCompat();
  MjcfCompat(const MjcfCompat&) = delete;
  MjcfCompat& operator=(const MjcfCompat&) = delete;

  /// The edited XML as it stands.
  std::string xml() const;
  /// Given MuJoCo's error on xml(), drops what it names when that is safe (adding a warning) and
  /// returns true; returns false when the error is not one this class can fix safely.
  bool resolve(const std::string& mujoco_error);
  /// The one-line error ("FILE[:LINE]: what") when resolve() refused (empty otherwise).
  const std::string& refusal() const;

  const std::vector<std::string>& warnings() const;
  /// Joint name -> effort limit [N m] or [N] from actuatorfrcrange (max of |lower|, |upper|).
  const std::map<std::string, double>& effort_limits() const;
  /// The <mujoco model="..."> name, or the file's stem.
  const std::string& model_name() const;

  struct State;  ///< the edited document (opaque: tinyxml2 stays out of this header)

 private:
  std::unique_ptr<State> state_;
};

}  // namespace dynid
