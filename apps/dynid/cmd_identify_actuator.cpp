// dynid identify actuator MODEL --joint J --out DIR [--reference TRAJ] [--iterations K] [--lambda L]
//   [--window-ms D] [--threshold RAD] [--seed S] [--true-links] [--noise-free] [--cutoff HZ] [--p-gain G]
//   [--heldout-p-gain G]
//   [--logs DIR [--links URDF]]
// A servo's motor and friction model by Iterative Learning Control (paper 002):
// pipeline/actuator_identification.hpp.

#include <iostream>

#include "commands.hpp"
#include "dynid/core/number_format.hpp"
#include "dynid/core/staged_directory.hpp"
#include "dynid/pipeline/actuator_identification.hpp"
#include "progress_line.hpp"

namespace dynid::cli {
namespace {

struct IdentifyActuatorArgs {
  std::string model, out;
  ActuatorIdentificationOptions options;
  bool fixed_base = false;
};

int run(IdentifyActuatorArgs a) {
  a.options.progress = progress_line();
  StagedDirectory out(a.out, "identify actuator");  // a kill -9 leaves the previous output or none
  const Robot robot = load_robot(a.model, model_read_options(a.fixed_base));
  const ActuatorIdentificationResult r = run_actuator_identification(robot, a.options);
  write_actuator_identification(r, out.path());
  out.commit();
  const auto& s = r.summary;
  std::cout << "dynid identify actuator: " << a.options.joint;
  if (s.contains("ilc"))
    std::cout << ", ILC " << s["ilc"]["iterations"].get<int>() << " iterations to max windowed error "
              << format_fixed(s["ilc"]["max_windowed_error_rad"].get<double>(), 4) << " rad";
  std::cout << "; alpha = " << alpha_text(r.fit.model.alpha) << ", t_d "
            << format_fixed(1e3 * r.fit.model.reaction_time_s, 0) << " ms";
  if (s.contains("validation")) {
    const auto& v = s["validation"]["heldout_max_windowed_error_rad"];
    std::cout << "; held-out max windowed error " << format_fixed(v["identified"].get<double>(), 4)
              << " rad (identified) vs " << format_fixed(v["datasheet"].get<double>(), 4) << " rad (datasheet)";
  }
  std::cout << " -> " << a.out << "\n";
  return 0;
}

}  // namespace

void add_identify_actuator(CLI::App& identify, Action& action) {
  auto a = std::make_shared<IdentifyActuatorArgs>();
  auto* cmd = identify.add_subcommand("actuator",
                                      "A servo's motor and friction model by Iterative Learning Control (paper 002)");
  cmd->add_option("MODEL", a->model, "Fixed-base URDF or bundled robot (servo_bench) with an actuators entry")
      ->required();
  cmd->add_option("--joint", a->options.joint, "The servo's joint")->required();
  add_fixed_base_flag(*cmd, a->fixed_base);
  cmd->add_option("--reference", a->options.reference,
                  "Reference trajectory CSV (time,position; default: the built-in walking + kick reference)");
  cmd->add_option("--iterations", a->options.iterations, "At most this many ILC trials (default 15)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--lambda", a->options.lambda, "ILC learning gain (default 0.8)")->check(CLI::PositiveNumber);
  cmd->add_option("--window-ms", a->options.window_ms, "Window D of the max windowed error [ms] (default 25)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--threshold", a->options.threshold_rad,
                  "ILC stops below this max windowed error [rad] (default 0.02)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--seed", a->options.seed, "Seed of the simulated bench's true servo and links (default 1)");
  cmd->add_flag("--true-links", a->options.true_links,
                "Link torques from the simulation's true links instead of MODEL's (separates actuator from CAD error)");
  cmd->add_flag(
      "--noise-free", a->options.noise_free,
      "Trials report the exact position and supply voltage (default: the servo's 12-bit encoder and 0.1 V register)");
  cmd->add_option("--cutoff", a->options.cutoff_hz,
                  "Low-pass of the measured position before differentiating [Hz] (default 15; 0: none, the "
                  "default with --noise-free)");
  cmd->add_option("--p-gain", a->options.p_gain, "P-gain register of the trials (default: the sidecar's)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--heldout-p-gain", a->options.heldout_p_gain, "P gain of the validation (default: half)")
      ->check(CLI::PositiveNumber);
  cmd->add_option(
      "--logs", a->options.logs,
      "Fit recorded servo logs instead (DIR/servo.csv and DIR/*/servo.csv: command, position, supply voltage)");
  cmd->add_option("--links", a->options.links_urdf,
                  "With --logs: URDF of the links for the inverse dynamics (e.g. an identified model; default MODEL)");
  cmd->add_option("--out", a->out, "Output directory: summary.json, actuator.yaml, report.html")->required();
  cmd->callback([&action, a] { action = [a] { return run(*a); }; });
}

}  // namespace dynid::cli
