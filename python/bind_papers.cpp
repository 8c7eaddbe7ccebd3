// The commands of papers 000-002 as Python calls, with the options as keyword arguments of the same
// names: dynid.identify_static (`dynid identify static`, pipeline/static_pipeline.hpp) and its
// stages (prepare_static_identification, find_static_windows, ...), dynid.identify_actuator
// (`dynid identify actuator`, pipeline/actuator_identification.hpp), dynid.izmp (`dynid izmp`,
// pipeline/izmp.hpp) and dynid.izmp_study (`dynid izmp study`, pipeline/izmp_study.hpp). Each
// returns its result with summary.json as a dict and, with `out`, writes the command's files.

#include <optional>
#include <variant>

#include "convert.hpp"
#include "dynid/core/staged_directory.hpp"
#include "dynid/ident/actuator_differentiation.hpp"
#include "dynid/mocap/c3d_import.hpp"
#include "dynid/pipeline/actuator_identification.hpp"
#include "dynid/pipeline/izmp.hpp"
#include "dynid/pipeline/izmp_study.hpp"
#include "dynid/pipeline/static_pipeline.hpp"

namespace dynid::python {

namespace {

py::object json_object(const nlohmann::json& j) { return json_loads(j.dump()); }

/// None or a number (py::handle: GCC 12 warns on pybind11's optional<double> caster); `check`
/// names what a valid value is when it fails.
std::optional<double> optional_number(py::handle h, const char* name, bool positive) {
  if (h.is_none()) return std::nullopt;
  double x = 0.0;
  try {
    x = h.cast<double>();
  } catch (const py::cast_error&) {
    throw py::type_error(std::string(name) + ": expected a number or None");
  }
  if (positive && !(x > 0.0)) throw py::value_error(std::string(name) + ": must be positive");
  return x;
}

void positive(double x, const char* name, const char* what = "") {
  if (!(x > 0.0)) throw py::value_error(std::string(name) + ": must be positive" + what);
}

/// `run()` (a shared_ptr to the result); with `out`, `write(result, dir)` into a staged directory
/// as the command does: an existing `out` is replaced only if it holds an earlier output of
/// `command`, and a failure leaves it as it was.
template <class Run, class Write>
auto run_and_write(const std::optional<std::string>& out, const char* command, Run run, Write write) {
  py::gil_scoped_release release;
  std::optional<StagedDirectory> staged;
  if (out) staged.emplace(*out, command);
  auto r = run();
  if (staged) {
    write(*r, staged->path());
    staged->commit();
  }
  return r;
}

void one_of(const std::string& value, std::initializer_list<const char*> allowed, const char* name) {
  std::string list;
  for (const char* a : allowed) {
    if (value == a) return;
    list += (list.empty() ? "'" : ", '") + std::string(a) + "'";
  }
  throw py::value_error(std::string(name) + ": " + list + ", not '" + value + "'");
}

/// identify_static's keyword options, checked as the command line's option parser checks them before
/// the library sees the values.
StaticPipelineOptions static_options(double total_mass, const std::vector<std::string>& segments, double cutoff,
                                     const std::string& truth, double heldout_fraction, const std::string& pose_source,
                                     const std::string& windows, const std::string& prior, bool calibrate_markers,
                                     bool calibrate_plates, bool align_time, bool zero_plates) {
  positive(total_mass, "total_mass", " (kg)");
  positive(cutoff, "cutoff", " (Hz)");
  if (!(heldout_fraction >= 0.0 && heldout_fraction <= 0.95))
    throw py::value_error("heldout_fraction: must be in [0, 0.95]");
  one_of(pose_source, {"markers", "encoders"}, "pose_source");
  one_of(windows, {"detect", "segments"}, "windows");
  one_of(prior, {"scaled", "nominal"}, "prior");
  StaticPipelineOptions o;
  o.total_mass = total_mass;
  o.segments = segments;
  o.cutoff_hz = cutoff;
  o.truth_urdf = truth;
  o.heldout_fraction = heldout_fraction;
  o.pose_source = pose_source == "encoders" ? PoseSource::Encoders : PoseSource::Markers;
  o.windows = windows == "segments" ? WindowSource::Segments : WindowSource::Detect;
  o.prior = prior == "nominal" ? StaticPrior::Nominal : StaticPrior::Scaled;
  o.calibrate_markers = calibrate_markers;
  o.calibrate_plates = calibrate_plates;
  o.align_time = align_time;
  o.zero_plates = zero_plates;
  return o;
}

/// izmp's method keyword options, checked as the command line's option parser checks them.
IzmpSettings izmp_settings(const std::string& method, const std::string& angular_acceleration, py::handle acd_rate,
                           double bus_rate, const std::string& differences, py::handle ground_normal, py::handle slope,
                           bool bus_period_mean, double smoothing_ms, py::handle inertial_noise) {
  IzmpSettings settings;
  one_of(method, {"mr-ad", "ir-md"}, "method");
  one_of(angular_acceleration, {"accelerometers", "gyro"}, "angular_acceleration");
  one_of(differences, {"central", "backward"}, "differences");
  settings.method = parse_izmp_method(method);
  settings.angular_acceleration = parse_angular_acceleration_source(angular_acceleration);
  settings.differences = parse_difference_scheme(differences);
  settings.acd_rate_hz = optional_number(acd_rate, "acd_rate", true).value_or(0.0);
  positive(bus_rate, "bus_rate", " (Hz)");
  settings.bus_rate_hz = bus_rate;
  settings.bus_period_mean = bus_period_mean;
  if (!(smoothing_ms >= 0.0) || !std::isfinite(smoothing_ms))
    throw py::value_error("smoothing_ms: expected a finite number >= 0 [ms]");
  settings.smoothing_window_s = 1e-3 * smoothing_ms;
  const std::optional<double> slope_deg = optional_number(slope, "slope", false);
  if (!ground_normal.is_none() && slope_deg)
    throw py::value_error("ground_normal: give ground_normal or slope, not both");
  if (!ground_normal.is_none()) {
    const VectorArg n(ground_normal, "ground_normal", 3, "x, y, z in world");
    if (!n.map.allFinite() || n.map.norm() < 1e-12)
      throw py::value_error("ground_normal: expected three finite numbers, not all zero");
    settings.ground_normal_world = Vector3(n.map.normalized());
  }
  if (slope_deg) {
    // dynid simulate's slope: the floor inclined about world y, uphill along +x.
    const double s = *slope_deg * M_PI / 180.0;
    settings.ground_normal_world = Vector3(-std::sin(s), 0.0, std::cos(s));
  }
  if (!inertial_noise.is_none()) {
    settings.add_inertial_noise = true;
    settings.noise_seed = inertial_noise.cast<unsigned>();
  }
  return settings;
}

/// [samples x k] rows of fixed-size vectors.
template <class Vec>
RowMajorMatrix rows_of(const std::vector<Vec>& v) {
  RowMajorMatrix out(static_cast<Eigen::Index>(v.size()), Vec::RowsAtCompileTime);
  for (std::size_t i = 0; i < v.size(); ++i) out.row(static_cast<Eigen::Index>(i)) = v[i].transpose();
  return out;
}

py::dict series_dict(const IzmpSeries& s) {
  py::dict d;
  d["time"] = s.time;
  std::vector<std::string> support;
  for (Support x : s.support) support.emplace_back(to_string(x));
  d["support"] = support;
  d["izmp_nif"] = rows_of(s.izmp_nif);
  d["izmp_world"] = rows_of(s.izmp_world);
  d["wrench_nif"] = rows_of(s.wrench_nif);
  d["physical_zmp_nif"] = rows_of(s.physical_zmp_nif);
  d["ft_zmp_nif"] = rows_of(s.ft_zmp_nif);
  d["support_box"] = rows_of(s.support_box);
  d["inside_support"] = s.inside_support;
  return d;
}

const char* kSeriesDoc = R"(dict of per field-bus sample arrays: time [s]; support ("none" | "both" | "left" |
"right"); izmp_nif (n x 3: x, y, plane height [m] in the normal-incident frame, NaN without normal
force); izmp_world (n x 3 [m], NaN without a truth stream); wrench_nif (n x 6: contact force [N]
and torque about the IZMP [N m], NIF axes); physical_zmp_nif (n x 3 [m], the simulator's contact
wrenches' ZMP, NaN without truth); ft_zmp_nif (n x 3 [m], the soles' F/T sensors' ZMP, NaN
without them); support_box (n x 4: stance soles' x min, x max, y min, y max in
the NIF [m]); inside_support (1 inside the stance polygon, 0 outside, -1 no stance).)";

}  // namespace

void bind_papers(py::module_& m) {
  py::class_<StaticPipelineResult, std::shared_ptr<StaticPipelineResult>>(
      m, "StaticIdentification", "Segment masses and COMs from static poses (paper 000): identify_static's result.")
      .def_property_readonly(
          "summary", [](const StaticPipelineResult& r) { return json_object(r.summary); },
          "summary.json as a dict (without its \"urdf\" entry, the name of the URDF written beside it).")
      .def_property_readonly(
          "identified_model",
          [](const StaticPipelineResult& r) { return std::make_shared<Model>(r.identification.identified); },
          "The nominal model with the identified segment masses and COMs.")
      .def_readonly("urdf", &StaticPipelineResult::urdf, "The updated URDF's text.")
      .def_property_readonly(
          "segments",
          [](const StaticPipelineResult& r) {
            py::list out;
            for (const SegmentEstimate& s : r.identification.segments)
              out.append(py::dict(py::arg("name") = s.name, py::arg("mass_before") = s.mass_before,
                                  py::arg("mass_after") = s.mass_after, py::arg("com_before") = Vector3(s.com_before),
                                  py::arg("com_after") = Vector3(s.com_after)));
            return out;
          },
          "Per updated segment: name, mass_before / mass_after [kg], com_before / com_after (body frame [m]).")
      .def_property_readonly(
          "poses",
          [](const StaticPipelineResult& r) {
            py::list out;
            for (const MeasuredStaticPose& p : r.poses)
              out.append(py::dict(py::arg("label") = p.label, py::arg("q") = VectorX(p.q),
                                  py::arg("cop") = Vector3(p.cop), py::arg("heldout") = p.heldout));
            return out;
          },
          "Per pose: label, q (nq), cop (measured centre of pressure, world [m]), heldout.")
      .def_readonly("gcom_error_nominal", &StaticPipelineResult::gcom_error_nominal,
                    "Per pose: horizontal distance between the nominal model's GCOM and the COP [m].")
      .def_readonly("gcom_error_identified", &StaticPipelineResult::gcom_error_identified,
                    "Per pose: the same for the identified model [m].");

  m.def(
      "identify_static",
      [](const std::string& model, const std::variant<std::string, std::vector<std::string>>& data, double total_mass,
         const std::optional<std::string>& out, const std::vector<std::string>& segments, const std::string& validate,
         double cutoff, const std::string& truth, double heldout_fraction, const std::string& pose_source,
         const std::string& windows, const std::string& prior, bool calibrate_markers, bool calibrate_plates,
         bool align_time, const std::vector<std::string>& plates, const std::string& plate_layout,
         const std::string& plates_unit, const std::string& up, bool zero_plates) {
        StaticPipelineOptions o =
            static_options(total_mass, segments, cutoff, truth, heldout_fraction, pose_source, windows, prior,
                           calibrate_markers, calibrate_plates, align_time, zero_plates);
        const C3dImportOptions trial_plates = trial_plate_options(plates, plate_layout, plates_unit, up);
        const std::vector<std::string> paths = std::holds_alternative<std::string>(data)
                                                   ? std::vector<std::string>{std::get<std::string>(data)}
                                                   : std::get<std::vector<std::string>>(data);
        std::optional<Robot> robot;
        return run_and_write(
            out, "identify static",
            [&] {
              robot = load_robot(model);
              // Lab trials (C3D, or TRC with their plates) where a data set is expected: imported for this run.
              const auto import_trials = [&] {
                try {
                  return DatasetOrMocapFile(paths, &robot->model, trial_plates, "identify_static");
                } catch (const std::runtime_error& e) {
                  throw std::runtime_error(in_python_terms(e.what()));
                }
              };
              const DatasetOrMocapFile dataset = import_trials(), validation(validate, &robot->model);
              o.validate = validation.path();
              o.user_terms = [&](const std::string& text) {
                return validation.in_user_terms(dataset.in_user_terms(text));
              };
              try {
                return std::make_shared<StaticPipelineResult>(run_static_identification(*robot, dataset.path(), o));
              } catch (const std::exception& e) {
                throw std::runtime_error(validation.in_user_terms(dataset.in_user_terms(e.what())));
              }
            },
            [&](const StaticPipelineResult& r, const std::string& dir) {
              write_static_identification(r, *robot, dir);
            });
      },
      py::arg("model"), py::arg("data"), py::kw_only(), py::arg("total_mass"), py::arg("out") = py::none(),
      py::arg("segments") = std::vector<std::string>{}, py::arg("validate") = "", py::arg("cutoff") = 4.0,
      py::arg("truth") = "", py::arg("heldout_fraction") = 0.25, py::arg("pose_source") = "markers",
      py::arg("windows") = "detect", py::arg("prior") = "scaled", py::arg("calibrate_markers") = false,
      py::arg("calibrate_plates") = false, py::arg("align_time") = false,
      py::arg("plates") = std::vector<std::string>{}, py::arg("plate_layout") = "", py::arg("plates_unit") = "",
      py::arg("up") = "z", py::arg("zero_plates") = false,
      R"(Segment masses and centres of mass from static poses (paper 000), as
`dynid identify static MODEL DATA --total-mass KG --out OUT` (docs/identification-static.md).

model: URDF/MJCF path or bundled robot name (its sidecar names the markers); data: a data set with
the static poses (markers, plates; encoders for pose_source="encoders"), or a lab's C3D/TRC trial
or a list of them (TRC trials with plates=[one ground reaction .mot per trial], plate_layout,
plates_unit "m" | "mm", up "z" | "y", as --plates, --plate-layout, --plates-unit, --up).
total_mass: the weighed mass [kg]. segments: bodies or links to update (default: the paper's main
segments). validate: data set of a dynamic motion (residual base wrench before/after; cutoff [Hz]
its low-pass). truth: the true URDF of a simulation (per-segment errors). heldout_fraction: poses
held out (0.25: every 4th). pose_source "markers" | "encoders"; windows "detect" | "segments";
prior "scaled" | "nominal"; calibrate_markers; calibrate_plates (the plates' crosstalk from the
poses, removed from them and from validate's plates); align_time (validate's plates read on its
markers' clock); zero_plates (each plate's zero, offset and drift, from the windows where it carries
no foot, as --zero-plates). With out: writes summary.json, the updated URDF and
report.html there (an existing out is replaced only if it holds an earlier output of the command).
Returns a StaticIdentification (summary dict, identified_model, segments, poses, GCOM errors).)");

  py::class_<ActuatorIdentificationResult, std::shared_ptr<ActuatorIdentificationResult>>(
      m, "ActuatorIdentification", "A servo's motor and friction model (paper 002): identify_actuator's result.")
      .def_property_readonly(
          "summary", [](const ActuatorIdentificationResult& r) { return json_object(r.summary); },
          "summary.json as a dict.")
      .def_readonly("actuator_yaml", &ActuatorIdentificationResult::sidecar_yaml,
                    "The fitted model as a sidecar `actuators:` entry (actuator.yaml).")
      .def_readonly("trial_log_csv", &ActuatorIdentificationResult::trial_log_csv,
                    "The last ILC trial as a servo.csv log (empty when fitted from logs).")
      .def_property_readonly(
          "ilc_errors",
          [](const ActuatorIdentificationResult& r) {
            std::vector<double> e;
            for (const IlcIteration& i : r.iterations) e.push_back(i.max_windowed_error_rad);
            return e;
          },
          "Max windowed tracking error of each ILC trial [rad].");

  m.def(
      "identify_actuator",
      [](const std::string& model, const std::string& joint, const std::optional<std::string>& out,
         const std::string& reference, int iterations, double lambda, double window_ms, double threshold, unsigned seed,
         bool true_links, bool noise_free, py::handle cutoff, py::handle p_gain, py::handle heldout_p_gain,
         const std::string& logs, const std::string& links) {
        positive(iterations, "iterations");
        positive(lambda, "lambda_");
        positive(window_ms, "window_ms", " (ms)");
        positive(threshold, "threshold", " (rad)");
        ActuatorIdentificationOptions o;
        o.joint = joint;
        o.reference = reference;
        o.iterations = iterations;
        o.lambda = lambda;
        o.window_ms = window_ms;
        o.threshold_rad = threshold;
        o.seed = seed;
        o.true_links = true_links;
        o.noise_free = noise_free;
        if (const auto c = optional_number(cutoff, "cutoff", false)) {
          if (*c < 0.0) throw py::value_error("cutoff: must be >= 0 (0: no low-pass)");
          o.cutoff_hz = *c;
        }
        o.p_gain = optional_number(p_gain, "p_gain", true).value_or(0.0);
        o.heldout_p_gain = optional_number(heldout_p_gain, "heldout_p_gain", true).value_or(0.0);
        o.logs = logs;
        o.links_urdf = links;
        return run_and_write(
            out, "identify actuator",
            [&] {
              return std::make_shared<ActuatorIdentificationResult>(run_actuator_identification(load_robot(model), o));
            },
            write_actuator_identification);
      },
      py::arg("model"), py::kw_only(), py::arg("joint"), py::arg("out") = py::none(), py::arg("reference") = "",
      py::arg("iterations") = 15, py::arg("lambda_") = 0.8, py::arg("window_ms") = 25.0, py::arg("threshold") = 0.02,
      py::arg("seed") = 1, py::arg("true_links") = false, py::arg("noise_free") = false, py::arg("cutoff") = py::none(),
      py::arg("p_gain") = py::none(), py::arg("heldout_p_gain") = py::none(), py::arg("logs") = "",
      py::arg("links") = "",
      R"(A servo's motor and friction model by Iterative Learning Control (paper 002), as
`dynid identify actuator MODEL --joint J --out OUT` (docs/actuators.md).

model: fixed-base URDF or bundled robot (servo_bench) with an actuators entry; joint: the servo's
joint. reference: CSV (time,position [s, rad]; default the built-in walking + kick reference).
iterations: at most this many ILC trials; lambda_ (the command's --lambda): ILC learning gain;
window_ms: window of the max windowed error [ms]; threshold: ILC stops below this error [rad];
seed: the simulated bench's true servo and links; true_links; noise_free (exact position and
supply voltage instead of the servo's registers); cutoff [Hz] (None: 15, 0 with noise_free; 0:
none); p_gain, heldout_p_gain (None: the sidecar's, half of it); logs: directory of recorded
servo.csv logs to fit instead of simulating, links: their links' URDF. With out: writes
summary.json, actuator.yaml, report.html (and the ILC trial) there. Returns an
ActuatorIdentification (summary dict, actuator_yaml, ilc_errors).)");

  py::class_<IzmpResult, std::shared_ptr<IzmpResult>>(
      m, "Izmp", "The imaginary ZMP from on-board sensors (paper 001): izmp's result.")
      .def_property_readonly(
          "summary", [](const IzmpResult& r) { return json_object(r.summary); }, "summary.json as a dict.")
      .def_property_readonly(
          "series", [](const IzmpResult& r) { return series_dict(r.series); },
          (std::string("The method's IZMP: ") + kSeriesDoc).c_str())
      .def_property_readonly(
          "reference", [](const IzmpResult& r) { return series_dict(r.reference); },
          "The same method with ideal signals (the truth stream at 500 Hz; empty without one), same keys.");

  m.def(
      "izmp",
      [](const std::string& model, const std::string& data, const std::optional<std::string>& out,
         const std::string& method, const std::string& angular_acceleration, py::handle acd_rate, double bus_rate,
         const std::string& differences, py::handle ground_normal, py::handle slope, const std::string& inertia_from,
         bool bus_period_mean, double smoothing_ms, py::handle inertial_noise) {
        IzmpOptions o;
        o.model = model;
        o.data = data;
        o.inertia_from = inertia_from;
        o.settings = izmp_settings(method, angular_acceleration, acd_rate, bus_rate, differences, ground_normal, slope,
                                   bus_period_mean, smoothing_ms, inertial_noise);
        return run_and_write(
            out, "izmp", [&] { return std::make_shared<IzmpResult>(run_izmp(o)); }, write_izmp_outputs);
      },
      py::arg("model"), py::arg("data"), py::kw_only(), py::arg("out") = py::none(), py::arg("method") = "mr-ad",
      py::arg("angular_acceleration") = "accelerometers", py::arg("acd_rate") = py::none(), py::arg("bus_rate") = 125.0,
      py::arg("differences") = "central", py::arg("ground_normal") = py::none(), py::arg("slope") = py::none(),
      py::arg("inertia_from") = "", py::arg("bus_period_mean") = false, py::arg("smoothing_ms") = 0.0,
      py::arg("inertial_noise") = py::none(),
      R"(The imaginary ZMP and contact wrench from on-board sensors (paper 001), as
`dynid izmp MODEL DATA --out OUT` (docs/robust-inverse-dynamics.md).

model: URDF/MJCF path or bundled robot (its sidecar: IMU, accelerometers, soles); data: a data set
(encoders.csv, imu.csv; truth.csv when simulated). method "mr-ad" (moving reference) | "ir-md"
(inertial reference); angular_acceleration "accelerometers" | "gyro"; acd_rate: actuator-controller
rate [Hz] (None: the encoders'); bus_rate: field-bus rate [Hz], one IZMP per period; differences
"central" | "backward"; ground_normal: 3 numbers in world, or slope [deg] about world y (uphill
along +x) (None: the stance soles' normal); inertia_from: URDF whose inertias replace the model's;
bus_period_mean; smoothing_ms: every ACD-rate value averaged over this window [ms] centred on the
bus sample (--smoothing-ms); inertial_noise: seed of the study's white noise added to noise-free inertial
sensors. With out: writes izmp.csv, summary.json, report.html there. Returns an Izmp (summary
dict, series, reference).)");
}

namespace {

py::list study_setups(const std::vector<IzmpStudySetup>& setups) {
  py::list out;
  for (const IzmpStudySetup& s : setups)
    out.append(py::dict(py::arg("name") = s.name, py::arg("method") = to_string(s.settings.method),
                        py::arg("angular_acceleration") = to_string(s.settings.angular_acceleration),
                        py::arg("acd_rate_hz") = s.settings.acd_rate_hz,
                        py::arg("bus_rate_hz") = s.settings.bus_rate_hz,
                        py::arg("differences") = to_string(s.settings.differences),
                        py::arg("relative_error_percent") = s.relative_error_percent,
                        py::arg("relative_error_percent_all") = s.relative_error_percent_all,
                        py::arg("physical_zmp_rms_mm") = s.physical_zmp_rms_mm));
  return out;
}

}  // namespace

void bind_izmp_study(py::module_& m) {
  py::class_<IzmpStudyResult, std::shared_ptr<IzmpStudyResult>>(
      m, "IzmpStudy", "Paper 001's simulation study (setups A-E on a level and a sloped walk): izmp_study's result.")
      .def_property_readonly(
          "summary", [](const IzmpStudyResult& r) { return json_object(r.summary); }, "summary.json as a dict.")
      .def_readonly("table", &IzmpStudyResult::table, "The table the command prints (paper 001 figs. 9 and 10).")
      .def_property_readonly(
          "level", [](const IzmpStudyResult& r) { return study_setups(r.level); },
          R"(Setups A-E on the level walk: name, method, angular_acceleration, acd_rate_hz, bus_rate_hz,
differences, relative_error_percent (Delta against the paper's reference, 1 cm floor on the
reference), relative_error_percent_all (without the floor), physical_zmp_rms_mm (against the
simulator's contact forces).)")
      .def_property_readonly(
          "slope", [](const IzmpStudyResult& r) { return study_setups(r.slope); }, "The same on the sloped walk.");

  m.def(
      "izmp_study",
      [](const std::string& robot, const std::string& out, unsigned seed, int steps, const std::string& differences) {
        if (steps < 2 || steps > 100) throw py::value_error("steps: must be in [2, 100]");
        one_of(differences, {"backward", "central"}, "differences");
        IzmpStudyOptions o;
        o.robot = robot;
        o.seed = seed;
        o.steps = steps;
        o.differences = parse_difference_scheme(differences);
        py::gil_scoped_release release;
        StagedDirectory staged(out, "izmp study");  // as the command: the previous output or none on failure
        o.out_dir = staged.path();
        auto r = std::make_shared<IzmpStudyResult>(run_izmp_study(o));
        staged.commit();
        return r;
      },
      py::arg("robot") = "walker", py::kw_only(), py::arg("out"), py::arg("seed") = 1, py::arg("steps") = 10,
      py::arg("differences") = "backward",
      R"(Paper 001's simulation study, as `dynid izmp study ROBOT --out OUT` (docs/robust-inverse-dynamics.md):
simulates the robot's walk (noise-free sensors) on level ground and up a 10 degree slope into
out/level_walk and out/slope_walk, evaluates setups A-E of the paper's Table 3 on both (white noise on
the inertial sensors, seed `seed`), writes out/summary.json and out/report.html.

robot: bundled robot with an IMU and accelerometers; out: the study's directory (an existing one is
replaced only if it holds an earlier output of the command); seed: of the walks and the noise;
steps: per walk, in [2, 100]; differences: "backward" (the paper's causal quotient) | "central".
Returns an IzmpStudy (summary dict, table, level, slope).)");
}

namespace {

/// The static identification stage by stage: what run_static_identification holds between its
/// stages, kept for Python (the robot, the recording and its imported trial, the windows, the result).
struct StaticProblem {
  StaticProblem(const std::string& model, const std::string& data, const StaticPipelineOptions& o)
      : robot(load_robot(model)),
        data_file(data, &robot.model),
        validation_file(o.validate, &robot.model),
        options(o),
        result(std::make_shared<StaticPipelineResult>()) {
    options.validate = validation_file.path();
  }
  Robot robot;
  DatasetOrMocapFile data_file, validation_file;
  StaticPipelineOptions options;
  LabRecording recording;
  std::optional<Robot> truth;
  std::optional<StaticWindows> windows;
  bool measured = false, fitted = false;
  std::shared_ptr<StaticPipelineResult> result;

  /// Runs a stage with the C++ errors in the user's terms (the trial's path, not the temporary data set's).
  template <class Stage>
  auto run(Stage&& stage) {
    try {
      return stage();
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(in_user_terms(e.what()));
    } catch (const std::exception& e) {
      throw std::runtime_error(in_user_terms(e.what()));
    }
  }
  std::string in_user_terms(const std::string& message) const {
    return validation_file.in_user_terms(data_file.in_user_terms(message));
  }
};
using StaticProblemPtr = std::shared_ptr<StaticProblem>;

/// ValueError "problem: ..." unless the stage before has run.
void require_stage(bool done, const char* before) {
  if (!done) throw py::value_error(std::string("problem: run ") + before + " first");
}

py::list window_list(const StaticWindows& w) {
  py::list out;
  for (const StaticWindow& x : w.windows)
    out.append(py::dict(py::arg("label") = x.label, py::arg("start") = x.start, py::arg("end") = x.end,
                        py::arg("first") = x.first, py::arg("last") = x.last));
  return out;
}

}  // namespace

void bind_static_stages(py::module_& m) {
  py::class_<StaticProblem, StaticProblemPtr>(
      m, "StaticProblem", "The static identification between its stages (prepare_static_identification's result).")
      .def_property_readonly(
          "model", [](const StaticProblem& p) { return std::make_shared<Model>(p.robot.model); }, "The robot's model.")
      .def_property_readonly(
          "windows",
          [](const StaticProblem& p) { return p.windows ? py::object(window_list(*p.windows)) : py::none(); },
          "The static windows (after find_static_windows), or None.")
      .def_readonly("result", &StaticProblem::result,
                    "The StaticIdentification the stages fill (poses, segments, GCOM errors, summary).");

  m.def(
      "prepare_static_identification",
      [](const std::string& model, const std::string& data, double total_mass, const std::vector<std::string>& segments,
         const std::string& validate, double cutoff, const std::string& truth, double heldout_fraction,
         const std::string& pose_source, const std::string& windows, const std::string& prior, bool calibrate_markers,
         bool calibrate_plates, bool align_time, bool zero_plates) {
        StaticPipelineOptions o =
            static_options(total_mass, segments, cutoff, truth, heldout_fraction, pose_source, windows, prior,
                           calibrate_markers, calibrate_plates, align_time, zero_plates);
        o.validate = validate;
        py::gil_scoped_release release;
        auto p = std::make_shared<StaticProblem>(model, data, o);
        p->run([&] {
          if (!p->robot.model.floating_base)
            throw std::runtime_error(p->robot.model.label() + ": static identification needs a floating-base robot");
          p->recording = read_lab_recording(p->data_file.path());
          require_markers_and_plates(p->recording, o.pose_source == PoseSource::Encoders);
          if (!o.truth_urdf.empty()) p->truth = load_robot(o.truth_urdf);
        });
        return p;
      },
      py::arg("model"), py::arg("data"), py::kw_only(), py::arg("total_mass"),
      py::arg("segments") = std::vector<std::string>{}, py::arg("validate") = "", py::arg("cutoff") = 4.0,
      py::arg("truth") = "", py::arg("heldout_fraction") = 0.25, py::arg("pose_source") = "markers",
      py::arg("windows") = "detect", py::arg("prior") = "scaled", py::arg("calibrate_markers") = false,
      py::arg("calibrate_plates") = false, py::arg("align_time") = false, py::arg("zero_plates") = false,
      R"(`dynid identify static` (paper 000) stage by stage, as run_static_identification chains them
(pipeline/static_pipeline.hpp): loads the robot, the recording (a data set, or a lab's C3D/TRC
trial, imported) and the truth, and checks the recording has markers and plates. The options are
identify_static's. Then, each on the returned StaticProblem:
  find_static_windows(p)            the held poses (detected, or the data set's segments)
  measure_static_poses(p)           per pose: marker IK (or encoders) and the centre of pressure
  fit_static_model(p)               segment masses and COMs, GCOM errors, the updated URDF
  validate_static_identification(p) the residual base wrench on `validate` (optional)
  static_summary(p)                 summary.json as a dict (p.result.summary)
  write_static_identification(p, out)
p.result is the StaticIdentification they fill (identify_static's result type).)");

  m.def(
      "find_static_windows",
      [](const StaticProblemPtr& p) {
        {
          py::gil_scoped_release release;
          p->windows = p->run([&] { return find_static_windows(p->recording, p->options); });
          p->measured = p->fitted = false;
        }
        return window_list(*p->windows);
      },
      py::arg("problem"),
      R"(Stage 1: the held poses, where the markers and plates settle (windows="detect") or the data set's
segments; a list of {label, start, end [s], first, last (marker frames)}. Fewer than two: RuntimeError.)");
  m.def(
      "measure_static_poses",
      [](const StaticProblemPtr& p) {
        require_stage(p->windows.has_value(), "find_static_windows");
        py::gil_scoped_release release;
        p->run([&] { measure_static_poses(p->robot, p->recording, *p->windows, p->options, *p->result); });
        p->measured = true;
        p->fitted = false;
      },
      py::arg("problem"),
      "Stage 2: each window's configuration (marker IK; the joints from the encoders with pose_source=\"encoders\") "
      "and centre of pressure, held-out poses marked (problem.result.poses).");
  m.def(
      "fit_static_model",
      [](const StaticProblemPtr& p) {
        require_stage(p->measured, "measure_static_poses");
        py::gil_scoped_release release;
        p->run([&] { fit_static_model(p->robot, p->options, *p->result); });
        p->fitted = true;
      },
      py::arg("problem"),
      "Stage 3: segment masses and COMs from the poses, GCOM errors before/after, the updated URDF "
      "(problem.result.segments, gcom_error_*, urdf, identified_model).");
  m.def(
      "validate_static_identification",
      [](const StaticProblemPtr& p) {
        if (p->options.validate.empty())
          throw py::value_error("problem: has no validate data set (prepare_static_identification(..., validate=...))");
        require_stage(p->fitted, "fit_static_model");
        py::gil_scoped_release release;
        p->run([&] {
          validate_static_identification(p->robot, p->truth ? &p->truth->model : nullptr, p->options, *p->result);
        });
      },
      py::arg("problem"),
      "Stage 4: the residual base wrench of the validate data set's motion for the nominal and identified models "
      "(and the true one with truth).");
  m.def(
      "static_summary",
      [](const StaticProblemPtr& p) {
        require_stage(p->fitted, "fit_static_model");
        p->result->summary = p->run([&] {
          return static_summary_json(p->robot, p->data_file.path(), *p->windows, p->truth ? &*p->truth : nullptr,
                                     p->options, *p->result);
        });
        return json_object(p->result->summary);
      },
      py::arg("problem"), "Stage 5: summary.json as a dict (also into problem.result.summary).");
  m.def(
      "write_static_identification",
      [](const StaticProblemPtr& p, const std::string& out) {
        if (p->result->summary.is_null()) throw py::value_error("problem: run static_summary first");
        py::gil_scoped_release release;
        StagedDirectory staged(out, "identify static");  // as the command: the previous output or none on failure
        write_static_identification(*p->result, p->robot, staged.path());
        staged.commit();
      },
      py::arg("problem"), py::arg("out"),
      "Stage 6: summary.json, the updated URDF and report.html in `out`, as the command writes them.");
}

namespace {

/// An IZMP recording and the robot it was read for (evaluate_izmp needs both).
struct PyIzmpRecording {
  std::shared_ptr<const Robot> robot;
  IzmpRecording recording;
};
using IzmpRecordingPtr = std::shared_ptr<PyIzmpRecording>;
using IzmpSeriesPtr = std::shared_ptr<IzmpSeries>;

const char* kSettingsDoc = R"(method "mr-ad" | "ir-md"; angular_acceleration "accelerometers" | "gyro";
acd_rate [Hz] (None: the encoders'); bus_rate [Hz]; differences "central" | "backward";
ground_normal (3, world) or slope [deg]; bus_period_mean; smoothing_ms (every ACD-rate value averaged
over this window centred on the bus sample, --smoothing-ms); inertial_noise (seed): izmp's options.)";

}  // namespace

void bind_izmp_stages(py::module_& m) {
  py::class_<PyIzmpRecording, IzmpRecordingPtr>(
      m, "IzmpRecording", "The streams the IZMP reads, on the encoders' clock (load_izmp_recording's result).")
      .def_property_readonly("directory", [](const PyIzmpRecording& r) { return r.recording.directory; })
      .def_property_readonly(
          "rate_hz", [](const PyIzmpRecording& r) { return r.recording.rate_hz; }, "Encoder (= IMU) rate [Hz].")
      .def_property_readonly(
          "time", [](const PyIzmpRecording& r) { return r.recording.time; }, "[s]")
      .def_property_readonly(
          "joints", [](const PyIzmpRecording& r) { return r.recording.joints; },
          "samples x (nv - 6) encoder positions [rad], model order.")
      .def_property_readonly(
          "gyro", [](const PyIzmpRecording& r) { return r.recording.gyro; }, "samples x 3 [rad/s], IMU axes.")
      .def_property_readonly(
          "imu_acc", [](const PyIzmpRecording& r) { return r.recording.imu_acc; },
          "samples x 3 specific force [m/s^2], IMU axes.")
      .def_property_readonly(
          "support",
          [](const PyIzmpRecording& r) {
            std::vector<std::string> out;
            for (Support x : r.recording.support) out.emplace_back(to_string(x));
            return out;
          },
          "Per sample: \"none\" | \"both\" | \"left\" | \"right\".")
      .def_property_readonly(
          "has_truth", [](const PyIzmpRecording& r) { return r.recording.has_truth; },
          "Whether the data set has a truth stream (the paper's reference needs it).");

  py::class_<IzmpSeries, IzmpSeriesPtr>(m, "IzmpSeries", "One IZMP per field-bus sample (evaluate_izmp's result).")
      .def_property_readonly(
          "arrays", [](const IzmpSeries& s) { return series_dict(s); }, kSeriesDoc)
      .def(
          "__getitem__",
          [](const IzmpSeries& s, const std::string& key) {
            const py::dict d = series_dict(s);
            return py::object(d[py::str(key)]);  // KeyError for an unknown key
          },
          py::arg("key"), "series[key] = series.arrays[key].")
      .def("__len__", [](const IzmpSeries& s) { return s.time.size(); });

  m.def(
      "load_izmp_recording",
      [](const std::string& model, const std::string& data, const std::string& inertia_from, const std::string& method,
         const std::string& angular_acceleration) {
        one_of(method, {"mr-ad", "ir-md"}, "method");
        one_of(angular_acceleration, {"accelerometers", "gyro"}, "angular_acceleration");
        IzmpSettings settings;
        settings.method = parse_izmp_method(method);
        settings.angular_acceleration = parse_angular_acceleration_source(angular_acceleration);
        py::gil_scoped_release release;
        auto robot = std::make_shared<Robot>(load_robot(model));
        if (!inertia_from.empty()) use_inertias_of(*robot, inertia_from);
        auto r = std::make_shared<PyIzmpRecording>();
        r->robot = robot;
        r->recording = load_izmp_recording(*robot, data, settings);
        return r;
      },
      py::arg("model"), py::arg("data"), py::kw_only(), py::arg("inertia_from") = "", py::arg("method") = "mr-ad",
      py::arg("angular_acceleration") = "accelerometers",
      R"(`dynid izmp` stage 1 (pipeline/izmp.hpp): the data set's encoders, IMU, accelerometers, support
phases and (simulated) truth, on the encoders' clock, for the robot (with inertia_from's inertias).
method and angular_acceleration say which sensors are needed. Then evaluate_izmp(recording, ...)
with any settings, ideal_recording(recording) for the paper's reference, and the metrics
izmp_relative_error, physical_zmp_rms_mm, inside_support_fraction: what izmp() runs.)");

  m.def(
      "evaluate_izmp",
      [](const IzmpRecordingPtr& r, const std::string& method, const std::string& angular_acceleration,
         py::handle acd_rate, double bus_rate, const std::string& differences, py::handle ground_normal,
         py::handle slope, bool bus_period_mean, double smoothing_ms, py::handle inertial_noise) {
        const IzmpSettings settings =
            izmp_settings(method, angular_acceleration, acd_rate, bus_rate, differences, ground_normal, slope,
                          bus_period_mean, smoothing_ms, inertial_noise);
        py::gil_scoped_release release;
        return std::make_shared<IzmpSeries>(evaluate_izmp(*r->robot, r->recording, settings));
      },
      py::arg("recording"), py::kw_only(), py::arg("method") = "mr-ad",
      py::arg("angular_acceleration") = "accelerometers", py::arg("acd_rate") = py::none(), py::arg("bus_rate") = 125.0,
      py::arg("differences") = "central", py::arg("ground_normal") = py::none(), py::arg("slope") = py::none(),
      py::arg("bus_period_mean") = false, py::arg("smoothing_ms") = 0.0, py::arg("inertial_noise") = py::none(),
      (std::string("`dynid izmp` stage 2: the IZMP and contact wrench per field-bus sample (an IzmpSeries).\n") +
       kSettingsDoc)
          .c_str());
  m.def(
      "ideal_recording",
      [](const IzmpRecordingPtr& r) {
        py::gil_scoped_release release;
        auto out = std::make_shared<PyIzmpRecording>();
        out->robot = r->robot;
        out->recording = ideal_recording(*r->robot, r->recording);
        return out;
      },
      py::arg("recording"),
      "The same recording with ideal signals from the truth stream (the paper's reference signals); RuntimeError "
      "without one.");
  m.def(
      "izmp_relative_error",
      [](const IzmpSeriesPtr& series, const IzmpSeriesPtr& reference, double min_reference) {
        return izmp_relative_error(*series, *reference, min_reference);
      },
      py::arg("series"), py::arg("reference"), py::kw_only(), py::arg("min_reference") = 0.01,
      "Paper 001's relative error Delta [%] of the IZMP's NIF y against the reference over single support, where "
      "|reference y| >= min_reference [m] (NaN when no sample qualifies).");
  m.def(
      "physical_zmp_rms_mm", [](const IzmpSeriesPtr& s) { return physical_zmp_rms_mm(*s); }, py::arg("series"),
      "RMS distance [mm] between the IZMP and the simulator's physical ZMP (NaN without truth).");
  m.def(
      "inside_support_fraction", [](const IzmpSeriesPtr& s) { return inside_support_fraction(*s); }, py::arg("series"),
      "Share of single-support samples whose IZMP lies inside the stance sole (NaN: none).");
}

}  // namespace dynid::python
