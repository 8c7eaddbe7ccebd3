// dynid excite MODEL --out TRAJ [--duration S] [--harmonics N] [--base-freq HZ] [--criterion cond|logdet]
//   [--sensors contact|full] [--lock JOINT=VALUE ...] [--fixed-feet] [--iterations N] [--restarts N]
//   [--samples N] [--max-acceleration A] [--seed N] [--quiet]
// Designs a Fourier-series excitation trajectory (ident/excitation.hpp) and writes it as JSON.

#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "dynid/core/atomic_file.hpp"
#include "dynid/ident/excitation.hpp"
#include "dynid/model/lock_joints.hpp"
#include "dynid/pipeline/excitation_summary.hpp"

namespace dynid::cli {

void register_excite(CLI::App& app, Action& action) {
  auto* cmd =
      app.add_subcommand("excite", "Design a Fourier-series excitation trajectory (well-conditioned regressor)");
  struct Args {
    std::string model, out;
    std::vector<std::string> locks;
    double sample_rate = 100.0;
    bool quiet = false, fixed_base = false;
    ExcitationOptions options;
  };
  auto args = std::make_shared<Args>();
  ExcitationOptions& o = args->options;
  cmd->add_option("MODEL", args->model, "URDF or MJCF file, or bundled robot name")->required();
  cmd->add_option("--out", args->out, "Trajectory file to write (JSON, docs/data-format.md)")->required();
  cmd->add_option("--duration", o.duration_s, "Sampled window [s]")->default_val(10.0);
  cmd->add_option("--harmonics", o.harmonics, "Harmonics per joint")->default_val(5);
  cmd->add_option("--base-freq", o.base_frequency_hz, "Base frequency [Hz] (default: 1 / duration)");
  cmd->add_option("--criterion", o.criterion, "cond (minimum condition number) | logdet (maximum log det)")
      ->check(CLI::IsMember({"cond", "logdet"}));
  cmd->add_option("--sensors", o.sensors,
                  "Rows of the regressor: contact (base-link wrench; default for a floating robot) | full")
      ->check(CLI::IsMember({"contact", "full"}));
  cmd->add_option("--lock", args->locks, "Hold a joint still: JOINT=VALUE (rad or m); repeatable")
      ->allow_extra_args(false);
  cmd->add_flag("--fixed-feet", o.fixed_feet,
                "Floating robot standing on both feet: legs hold a stance, the other joints move, ZMP kept inside");
  cmd->add_option("--iterations", o.iterations, "Gradient iterations")->default_val(100)->check(CLI::NonNegativeNumber);
  cmd->add_option("--restarts", o.restarts, "Random feasible starts")->default_val(8)->check(CLI::Range(1, 10000));
  cmd->add_option("--samples", o.samples, "Regressor samples over the window (default: 4 rows per base parameter)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--max-acceleration", o.max_acceleration, "Joint acceleration bound [rad/s^2]")->default_val(10.0);
  cmd->add_option("--sample-rate", args->sample_rate, "Rate of the sampled q(t) in the file [Hz]")
      ->default_val(100.0)
      ->check(CLI::Range(1.0, 10000.0));
  cmd->add_option("--seed", o.seed, "Seed of the random starts and the base-parameter states")->default_val(1);
  cmd->add_flag("--quiet", args->quiet, "No progress output");
  add_fixed_base_flag(*cmd, args->fixed_base);
  cmd->callback([&action, args] {
    action = [args] {
      const Robot robot = load_robot(args->model, model_read_options(args->fixed_base));
      ExcitationOptions options = args->options;
      for (const std::string& text : args->locks) options.locks.push_back(parse_joint_lock(text));
      if (!args->quiet)
        options.progress = [tty = isatty(STDERR_FILENO) != 0, total = options.iterations](int iteration, double cond,
                                                                                          const std::string& note) {
          if (!tty && iteration % 10 != 0 && note.empty() && iteration != total) return;
          char line[160];
          std::snprintf(line, sizeof line, "iteration %d/%d: condition number %.6g %s", iteration, total, cond,
                        note.c_str());
          std::cerr << (tty ? "\r" : "") << line << (tty ? "      " : "\n") << std::flush;
        };
      const ExcitationDesign d = design_excitation(robot, options);
      if (!args->quiet && isatty(STDERR_FILENO)) std::cerr << "\n";
      write_file_atomically(args->out, excitation_trajectory_json(robot, options, d, args->sample_rate).dump(1) + "\n");
      std::cout << excitation_summary_json(robot, d, args->out).dump(2) << "\n";
      return 0;
    };
  });
}

}  // namespace dynid::cli
