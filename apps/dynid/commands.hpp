#pragma once
// Subcommands of the dynid tool. Each file registers one subcommand on the CLI11 app and runs it;
// the tool stays thin: parse, call the library, print.

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>

#include "dynid/model/urdf_reader.hpp"

namespace dynid {
struct C3dImportOptions;
class DatasetOrMocapFile;
}  // namespace dynid

namespace dynid::cli {

/// The action of the chosen subcommand; set by the register_* callbacks, run by main after parsing.
using Action = std::function<int()>;

void register_info(CLI::App& app, Action& action);
void register_compute(CLI::App& app, Action& action);
void register_simulate(CLI::App& app, Action& action);
void register_analyze(CLI::App& app, Action& action);
void register_mocap(CLI::App& app, Action& action);
void register_identify(CLI::App& app, Action& action);
void register_demo(CLI::App& app, Action& action);
void register_excite(CLI::App& app, Action& action);
void register_ik(CLI::App& app, Action& action);
void register_izmp(CLI::App& app, Action& action);
void register_import(CLI::App& app, Action& action);
/// `--fixed-base` on a command that takes MODEL: the model's root is welded to the world whatever the
/// file or its sidecar say (an arm whose URDF root is not named "world", or an MJCF arm with a free
/// joint), so an arm needs no sidecar. The sidecar's own key is `floating_base: false`.
void add_fixed_base_flag(CLI::App& cmd, bool& fixed_base);
/// The model read options `--fixed-base` asks for (unset: the file's and the sidecar's default).
UrdfReadOptions model_read_options(bool fixed_base);
/// A TRC trial's force plates: --plates, --plate-layout, --plates-unit, --up into `o`'s plate_files,
/// plate_layout_path, plates_length_unit, up_axis (`import c3d` and the identify commands that take a
/// trial directly; apps/dynid/trial_plate_options.cpp).
void add_trial_plate_options(CLI::App& cmd, C3dImportOptions& o);
/// The training data and the validation motion of an identify command, imported where they are lab
/// trials: `data` with the trials' plates (--plates), `validate` (a data set, a C3D, or a TRC with
/// --validate-plates FILE.mot) with the same --plate-layout, --plates-unit and --up. Throws one line
/// for a TRC --validate without its plates or --validate-plates beside anything else.
struct ImportedTrials {
  ImportedTrials(const std::vector<std::string>& data, const std::string& validate, const std::string& validate_plates,
                 const Model* model, const C3dImportOptions& plates, const std::string& plates_needed_by);
  ~ImportedTrials();
  std::unique_ptr<DatasetOrMocapFile> data, validation;
  /// Messages and outputs naming the trials as the user gave them.
  std::string in_user_terms(const std::string& text) const;
};
/// Adds `static` under the `identify` command (apps/dynid/cmd_identify_static.cpp).
void add_identify_static(CLI::App& identify, Action& action);
/// Adds `actuator` under the `identify` command (apps/dynid/cmd_identify_actuator.cpp).
void add_identify_actuator(CLI::App& identify, Action& action);

}  // namespace dynid::cli
