#pragma once
// Reads a URDF into a dynid Model (parsing by urdfdom).
//
// - revolute and continuous joints -> JointType::Revolute (continuous: no position limits);
//   prismatic -> Prismatic; fixed joints merge the child link into its parent body (the link stays a
//   named frame); a URDF "floating" joint -> FreeFlyer; planar joints are rejected.
// - Floating base: when the root link is not named "world" the robot gets a FreeFlyer joint named
//   "root_joint" on its root link, unless `floating_base` says otherwise.
// - Inertial origins (xyz and rpy) are honoured; links without <inertial> are massless; geometry is
//   ignored. Negative masses are errors; inconsistent inertias are warnings (Model::warnings).

#include <optional>
#include <string>

#include "dynid/model/model.hpp"

namespace dynid {

struct UrdfReadOptions {
  /// Force a floating (true) or fixed (false) base; default: floating unless the root link is "world".
  std::optional<bool> floating_base;
};

/// Parses a URDF file. Throws std::runtime_error with one line naming the file and the problem.
Model read_urdf_file(const std::string& path, const UrdfReadOptions& options = {});

/// Parses URDF text; `label` names the source in error messages.
Model read_urdf_string(const std::string& xml, const std::string& label = "<string>",
                       const UrdfReadOptions& options = {});

}  // namespace dynid
