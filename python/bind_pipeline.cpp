// dynid.simulate and the inertial identification's stages (include/dynid/pipeline/
// inertial_identification.hpp): what `dynid simulate` and `dynid identify inertial` run, with the
// options as keyword arguments of the same names.

#include <optional>
#include <variant>

#include "convert.hpp"
#include "dynid/core/staged_directory.hpp"
#include "dynid/mocap/c3d_import.hpp"
#include "dynid/pipeline/inertial_identification.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "dynid/sim/perturbations.hpp"

namespace dynid::python {

namespace {

using EstimatePtr = std::shared_ptr<InertialEstimate>;
using ResultPtr = std::shared_ptr<InertialIdentificationResult>;

/// The RMS values; "per_joint": {joint: torque RMS [N m]} of each 1-DoF joint with a measured torque
/// (summary.json's validation.torque_rms_per_joint), `model` naming the velocity coordinates.
py::dict rms_dict(const ValidationRms& r, const Model& model) {
  py::dict d;
  d["force"] = r.force;
  d["moment"] = r.moment;
  d["torque"] = r.torque ? py::cast(*r.torque) : py::none();
  d["projected"] = r.projected ? py::cast(*r.projected) : py::none();
  py::dict per_joint;
  for (std::size_t b = 1; b < model.bodies.size(); ++b) {
    const Body& body = model.bodies[b];
    const auto i = static_cast<std::size_t>(body.idx_v);
    if (body.joint_name.empty() || body.nv != 1 || i >= r.per_coordinate.size() || !r.per_coordinate[i]) continue;
    per_joint[py::str(body.joint_name)] = *r.per_coordinate[i];
  }
  d["per_joint"] = per_joint;
  return d;
}

template <class Term>
py::list sensor_terms(const std::vector<Term>& terms, const char* value_key) {
  py::list out;
  for (const Term& t : terms)
    out.append(py::dict(py::arg("joint") = t.joint, py::arg(value_key) = t.value, py::arg("std") = t.std));
  return out;
}

/// samples x 6 rows of wrenches.
RowMajorMatrix wrench_rows(const std::vector<Vector6>& w) {
  RowMajorMatrix out(static_cast<Eigen::Index>(w.size()), 6);
  for (std::size_t i = 0; i < w.size(); ++i) out.row(static_cast<Eigen::Index>(i)) = w[i].transpose();
  return out;
}

RowMajorMatrix torque_rows(const std::vector<std::vector<double>>& t) {
  // [joint][sample] -> samples x joints
  const Eigen::Index joints = static_cast<Eigen::Index>(t.size());
  const Eigen::Index n = joints ? static_cast<Eigen::Index>(t[0].size()) : 0;
  RowMajorMatrix out(n, joints);
  for (Eigen::Index j = 0; j < joints; ++j)
    for (Eigen::Index i = 0; i < n; ++i) out(i, j) = t[static_cast<std::size_t>(j)][static_cast<std::size_t>(i)];
  return out;
}

}  // namespace

C3dImportOptions trial_plate_options(const std::vector<std::string>& plates, const std::string& plate_layout,
                                     const std::string& plates_unit, const std::string& up) {
  if (up != "y" && up != "z") throw py::value_error("up: 'z' or 'y', not '" + up + "'");
  if (!plates_unit.empty() && plates_unit != "m" && plates_unit != "mm")
    throw py::value_error("plates_unit: 'm' or 'mm' (or empty: the files' headers), not '" + plates_unit + "'");
  C3dImportOptions o;
  o.plate_files = plates;
  o.plate_layout_path = plate_layout;
  o.plates_length_unit = plates_unit;
  o.up_axis = up;
  return o;
}

std::string in_python_terms(std::string message) {
  // The command's plate options by the keywords that stand for them here.
  for (const auto& [flag, keyword] :
       std::vector<std::pair<std::string, std::string>>{{"--plates-unit", "plates_unit"},
                                                        {"--plate-layout", "plate_layout"},
                                                        {"--plates", "plates"},
                                                        {"--up", "up"}})
    for (std::size_t at = message.find(flag); at != std::string::npos; at = message.find(flag, at + keyword.size()))
      message.replace(at, flag.size(), keyword);
  return message;
}

namespace {

/// gear_stiffness: {joint: N m/rad}, or "sidecar" (each sidecar actuator's torsional_stiffness).
using GearStiffnessArg = std::variant<std::map<std::string, double>, std::string>;
/// gear_backlash: degrees, or "sidecar" (each sidecar actuator's backlash).
using GearBacklashArg = std::variant<double, std::string>;

InertialIdentificationOptions identification_options(
    const std::string& model, const std::string& data, const std::string& sensors, const std::string& source,
    const std::string& validate, double holdout, const std::string& truth, const std::map<std::string, double>& locks,
    bool lock_upper_body, bool consistent, py::handle prior, const std::string& weighting, bool torque_offsets,
    bool torque_gains, double torque_gain_std, bool fixed_base, const std::string& friction, bool armature,
    py::handle cutoff, bool align_time, bool align_drift, bool align_kinematics_only,
    const std::string& validate_clocks, const std::map<std::string, std::string>& friction_joints,
    const std::string& validation_window, py::handle parallel_filter, const std::string& prior_frame, bool keep_at_cad,
    double keep_below, bool ft_calibration, bool imu_calibration, const std::string& imu_axes, py::handle total_mass,
    double gear_windup, const GearStiffnessArg& gear_stiffness, const GearBacklashArg& gear_backlash) {
  // The checks the command line's option parser makes before the library sees the values.
  if (source != "sensors" && source != "mocap" && source != "truth")
    throw py::value_error("source: 'sensors', 'mocap' or 'truth', not '" + source + "'");
  if (!(holdout >= 0.01 && holdout <= 0.99)) throw py::value_error("holdout: must be in [0.01, 0.99]");
  // None or a number (py::handle: GCC 12 warns on pybind11's optional<double> caster).
  const bool has_cutoff = !cutoff.is_none();
  const double cutoff_hz = has_cutoff ? cutoff.cast<double>() : 0.0;
  if (has_cutoff && !(cutoff_hz > 0.0)) throw py::value_error("cutoff: must be a positive frequency in Hz");
  const bool has_parallel_filter = !parallel_filter.is_none();
  const double parallel_filter_hz = has_parallel_filter ? parallel_filter.cast<double>() : 0.0;
  if (has_parallel_filter && !(parallel_filter_hz > 0.0))
    throw py::value_error("parallel_filter: must be a positive frequency in Hz");
  if (prior_frame != "origin" && prior_frame != "com")
    throw py::value_error("prior_frame: 'origin' or 'com', not '" + prior_frame + "'");
  if (!locks.empty()) {
    // Named by the argument (the library names only the joint).
    const Robot robot = load_robot(model);
    for (const auto& [joint, position] : locks)
      if (!robot.model.find_joint(joint))
        throw py::value_error("locks: joint '" + joint + "' is not in " + robot.model.label());
  }
  InertialIdentificationOptions o;
  o.model = model;
  o.data = data;
  o.sensors = sensors;
  o.source = source;
  o.validate = validate;
  o.holdout_fraction = holdout;
  o.truth_urdf = truth;
  for (const auto& [joint, position] : locks) o.locks.push_back({joint, position});
  o.lock_upper_body = lock_upper_body;
  o.consistent = consistent;
  if (!prior.is_none()) o.prior = prior.cast<double>();
  o.weighting = weighting;
  o.torque_offsets = torque_offsets;
  o.torque_gains = torque_gains;
  o.torque_gain_std = torque_gain_std;
  o.fixed_base = fixed_base;
  o.friction = friction;
  o.armature = armature;
  if (has_cutoff) {
    o.sensor_options.cutoff_hz = o.mocap_options.cutoff_hz = cutoff_hz;
    o.sensor_options.raw_when_noise_free = false;
  }
  o.align_time = align_time;
  o.align_drift = align_drift;
  o.align_time_by_fit = !align_kinematics_only;
  o.validate_clocks = validate_clocks;
  o.friction_joints = friction_joints;
  o.validation_window = validation_window;
  if (has_parallel_filter) o.parallel_filter.cutoff_hz = parallel_filter_hz;
  o.cad_prior_coordinates = prior_frame == "com" ? CadPriorCoordinates::Com : CadPriorCoordinates::Origin;
  o.keep_at_cad = keep_at_cad;
  if (!(keep_below >= 0.0 && keep_below <= 0.99)) throw py::value_error("keep_below: a determination in [0, 0.99]");
  if (keep_below != 0.25 && !keep_at_cad) throw py::value_error("keep_below: goes with keep_at_cad=True");
  o.keep_below = keep_below;
  if (keep_at_cad && o.prior)
    throw py::value_error("keep_at_cad: needs the CAD prior (prior=None), not a prior weight");
  o.ft_calibration = ft_calibration;
  o.imu_calibration = imu_calibration;
  o.imu_axes_from = imu_axes;
  if (!total_mass.is_none()) {
    o.total_mass_kg = total_mass.cast<double>();
    if (!(o.total_mass_kg > 0.0)) throw py::value_error("total_mass: must be a positive mass in kg");
  }
  if (!(gear_windup >= 0.0)) throw py::value_error("gear_windup: must be an angle in degrees, 0 or more");
  o.gear_windup_deg = gear_windup;
  if (const auto* word = std::get_if<std::string>(&gear_backlash)) {
    if (*word != "sidecar") throw py::value_error("gear_backlash: degrees or \"sidecar\", not '" + *word + "'");
    o.gear_backlash_from_sidecar = true;
  } else {
    const double deg = std::get<double>(gear_backlash);
    if (!(deg >= 0.0)) throw py::value_error("gear_backlash: must be an angle in degrees, 0 or more");
    o.gear_backlash_deg = deg;
  }
  if (const auto* word = std::get_if<std::string>(&gear_stiffness)) {
    if (*word != "sidecar")
      throw py::value_error("gear_stiffness: {joint: N m/rad} or \"sidecar\", not '" + *word + "'");
    o.gear_stiffness_from_sidecar = true;
  } else {
    o.gear_stiffness = std::get<std::map<std::string, double>>(gear_stiffness);
  }
  return o;
}

/// A problem and the data sets a lab's C3D/TRC trials were imported into for it: they live as long
/// as the problem (the later stages read the data sets again), then are removed.
struct ImportedProblem {
  /// `plates`: a TRC trial's force plates; read by --source mocap, which names the keyword when a
  /// TRC comes without them.
  ImportedProblem(const std::string& data_path, const std::string& validate_path, const C3dImportOptions& plates,
                  const std::string& source)
      : data(imported_data(data_path, plates, source)), validation(validate_path, nullptr) {}
  static DatasetOrMocapFile imported_data(const std::string& path, const C3dImportOptions& plates,
                                          const std::string& source) {
    try {
      return DatasetOrMocapFile({path}, nullptr, plates, source == "mocap" ? "source=\"mocap\"" : "");
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(in_python_terms(e.what()));
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(in_python_terms(e.what()));
    }
  }
  DatasetOrMocapFile data, validation;
  InertialProblem problem;
  std::vector<InertialIdentificationResult::GearWindupCorrection> gear_windup;  ///< stage 2b's
  /// The message with the temporary data sets' paths replaced by the files the user gave.
  std::string in_user_terms(const std::string& message) const {
    return validation.in_user_terms(data.in_user_terms(message));
  }
};

/// What Python holds as an InertialProblem: the problem with its imported data sets.
using ProblemPtr = std::shared_ptr<ImportedProblem>;

/// Runs `stage` (on options whose data and validate name the imported data sets); errors in the
/// user's terms (the trial's path, not the temporary directory's).
template <class Stage>
auto with_imported(const ImportedProblem& imported, Stage&& stage) {
  if (!imported.data.imported() && !imported.validation.imported()) return stage();
  try {
    return stage();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(imported.in_user_terms(e.what()));
  } catch (const std::out_of_range& e) {
    throw std::out_of_range(imported.in_user_terms(e.what()));
  } catch (const std::exception& e) {
    throw std::runtime_error(imported.in_user_terms(e.what()));
  }
}

const char* kOptionsDoc = R"(model: URDF/MJCF path or bundled robot name (its sidecar is required); data: a data set
directory (docs/data-format.md), or a lab's C3D/TRC trial (imported for this run, as the command
does; with source="mocap"); validate: the same. Keyword options, as `dynid identify inertial`'s
flags (docs/identification.md): sensors ("full" | "contact" | "joints" | "minimal" |
comma-separated names), source ("sensors" | "mocap" | "truth"), validate (default the last
`holdout` of data; or validation_window: "FROM:TO" [s] or a segment's label, as --validate-window), truth (true URDF of a simulation), locks ({joint: position}), lock_upper_body,
consistent, prior (None = auto: the CAD prior; or a weight), weighting ("sensors" | "residual"),
torque_offsets, torque_gains (one gain per joint torque sensor the set uses; needs measured contact
wrenches), torque_gain_std (the sensors' gain accuracy counted in the standard deviations, not
estimated; --torque-gain-std), fixed_base, friction ("viscous,coulomb,offset" subset), armature, friction_joints
({joint: terms}, as --friction-joint JOINT=TERMS: that joint's terms instead of friction/armature;
"none" for no term), cutoff [Hz], align_time (each stream's clock offset from the leg
kinematics, refined to the minimum of the fit's residual: stage 1b, refine_stream_clocks),
align_kinematics_only (with align_time: no refinement, as --align-kinematics-only), validate_clocks
("estimate" | "training": validate's data read on the training clocks, as --validate-clocks), align_drift (with
align_time: each stream's clock drift too, as --align-drift), parallel_filter [Hz] (Gautier's parallel filter, as --parallel-filter),
prior_frame ("origin" | "com", as --prior-frame; the demo's: cutoff=20, parallel_filter=3,
prior_frame="com", consistent=True, gear_backlash=0.1), keep_at_cad (the base parameters the motion does not
determine set to their CAD values, the rest re-estimated given them, as --keep-at-cad; keep_below: the
determination at or below which they are held, as --keep-below), ft_calibration (each F/T sensor's calibration with the model, as
--ft-calibration), imu_calibration (the base IMU's biases, and its axes where the attitudes allow,
from the windows where the robot holds still, as --imu-calibration; summary "imu_calibration"; imu_axes: an
earlier run's summary.json whose axes are used, as --imu-axes), total_mass [kg] (None, or the robot weighed on a scale, as --total-mass),
gear_windup [deg] (every gear's twist at its joint's effort limit, as --gear-windup), gear_stiffness
({joint: N m/rad}, as --gear-stiffness JOINT=K, or "sidecar": each sidecar actuator's
torsional_stiffness), gear_backlash [deg] (every gear's play as motor-side encoders see it, as
--gear-backlash; "sidecar": each sidecar actuator's backlash). With a gear wind-up or play, the staged calls need stage
2b (correct_gear_windup) after the estimate and 3b (correct_validation_gear_windup) before the
validation; identify_inertial runs them. A TRC trial as data comes with its force plates as
--plates, --plate-layout, --plates-unit, --up do: plates (one ground reaction .mot/.sto),
plate_layout (YAML/JSON corners or a C3D of the same lab), plates_unit ("m" | "mm"; empty: the
file's header), up ("z" | "y").)";

}  // namespace

void bind_pipeline(py::module_& m) {
  m.def("scenario_names", &scenario_names, "Scenario names simulate() knows.");
  m.def(
      "simulate",
      [](const std::string& model, const std::string& scenario, const std::string& out, unsigned seed,
         const std::string& noise, double slope, int poses, int steps, double speed, bool lock_upper_body,
         double bus_rate, const std::string& motion, double duration, const std::string& perturb, double still,
         double base_tilt) {
        if (poses < 7 || poses > 10000) throw py::value_error("poses: must be in [7, 10000]");
        if (!(duration >= 0.0)) throw py::value_error("duration: must be >= 0");
        const Robot robot = load_robot(model);
        ScenarioOptions options;
        options.scenario = scenario;
        options.perturbations = parse_perturbations(perturb.empty() ? default_perturb_argument(noise) : perturb);
        options.seed = seed;
        options.noise = parse_noise_level(noise);
        options.slope_deg = slope;
        options.static_pose_count = poses;
        options.walk_steps = steps;
        options.walk_speed_mps = speed;
        options.lock_upper_body = lock_upper_body;
        options.bus_rate_hz = bus_rate;
        options.motion = motion;
        options.duration_s = duration;
        options.still_s = still;
        options.static_pose_base_tilt_deg = base_tilt;
        std::string summary;
        {
          py::gil_scoped_release release;
          StagedDirectory staged(out, "simulate");  // as the command: the previous data set or none on failure
          options.out_dir = staged.path();
          check_scenario(robot, options);
          summary = run_scenario(robot, options).summary_json;
          staged.commit();
        }
        return json_loads(summary);
      },
      py::arg("model"), py::arg("scenario"), py::arg("out"), py::arg("seed") = 1, py::arg("noise") = "realistic",
      py::arg("slope") = 0.0, py::arg("poses") = 172, py::arg("steps") = 10, py::arg("speed") = 0.2,
      py::arg("lock_upper_body") = false, py::arg("bus_rate") = 125.0, py::arg("motion") = "paper004",
      py::arg("duration") = 0.0, py::arg("perturb") = "", py::arg("still") = 0.0, py::arg("base_tilt") = 0.0,
      R"(Simulates a scenario on the true robot in MuJoCo and writes a data set into `out`, as
`dynid simulate MODEL --scenario SCENARIO --out OUT` with the same options (docs/scenarios.md):
seed, noise ("none" | "realistic"), slope [deg], poses (static-poses), steps, speed [m/s] (walk),
lock_upper_body, bus_rate [Hz], motion, duration [s] (excite), perturb ("none" | "all" | list;
default "all" with realistic noise, "none" with noise="none", as the command),
still [s] (excite: standing recorded before the motion, as --still), base_tilt [deg] (static-poses:
the base tilted in each pose, as --base-tilt).
Returns the data set's summary.json as a dict (its "fell" tells whether a walk fell; the command
then exits 1). An existing `out` is replaced only if it holds an earlier output of simulate.)");

  py::class_<ImportedProblem, ProblemPtr>(m, "InertialProblem",
                                          "Stage 1's result: robot, locks, data sets, sensor set, base parameters.")
      .def_property_readonly(
          "model", [](const ImportedProblem& p) { return std::make_shared<Model>(p.problem.model); },
          "The (locked) model with the data set's gravity.")
      .def_property_readonly(
          "base", [](const ImportedProblem& p) -> const BaseParameters& { return p.problem.base; },
          py::return_value_policy::reference_internal, "The base parameters (BaseParameters).")
      .def_property_readonly(
          "unknown_names", [](const ImportedProblem& p) { return p.problem.unknown_names; },
          "Offsets, then the inertial unknowns.")
      .def_property_readonly(
          "base_nominal", [](const ImportedProblem& p) { return p.problem.base_nominal; },
          "The nominal model's base parameters.");

  py::class_<InertialEstimate, EstimatePtr>(m, "InertialEstimate", "Stage 2's result: the folded least squares.")
      .def_readonly("solution", &InertialEstimate::solution, "Over InertialProblem.unknown_names.")
      .def_readonly("rows", &InertialEstimate::rows)
      .def_readonly("samples", &InertialEstimate::samples)
      .def_readonly("source_description", &InertialEstimate::source_description);

  py::class_<InertialIdentificationResult, ResultPtr>(m, "InertialIdentification",
                                                      "Identified parameters, their validation and the summary.")
      .def_readonly("base", &InertialIdentificationResult::base)
      .def_readonly("samples", &InertialIdentificationResult::samples, "Training samples.")
      .def_readonly("validation_samples", &InertialIdentificationResult::validation_samples)
      .def_readonly("validation_data", &InertialIdentificationResult::validation_data)
      .def_readonly("base_values", &InertialIdentificationResult::base_values, "Identified base parameters.")
      .def_readonly("base_std", &InertialIdentificationResult::base_std, "Their standard deviations.")
      .def_readonly("base_nominal", &InertialIdentificationResult::base_nominal, "The nominal model's.")
      .def_readonly("base_truth", &InertialIdentificationResult::base_truth,
                    "The true model's (with a truth), or None.")
      .def_readonly("standard_parameters", &InertialIdentificationResult::standard_parameters,
                    "Identified standard parameters (10 per moving body).")
      .def_property_readonly(
          "identified_model",
          [](const InertialIdentificationResult& r) { return std::make_shared<Model>(r.identified_model); },
          "The nominal (locked) model with the identified inertias.")
      .def_readonly("condition_number", &InertialIdentificationResult::condition_number)
      .def_readonly("total_mass", &InertialIdentificationResult::total_mass, "[kg]")
      .def_readonly("nominal_total_mass", &InertialIdentificationResult::nominal_total_mass, "[kg]")
      .def_readonly("truth_total_mass", &InertialIdentificationResult::truth_total_mass, "[kg] or None")
      .def_readonly("physically_consistent", &InertialIdentificationResult::physically_consistent)
      .def_readonly("inconsistent_links", &InertialIdentificationResult::inconsistent_links)
      .def_property_readonly(
          "torque_offsets",
          [](const InertialIdentificationResult& r) { return sensor_terms(r.torque_offsets, "offset"); },
          R"(With torque_offsets: per joint torque sensor the set uses, {"joint", "offset" [N m] (N for a
prismatic joint; the sensor reads the joint torque plus it), "std"} (summary.json torque_offsets).)")
      .def_property_readonly(
          "torque_gains", [](const InertialIdentificationResult& r) { return sensor_terms(r.torque_gains, "gain"); },
          R"(With torque_gains: per joint torque sensor the set uses, {"joint", "gain" [-] (the sensor reads
gain x the joint torque), "std"} (summary.json torque_gains).)")
      .def_property_readonly(
          "gear_windup",
          [](const InertialIdentificationResult& r) {
            py::list out;
            for (const auto& g : r.gear_windup)
              out.append(py::dict(py::arg("joint") = g.joint, py::arg("from") = g.from,
                                  py::arg("stiffness") = g.stiffness, py::arg("max_twist") = g.max_twist,
                                  py::arg("rms_twist") = g.rms_twist));
            return out;
          },
          R"(With gear_windup / gear_stiffness: per corrected joint {"joint", "from" ("--gear-stiffness" or
"--gear-windup"), "stiffness" [N m/rad], "max_twist", "rms_twist" [rad] taken off its training encoders}.)")
      .def_readonly("warnings", &InertialIdentificationResult::warnings)
      .def_property_readonly(
          "nominal_rms",
          [](const InertialIdentificationResult& r) { return rms_dict(r.nominal_rms, r.identified_model); },
          R"(Held-out residual RMS of the nominal model: force [N] (base frame), moment [N m], torque [N m],
projected, and per_joint {joint: torque RMS [N m]} of each joint whose torque is measured
(summary.json validation.torque_rms_per_joint).)")
      .def_property_readonly(
          "identified_rms",
          [](const InertialIdentificationResult& r) { return rms_dict(r.identified_rms, r.identified_model); },
          "Held-out residual RMS of the identified model.")
      .def_property_readonly(
          "truth_rms",
          [](const InertialIdentificationResult& r) {
            return r.truth_rms ? py::object(rms_dict(*r.truth_rms, r.identified_model)) : py::none();
          },
          "Held-out residual RMS of the true model (with a truth), or None.")
      .def_property_readonly(
          "series",
          [](const InertialIdentificationResult& r) {
            const ValidationSeries& s = r.series;
            py::dict d;
            d["time"] = s.time;
            d["measured_wrench"] = wrench_rows(s.measured_wrench);
            d["nominal_wrench"] = wrench_rows(s.nominal_wrench);
            d["identified_wrench"] = wrench_rows(s.identified_wrench);
            d["torque_joints"] = s.torque_joints;
            d["measured_torque"] = torque_rows(s.measured_torque);
            d["nominal_torque"] = torque_rows(s.nominal_torque);
            d["identified_torque"] = torque_rows(s.identified_torque);
            return d;
          },
          R"(Held-out motion, decimated to at most ~2000 points: time [s]; measured, nominal and identified
base wrench (samples x 6: [force [N]; moment [N m]] in the base frame about its origin); the plotted
torque joints and their measured / nominal / identified torques (samples x joints).)")
      .def_readwrite("summary_json", &InertialIdentificationResult::summary_json,
                     "summary.json's text (set by identify_inertial, or from inertial_summary_json).")
      .def_property_readonly(
          "summary", [](const InertialIdentificationResult& r) { return json_loads(r.summary_json); },
          "summary_json as a dict.")
      .def_readonly("written_files", &InertialIdentificationResult::written_files);

  m.def(
      "prepare_inertial_identification",
      [](const std::string& model, const std::string& data, const std::string& sensors, const std::string& source,
         const std::string& validate, double holdout, const std::string& truth,
         const std::map<std::string, double>& locks, bool lock_upper_body, bool consistent, py::handle prior,
         const std::string& weighting, bool torque_offsets, bool torque_gains, double torque_gain_std, bool fixed_base,
         const std::string& friction, bool armature, py::handle cutoff, bool align_time, bool align_drift,
         bool align_kinematics_only, const std::string& validate_clocks,
         const std::map<std::string, std::string>& friction_joints, const std::string& validation_window,
         py::handle parallel_filter, const std::string& prior_frame, bool keep_at_cad, double keep_below,
         bool ft_calibration, bool imu_calibration, const std::string& imu_axes, py::handle total_mass,
         double gear_windup, const GearStiffnessArg& gear_stiffness, const GearBacklashArg& gear_backlash,
         const std::vector<std::string>& plates, const std::string& plate_layout, const std::string& plates_unit,
         const std::string& up) {
        InertialIdentificationOptions o = identification_options(
            model, data, sensors, source, validate, holdout, truth, locks, lock_upper_body, consistent, prior,
            weighting, torque_offsets, torque_gains, torque_gain_std, fixed_base, friction, armature, cutoff,
            align_time, align_drift, align_kinematics_only, validate_clocks, friction_joints, validation_window,
            parallel_filter, prior_frame, keep_at_cad, keep_below, ft_calibration, imu_calibration, imu_axes,
            total_mass, gear_windup, gear_stiffness, gear_backlash);
        py::gil_scoped_release release;
        // A lab's C3D or TRC trial where a data set is expected: imported, kept as long as the problem.
        auto imported = std::make_shared<ImportedProblem>(
            o.data, o.validate, trial_plate_options(plates, plate_layout, plates_unit, up), o.source);
        o.data = imported->data.path();
        o.validate = imported->validation.path();
        imported->problem = with_imported(*imported, [&] { return prepare_inertial_identification(o); });
        return imported;
      },
      py::arg("model"), py::arg("data"), py::kw_only(), py::arg("sensors") = "contact", py::arg("source") = "sensors",
      py::arg("validate") = "", py::arg("holdout") = 0.3, py::arg("truth") = "",
      py::arg("locks") = std::map<std::string, double>{}, py::arg("lock_upper_body") = false,
      py::arg("consistent") = false, py::arg("prior") = py::none(), py::arg("weighting") = "sensors",
      py::arg("torque_offsets") = false, py::arg("torque_gains") = false, py::arg("torque_gain_std") = 0.0,
      py::arg("fixed_base") = false, py::arg("friction") = "", py::arg("armature") = false,
      py::arg("cutoff") = py::none(), py::arg("align_time") = false, py::arg("align_drift") = false,
      py::arg("align_kinematics_only") = false, py::arg("validate_clocks") = "estimate",
      py::arg("friction_joints") = std::map<std::string, std::string>{}, py::arg("validation_window") = "",
      py::arg("parallel_filter") = py::none(), py::arg("prior_frame") = "origin", py::arg("keep_at_cad") = false,
      py::arg("keep_below") = 0.25, py::arg("ft_calibration") = false, py::arg("imu_calibration") = false,
      py::arg("imu_axes") = "", py::arg("total_mass") = py::none(), py::arg("gear_windup") = 0.0,
      py::arg("gear_stiffness") = GearStiffnessArg(std::map<std::string, double>{}),
      py::arg("gear_backlash") = GearBacklashArg(0.0), py::arg("plates") = std::vector<std::string>{},
      py::arg("plate_layout") = "", py::arg("plates_unit") = "", py::arg("up") = "z",
      (std::string("Stage 1 of `dynid identify inertial`: loads and checks everything the estimate needs.\n") +
       kOptionsDoc)
          .c_str());
  m.def(
      "estimate_inertial_parameters",
      [](const ProblemPtr& p) {
        py::gil_scoped_release release;
        return with_imported(
            *p, [&] { return std::make_shared<InertialEstimate>(estimate_inertial_parameters(p->problem)); });
      },
      py::arg("problem"), "Stage 2: one pass over the training samples into streaming least squares.");
  m.def(
      "refine_stream_clocks",
      [](const ProblemPtr& p) {
        py::gil_scoped_release release;
        with_imported(*p, [&] { refine_stream_clocks(p->problem); });
      },
      py::arg("problem"),
      "Stage 1b (align_time): each estimated stream's clock offset moved to the minimum of the training fit's "
      "residual (nothing with align_kinematics_only or without estimated clocks).");
  m.def(
      "correct_gear_windup",
      [](const ProblemPtr& p, const EstimatePtr& first) {
        py::gil_scoped_release release;
        return with_imported(*p, [&] {
          return std::make_shared<InertialEstimate>(correct_gear_windup(p->problem, *first, p->gear_windup));
        });
      },
      py::arg("problem"), py::arg("estimate"),
      "Stage 2b (gear_windup / gear_stiffness): the training encoders less the gears' wind-up under the first "
      "estimate's link torques, and the estimate on them (the given one without a wind-up option).");
  m.def(
      "correct_validation_gear_windup",
      [](const ProblemPtr& p, const ResultPtr& r) {
        py::gil_scoped_release release;
        with_imported(*p, [&] { correct_validation_gear_windup(p->problem, *r); });
      },
      py::arg("problem"), py::arg("result"),
      "Stage 3b: the validation encoders less the wind-up under the identified model's link torques.");
  m.def(
      "identified_parameters",
      [](const ProblemPtr& p, const EstimatePtr& e) {
        py::gil_scoped_release release;
        return with_imported(*p, [&] {
          auto r = std::make_shared<InertialIdentificationResult>(identified_parameters(p->problem, *e));
          r->gear_windup = p->gear_windup;  // stage 2b's corrections, for the summary
          return r;
        });
      },
      py::arg("problem"), py::arg("estimate"),
      "Stage 3: base and standard parameters, their standard deviations, the identified model.");
  m.def(
      "load_truth_model",
      [](const ProblemPtr& p) -> std::optional<ModelPtr> {
        std::optional<Model> t = with_imported(*p, [&] { return load_truth_model(p->problem); });
        if (!t) return std::nullopt;
        return std::make_shared<Model>(std::move(*t));
      },
      py::arg("problem"), "The true model of a simulation (the truth option, with the problem's locks), or None.");
  m.def(
      "compare_with_truth",
      [](const ProblemPtr& p, const ModelPtr& truth, const ResultPtr& r) {
        with_imported(*p, [&] { compare_with_truth(p->problem, *truth, *r); });
      },
      py::arg("problem"), py::arg("truth"), py::arg("result"),
      "Stage 4 (simulation): base parameters and mass against the true model's, into result.");
  m.def(
      "validate_identification",
      [](const ProblemPtr& p, const std::optional<ModelPtr>& truth, const ResultPtr& r) {
        py::gil_scoped_release release;
        with_imported(*p, [&] { validate_identification(p->problem, truth ? truth->get() : nullptr, *r); });
      },
      py::arg("problem"), py::arg("truth"), py::arg("result"),
      "Stage 5: nominal, identified (and true) residuals on the held-out motion, into result.");
  m.def(
      "inertial_summary_json",
      [](const ProblemPtr& p, const ResultPtr& r) {
        return with_imported(*p, [&] { return inertial_summary_json(p->problem, *r); });
      },
      py::arg("problem"), py::arg("result"),
      "Stage 6: summary.json's text (assign it to result.summary_json to write it).");
  m.def(
      "write_inertial_identification",
      [](const ProblemPtr& p, const ResultPtr& r, const std::string& out) {
        py::gil_scoped_release release;
        return with_imported(*p, [&] { return write_inertial_identification(p->problem, *r, out); });
      },
      py::arg("problem"), py::arg("result"), py::arg("out"),
      "Stage 7: the identified URDF, base_parameters.json/.txt, summary.json, report.html in `out`; returns the "
      "paths.");

  m.def(
      "identify_inertial",
      [](const std::string& model, const std::string& data, const std::optional<std::string>& out,
         const std::string& sensors, const std::string& source, const std::string& validate, double holdout,
         const std::string& truth, const std::map<std::string, double>& locks, bool lock_upper_body, bool consistent,
         py::handle prior, const std::string& weighting, bool torque_offsets, bool torque_gains, double torque_gain_std,
         bool fixed_base, const std::string& friction, bool armature, py::handle cutoff, bool align_time,
         bool align_drift, bool align_kinematics_only, const std::string& validate_clocks,
         const std::map<std::string, std::string>& friction_joints, const std::string& validation_window,
         py::handle parallel_filter, const std::string& prior_frame, bool keep_at_cad, double keep_below,
         bool ft_calibration, bool imu_calibration, const std::string& imu_axes, py::handle total_mass,
         double gear_windup, const GearStiffnessArg& gear_stiffness, const GearBacklashArg& gear_backlash,
         const std::vector<std::string>& plates, const std::string& plate_layout, const std::string& plates_unit,
         const std::string& up) {
        InertialIdentificationOptions o = identification_options(
            model, data, sensors, source, validate, holdout, truth, locks, lock_upper_body, consistent, prior,
            weighting, torque_offsets, torque_gains, torque_gain_std, fixed_base, friction, armature, cutoff,
            align_time, align_drift, align_kinematics_only, validate_clocks, friction_joints, validation_window,
            parallel_filter, prior_frame, keep_at_cad, keep_below, ft_calibration, imu_calibration, imu_axes,
            total_mass, gear_windup, gear_stiffness, gear_backlash);
        py::gil_scoped_release release;
        // A lab's C3D or TRC trial where a data set is expected: imported for this run.
        const ImportedProblem imported(o.data, o.validate, trial_plate_options(plates, plate_layout, plates_unit, up),
                                       o.source);
        o.data = imported.data.path();
        o.validate = imported.validation.path();
        o.user_terms = [&](const std::string& text) { return imported.in_user_terms(text); };
        const auto run = [&] { return with_imported(imported, [&] { return run_inertial_identification(o); }); };
        if (!out) return std::make_shared<InertialIdentificationResult>(run());
        StagedDirectory staged(*out, "identify inertial");  // as the command: the previous output or none on failure
        o.out_dir = staged.path();
        auto r = std::make_shared<InertialIdentificationResult>(run());
        staged.commit();
        return r;
      },
      py::arg("model"), py::arg("data"), py::kw_only(), py::arg("out") = py::none(), py::arg("sensors") = "contact",
      py::arg("source") = "sensors", py::arg("validate") = "", py::arg("holdout") = 0.3, py::arg("truth") = "",
      py::arg("locks") = std::map<std::string, double>{}, py::arg("lock_upper_body") = false,
      py::arg("consistent") = false, py::arg("prior") = py::none(), py::arg("weighting") = "sensors",
      py::arg("torque_offsets") = false, py::arg("torque_gains") = false, py::arg("torque_gain_std") = 0.0,
      py::arg("fixed_base") = false, py::arg("friction") = "", py::arg("armature") = false,
      py::arg("cutoff") = py::none(), py::arg("align_time") = false, py::arg("align_drift") = false,
      py::arg("align_kinematics_only") = false, py::arg("validate_clocks") = "estimate",
      py::arg("friction_joints") = std::map<std::string, std::string>{}, py::arg("validation_window") = "",
      py::arg("parallel_filter") = py::none(), py::arg("prior_frame") = "origin", py::arg("keep_at_cad") = false,
      py::arg("keep_below") = 0.25, py::arg("ft_calibration") = false, py::arg("imu_calibration") = false,
      py::arg("imu_axes") = "", py::arg("total_mass") = py::none(), py::arg("gear_windup") = 0.0,
      py::arg("gear_stiffness") = GearStiffnessArg(std::map<std::string, double>{}),
      py::arg("gear_backlash") = GearBacklashArg(0.0), py::arg("plates") = std::vector<std::string>{},
      py::arg("plate_layout") = "", py::arg("plates_unit") = "", py::arg("up") = "z",
      (std::string("All the stages, as `dynid identify inertial MODEL DATA --out OUT` runs them (writes only with "
                   "out; an existing out is replaced only if it holds an earlier output of the command).\n") +
       kOptionsDoc)
          .c_str());
}

}  // namespace dynid::python
