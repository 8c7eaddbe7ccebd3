// --plates, --plate-layout, --plates-unit, --up: a TRC trial's force plates, shared by `import c3d`
// and the identify commands that take a trial directly (apps/dynid/commands.hpp).

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

}  // namespace dynid::cli
