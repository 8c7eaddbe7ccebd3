// dynid analyze base-parameters MODEL [--rows all|base] [--lock JOINT=VALUE ...] [--json]
//   [--samples N] [--seed N] [--tolerance T]
// dynid analyze sensors MODEL [DATA] [--minimal] [--json] [--configurations N] [--seed N]
// Which inertial parameters of a robot its equations can identify, and in which combinations.

#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "dynid/core/number_format.hpp"
#include "dynid/data/contact_states.hpp"
#include "dynid/ident/base_parameters.hpp"
#include "dynid/ident/minimal_sensor_sets.hpp"
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
    bool json = false, fixed_base = false;
    BaseParameterOptions options;
  };
  auto args = std::make_shared<Args>();
  cmd->add_option("MODEL", args->model, "URDF or MJCF file, or bundled robot name")->required();
  cmd->add_option("--rows", args->rows,
                  "Equations used: all (base wrench and joint torques) or base (base wrench only)")
      ->check(CLI::IsMember({"all", "base"}));
  cmd->add_option("--lock", args->locks, "Hold a joint at a position: JOINT=VALUE (rad or m); repeatable")
      ->allow_extra_args(false);
  cmd->add_flag("--json", args->json, "Print JSON (docs/base-parameters.md)");
  add_fixed_base_flag(*cmd, args->fixed_base);
  cmd->add_option("--samples", args->options.num_samples, "Random states stacked (default: 4 rows per parameter)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--seed", args->options.seed, "Seed of the random states");
  cmd->add_option("--tolerance", args->options.rank_tolerance, "Rank tolerance on unit-norm columns")
      ->check(CLI::Range(1e-15, 0.1));
  cmd->add_option("--near-dependence", args->options.near_dependence_tolerance,
                  "Regroup columns at most this far from dependent, as near-parallel joint axes make them (default "
                  "1e-3; 0: only exact dependence)")
      ->check(CLI::Range(0.0, 0.1));
  cmd->callback([&action, args] {
    action = [args] {
      const Robot robot = load_robot(args->model, model_read_options(args->fixed_base));
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
  struct SensorArgs {
    std::string model, data;
    bool minimal = true, json = false, fixed_base = false;
    int configurations = 3;
    unsigned seed = 1;
  };
  auto sensor_args = std::make_shared<SensorArgs>();
  sensors->add_option("MODEL", sensor_args->model, "URDF or MJCF file, or bundled robot name (with its sidecar)")
      ->required();
  sensors->add_option("DATA", sensor_args->data,
                      "A data set: the contact states of its segments (with their time spans) instead of every "
                      "subset of the contacts");
  sensors->add_flag("--minimal", sensor_args->minimal,
                    "The inclusion-minimal sensor sets of every contact state and one smallest set for all (the "
                    "analysis this command runs)");
  sensors->add_flag("--json", sensor_args->json, "Print JSON (docs/identification.md)");
  add_fixed_base_flag(*sensors, sensor_args->fixed_base);
  sensors
      ->add_option("--configurations", sensor_args->configurations,
                   "Random configurations each state must be identifiable at")
      ->check(CLI::Range(1, 100));
  sensors->add_option("--seed", sensor_args->seed, "Seed of the random configurations");
  sensors->callback([&action, sensor_args] {
    action = [sensor_args] {
      const Robot robot = load_robot(sensor_args->model, model_read_options(sensor_args->fixed_base));
      if (!robot.sidecar) throw std::runtime_error(robot.urdf_path + " has no sidecar: its contacts are unknown");
      std::vector<ContactState> states;
      std::vector<std::vector<TimeSegment>> spans;  // per state, with DATA: the segments in it
      if (sensor_args->data.empty()) {
        states = every_contact_state(robot.model, *robot.sidecar, sensor_args->configurations, sensor_args->seed);
      } else {
        for (DataContactState& d :
             data_contact_states(robot.model, *robot.sidecar, read_dataset_info(sensor_args->data),
                                 sensor_args->configurations, sensor_args->seed)) {
          states.push_back(std::move(d.state));
          spans.push_back(std::move(d.segments));
        }
      }
      const MinimalSensorReport report = minimal_sensor_sets(robot.model, states);
      // Why each sensor of the union is needed: the states that lose the base without it.
      const std::vector<std::vector<std::size_t>> needed =
          states_needing_each_sensor(robot.model, states, report.union_set);
      const auto span_text = [](const TimeSegment& seg) {
        return "'" + seg.label + "' " + format_fixed(seg.start, 2) + "-" + format_fixed(seg.end, 2) + " s";
      };
      if (sensor_args->json) {
        json j;
        j["model"] = robot.model.name;
        j["configurations"] = sensor_args->configurations;
        if (!sensor_args->data.empty()) j["data"] = sensor_args->data;
        j["states"] = json::array();
        for (std::size_t i = 0; i < report.states.size(); ++i) {
          const ContactStateSensors& s = report.states[i];
          json state = {
              {"state", s.state}, {"contacts", s.contacts}, {"minimal_sets", s.minimal_sets}, {"exact", s.exact}};
          if (!spans.empty()) {
            state["segments"] = json::array();
            for (const TimeSegment& seg : spans[i])
              state["segments"].push_back({{"label", seg.label}, {"start", seg.start}, {"end", seg.end}});
          }
          j["states"].push_back(state);
        }
        j["union"] = report.union_set;
        j["union_exact"] = report.union_exact;
        j["union_needed_in"] = json::object();
        for (std::size_t i = 0; i < report.union_set.size(); ++i) {
          json in = json::array();
          for (std::size_t s : needed[i]) in.push_back(states[s].label);
          j["union_needed_in"][report.union_set[i]] = in;
        }
        std::cout << j.dump(1) << "\n";
        return 0;
      }
      const auto joined = [](const std::vector<std::string>& names) {
        std::string text;
        for (const std::string& n : names) text += (text.empty() ? "" : ", ") + n;
        return text.empty() ? std::string("no sensor") : text;
      };
      std::cout << "minimal force sensing of " << robot.model.name
                << (sensor_args->data.empty() ? "" : " in the contact states of " + sensor_args->data)
                << " (rank(S_b V_x) = 6 at " << sensor_args->configurations
                << " random configurations per contact state, paper 004 IV-D; a contact's name stands for "
                   "its wrench sensor, a joint's for its torque sensor)\n";
      for (std::size_t i = 0; i < report.states.size(); ++i) {
        const ContactStateSensors& s = report.states[i];
        std::cout << "  " << s.state;
        if (!spans.empty()) {
          std::cout << " (" << spans[i].size() << (spans[i].size() == 1 ? " segment" : " segments") << ", first "
                    << span_text(spans[i].front()) << ")";
        }
        std::cout << ": ";
        if (s.contacts.empty()) {
          std::cout << "no sensor (no external force: Y_b pi = 0 fixes the parameters only up to a common scale)\n";
          continue;
        }
        if (s.minimal_sets.empty()) {
          std::cout << "not identifiable even with every sensor\n";
          continue;
        }
        std::cout << s.minimal_sets.size() << (s.exact ? " minimal sets (exhaustive)" : " minimal set (greedy)")
                  << "\n";
        const std::size_t shown = std::min<std::size_t>(s.minimal_sets.size(), 12);
        for (std::size_t k = 0; k < shown; ++k) std::cout << "    " << joined(s.minimal_sets[k]) << "\n";
        if (shown < s.minimal_sets.size())
          std::cout << "    ... and " << s.minimal_sets.size() - shown << " more (--json lists every set)\n";
      }
      std::cout << "  every state " << (sensor_args->data.empty() ? "at once" : "of the motion") << " ("
                << (report.union_exact ? "smallest" : "minimal, greedy") << "): " << joined(report.union_set) << "\n";
      for (std::size_t i = 0; i < report.union_set.size(); ++i) {
        std::cout << "    " << report.union_set[i] << ": needed in ";
        if (needed[i].empty()) std::cout << "no state";
        for (std::size_t k = 0; k < needed[i].size(); ++k)
          std::cout << (k == 0 ? "" : "; ") << states[needed[i][k]].label
                    << (spans.empty() ? "" : " (first " + span_text(spans[needed[i][k]].front()) + ")");
        std::cout << (needed[i].empty() ? "\n" : " (rank(S_b V_x) < 6 there without it)\n");
      }
      return 0;
    };
  });
}

}  // namespace dynid::cli
