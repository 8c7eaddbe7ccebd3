// dynid analyze base-parameters MODEL [--rows all|base] [--lock JOINT=VALUE ...] [--json]
//   [--samples N] [--seed N] [--tolerance T]
// Which inertial parameters of a robot its equations can identify, and in which combinations.

#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "dynid/ident/base_parameters.hpp"
#include "dynid/ident/sensor_projection.hpp"
#include "dynid/model/lock_joints.hpp"
#include "dynid/model/robot.hpp"
#include "dynid/pipeline/base_parameter_analysis.hpp"

namespace dynid::cli {
namespace {

using json = nlohmann::json;

}  // namespace

void register_analyze(CLI::App& app, Action& action) {
  auto* analyze = app.add_subcommand("analyze", "Structural analyses of a model: base-parameters, sensors");
  analyze->require_subcommand(1);
  auto* cmd = analyze->add_subcommand(
      "base-parameters", "Identifiable (base) inertial parameters, how they regroup, and which cannot be identified");
  struct Args {
    std::string model, rows = "all";
    std::vector<std::string> locks;
    bool json = false;
    BaseParameterOptions options;
  };
  auto args = std::make_shared<Args>();
  cmd->add_option("MODEL", args->model, "URDF file or bundled robot name")->required();
  cmd->add_option("--rows", args->rows,
                  "Equations used: all (base wrench and joint torques) or base (base wrench only)")
      ->check(CLI::IsMember({"all", "base"}));
  cmd->add_option("--lock", args->locks, "Hold a joint at a position: JOINT=VALUE (rad or m); repeatable")
      ->allow_extra_args(false);
  cmd->add_flag("--json", args->json, "Print JSON (docs/base-parameters.md)");
  cmd->add_option("--samples", args->options.num_samples, "Random states stacked (default: 4 rows per parameter)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--seed", args->options.seed, "Seed of the random states");
  cmd->add_option("--tolerance", args->options.rank_tolerance, "Rank tolerance on unit-norm columns")
      ->check(CLI::Range(1e-15, 0.1));
  cmd->callback([&action, args] {
    action = [args] {
      const Robot robot = load_robot(args->model);
      std::vector<JointLock> locks;
      for (const std::string& text : args->locks) locks.push_back(parse_joint_lock(text));
      const Model model = locks.empty() ? robot.model : lock_joints(robot.model, locks);
      BaseParameterOptions options = args->options;
      options.rows = args->rows == "base" ? base_link_rows(model) : all_equation_rows(model);
      const BaseParameters base = compute_base_parameters(model, options);
      if (args->json) {
        std::cout << base_parameters_json(robot, model, locks, args->rows, base).dump(1) << "\n";
        return 0;
      }
      if (!locks.empty()) {
        std::cout << "locked joints:";
        for (const JointLock& l : locks) std::cout << " " << l.joint << "=" << l.position;
        std::cout << " (" << model.nv << " DOF remain)\n";
      }
      std::cout << format_report(base);
      return 0;
    };
  });

  // dynid analyze sensors MODEL: the minimal force-sensor sets per contact state (paper 004 IV-D).
  auto* sensors = analyze->add_subcommand(
      "sensors", "Minimal force-sensor sets for whole-body identification, per contact state (paper 004)");
  auto sensor_model = std::make_shared<std::string>();
  sensors->add_option("MODEL", *sensor_model, "URDF file or bundled robot name (with its sidecar)")->required();
  sensors->callback([&action, sensor_model] {
    action = [sensor_model] {
      const Robot robot = load_robot(*sensor_model);
      if (!robot.sidecar) throw std::runtime_error(robot.urdf_path + " has no sidecar: its contacts are unknown");
      if (!robot.model.floating_base)
        throw std::runtime_error(robot.model.name + " has a fixed base: every joint torque sensor is needed");
      std::cout << "minimal force sensing per contact state of " << robot.model.name
                << " (rank(S_b V_x) = 6, paper 004 IV-D)\n";
      for (const std::string& line : minimal_sensor_sets(robot.model, *robot.sidecar))
        std::cout << "  " << line << "\n";
      return 0;
    };
  });
}

}  // namespace dynid::cli
