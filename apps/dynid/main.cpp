// dynid: identify and evaluate the dynamic model of floating-base robots.
// Usage: dynid COMMAND [options]; `dynid help [COMMAND]` for details.

#include <iostream>
#include <string>

#include "commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"dynid " DYNID_VERSION " - identify and evaluate the dynamic model of floating-base robots", "dynid"};
  app.set_version_flag("--version", "dynid " DYNID_VERSION);
  app.require_subcommand(1);
  app.fallthrough(false);

  dynid::cli::Action action;
  dynid::cli::register_info(app, action);
  dynid::cli::register_compute(app, action);
  dynid::cli::register_simulate(app, action);
  dynid::cli::register_analyze(app, action);
  dynid::cli::register_mocap(app, action);
  dynid::cli::register_identify(app, action);
  dynid::cli::register_demo(app, action);
  dynid::cli::register_excite(app, action);
  dynid::cli::register_ik(app, action);
  dynid::cli::register_izmp(app, action);
  dynid::cli::register_import(app, action);

  std::string help_topic;
  CLI::App* help = app.add_subcommand("help", "Show help for dynid or one of its commands");
  help->add_option("command", help_topic, "Command to explain");
  // CLI11 reserves -h/--help; `dynid help X` is the documented spelling.
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::CallForVersion&) {
    std::cout << "dynid " DYNID_VERSION "\n";
    return 0;
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    if (what.empty() || e.get_name() == "RequiredError") what = what.empty() ? "a command is required" : what;
    std::cerr << "dynid: " << what << " (see `dynid help`)\n";
    return 2;
  }

  if (help->parsed()) {
    if (help_topic.empty()) {
      std::cout << app.help();
      return 0;
    }
    for (CLI::App* sub : app.get_subcommands({})) {
      if (sub->get_name() == help_topic) {
        std::cout << sub->help();
        return 0;
      }
    }
    std::cerr << "dynid: unknown command '" << help_topic << "' (see `dynid help`)\n";
    return 2;
  }

  try {
    return action ? action() : 2;
  } catch (const std::exception& e) {
    std::cerr << "dynid: " << e.what() << "\n";
    return 1;
  }
}
