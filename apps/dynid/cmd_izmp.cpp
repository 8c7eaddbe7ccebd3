// dynid izmp MODEL DATA --method mr-ad|ir-md [--angular-acceleration accelerometers|gyro] [--acd-rate HZ]
//            [--bus-rate HZ] [--differences central|backward] [--ground-normal x,y,z | --slope DEG]
//            [--inertia-from URDF] --out DIR
// dynid izmp study ROBOT --out DIR [--seed N] [--steps N]
// The imaginary ZMP and contact wrench from on-board sensors (paper 001), and the paper's study.

#include <cmath>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "dynid/core/number_format.hpp"
#include "dynid/core/staged_directory.hpp"
#include "dynid/pipeline/izmp.hpp"
#include "dynid/pipeline/izmp_study.hpp"
#include "progress_line.hpp"

namespace dynid::cli {
namespace {

struct IzmpArgs {
  std::string model, data, out, method = "mr-ad", angular = "accelerometers", differences = "central";
  std::string ground_normal, inertia_from;
  double acd_rate = 0.0, bus_rate = 125.0;
  std::optional<double> slope;
  std::optional<unsigned> inertial_noise;
  bool bus_mean = false, quiet = false;
  double smoothing_ms = 0.0;
};

struct StudyArgs {
  std::string robot = "walker", out, differences = "backward";
  unsigned seed = 1;
  int steps = 10;
  bool quiet = false;
};

Vector3 parse_vector(const std::string& text) {
  std::istringstream in(text);
  Vector3 v;
  char comma = 0;
  if (!(in >> v.x() >> comma >> v.y() >> comma >> v.z()) || !v.allFinite() || v.norm() < 1e-12)
    throw std::invalid_argument("--ground-normal '" + text + "': expected three numbers x,y,z, not all zero");
  return v.normalized();
}

int run_izmp_command(const IzmpArgs& a) {
  if (a.model.empty() || a.data.empty() || a.out.empty())
    throw std::invalid_argument("dynid izmp needs MODEL DATA --out DIR (or: dynid izmp study ROBOT --out DIR)");
  IzmpOptions o;
  o.model = a.model;
  o.data = a.data;
  o.out_dir = a.out;
  o.inertia_from = a.inertia_from;
  o.settings.method = parse_izmp_method(a.method);
  o.settings.angular_acceleration = parse_angular_acceleration_source(a.angular);
  o.settings.differences = parse_difference_scheme(a.differences);
  o.settings.acd_rate_hz = a.acd_rate;
  o.settings.bus_rate_hz = a.bus_rate;
  o.settings.bus_period_mean = a.bus_mean;
  o.settings.smoothing_window_s = 1e-3 * a.smoothing_ms;
  if (!a.ground_normal.empty() && a.slope) throw std::invalid_argument("give --ground-normal or --slope, not both");
  if (!a.ground_normal.empty()) o.settings.ground_normal_world = parse_vector(a.ground_normal);
  if (a.slope) {
    // dynid simulate's slope: the floor inclined about world y, uphill along +x.
    const double s = *a.slope * M_PI / 180.0;
    o.settings.ground_normal_world = Vector3(-std::sin(s), 0.0, std::cos(s));
  }
  if (a.inertial_noise) {
    o.settings.add_inertial_noise = true;
    o.settings.noise_seed = *a.inertial_noise;
  }
  if (!a.quiet) o.progress = progress_line();
  StagedDirectory out(a.out, "izmp");  // a kill -9 leaves the previous output or none
  const IzmpResult result = run_izmp(o);
  write_izmp_outputs(result, out.path());
  out.commit();
  std::cout << result.summary.dump(2) << "\n";
  for (const auto& w : result.summary["input_warnings"]) std::cerr << "warning: " << w.get<std::string>() << "\n";
  return 0;
}

int run_study_command(const StudyArgs& a) {
  StagedDirectory out(a.out, "izmp study");  // a kill -9 leaves the previous output or none
  IzmpStudyOptions o;
  o.robot = a.robot;
  o.out_dir = out.path();
  o.seed = a.seed;
  o.steps = a.steps;
  o.differences = parse_difference_scheme(a.differences);
  if (!a.quiet) o.progress = progress_line();
  const IzmpStudyResult r = run_izmp_study(o);
  out.commit();
  std::cout << r.table << "summary: " << a.out << "/summary.json, report: " << a.out << "/report.html\n";
  return 0;
}

}  // namespace

void register_izmp(CLI::App& app, Action& action) {
  auto args = std::make_shared<IzmpArgs>();
  auto* cmd =
      app.add_subcommand("izmp", "Imaginary ZMP and contact wrench from on-board sensors: MR-AD or IR-MD (paper 001)");
  cmd->add_option("MODEL", args->model,
                  "URDF or MJCF file, or bundled robot (its sidecar: IMU, accelerometers, soles)");
  cmd->add_option("DATA", args->data, "Data set directory (encoders.csv, imu.csv; truth.csv when simulated)");
  cmd->add_option("--out", args->out, "Directory for izmp.csv, summary.json, report.html");
  cmd->add_option("--method", args->method, "mr-ad (moving reference, default) or ir-md (inertial reference)");
  cmd->add_option("--angular-acceleration", args->angular,
                  "Root angular acceleration: accelerometers (algebraic, default) or gyro (difference quotient)");
  cmd->add_option("--acd-rate", args->acd_rate, "Actuator-controller rate [Hz] (default: the encoders' rate)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--bus-rate", args->bus_rate, "Field-bus rate [Hz]: one IZMP per period (default 125)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--differences", args->differences,
                  "central (default; one ACD period of delay online) or backward (causal) difference quotients");
  cmd->add_option("--ground-normal", args->ground_normal, "Ground normal in world x,y,z (default: the stance soles')");
  cmd->add_option("--slope", args->slope, "Ground inclined by DEG about world y, uphill along +x");
  cmd->add_option("--inertia-from", args->inertia_from,
                  "URDF whose inertias replace the model's (a simulated data set's truth.urdf)");
  cmd->add_flag("--bus-period-mean", args->bus_mean,
                "Each bus packet carries the mean of the ACD-rate values over its period, not the last one");
  cmd->add_option("--smoothing-ms", args->smoothing_ms,
                  "Average every ACD-rate value over this window centred on the bus sample [ms] (real encoders: "
                  "their gears' play; costs half the window of delay online)");
  cmd->add_option(
      "--inertial-noise", args->inertial_noise,
      "Add the study's white noise (seed SEED) to noise-free inertial sensors (docs/robust-inverse-dynamics.md)");
  cmd->add_flag("--quiet", args->quiet, "No progress output");

  auto study = std::make_shared<StudyArgs>();
  auto* s = cmd->add_subcommand("study", "Paper 001's setups A-E on a simulated level and 10 degree walk");
  s->add_option("ROBOT", study->robot, "Bundled robot with an IMU and accelerometers (default walker)");
  s->add_option("--out", study->out, "Directory for the walks, summary.json and report.html")->required();
  s->add_option("--seed", study->seed, "Seed of the walks and of the sensor noise (default 1)");
  s->add_option("--steps", study->steps, "Steps per walk (default 10)")->check(CLI::Range(2, 100));
  s->add_option("--differences", study->differences, "backward (the paper's, default) or central");
  s->add_flag("--quiet", study->quiet, "No progress output");
  // The parent's callback runs too when `study` is given: it picks the one that was asked for.
  cmd->callback([&action, args, study, s] {
    if (s->parsed())
      action = [study] { return run_study_command(*study); };
    else
      action = [args] { return run_izmp_command(*args); };
  });
}

}  // namespace dynid::cli
