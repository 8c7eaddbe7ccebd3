#include "dynid/pipeline/identification_report.hpp"

#include <cstdio>

#include "dynid/pipeline/inertial_identification.hpp"

#include "dynid/report/html_report.hpp"

namespace dynid {
namespace {

std::string number(double x, const char* format = "%.4g") {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, x);
  return buf;
}

std::string optional_number(const std::optional<double>& x) { return x ? number(*x) : "not measured"; }

// The CAD prior's scale per class of parameter, when the data chose it (ident/cad_prior.hpp).
std::string learned_prior_sentence(const InertialIdentificationResult& r) {
  if (!r.cad_prior_fractions) return "";
  const auto& f = *r.cad_prior_fractions;
  auto pct = [&](CadParameterClass c) { return number(100.0 * f[static_cast<std::size_t>(c)], "%.2g") + " %"; };
  // Classes the data wanted looser than the ceiling: said, with the coordinates that moved most.
  std::string above;
  for (const InertialIdentificationResult::PriorCeiling& c : r.cad_prior_above_ceiling) {
    std::string moves;
    for (const auto& [name, move] : c.largest_moves)
      moves += (moves.empty() ? "" : ", ") + name + " by " + number(move, "%.2g");
    above += std::string("The data asked for ") + number(100.0 * c.wanted, "%.2g") + " % for the " +
             to_string(c.parameter_class) +
             " class, more than the ceiling: errors the sensors' noise model does not "
             "explain move it (largest moves, in body scales: " +
             moves + "). ";
  }
  if (r.cad_prior_coordinates == CadPriorCoordinates::Com)
    return "The prior's width was learned from the data, per class of parameter, as a fraction of each body's own "
           "scale: masses " +
           pct(CadParameterClass::Mass) + ", centres of mass " + pct(CadParameterClass::FirstMoment) +
           " of the body's size, inertia about the COM " + pct(CadParameterClass::DiagonalInertia) +
           " (diagonal) and " + pct(CadParameterClass::ProductOfInertia) +
           " (products) (at most 30 %); the inertia about each joint moves with the mass and the COM "
           "(parallel-axis theorem). " +
           above;
  return "The prior's width was learned from the data, per class of parameter, as a fraction of each body's own "
         "scale: masses " +
         pct(CadParameterClass::Mass) + ", first moments " + pct(CadParameterClass::FirstMoment) +
         ", diagonal inertia " + pct(CadParameterClass::DiagonalInertia) + ", products of inertia " +
         pct(CadParameterClass::ProductOfInertia) + " (at most 30 %). " + above;
}

/// A bar chart of one series: one bar per category.
BarPlot single_series(const std::string& title, const std::string& y_label, const std::string& series) {
  BarPlot plot;
  plot.title = title;
  plot.y_label = y_label;
  plot.groups = {series};
  plot.values = {{}};
  return plot;
}

}  // namespace

void write_identification_report(const InertialIdentificationResult& r, const std::string& path) {
  HtmlReport report("dynid identify inertial: " + r.base.model_name);
  for (const std::string& w : r.input_warnings) report.paragraph("Input warning: " + w + ".");
  report.paragraph("Data: " + r.source_description + ". Sensor set '" + r.sensors + "', " + std::to_string(r.samples) +
                   " training samples, " + std::to_string(r.validation_samples) + " validation samples. " +
                   std::to_string(r.base.num_base()) + " base parameters, condition number " +
                   number(r.condition_number) + ".");
  if (r.parallel_filter)
    report.paragraph("Parallel filter (Gautier): both sides of the training equations low-passed at " +
                     number(r.parallel_filter->cutoff_hz, "%.3g") + " Hz and one sample in " +
                     std::to_string(r.parallel_filter->decimation) + " kept (" +
                     std::to_string(r.parallel_filter->samples_out) + " of " +
                     std::to_string(r.parallel_filter->samples_in) + ")" +
                     (r.parallel_filter->runs == r.parallel_filter->samples_in
                          ? std::string(", but the rows' weights changed at every sample (measured contact wrenches, "
                                        "IMU noise), so they were decimated, not filtered (--parallel-filter-all-rows "
                                        "filters them)")
                          : std::string()) +
                     "; the held-out residual RMS below are taken in the same band. The plots show the samples "
                     "as the sensor path gives them.");
  if (r.acceleration_noise) {
    const auto& a = *r.acceleration_noise;
    report.paragraph(
        "IMU noise in the derived base accelerations, as it reaches the training equations: " +
        number(a.base_angular, "%.3g") + " rad/s^2 angular, " + number(a.base_linear, "%.3g") +
        " m/s^2 linear, from the IMU's white noise densities " + number(a.gyro_noise_density, "%.3g") +
        " rad/s/sqrt(Hz) and " + number(a.accelerometer_noise_density, "%.3g") + " m/s^2/sqrt(Hz) (" +
        (a.densities_from_data ? "estimated from the IMU stream's own second differences"
                               : "as given, --gyro-noise, --accelerometer-noise") +
        "). It weights the equations" +
        (a.bias_removed ? std::string(", and the bias it puts on the fit (it shrinks the inertias the base's "
                                      "acceleration multiplies) is taken off") +
                              (a.capped_directions > 0 ? " (in " + std::to_string(a.capped_directions) +
                                                             " direction(s) only up to 90 % of the data's information)"
                                                       : std::string())
                        : std::string()) +
        ".");
  }

  // Each stream's clock against the encoders (--align-time, --time-offset), applied or not and why;
  // the training data's, and a separate validation data set's.
  for (const auto& [data, alignment] :
       {std::make_pair(std::string(), &r.time_alignment),
        std::make_pair(std::string(" of the validation data"), &r.validation_time_alignment)}) {
    if (alignment->empty()) continue;
    ReportTable clocks;
    clocks.caption = "Stream clocks" + data +
                     " against the encoders (stream stamp minus robot time; docs/identification.md, "
                     "\"Time alignment\")";
    clocks.header = {"stream", "offset [ms]", "drift [ppm]", "from", "correlation", "applied"};
    for (const auto& [stream, c] : *alignment)
      clocks.rows.push_back(
          {stream,
           number(1e3 * c.estimate.clock.offset_s, "%.2f") +
               (c.refined ? " (kinematics: " + number(1e3 * c.refined->kinematic_offset_s, "%.2f") + ")" : ""),
           c.given                       ? number(c.estimate.clock.drift_ppm, "%.1f")
           : !c.estimate.warning.empty() ? ""
           : c.estimate.drift_windows > 0
               ? number(c.estimate.clock.drift_ppm, "%.1f") + " ± " + number(c.estimate.drift_std_ppm, "%.1f")
               : "not estimated",
           c.given     ? "given"
           : c.refined ? c.estimate.compared + "; refined to the minimum of the " +
                             (data.empty() ? "fit's" : "identified model's") + " residual (weighted RMS " +
                             number(c.refined->residual_rms_kinematic, "%.3f") + " -> " +
                             number(c.refined->residual_rms_refined, "%.3f") + ", " + std::to_string(c.refined->fits) +
                             " fits" + (c.refined->warning.empty() ? ")" : "; " + c.refined->warning + ")")
                       : c.estimate.compared,
           c.given ? "" : number(c.estimate.correlation, "%.3f"),
           c.applied
               ? "yes"
               : (!c.estimate.warning.empty() ? "no: " + c.estimate.warning : "no: below half an encoder period")});
    report.table(clocks);
  }

  report.heading("What the model leaves unexplained");
  report.paragraph(r.unexplained.explanation + " The ratio is " + r.unexplained.basis + "." +
                   (r.truth_rms ? " In simulation the true model's held-out residual below is the floor the data path "
                                  "leaves to any identification."
                                : ""));
  {
    ReportTable ratio;
    ratio.caption = "Training residual in units of the sensors' noise";
    ratio.header = {"residual / sensor noise", "at the noise", "above it", "far above it"};
    ratio.rows.push_back({number(r.unexplained.noise_ratio, "%.2f"), "<= " + number(kResidualAtNoise, "%.1f"),
                          "<= " + number(kResidualFarAbove, "%.1f"), "> " + number(kResidualFarAbove, "%.1f")});
    report.table(ratio);
  }

  report.heading("Validation on held-out motion: RMS of the equation residuals");
  report.paragraph("Held-out motion: " + r.validation_data + ".");
  // A fixed-base robot has no base rows: its validation is the joint torques alone.
  const bool floating = r.identified_model.floating_base;
  ReportTable rms;
  rms.caption = "Nominal vs identified model (paper 004 fig. 6)";
  rms.header = {"quantity", "nominal", "identified"};
  if (r.truth_rms) rms.header.push_back("true model");  // simulation: the floor the data path leaves
  const auto add_row = [&](const std::string& quantity, const std::string& nominal, const std::string& identified,
                           const std::string& truth) {
    rms.rows.push_back({quantity, nominal, identified});
    if (r.truth_rms) rms.rows.back().push_back(truth);
  };
  if (floating) {
    add_row("base force [N]", number(r.nominal_rms.force), number(r.identified_rms.force),
            r.truth_rms ? number(r.truth_rms->force) : "");
    add_row("base moment [N m]", number(r.nominal_rms.moment), number(r.identified_rms.moment),
            r.truth_rms ? number(r.truth_rms->moment) : "");
  }
  add_row("joint torque [N m]", optional_number(r.nominal_rms.torque), optional_number(r.identified_rms.torque),
          r.truth_rms ? optional_number(r.truth_rms->torque) : "");
  if (floating)
    add_row("projected force (contact forces projected out)", optional_number(r.nominal_rms.projected),
            optional_number(r.identified_rms.projected), r.truth_rms ? optional_number(r.truth_rms->projected) : "");
  add_row("total mass [kg]", number(r.nominal_total_mass), number(r.total_mass),
          r.truth_total_mass ? number(*r.truth_total_mass) : "");
  report.table(rms);
  if (r.truth_rms && (!r.torque_offsets.empty() || !r.torque_gains.empty()))
    report.paragraph(
        r.truth_sensor_calibration
            ? "The identified and the true model are each read through the joint torque sensors' calibration "
              "(offsets, gains) that suits it best on the training data: the fit's for the identified model, the "
              "same least squares with the true inertias held for the true model. The calibration belongs to the "
              "sensors, not to the model. The nominal model reads the sensors raw."
            : "The identified and the true model are both read through the joint torque sensors' calibration this "
              "fit found (offsets and gains belong to the sensors, not to the model); the nominal model reads them "
              "raw.");
  for (const std::string& w : r.warnings) report.paragraph("Warning: " + w + ".");
  BarPlot bars;
  bars.title = "RMS on held-out motion";
  bars.y_label = "RMS";
  bars.groups = {"nominal", "identified"};
  bars.values = {{}, {}};
  if (floating) {
    bars.categories = {"base force [N]", "base moment [N m]"};
    bars.values = {{r.nominal_rms.force, r.nominal_rms.moment}, {r.identified_rms.force, r.identified_rms.moment}};
  }
  if (r.nominal_rms.torque && r.identified_rms.torque) {
    bars.categories.push_back("joint torque [N m]");
    bars.values[0].push_back(*r.nominal_rms.torque);
    bars.values[1].push_back(*r.identified_rms.torque);
  }
  if (floating && r.nominal_rms.projected && r.identified_rms.projected) {
    bars.categories.push_back("projected force");
    bars.values[0].push_back(*r.nominal_rms.projected);
    bars.values[1].push_back(*r.identified_rms.projected);
  }
  report.bars(bars);

  // Per joint: where the model helps and where a joint's torque stays unexplained.
  ReportTable per_joint;
  per_joint.caption = "Held-out joint torque RMS per joint [N m]";
  per_joint.header = {"joint", "nominal", "identified"};
  if (r.without_friction_rms) per_joint.header.push_back("identified, friction terms left out");
  if (r.truth_rms) per_joint.header.push_back("true model");
  const auto at = [](const ValidationRms& v, std::size_t i) {
    return i < v.per_coordinate.size() && v.per_coordinate[i] ? number(*v.per_coordinate[i]) : std::string();
  };
  for (std::size_t b = 1; b < r.identified_model.bodies.size(); ++b) {
    const Body& body = r.identified_model.bodies[b];
    const std::size_t i = static_cast<std::size_t>(body.idx_v);
    if (body.joint_name.empty() || body.nv != 1 || at(r.identified_rms, i).empty()) continue;
    per_joint.rows.push_back({body.joint_name, at(r.nominal_rms, i), at(r.identified_rms, i)});
    if (r.without_friction_rms) per_joint.rows.back().push_back(at(*r.without_friction_rms, i));
    if (r.truth_rms) per_joint.rows.back().push_back(at(*r.truth_rms, i));
  }
  if (!per_joint.rows.empty()) report.table(per_joint);

  static const char* const kAxes[6] = {"force x [N]",    "force y [N]",    "force z [N]",
                                       "moment x [N m]", "moment y [N m]", "moment z [N m]"};
  if (!r.series.measured_wrench.empty()) {
    report.heading("Base wrench: measured vs reconstructed (paper 003 fig. 4)");
    for (int a = 0; a < 6; ++a) {
      LinePlot p;
      p.title = std::string("base ") + kAxes[a] + ", base frame";
      p.x_label = "time [s]";
      p.y_label = kAxes[a];
      PlotSeries m{"measured", r.series.time, {}}, n{"nominal model", r.series.time, {}},
          i{"identified model", r.series.time, {}};
      for (std::size_t k = 0; k < r.series.time.size(); ++k) {
        m.y.push_back(r.series.measured_wrench[k][a]);
        n.y.push_back(r.series.nominal_wrench[k][a]);
        i.y.push_back(r.series.identified_wrench[k][a]);
      }
      p.series = {m, n, i};
      report.plot(p);
    }
  }
  if (r.identified_rms.torque) {
    report.heading("Joint torques: measured vs reconstructed (paper 003 fig. 5)");
    for (std::size_t j = 0; j < r.series.torque_joints.size(); ++j) {
      LinePlot p;
      p.title = r.series.torque_joints[j];
      p.x_label = "time [s]";
      p.y_label = "torque [N m]";
      p.series = {{"measured", r.series.time, r.series.measured_torque[j]},
                  {"nominal model", r.series.time, r.series.nominal_torque[j]},
                  {"identified model", r.series.time, r.series.identified_torque[j]}};
      report.plot(p);
    }
  }

  if (!r.torque_offsets.empty()) {
    report.heading("Joint torque sensor offsets");
    ReportTable off;
    off.caption = "Estimated with the inertial parameters: the sensor reads the joint torque plus the offset";
    off.header = {"joint", "offset [N m]", "std"};
    for (const TorqueOffset& o : r.torque_offsets)
      off.rows.push_back({o.joint, number(o.value, "%.4g"), number(o.std, "%.2g")});
    report.table(off);
  }
  if (!r.torque_gains.empty()) {
    report.heading("Joint torque sensor gains");
    ReportTable gains;
    gains.caption =
        "Estimated with the inertial parameters, the contact wrenches fixing the scale: the sensor reads the gain "
        "times the joint torque";
    gains.header = {"joint", "gain", "std"};
    for (const TorqueGain& g : r.torque_gains)
      gains.rows.push_back({g.joint, number(g.value, "%.5f"), number(g.std, "%.2g")});
    report.table(gains);
  }
  if (r.torque_gain_std > 0.0) {
    report.heading("Joint torque sensor gains");
    report.paragraph("Not estimated (this sensor set cannot tell them from the masses): the sensors' gain accuracy, " +
                     number(100.0 * r.torque_gain_std, "%.3g") +
                     " % (1 sigma), is counted in the standard deviations; the base parameter table gives each "
                     "one's share (\"std from gains\").");
  }
  if (!r.ft_calibration.empty()) {
    report.heading("F/T sensor calibration");
    ReportTable cal;
    report.paragraph(
        "Estimated with the inertial parameters: the wrench in each F/T sensor's frame is the matrix times its "
        "reading, each entry with its standard deviation; the prior allows " +
        number(r.ft_calibration_prior_std, "%.2g") + " per entry" +
        (r.total_mass_kg > 0.0
             ? ", and the weighed total mass of " + number(r.total_mass_kg, "%.3f") + " kg (std " +
                   number(r.total_mass_std_kg, "%.2g") + " kg) fixes the scale the corrections share with the masses"
             : ": without a weighed total mass their common scale and the masses are told apart "
               "by the prior alone (give --total-mass)") +
        ". The validation reads the held-out sensors through these corrections. An entry whose standard deviation "
        "is near the prior's is one the motion does not determine.");
    cal.caption = "Calibration of each F/T sensor (rows x, y, z of force and moment)";
    cal.header = {"sensor (contact)", "block", "row", "x", "y", "z"};
    for (const InertialIdentificationResult::WrenchCalibration& w : r.ft_calibration)
      for (int block = 0; block < 2; ++block)
        for (int i = 0; i < 3; ++i) {
          const Matrix3& m = block == 0 ? w.force : w.moment;
          const Matrix3& sd = block == 0 ? w.force_std : w.moment_std;
          std::vector<std::string> row = {i == 0 && block == 0 ? w.sensor + " (" + w.contact + ")" : "",
                                          i == 0 ? (block == 0 ? "force" : "moment") : "", std::string(1, "xyz"[i])};
          for (int j = 0; j < 3; ++j) row.push_back(number(m(i, j), "%.4f") + " ± " + number(sd(i, j), "%.1g"));
          cal.rows.push_back(row);
        }
    report.table(cal);
  }
  if (r.imu_calibration) {
    const ImuCalibration& c = *r.imu_calibration;
    report.heading("IMU calibration from the still windows");
    const auto vec = [](const Vector3& v, const char* format) {
      return number(v.x(), format) + ", " + number(v.y(), format) + ", " + number(v.z(), format);
    };
    report.paragraph(
        "Where the robot held still (" + number(static_cast<double>(c.windows.size()), "%.0f") + " window(s), " +
        number(c.still_seconds, "%.1f") +
        " s in all: every joint and the leg kinematics' base rate slow), the gyro reads its bias and the "
        "accelerometer gravity. Gyro bias " +
        vec(c.gyro_bias_rad_s, "%.2e") + " rad/s, accelerometer bias " + vec(c.accel_bias_m_s2, "%.3f") +
        " m/s^2 (sensor axes). The fit reads the gyro with this bias instead of its mean against the whole "
        "motion's kinematic rate, which takes the feet's roll and slip for bias; the accelerometer's bias stays "
        "the whole motion's mean, which also carries the kinematic attitude's mean error during the motion that "
        "the equations need (the still windows' value is the sensor's own). The sensor's axes: " +
        c.axes_note +
        (c.axes_determined ? " (" + number(c.misalignment_deg, "%.2f") + " deg from the sidecar's frame)" : "") +
        ". Against the nominal leg kinematics: machining tolerances of the legs tilt the base attitude those "
        "kinematics give by tenths of a degree, and the axes found are the IMU's relative to it.");
  }
  if (!r.gear_windup.empty()) {
    report.heading("Gear wind-up taken off the encoders");
    report.paragraph(
        "Each gear twists under the torque it carries to its link, and the encoder behind it reads the link's angle "
        "plus the twist. The link torques of the first fit's model (inverse dynamics with the measured contact "
        "wrenches, low-passed) times each joint's compliance were taken off the encoders, and the fit made again; "
        "the validation reads its encoders corrected with the identified model's link torques.");
    ReportTable w;
    w.caption = "Per joint: its stiffness, where it came from, and the twist taken off its training encoders";
    w.header = {"joint", "stiffness [N m/rad]", "from", "largest twist [deg]", "RMS twist [deg]"};
    for (const InertialIdentificationResult::GearWindupCorrection& g : r.gear_windup)
      w.rows.push_back({g.joint, number(g.stiffness, "%.0f"), g.from, number(g.max_twist * 180.0 / M_PI, "%.3f"),
                        number(g.rms_twist * 180.0 / M_PI, "%.3f")});
    report.table(w);
  }
  if (!r.gear_plays_deg.empty()) {
    report.heading("Gear play taken off the encoders");
    report.paragraph(
        "Each encoder sits on the motor side of a gear with " +
        (r.gear_backlash_deg > 0.0 ? number(r.gear_backlash_deg, "%.3g") + " deg of play"
                                   : std::string("the play its sidecar actuator declares")) +
        " and reads the link's angle plus the rotor's place in it: on the flank the link torque names, "
        "crossing it against the rotor's inertia when that torque reverses. That place, predicted from the first "
        "fit's link torques (inverse dynamics with the measured contact wrenches) and each sidecar actuator's "
        "armature and damping, was taken off the encoders and the fit made again; the validation's encoders are "
        "corrected with the identified model's link torques. The predicted rotors were crossing their play at " +
        number(100.0 * r.gear_play_crossing_fraction, "%.1f") +
        " % of the training samples (the rest of the time each leaned on a flank).");
  }
  if (!r.friction.empty()) {
    report.heading("Joint friction and armature");
    ReportTable fr;
    fr.caption =
        "Estimated with the inertial parameters (what the joint torque reads beyond the links' dynamics): viscous "
        "[N m s/rad], Coulomb [N m], offset [N m], armature [kg m^2]. A grouped term acts exactly as the named base "
        "parameter does on these data and is carried by it.";
    fr.header = {"joint", "term", "value", "std", "truth"};
    for (const JointFrictionTerm& f : r.friction)
      fr.rows.push_back({f.joint, f.term,
                         !f.grouped_with.empty() ? "grouped with " + f.grouped_with
                         : f.at_bound            ? "0 (held at its bound: the data asked for a negative value)"
                                                 : number(f.value, "%.4g"),
                         f.grouped_with.empty() ? number(f.std, "%.2g") : "", f.truth ? number(*f.truth, "%.4g") : ""});
    report.table(fr);
    if (r.torque_rms_without_friction && r.identified_rms.torque)
      report.paragraph(
          "Held-out joint-torque RMS " + number(*r.identified_rms.torque, "%.4g") +
          " N m with these terms; the same fit without them: " + number(*r.torque_rms_without_friction, "%.4g") +
          " N m (" + number(*r.torque_rms_without_friction / std::max(*r.identified_rms.torque, 1e-300), "%.3g") +
          " times). " +
          (*r.torque_rms_without_friction > 2.0 * *r.identified_rms.torque
               ? "Friction matters on this robot: keep the terms."
               : "The terms explain little here."));
  }
  if (!r.weighting_scales.empty()) {
    report.heading("Residual weighting");
    report.paragraph(
        "Each equation group's residual RMS after a fit, in units of its sensors' noise (at least 1); its rows were "
        "weighted down by the square of this scale.");
    BarPlot scales = single_series("Residual scale per equation group", "scale", "scale");
    for (const EquationGroupScale& g : r.weighting_scales) {
      scales.categories.push_back(g.label);
      scales.values[0].push_back(g.scale);
    }
    report.bars(scales);
  }

  const bool with_prior = r.determination.size() == r.base.num_base();
  if (with_prior) {
    report.heading("What this motion determines");
    const DeterminationCounts counts = count_determination(r.determination);
    report.paragraph(
        "Each base parameter starts from the CAD (nominal) model with a prior uncertainty on its body's own scale; "
        "the data move it as far as they determine it. Determination = 1 - posterior variance / prior variance: " +
        std::to_string(counts.determined) + " base parameters are determined by this motion (>= 0.75), " +
        std::to_string(counts.kept_at_cad) + " are kept at CAD (<= 0.25), " + std::to_string(counts.partly) +
        " are partly determined. The data were weighted as " + number(r.cad_data_scale.value_or(1.0), "%.3g") +
        " times their sensors' noise variance, from the spread of the equations' scores over blocks of the motion. " +
        learned_prior_sentence(r) +
        (r.held_at_cad > 0 ? "The " + std::to_string(r.held_at_cad) + " with a determination of at most " +
                                 number(r.held_below, "%.2g") +
                                 " have CAD's values exactly and the rest were estimated given them "
                                 "(--keep-at-cad); their standard deviations are those before, nearly the prior's. "
                           : std::string()) +
        "To determine more, excite the motion that changes the parameters kept at CAD (dynid excite).");
    BarPlot d = single_series("Determination of each base parameter (0: kept at CAD, 1: determined by the motion)",
                              "1 - posterior/prior variance", "determination");
    for (int k = 0; k < r.base.num_base(); ++k) {
      d.categories.push_back(std::to_string(k));
      d.values[0].push_back(r.determination[k]);
    }
    report.bars(d);
  }
  if (!r.parameter_error_vs_nominal.empty()) {
    report.heading("Parameters against the true model (simulation)");
    report.paragraph(
        "Per class of base parameter, the median error of the identified model divided by the CAD model's: below 1 "
        "the identified model is closer to the truth than the CAD model it started from. 'determined only': the same "
        "over the base parameters this motion determines (determination >= 0.75).");
    BarPlot ratio = single_series("median |identified - truth| / median |nominal - truth|",
                                  "ratio (1 = as good as CAD)", "identified / CAD");
    for (const auto& [label, value] : r.parameter_error_vs_nominal) {
      ratio.categories.push_back(label);
      ratio.values[0].push_back(value);
    }
    // Beside it, the same over the base parameters the motion determines: where the data speak.
    if (r.parameter_error_vs_nominal_determined.size() == r.parameter_error_vs_nominal.size()) {
      ratio.groups = {"all base parameters", "determined only"};
      ratio.values.emplace_back();
      for (const auto& entry : r.parameter_error_vs_nominal_determined) ratio.values[1].push_back(entry.second);
    }
    report.bars(ratio);
  }

  report.heading("Base parameters");
  ReportTable t;
  t.caption = "Identified base parameters, standard deviation and grouping";
  t.header = {"#", "name", "value", "std", "nominal"};
  const bool gains_counted = r.base_std_from_torque_gains.size() == r.base.num_base();
  if (gains_counted) t.header.insert(t.header.begin() + 4, "std from gains");
  if (r.base_truth) t.header.push_back("truth");
  if (with_prior) t.header.insert(t.header.end(), {"prior std", "status"});
  t.header.push_back("combines");
  for (int k = 0; k < r.base.num_base(); ++k) {
    std::vector<std::string> row = {std::to_string(k), r.base.name(k), number(r.base_values[k], "%.6g"),
                                    number(r.base_std[k], "%.2g"), number(r.base_nominal[k], "%.6g")};
    if (gains_counted) row.insert(row.begin() + 4, number(r.base_std_from_torque_gains[k], "%.2g"));
    if (r.base_truth) row.push_back(number((*r.base_truth)[k], "%.6g"));
    if (with_prior) {
      row.push_back(number(r.prior_std[k], "%.2g"));
      row.push_back(determination_status(r.determination[k]));
    }
    row.push_back(r.base.expression(k));
    t.rows.push_back(row);
  }
  report.table(t);
  if (!r.identified_urdf_changes.empty()) {
    report.heading("The identified URDF");
    ReportTable changes;
    changes.caption = "What writing the identified model into the URDF changed (summary.json identified_urdf)";
    changes.header = {"change"};
    for (const std::string& c : r.identified_urdf_changes) changes.rows.push_back({c});
    report.table(changes);
  }
  if (!r.inconsistent_links.empty()) {
    std::string s = "Physically inconsistent links of the identified model:";
    for (const auto& l : r.inconsistent_links) s += " " + l + ";";
    report.paragraph(s + " use --consistent for a physically consistent estimate.");
  }
  report.write(path);
}

}  // namespace dynid
