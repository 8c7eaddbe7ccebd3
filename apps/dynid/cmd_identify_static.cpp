// dynid identify static MODEL DATA|TRIALS... --total-mass KG [--plates GRF.mot... --plate-layout LAYOUT
//   [--plates-unit m|mm] [--up y]] [--segments a,b] [--validate DATA] [--truth URDF]
//   [--heldout-fraction F] [--pose-source markers|encoders] [--windows detect|segments]
//   [--prior scaled|nominal] [--calibrate-markers] [--zero-plates] [--calibrate-plates] [--align-time] --out DIR
// Masses and centres of mass from static poses (paper 000): pipeline/static_pipeline.hpp.

#include <cctype>
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "dynid/core/number_format.hpp"
#include "dynid/core/staged_directory.hpp"
#include "dynid/mocap/c3d_import.hpp"
#include "dynid/pipeline/static_pipeline.hpp"

namespace dynid::cli {
namespace {

struct IdentifyStaticArgs {
  std::string model, out, pose_source = "markers", windows = "detect", prior = "scaled";
  std::vector<std::string> data;  ///< a data set directory, or C3D/TRC trials
  C3dImportOptions trial_plates;  ///< a TRC trial's force plates (--plates ...)
  std::string validate_plates;    ///< a TRC --validate's ground reaction file
  StaticPipelineOptions options;
};

std::string mm(const nlohmann::json& e) {
  return e["mean"].is_null() ? "-" : format_fixed(e["mean"].get<double>(), 3) + " mm";
}

int run(IdentifyStaticArgs a) {
  a.options.pose_source = a.pose_source == "encoders" ? PoseSource::Encoders : PoseSource::Markers;
  a.options.windows = a.windows == "segments" ? WindowSource::Segments : WindowSource::Detect;
  a.options.prior = a.prior == "nominal" ? StaticPrior::Nominal : StaticPrior::Scaled;
  StagedDirectory out(a.out, "identify static");  // a kill -9 leaves the previous output or none
  const Robot robot = load_robot(a.model);
  // Lab trials (C3D, or TRC with --plates) where a data set is expected: imported for this run; the
  // validation motion a data set, a C3D, or a TRC with --validate-plates.
  const ImportedTrials trials(a.data, a.options.validate, a.validate_plates, &robot.model, a.trial_plates,
                              "identify static");
  const DatasetOrMocapFile& data = *trials.data;
  a.options.validate = trials.validation->path();
  a.options.user_terms = [&](const std::string& text) { return trials.in_user_terms(text); };
  StaticPipelineResult r;
  try {
    r = run_static_identification(robot, data.path(), a.options);
  } catch (const std::exception& e) {
    throw std::runtime_error(trials.in_user_terms(e.what()));
  }
  write_static_identification(r, robot, out.path());
  out.commit();
  const auto& s = r.summary;
  for (const auto& w : s["input_warnings"]) std::cerr << "warning: " << w.get<std::string>() << "\n";
  std::cout << "dynid identify static: " << r.poses.size() << " poses (" << s["poses"]["fit"].get<int>() << " fit, "
            << s["poses"]["heldout"].get<int>() << " held out); held-out GCOM error "
            << mm(s["gcom_error_mm"]["nominal"]["heldout"]) << " (nominal) -> "
            << mm(s["gcom_error_mm"]["identified"]["heldout"]) << " (identified); total mass "
            << format_exact(s["total_mass"]["identified"].get<double>()) << " kg";
  if (r.validated)
    std::cout << "; validation |Fz| " << format_fixed(r.residual_nominal.mean_abs[5], 2) << " -> "
              << format_fixed(r.residual_identified.mean_abs[5], 2) << " N, |Tx| / |Ty| "
              << format_fixed(r.residual_nominal.mean_abs[0], 2) << " / "
              << format_fixed(r.residual_nominal.mean_abs[1], 2) << " -> "
              << format_fixed(r.residual_identified.mean_abs[0], 2) << " / "
              << format_fixed(r.residual_identified.mean_abs[1], 2) << " N m";
  std::cout << " -> " << a.out << "\n";
  if (r.plate_clock)
    std::cout << "plate clock against the markers': "
              << (r.plate_clock->warning.empty()
                      ? "offset " + format_fixed(1e3 * r.plate_clock->clock.offset_s, 1) + " ms (correlation " +
                            format_fixed(r.plate_clock->correlation, 3) + "), applied"
                      : r.plate_clock->warning)
              << "\n";
  if (r.plate_zero)
    for (const PlateZero& z : r.plate_zero->plates)
      if (z.windows > 0)
        std::cout << "plate zero: " << z.plate << " from " << z.windows << " unloaded windows ("
                  << format_fixed(z.unloaded_s, 1) << " s): Fz " << format_fixed(z.offset[2], 2) << " N at the start, "
                  << (z.drift_estimated ? format_fixed(60.0 * z.drift_per_s[2], 2) + " N/min drift"
                                        : std::string("no drift estimated"))
                  << " (summary.json plate_zero)\n";
  for (const std::string& w : r.warnings) std::cerr << "warning: " << w << "\n";
  if (r.plate_calibration)
    std::cout << "plate calibration: the plates' summed horizontal force at rest, RMS over "
              << r.plate_calibration->poses << " poses, " << format_fixed(r.plate_calibration->rms_before_n.norm(), 2)
              << " -> " << format_fixed(r.plate_calibration->rms_after_n.norm(), 2)
              << " N with the crosstalk removed (summary.json plate_calibration)\n";
  return 0;
}

}  // namespace

void add_identify_static(CLI::App& identify, Action& action) {
  auto a = std::make_shared<IdentifyStaticArgs>();
  auto* cmd = identify.add_subcommand(
      "static", "Segment masses and COMs from static poses with markers and force plates (paper 000)");
  cmd->add_option("MODEL", a->model, "URDF or MJCF file, or bundled robot (its sidecar names the markers)")->required();
  cmd->add_option("DATA", a->data,
                  "Data set with the static poses (markers, plates; encoders for --pose-source encoders), or a "
                  "lab's C3D or TRC trials (one pose each, or several; imported for the run, TRCs with --plates)")
      ->required();
  add_trial_plate_options(*cmd, a->trial_plates);
  cmd->add_option("--total-mass", a->options.total_mass, "Weighed total mass of the robot [kg]")
      ->required()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--segments", a->options.segments,
                  "Bodies to update, comma separated (default: the paper's main segments)")
      ->delimiter(',');
  cmd->add_option("--validate", a->options.validate,
                  "Data set of a dynamic motion (squat), or its C3D or TRC trial: residual base wrench before/after");
  cmd->add_option("--validate-plates", a->validate_plates,
                  "With a TRC trial as --validate: its ground reaction file (.mot/.sto; plates where --plate-layout "
                  "says)");
  cmd->add_option("--cutoff", a->options.cutoff_hz,
                  "Validation: zero-phase low-pass of q and plate wrenches before differentiation [Hz] (default 4)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--truth", a->options.truth_urdf, "True model (simulation): per-segment errors");
  cmd->add_option("--heldout-fraction", a->options.heldout_fraction,
                  "Fraction of poses held out for validation (default 0.25: every 4th)")
      ->check(CLI::Range(0.0, 0.95));
  cmd->add_option("--pose-source", a->pose_source, "Joint angles from marker IK (default) or the encoders")
      ->check(CLI::IsMember({"markers", "encoders"}));
  cmd->add_option("--windows", a->windows, "Static windows detected from the data (default) or the data set's segments")
      ->check(CLI::IsMember({"detect", "segments"}));
  cmd->add_option("--prior", a->prior,
                  "Start and anchor: the nominal model scaled to the weighed mass (default) or as it is")
      ->check(CLI::IsMember({"scaled", "nominal"}));
  cmd->add_flag("--calibrate-markers", a->options.calibrate_markers,
                "Calibrate where each marker sits on its body from the poses first (not a body's rigid shift)");
  cmd->add_flag("--zero-plates", a->options.zero_plates,
                "Zero each force plate from the windows where it carries no foot (under 20 N for 0.5 s: poses on "
                "one foot), its offset and drift, before anything reads the plates; also --validate's plates "
                "where they have such windows");
  cmd->add_flag("--calibrate-plates", a->options.calibrate_plates,
                "Calibrate the force plates' crosstalk from the vertical into the horizontal force channels from "
                "the static poses (standing still, the horizontal forces sum to zero) and remove it, also from "
                "--validate's plates");
  cmd->add_flag("--align-time", a->options.align_time,
                "--validate: estimate the plates' clock offset against the markers' (their total force against "
                "the markers' kinematics) and read the plates on the markers' clock");
  cmd->add_option("--out", a->out, "Output directory: summary.json, report.html, the updated URDF")->required();
  cmd->callback([&action, a] { action = [a] { return run(*a); }; });
}

}  // namespace dynid::cli
