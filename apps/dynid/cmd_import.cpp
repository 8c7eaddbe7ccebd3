// dynid import log LOG --map MAP.yaml --model MODEL --out DIR [--from S] [--to S]: a robot
// controller's own log (CSV or whitespace text) as a dynid data set (docs/data-format.md).

#include <iostream>
#include <limits>
#include <memory>

#include "commands.hpp"
#include "dynid/io/log_import.hpp"
#include "dynid/model/robot.hpp"

namespace dynid::cli {

void register_import(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("import", "Turn a robot's own recording into a dynid data set");
  cmd->require_subcommand(1);
  auto* log = cmd->add_subcommand(
      "log", "A controller log (CSV or whitespace text; any column names, a map file says which is what)");
  struct Args {
    std::string log, map, model, out;
    double from = std::numeric_limits<double>::quiet_NaN(), to = std::numeric_limits<double>::quiet_NaN();
    bool fixed_base = false;
  };
  auto args = std::make_shared<Args>();
  log->add_option("LOG", args->log, "The log file (.csv, or whitespace-separated text)")->required();
  log->add_option("--map", args->map, "Map file: time column or rate, joint columns, units, signs (YAML)")->required();
  log->add_option("--model", args->model, "URDF or MJCF file, or bundled robot name whose joints the map names")
      ->required();
  log->add_option("--out", args->out, "Output data set directory (written as a whole)")->required();
  log->add_option("--from", args->from, "Start of the time window [s, log time] (overrides the map's window)");
  log->add_option("--to", args->to, "End of the time window [s, log time]");
  log->add_flag("--fixed-base", args->fixed_base, "Fix the model's root whatever the URDF says (an arm)");
  log->callback([&action, args] {
    action = [args] {
      UrdfReadOptions ro;
      if (args->fixed_base) ro.floating_base = false;
      const Robot robot = load_robot(args->model, ro);
      LogImportOptions o;
      o.log_path = args->log;
      o.map_path = args->map;
      o.out_dir = args->out;
      o.model_path = robot.urdf_path;
      o.from_s = args->from;
      o.to_s = args->to;
      const LogImportResult r = import_log(robot.model, o);
      std::cout << r.summary_json;
      return 0;
    };
  });
}

}  // namespace dynid::cli
