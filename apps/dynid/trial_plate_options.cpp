// --plates, --plate-layout, --plates-unit, --up: a TRC trial's force plates, shared by `import c3d`
// and the identify commands that take a trial directly (apps/dynid/commands.hpp).

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <stdexcept>

#include "commands.hpp"
#include "dynid/mocap/c3d_import.hpp"

namespace dynid::cli {

void add_trial_plate_options(CLI::App& cmd, C3dImportOptions& o) {
  cmd.add_option("--plates", o.plate_files,
                 "TRC trials' force plates: a ground reaction file (OpenSim .mot/.sto: ground_force_vx ... "
                 "ground_force_px ... ground_torque_x per plate) per trial, in order (needs --plate-layout)");
  cmd.add_option("--plate-layout", o.plate_layout_path,
                 "Where the plates of --plates are: YAML/JSON (`plates: [{corners: [[x, y, z] x 4]}]`) or a C3D "
                 "of the same lab (its FORCE_PLATFORM corners)");
  cmd.add_option("--plates-unit", o.plates_length_unit,
                 "Length unit of the --plates files' points: m, or mm (then torques in N mm, as OpenSim's C3D "
                 "export writes them unconverted) (default: the file header's `units`, else m)")
      ->check(CLI::IsMember({"m", "mm"}));
  cmd.add_option("--up", o.up_axis,
                 "The lab frame's vertical axis in the files: z (default, kept) or y (OpenSim's; turned to z up: "
                 "(x, y, z) -> (x, -z, y))")
      ->check(CLI::IsMember({"y", "z"}));
}

namespace {

bool is_trc(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".trc" && !std::filesystem::is_directory(path);
}

}  // namespace

ImportedTrials::ImportedTrials(const std::vector<std::string>& data_paths, const std::string& validate,
                               const std::string& validate_plates, const Model* model, const C3dImportOptions& plates,
                               const std::string& plates_needed_by) {
  const bool validate_trc = is_trc(validate);
  if (validate_trc && validate_plates.empty())
    throw std::invalid_argument("--validate " + validate +
                                ": a TRC holds markers only and the validation needs force plates: give its ground "
                                "reaction file with --validate-plates FILE.mot (the plates where --plate-layout says)");
  if (!validate_plates.empty() && !validate_trc)
    throw std::invalid_argument("--validate-plates goes with a TRC trial as --validate" +
                                (validate.empty() ? std::string(" (none given)") : " (not " + validate + ")"));
  // The layout, unit and up axis are the lab's: the training data's options only where it has trials.
  C3dImportOptions for_data = plates;
  const bool data_are_trials = std::any_of(data_paths.begin(), data_paths.end(), [](const std::string& p) {
    const std::string ext = std::filesystem::path(p).extension().string();
    return !std::filesystem::is_directory(p) && (is_trc(p) || ext == ".c3d" || ext == ".C3D");
  });
  if (!data_are_trials && plates.plate_files.empty() && validate_trc) for_data = C3dImportOptions{};
  data = std::make_unique<DatasetOrMocapFile>(data_paths, model, for_data, plates_needed_by);
  if (validate_trc) {
    C3dImportOptions for_validation = plates;
    for_validation.plate_files = {validate_plates};
    validation = std::make_unique<DatasetOrMocapFile>(std::vector<std::string>{validate}, model, for_validation,
                                                      "the validation");
  } else {
    validation = std::make_unique<DatasetOrMocapFile>(validate, model);
  }
}

ImportedTrials::~ImportedTrials() = default;

std::string ImportedTrials::in_user_terms(const std::string& text) const {
  return validation->in_user_terms(data->in_user_terms(text));
}

}  // namespace dynid::cli
