// dynid import log LOG --map MAP.yaml --model MODEL --out DIR [--from S] [--to S]: a robot
// controller's own log (CSV or whitespace text) as a dynid data set (docs/data-format.md).
// dynid import c3d TRIALS... [--model MODEL] [--labels MAP.yaml] [--plates GRF.mot... --plate-layout LAYOUT
// [--plates-unit m|mm] [--up y]] [--robot-log LOG --map MAP.yaml
// [--robot-log-offset S...] [--robot-log-drift PPM|estimate]] [--fixed-base] --out DIR: a lab's motion-capture trials,
// with the robot's own log.

#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "commands.hpp"
#include "dynid/data/input_checks.hpp"
#include "dynid/io/log_import.hpp"
#include "dynid/mocap/c3d_import.hpp"
#include "dynid/model/robot.hpp"

namespace dynid::cli {

void register_import(CLI::App& app, Action& action) {
  auto* cmd =
      app.add_subcommand("import", "Turn a robot's own recording or a lab's motion capture into a dynid data set");
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
  add_fixed_base_flag(*log, args->fixed_base);
  log->callback([&action, args] {
    action = [args] {
      const Robot robot = load_robot(args->model, model_read_options(args->fixed_base));
      LogImportOptions o;
      o.log_path = args->log;
      o.map_path = args->map;
      o.out_dir = args->out;
      o.model_path = robot.urdf_path;
      o.from_s = args->from;
      o.to_s = args->to;
      const LogImportResult r = import_log(robot.model, o);
      std::cout << r.summary_json;
      for (const std::string& w : r.warnings) std::cerr << "warning: " << w << "\n";
      // What identification will say about the data set, said now (the stream is as the log was).
      for (const std::string& w : input_warnings(robot.model, read_dataset_info(args->out)))
        std::cerr << "warning: " << w << "\n";
      return 0;
    };
  });

  auto* c3d = cmd->add_subcommand(
      "c3d",
      "Motion-capture trials (C3D, or TRC with --plates): markers renamed to the robot's, force plates with their "
      "wrenches");
  struct C3dArgs {
    std::vector<std::string> trials;
    std::string model, labels, out, map;
    C3dImportOptions plates;  ///< its force plate options (--plates ...)
    double cop_threshold = 20.0;
    std::vector<std::string> robot_logs;
    std::vector<double> offsets;
    std::string drift;
    bool fixed_base = false;
  };
  auto c3d_args = std::make_shared<C3dArgs>();
  c3d->add_option("TRIALS", c3d_args->trials, "One or more .c3d (or .trc) trials, laid end to end")->required();
  c3d->add_option("--model", c3d_args->model,
                  "URDF or MJCF file, or bundled robot name: its sidecar's markers are checked against the labels");
  c3d->add_option("--labels", c3d_args->labels, "Label map (YAML, `labels: {LAB_LABEL: marker}`; empty drops one)");
  c3d->add_option("--cop-threshold", c3d_args->cop_threshold,
                  "Normal force [N] below which a plate's COP is left empty (default 20)")
      ->check(CLI::PositiveNumber);
  add_trial_plate_options(*c3d, c3d_args->plates);
  c3d->add_option("--robot-log", c3d_args->robot_logs,
                  "The robot's own log (as `import log` reads it): once for all trials, or once per trial; its "
                  "encoders and torques join the data set on the trials' clock (needs --map and --model)");
  c3d->add_option("--map", c3d_args->map, "Map file of the robot log (the `import log` format)");
  c3d->add_option("--robot-log-offset", c3d_args->offsets,
                  "The log's time [s] at each trial's first frame, one per trial (default: estimated by matching "
                  "the encoders to the markers' inverse kinematics)");
  c3d->add_option("--robot-log-drift", c3d_args->drift,
                  "The robot clock's rate error against the lab's [ppm]: log time = offset + (1 + ppm 1e-6) trial "
                  "time; or 'estimate': the offset and drift of each trial from windows of its markers' inverse "
                  "kinematics (default 0)");
  add_fixed_base_flag(*c3d, c3d_args->fixed_base);
  c3d->add_option("--out", c3d_args->out, "Output data set directory (written as a whole)")->required();
  c3d->callback([&action, c3d_args] {
    action = [c3d_args] {
      std::optional<Robot> robot;
      if (!c3d_args->model.empty()) robot = load_robot(c3d_args->model, model_read_options(c3d_args->fixed_base));
      C3dImportOptions o = c3d_args->plates;
      o.trials = c3d_args->trials;
      o.out_dir = c3d_args->out;
      o.labels_path = c3d_args->labels;
      o.cop_threshold_n = c3d_args->cop_threshold;
      o.robot_logs = c3d_args->robot_logs;
      o.robot_log_map = c3d_args->map;
      o.robot_log_offsets = c3d_args->offsets;
      if (c3d_args->drift == "estimate") {
        o.estimate_robot_log_drift = true;
      } else if (!c3d_args->drift.empty()) {
        std::size_t used = 0;
        try {
          o.robot_log_drift_ppm = std::stod(c3d_args->drift, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used != c3d_args->drift.size())
          throw std::invalid_argument("--robot-log-drift: '" + c3d_args->drift +
                                      "' is neither a number of ppm nor 'estimate'");
      }
      if (robot) {
        o.model = &robot->model;
        o.robot_name = robot->model.name;
        o.model_path = robot->urdf_path;
      }
      const C3dImportResult r = import_c3d(o);
      std::cout << r.summary_json;
      for (const std::string& w : r.warnings) std::cerr << "warning: " << w << "\n";
      const DatasetInfo written = read_dataset_info(c3d_args->out);
      for (const std::string& w : robot ? input_warnings(robot->model, written) : time_gap_warnings(written))
        std::cerr << "warning: " << w << "\n";
      if (!r.unknown_labels.empty())
        std::cerr << "warning: " << r.unknown_labels.size()
                  << " marker(s) the model does not have (kept; give them names with --labels): "
                  << r.unknown_labels.front() << (r.unknown_labels.size() > 1 ? ", ..." : "") << "\n";
      return 0;
    };
  });
}

}  // namespace dynid::cli
