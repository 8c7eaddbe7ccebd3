#pragma once
// Subcommands of the dynid tool. Each file registers one subcommand on the CLI11 app and runs it;
// the tool stays thin: parse, call the library, print.

#include <CLI/CLI.hpp>
#include <functional>

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
/// Adds `static` under the `identify` command (apps/dynid/cmd_identify_static.cpp).
void add_identify_static(CLI::App& identify, Action& action);
/// Adds `actuator` under the `identify` command (apps/dynid/cmd_identify_actuator.cpp).
void add_identify_actuator(CLI::App& identify, Action& action);

}  // namespace dynid::cli
