// `dynid demo`: dynid's main job end to end on the bundled robots, with nothing but the tool.
//   1. inertial: simulate the kid-size humanoid walking 10 steps (upper body held, realistic
//      sensors) -> identify every leg link's inertial parameters from the foot F/T sensors alone
//      (`--sensors contact`, papers 003/004) -> nominal vs identified vs true, held out on the
//      same robot bending its trunk (paper 003's validation motion).
//   2. static: simulate the adult humanoid in paper 000's 172 static poses and its squat ->
//      identify masses and COMs from markers and force plates -> GCOM and residual-wrench errors.
//   3. actuator: learn the servo_bench hip servo's command by ILC, fit its motor and friction model
//      (paper 002) -> identified vs true vs datasheet coefficients, held-out tracking.
// Each stage (pipeline/demo.hpp) writes its data sets and reports under --out; this prints the tables.

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <utility>

#include "commands.hpp"
#include "dynid/core/number_format.hpp"
#include "dynid/pipeline/demo.hpp"
#include "dynid/sim/perturbations.hpp"
#include "progress_line.hpp"

namespace dynid::cli {

namespace {

namespace fs = std::filesystem;

struct DemoArgs {
  std::string out = "dynid-demo";
  std::string stage = "all";
  unsigned seed = 1;
  std::string perturb = "all";  // the realistic testbed: what a user's lab and robot give
  bool quiet = false;
};

DemoOptions demo_options(const DemoArgs& args) {
  DemoOptions o;
  o.out_dir = args.out;
  o.seed = args.seed;
  o.perturbations = parse_perturbations(args.perturb);
  if (!args.quiet) {
    o.announce = [](const std::string& line) { std::cerr << line << "\n"; };
    o.progress = [] { return progress_line(); };
  }
  return o;
}

void inertial_stage(const DemoArgs& args) {
  const InertialDemo demo = run_inertial_demo(demo_options(args));
  const InertialIdentificationResult& r = demo.identification;
  std::cout << "\nInertial identification, kid-size humanoid (" << r.base.num_base() << " base parameters, "
            << r.samples << " samples of " << format_fixed(demo.walk.duration_s, 1)
            << " s walking, foot F/T + IMU + encoders)\n";
  std::cout << "                          nominal   identified   true\n";
  std::cout << "  total mass [kg]       " << std::setw(9) << format_fixed(r.nominal_total_mass, 3) << std::setw(13)
            << format_fixed(r.total_mass, 3) << std::setw(7) << format_fixed(demo.walk.true_total_mass, 3) << "\n";
  // The true column: the true model's RMS on the same held-out samples (what the data path leaves).
  const auto truth = [&](double ValidationRms::*field) {
    return r.truth_rms ? format_fixed((*r.truth_rms).*field, 3) : std::string("-");
  };
  const std::string band = r.parallel_filter ? ", below " + format_fixed(r.parallel_filter->cutoff_hz, 0) + " Hz" : "";
  std::cout << "  base force RMS [N]    " << std::setw(9) << format_fixed(r.nominal_rms.force, 3) << std::setw(13)
            << format_fixed(r.identified_rms.force, 3) << std::setw(7) << truth(&ValidationRms::force)
            << "   (held out: trunk bending" << band << ")\n";
  std::cout << "  base moment RMS [N m] " << std::setw(9) << format_fixed(r.nominal_rms.moment, 3) << std::setw(13)
            << format_fixed(r.identified_rms.moment, 3) << std::setw(7) << truth(&ValidationRms::moment) << "\n";
  std::cout << "  physically consistent: " << (r.physically_consistent ? "yes, every link" : "no") << "\n";
  if (!r.ft_calibration.empty()) {
    // The F/T sensors as the fit calibrated them (force gains, the diagonal of each correction).
    std::cout << "  F/T force gains, calibrated with the model (weighed total mass " << format_fixed(r.total_mass_kg, 3)
              << " kg):";
    for (const InertialIdentificationResult::WrenchCalibration& w : r.ft_calibration)
      std::cout << " " << w.contact << " " << format_fixed(w.force(0, 0), 4) << " " << format_fixed(w.force(1, 1), 4)
                << " " << format_fixed(w.force(2, 2), 4);
    std::cout << "\n";
  }
  // Parameter by parameter: how far the identified model is from the truth, relative to CAD's error.
  if (!r.parameter_error_vs_nominal.empty()) {
    std::cout << "  error vs CAD's (median |identified - true| / median |CAD - true| per class; < 1 is better):\n   ";
    for (const auto& [label, ratio] : r.parameter_error_vs_nominal)
      if (label == "mass" || label == "first_moment" || label == "inertia")
        std::cout << " " << label << " " << format_fixed(ratio, ratio < 0.1 ? 3 : 2);
    std::cout << "\n";
    if (!r.parameter_error_vs_nominal_determined.empty()) {
      std::cout << "    of the base parameters this motion determines:";
      for (const auto& [label, ratio] : r.parameter_error_vs_nominal_determined)
        if (label == "mass" || label == "first_moment" || label == "inertia")
          std::cout << " " << label << " " << format_fixed(ratio, ratio < 0.1 ? 3 : 2);
      std::cout << "\n";
    }
    std::cout << "    base parameters closer to the truth than CAD's / farther / as far:";
    const char* separator = " ";
    for (const ParameterCountsVsNominal& c : r.parameter_counts_vs_nominal)
      if (c.label == "mass" || c.label == "first_moment" || c.label == "inertia") {
        std::cout << separator << c.label << " " << c.closer << " / " << c.farther << " / " << c.as_cad;
        separator = ", ";
      }
    std::cout << "\n";
  }
  if (r.determination.size() > 0) {
    const DeterminationCounts counts = count_determination(r.determination);
    std::cout << "  base parameters determined by this motion: " << counts.determined
              << ", kept at CAD: " << counts.kept_at_cad << ", partly: " << counts.partly;
    if (r.held_at_cad > 0)
      std::cout << "; held at CAD's values: " << r.held_at_cad << " (determination at most "
                << format_fixed(r.held_below, 2) << ")";
    std::cout << "\n";
  }
  for (const std::string& w : r.warnings) std::cout << "  warning: " << w << "\n";
  std::cout << "  report: " << demo.report << "\n";
}

void static_stage(const DemoArgs& args) {
  const StaticDemo demo = run_static_demo(demo_options(args));
  const nlohmann::json& s = demo.identification.summary;
  const auto gcom = [&](const char* model) {
    return format_fixed(s["gcom_error_mm"][model]["heldout"]["mean"].get<double>(), 2);
  };
  // Mean |residual| on the squat, row k of [Tx Ty Tz Fx Fy Fz]; the true model's is the method's floor.
  const auto residual = [&](const char* model, int k) {
    return format_fixed(s["residual_wrench"][model]["mean_abs"][static_cast<std::size_t>(k)].get<double>(),
                        k == 5 ? 1 : 2);
  };
  std::cout << "\nStatic identification, adult humanoid (" << s["poses"]["fit"] << " poses fitted, "
            << s["poses"]["heldout"] << " held out; markers + force plates)\n";
  std::cout << "                              nominal   identified   true\n";
  std::cout << "  total mass [kg]           " << std::setw(9)
            << format_fixed(s["total_mass"]["nominal"].get<double>(), 3) << std::setw(13)
            << format_fixed(s["total_mass"]["identified"].get<double>(), 3) << std::setw(7)
            << format_fixed(demo.poses.true_total_mass, 3) << "\n";
  std::cout << "  held-out GCOM error [mm]  " << std::setw(9) << gcom("nominal") << std::setw(13) << gcom("identified")
            << "   (mean)\n";
  const std::pair<const char*, int> rows[] = {
      {"  squat residual |Fz| [N]   ", 5}, {"  squat residual |Tx| [N m] ", 0}, {"  squat residual |Ty| [N m] ", 1}};
  for (const auto& [label, k] : rows)
    std::cout << label << std::setw(9) << residual("nominal", k) << std::setw(13) << residual("identified", k)
              << std::setw(7) << residual("truth", k) << "   (mean)\n";
  std::cout << "  report: " << demo.report << "\n";
}

void actuator_stage(const DemoArgs& args) {
  const ActuatorDemo demo = run_actuator_demo(demo_options(args));
  const nlohmann::json& s = demo.identification.summary;
  std::cout << "\nActuator identification, servo_bench l_hip_pitch (ILC " << s["ilc"]["iterations"].get<int>()
            << " iterations to max windowed error " << format_fixed(s["ilc"]["max_windowed_error_rad"].get<double>(), 4)
            << " rad; paper 002" << (args.perturb == "none" ? "" : "; --perturb does not apply to the servo bench")
            << ")\n";
  std::cout << "                 alpha0   alpha1   alpha2   alpha3\n";
  for (const char* row : {"fit", "truth", "datasheet"}) {
    std::cout << "  " << std::left << std::setw(12) << (std::string(row) == "fit" ? "identified" : row) << std::right;
    for (int i = 0; i < 4; ++i) std::cout << std::setw(9) << format_fixed(s[row]["alpha"][i].get<double>(), 3);
    std::cout << "\n";
  }
  const auto& v = s["validation"];
  std::cout << "  held-out trajectory, feed-forward: mean |error| "
            << format_fixed(v["heldout_mean_abs_error_rad"]["identified"].get<double>(), 4) << " rad (identified) vs "
            << format_fixed(v["heldout_mean_abs_error_rad"]["datasheet"].get<double>(), 4) << " rad (datasheet)\n";
  std::cout << "  held-out P gain " << format_fixed(v["heldout_p_gain"]["p_gain"].get<double>(), 0)
            << ", predicted tracking RMS error "
            << format_fixed(v["heldout_p_gain"]["prediction_rms_error_rad"]["identified"].get<double>(), 4)
            << " rad (identified) vs "
            << format_fixed(v["heldout_p_gain"]["prediction_rms_error_rad"]["datasheet"].get<double>(), 4)
            << " rad (datasheet)\n";
  std::cout << "  report: " << demo.report << "\n";
}

}  // namespace

void register_demo(CLI::App& app, Action& action) {
  auto args = std::make_shared<DemoArgs>();
  CLI::App* cmd = app.add_subcommand(
      "demo",
      "Simulate and identify the bundled robots end to end: kid-size humanoid inertial identification from "
      "walking, adult humanoid static identification from poses, a servo's motor model by ILC (writes data "
      "sets and reports under --out)");
  cmd->add_option("--out", args->out, "Output directory (default: dynid-demo)");
  cmd->add_option("--stage", args->stage, "all | inertial | static | actuator")
      ->check(CLI::IsMember({"all", "inertial", "static", "actuator"}));
  cmd->add_option("--seed", args->seed, "Seed of the simulations (default 1)");
  cmd->add_option("--perturb", args->perturb,
                  "Testbed imperfections of the simulated robots and lab, as simulate's --perturb: all (default, "
                  "the realistic testbed) | none (the idealised testbed) | a comma-separated list (docs/scenarios.md)");
  cmd->add_flag("--quiet", args->quiet, "No progress output");
  cmd->callback([args, &action] {
    action = [args] {
      const std::vector<std::string> perturbations = parse_perturbations(args->perturb);  // refused before any output
      fs::create_directories(args->out);
      if (!perturbations.empty()) {
        std::string list;
        for (const std::string& p : perturbations) list += (list.empty() ? "" : ", ") + p;
        std::cout << "Testbed: the true robots and lab with " << list
                  << " (--perturb, docs/scenarios.md); --perturb none for the idealised testbed\n";
      } else {
        std::cout << "Testbed: idealised (--perturb none): the true robots differ from their URDFs by their masses "
                     "alone, the lab's sensors by their noise (docs/scenarios.md)\n";
      }
      if (args->stage == "all" || args->stage == "inertial") inertial_stage(*args);
      if (args->stage == "all" || args->stage == "static") static_stage(*args);
      if (args->stage == "all" || args->stage == "actuator") actuator_stage(*args);
      return 0;
    };
  });
}

}  // namespace dynid::cli
