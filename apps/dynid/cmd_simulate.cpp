// dynid simulate MODEL --scenario NAME --out DIR [--seed N] [--noise none|realistic] [--slope DEG]
//                [--steps N] [--speed MPS] [--lock-upper-body] [--bus-rate HZ]
//                [--motion M] [--duration S] [--still S] [--poses N] [--base-tilt DEG]
//                [--servo-control high-gain|low-gain|feed-forward [--actuator-model SIDECAR.yaml] [--servo-kp K]]
//                [--perturb none|all|LIST]

#include <unistd.h>
#include <cstdio>

#include <iostream>

#include "commands.hpp"
#include "dynid/core/staged_directory.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "dynid/sim/perturbations.hpp"
#include "progress_line.hpp"

namespace dynid::cli {

void register_simulate(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("simulate", "Simulate a scenario on the true robot in MuJoCo and write a data set");
  struct Args {
    std::string model, scenario, out, noise = "realistic";
    unsigned seed = 1;
    double slope = 0.0;
    int poses = 172;
    double base_tilt = 0.0;
    int steps = 10;
    double speed = 0.2, bus_rate = 125.0;
    bool quiet = false, lock_upper_body = false, fixed_base = false;
    std::string motion = "paper004";
    double duration = 0.0;
    double still = 0.0;
    std::string servo_control, actuator_model;
    double servo_kp = 0.0;
    std::string perturb;  // empty: default_perturb_argument(noise)
  };
  auto args = std::make_shared<Args>();
  cmd->add_option("MODEL", args->model, "URDF or MJCF file, or bundled robot name (needs its sidecar)")->required();
  std::string names;
  for (const auto& n : scenario_names()) names += (names.empty() ? "" : " | ") + n;
  cmd->add_option("--scenario", args->scenario, names)->required();
  cmd->add_option("--out", args->out, "Output directory of the data set")->required();
  cmd->add_option("--seed", args->seed, "Seed of the true model, the poses and the sensor noise")->default_val(1);
  cmd->add_option("--noise", args->noise, "none | realistic")->check(CLI::IsMember({"none", "realistic"}));
  cmd->add_option("--slope", args->slope, "Ground inclination [deg] (walk)");
  cmd->add_option("--poses", args->poses, "Number of static poses (static-poses)")->check(CLI::Range(7, 10000));
  cmd->add_option("--base-tilt", args->base_tilt,
                  "static-poses: tilt the base in each pose by up to DEG about a random horizontal axis (0: upright, "
                  "paper 000); the attitudes `identify inertial --imu-calibration` fixes an IMU's mounting from")
      ->check(CLI::Range(0.0, 20.0));
  cmd->add_option("--steps", args->steps, "Walking steps, the closing step included (walk)")->default_val(10);
  cmd->add_option("--speed", args->speed, "Mean walking speed [m/s] (walk)")->default_val(0.2);
  cmd->add_flag(
      "--lock-upper-body", args->lock_upper_body,
      "Weld every joint off the legs at its neutral value (rigid), no arm swing (walk, excite --motion trunk-bend)");
  cmd->add_option("--bus-rate", args->bus_rate,
                  "Main-controller (field-bus) rate [Hz]: references sent, sensors read (walk, squat)")
      ->default_val(125.0);
  cmd->add_option("--motion", args->motion,
                  "paper004 | evaluation | trunk-bend | fourier | TRAJ file of dynid excite (excite)");
  cmd->add_option("--duration", args->duration, "Length of the recorded motion [s] (excite; default per motion)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--still", args->still,
                  "Seconds recorded standing still before the motion (excite, floating base; default 0): what "
                  "`identify inertial --imu-calibration` takes the IMU's biases from")
      ->check(CLI::Range(0.0, 600.0));
  cmd->add_option("--servo-control", args->servo_control,
                  "Leg joints on paper 002's servo model: high-gain | low-gain | feed-forward (walk; "
                  "docs/actuators.md)")
      ->check(CLI::IsMember({"high-gain", "low-gain", "feed-forward"}));
  cmd->add_option("--actuator-model", args->actuator_model,
                  "Actuators file of the feed-forward's model, e.g. identify actuator's actuator.yaml "
                  "(default: the datasheet)");
  cmd->add_option("--servo-kp", args->servo_kp,
                  "P gain k_P of the leg servos, 1.0 = MX P register 128 (default: 1.0 high-gain, 0.35 otherwise)");
  std::string built;
  for (const std::string& name : perturbation_names()) built += (built.empty() ? "" : ", ") + name;
  cmd->add_option("--perturb", args->perturb,
                  "Testbed imperfections of the true robot: none | all | a comma-separated list of: " + built +
                      " (docs/scenarios.md; default all with --noise realistic, none with --noise none: "
                      "--perturb none --noise realistic is the idealised testbed with realistic sensors)");
  cmd->add_flag("--quiet", args->quiet, "No progress output");
  add_fixed_base_flag(*cmd, args->fixed_base);
  cmd->callback([&action, args] {
    action = [args] {
      const Robot robot = load_robot(args->model, model_read_options(args->fixed_base));
      ScenarioOptions options;
      options.scenario = args->scenario;
      options.perturbations =
          parse_perturbations(args->perturb.empty() ? default_perturb_argument(args->noise) : args->perturb);
      StagedDirectory out(args->out, "simulate");  // a kill -9 leaves the previous data set or none
      options.out_dir = out.path();
      options.seed = args->seed;
      options.noise = parse_noise_level(args->noise);
      options.slope_deg = args->slope;
      options.static_pose_count = args->poses;
      options.static_pose_base_tilt_deg = args->base_tilt;
      options.still_s = args->still;
      options.walk_steps = args->steps;
      options.walk_speed_mps = args->speed;
      options.lock_upper_body = args->lock_upper_body;
      options.bus_rate_hz = args->bus_rate;
      options.motion = args->motion;
      options.duration_s = args->duration;
      options.servo_control = args->servo_control;
      options.actuator_model = args->actuator_model;
      options.servo_kp = args->servo_kp;
      if (!args->quiet) options.progress = progress_line();
      check_scenario(robot, options);
      const ScenarioSummary s = run_scenario(robot, options);
      out.commit();
      if (!args->quiet && isatty(STDERR_FILENO)) std::cerr << "\n";
      std::cout << s.summary_json;
      if (s.fell) {
        // Said on stderr too: a script reading only the exit status and the terminal learns why.
        char line[200];
        std::snprintf(line, sizeof line, "%.2f s", s.duration_s);
        std::cerr << "dynid: the simulated robot fell (base tilted more than 60 deg) after " << line
                  << " of simulated time; the data set up to the fall is in " << args->out
                  << (options.scenario == "excite" && options.duration_s > 0.0
                          ? " (a short --duration squeezes the motion's parts into less time: faster, harder to "
                            "balance)"
                          : "")
                  << "\n";
      }
      return s.fell ? 1 : 0;
    };
  });
}

}  // namespace dynid::cli
