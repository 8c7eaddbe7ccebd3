#include "dynid/model/robot.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include <tinyxml2.h>

#include "dynid/model/mjcf_reader.hpp"
#include "dynid/model/sidecar_reader.hpp"

namespace dynid {

namespace fs = std::filesystem;

std::vector<std::string> bundled_model_directories() {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("DYNID_MODELS_DIR")) dirs.emplace_back(env);
#ifdef DYNID_SOURCE_MODELS_DIR
  dirs.emplace_back(DYNID_SOURCE_MODELS_DIR);
#endif
#ifdef DYNID_INSTALL_MODELS_DIR
  dirs.emplace_back(DYNID_INSTALL_MODELS_DIR);
#endif
  return dirs;
}

std::vector<std::string> bundled_robot_names() {
  std::vector<std::string> names;
  for (const std::string& dir : bundled_model_directories()) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec))
      if (entry.path().extension() == ".urdf") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::string resolve_model_path(const std::string& path_or_stem) {
  std::error_code ec;
  if (fs::is_regular_file(path_or_stem, ec)) return path_or_stem;
  if (fs::exists(path_or_stem, ec)) throw std::runtime_error(path_or_stem + ": not a regular file");
  const bool looks_like_stem =
      path_or_stem.find('/') == std::string::npos && fs::path(path_or_stem).extension().empty();
  if (looks_like_stem) {
    for (const std::string& dir : bundled_model_directories()) {
      const fs::path candidate = fs::path(dir) / (path_or_stem + ".urdf");
      if (fs::is_regular_file(candidate, ec)) return candidate.string();
    }
  }
  std::string known;
  for (const std::string& n : bundled_robot_names()) known += (known.empty() ? "" : ", ") + n;
  throw std::runtime_error(path_or_stem + ": no such file" +
                           (looks_like_stem ? " and no bundled robot of that name (bundled: " + known + ")" : ""));
}

namespace {

enum class ModelFormat { Urdf, Mjcf };

/// The format by the file's root element (a file that is not XML: by its extension, .urdf or .xml,
/// so the reader of that format names the problem); throws one line saying what was expected otherwise.
ModelFormat model_format(const std::string& path) {
  tinyxml2::XMLDocument doc;
  const bool parsed = doc.LoadFile(path.c_str()) == tinyxml2::XML_SUCCESS;
  const std::string root = parsed && doc.RootElement() ? doc.RootElement()->Name() : "";
  if (root == "robot") return ModelFormat::Urdf;
  if (root == "mujoco") return ModelFormat::Mjcf;
  const std::string expected = "expected a URDF (<robot>) or MJCF (<mujoco>) model";
  if (!root.empty()) throw std::runtime_error(path + ": root element <" + root + ">; " + expected);
  // Not XML: the reader its extension names says what is wrong, otherwise one line here.
  if (fs::path(path).extension() == ".urdf") return ModelFormat::Urdf;
  if (fs::path(path).extension() == ".xml") return ModelFormat::Mjcf;
  throw std::runtime_error(path + ": not an XML file" + (parsed ? "" : std::string(" (") + doc.ErrorName() + ")") +
                           "; " + expected);
}

/// The sidecar's entries win; the file fills the values the sidecar leaves out.
void merge_actuators(RobotSidecar& sidecar, const std::vector<ActuatorInfo>& from_file) {
  for (const ActuatorInfo& f : from_file) {
    auto it = std::find_if(sidecar.actuators.begin(), sidecar.actuators.end(),
                           [&](const ActuatorInfo& a) { return a.joint == f.joint; });
    if (it == sidecar.actuators.end()) {
      sidecar.actuators.push_back(f);
      continue;
    }
    if (!it->armature && !(it->gear_ratio && it->rotor_inertia)) it->armature = f.armature;
    if (!it->damping) it->damping = f.damping;
    if (!it->coulomb_friction) it->coulomb_friction = f.coulomb_friction;
  }
}

}  // namespace

Robot load_robot(const std::string& path_or_stem, const UrdfReadOptions& options) {
  Robot robot;
  robot.urdf_path = resolve_model_path(path_or_stem);
  const fs::path sidecar_path = fs::path(robot.urdf_path).replace_extension(".yaml");
  std::error_code ec;
  UrdfReadOptions effective = options;
  if (fs::is_regular_file(sidecar_path, ec)) {
    robot.sidecar = read_sidecar_file(sidecar_path.string());
    if (!effective.floating_base) effective.floating_base = robot.sidecar->floating_base;
  }
  robot.mjcf = model_format(robot.urdf_path) == ModelFormat::Mjcf;
  if (robot.mjcf) {
    MjcfRead read = read_mjcf_file(robot.urdf_path, effective);
    robot.model = std::move(read.model);
    robot.file_actuators = std::move(read.actuators);
    if (robot.sidecar) merge_actuators(*robot.sidecar, robot.file_actuators);
  } else {
    robot.model = read_urdf_file(robot.urdf_path, effective);
  }
  if (robot.sidecar) attach_sidecar(robot.model, *robot.sidecar);
  return robot;
}

}  // namespace dynid
