#pragma once
// A robot as users name it on the command line: a URDF path, or the stem of a bundled robot
// ("kid_humanoid"), with its sidecar (same stem, .yaml) when one exists.

#include <optional>
#include <string>
#include <vector>

#include "dynid/model/sidecar.hpp"
#include "dynid/model/urdf_reader.hpp"

namespace dynid {

struct Robot {
  Model model;
  std::optional<RobotSidecar> sidecar;
  std::string urdf_path;
};

/// Directories searched for bundled robots: $DYNID_MODELS_DIR, then the build's models/ directory,
/// then the installed share/dynid/models.
std::vector<std::string> bundled_model_directories();

/// Names (stems) of the bundled robots found.
std::vector<std::string> bundled_robot_names();

/// A file path as given, or the URDF of the bundled robot with that stem. Throws listing the
/// bundled robots when neither exists.
std::string resolve_model_path(const std::string& path_or_stem);

/// Reads the URDF and, if present, the sidecar beside it (attached: its frames become model frames).
/// The sidecar's floating_base overrides the URDF default; `options` overrides both.
Robot load_robot(const std::string& path_or_stem, const UrdfReadOptions& options = {});

}  // namespace dynid
