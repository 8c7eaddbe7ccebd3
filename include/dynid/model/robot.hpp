#pragma once
// A robot as users name it on the command line: a URDF or MJCF path, or the stem of a bundled robot
// ("kid_humanoid"), with its sidecar (same stem, .yaml) when one exists. The file's root element
// decides how it is read: <robot> (URDF, model/urdf_reader.hpp) or <mujoco> (MJCF,
// model/mjcf_reader.hpp).

#include <optional>
#include <string>
#include <vector>

#include "dynid/model/sidecar.hpp"
#include "dynid/model/urdf_reader.hpp"

namespace dynid {

struct Robot {
  Model model;
  std::optional<RobotSidecar> sidecar;
  std::string urdf_path;  ///< the model file (URDF, or MJCF when mjcf is true)
  bool mjcf = false;
  /// Nominal actuator values the model file itself gives (MJCF joint armature, damping,
  /// frictionloss); also merged into the sidecar's actuators when there is one (the sidecar wins).
  std::vector<ActuatorInfo> file_actuators;
};

/// Directories searched for bundled robots: $DYNID_MODELS_DIR, then the build's models/ directory,
/// then the installed share/dynid/models.
std::vector<std::string> bundled_model_directories();

/// Names (stems) of the bundled robots found.
std::vector<std::string> bundled_robot_names();

/// A file path as given, or the URDF of the bundled robot with that stem. Throws listing the
/// bundled robots when neither exists.
std::string resolve_model_path(const std::string& path_or_stem);

/// Reads the model file (URDF or MJCF) and, if present, the sidecar beside it (attached: its frames
/// become model frames). The sidecar's floating_base overrides the file's default; `options`
/// overrides both. A file that is neither gets one line saying what was expected.
Robot load_robot(const std::string& path_or_stem, const UrdfReadOptions& options = {});

}  // namespace dynid
