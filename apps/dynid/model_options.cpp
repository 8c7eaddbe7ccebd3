// --fixed-base, shared by every command that takes MODEL (apps/dynid/commands.hpp).

#include "commands.hpp"

namespace dynid::cli {

void add_fixed_base_flag(CLI::App& cmd, bool& fixed_base) {
  cmd.add_flag("--fixed-base", fixed_base,
               "The model's root is fixed to the world (an arm), whatever the file or its sidecar say "
               "(sidecar key: floating_base: false)");
}

UrdfReadOptions model_read_options(bool fixed_base) {
  UrdfReadOptions o;
  if (fixed_base) o.floating_base = false;
  return o;
}

}  // namespace dynid::cli
