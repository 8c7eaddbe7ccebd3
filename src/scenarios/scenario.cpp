#include "dynid/scenarios/scenario.hpp"

#include <Eigen/Geometry>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "dynid/core/atomic_file.hpp"
#include "dynid/dynamics/center_of_mass.hpp"
#include "dynid/dynamics/whole_body_ik.hpp"
#include "dynid/locomotion/balance_stabilizer.hpp"
#include "dynid/locomotion/joint_servo.hpp"
#include "dynid/model/urdf_writer.hpp"
#include "dynid/scenarios/servo_bench.hpp"
#include "dynid/scenarios/static_poses.hpp"
#include "dynid/sim/dataset_recorder.hpp"
#include "dynid/sim/geometry_perturbation.hpp"
#include "dynid/sim/simulation.hpp"
#include "dynid/sim/true_model.hpp"
#include "scenario_run.hpp"

namespace dynid {

namespace fs = std::filesystem;
using json = nlohmann::json;
using scenario_detail::Run;
using scenario_detail::Segment;

namespace {

constexpr double kTouchdownBeforeS = 0.02, kTouchdownAfterS = 0.15;  // window of a touch-down's current spike

/// dataset.json's `perturbations`: each testbed imperfection switched on, with its magnitudes.
json perturbations_json(const Run& run) {
  json out = json::object();
  if (perturbation_enabled(run.options.perturbations, "inertia")) {
    json bodies = json::object();
    double max_change = 0.0;
    for (const BodyInertiaError& e : run.inertia) {
      bodies[e.body] = {{"spread_scale", {e.spread_scale.x(), e.spread_scale.y(), e.spread_scale.z()}},
                        {"axes_rotation_deg", e.axes_rotation_rad * 180.0 / M_PI},
                        {"inertia_change", e.inertia_change}};
      max_change = std::max(max_change, e.inertia_change);
    }
    out["inertia"] = {{"source",
                       "CAD assumes uniform density (paper 000, section 1): each body's second moment along each "
                       "principal direction scaled uniformly within +-30 %, principal directions turned uniformly "
                       "within 10 deg; mass and COM kept (the true model's point masses change those)"},
                      {"spread_tolerance", kInertiaSpreadTolerance},
                      {"axes_tolerance_deg", kInertiaAxesToleranceDeg},
                      {"max_inertia_change", max_change},
                      {"bodies", bodies}};
  }
  if (perturbation_enabled(run.options.perturbations, "geometry")) {
    json joints = json::object();
    double max_origin = 0.0, max_tilt = 0.0;
    for (const JointGeometryError& e : run.geometry) {
      const Vector3& d = e.origin_error;
      joints[e.joint] = {{"origin_error_m", {d.x(), d.y(), d.z()}},
                         {"origin_tolerance_m", e.origin_tolerance_m},
                         {"true_axis", {e.true_axis.x(), e.true_axis.y(), e.true_axis.z()}},
                         {"axis_tilt_deg", e.axis_tilt_rad * 180.0 / M_PI},
                         {"axis_tolerance_deg", e.axis_tolerance_rad * 180.0 / M_PI}};
      max_origin = std::max(max_origin, d.cwiseAbs().maxCoeff());
      max_tilt = std::max(max_tilt, e.axis_tilt_rad);
    }
    out["geometry"] = {{"source",
                        "ISO 2768-1 class m general tolerances of machined parts: each joint origin component "
                        "uniform within the linear limit, each axis tilted uniformly within the angular limit, "
                        "by the joint's offset from its parent joint (at least 20 mm)"},
                       {"max_origin_error_m", max_origin},
                       {"max_axis_tilt_deg", max_tilt * 180.0 / M_PI},
                       {"joints", joints}};
  }
  if (run.elasticity) {
    json windup = json::object(), stiffness = json::object();
    double max_windup = 0.0;
    for (std::size_t b = 0; b < run.truth.model.bodies.size(); ++b) {
      if (run.elasticity->compliance[b] <= 0.0) continue;
      const std::string& joint = run.truth.model.bodies[b].joint_name;
      windup[joint] = run.elasticity->windup_at_effort_limit[b] * 180.0 / M_PI;
      stiffness[joint] = 1.0 / run.elasticity->compliance[b];
      max_windup = std::max(max_windup, run.elasticity->windup_at_effort_limit[b] * 180.0 / M_PI);
    }
    out["joint-elasticity"] = {{"source",
                                "gear wind-up behind the encoders: the effort limit (URDF) twists each joint by "
                                "0.1-0.3 deg (harmonic-drive torsional stiffness K3 class plus bearings and "
                                "housing); encoders read link angle + link torque / stiffness"},
                               {"windup_at_effort_limit_deg", windup},
                               {"max_windup_at_effort_limit_deg", max_windup},
                               {"stiffness_nm_per_rad", stiffness}};
  }
  if (run.sensor_bus) {
    const int latency = run.sensor_bus->latency_bus_periods;
    out["sensor-bus"] = {{"source",
                          "the main controller reads the IMU and foot F/T sensors over the field bus: requested "
                          "in one bus cycle, received in the next, one more behind a sensor hub (a judgement); "
                          "the balance control acts on readings this many bus periods old, the recorded streams "
                          "keep their own time stamps"},
                         {"latency_bus_periods", latency},
                         {"latency_s", latency / run.options.bus_rate_hz},
                         {"read_by", run.controller_read_sensors()
                                         ? "the balance stabilizer"
                                         : "nothing: this scenario's controllers do not read the robot's sensors"}};
  }
  if (perturbation_enabled(run.options.perturbations, "time")) {
    json offsets = json::object(), drifts = json::object();
    for (const auto& [stream, clock] : run.stream_clocks) {
      offsets[stream] = clock.offset_s;
      drifts[stream] = clock.drift_ppm;
    }
    // Stream stamp minus robot time at t = 0 [s], and how fast it grows [ppm]: a stream recorded
    // only when the scenario has the sensor.
    out["time"] = {{"source",
                    "unsynchronised devices: constant offset uniform within +-50 ms (start-up, buffering, "
                    "transport), drift uniform within +-30 ppm (quartz tolerance); encoders, joint torques and "
                    "truth on the robot's clock"},
                   {"time_offset_s", offsets},
                   {"drift_ppm", drifts}};
    out["time_offset_s"] = offsets;
  }
  if (run.imu_error) {
    const ImuError& e = *run.imu_error;
    const Eigen::AngleAxisd aa(e.sensor_in_frame);
    const ImuReading* reading = run.recorder->imu_reading();
    const Vector3 walk = reading ? reading->gyro_bias_walk() : Vector3::Zero();
    out["imu"] = {{"source",
                   "IMU board mounted within 1 deg of the sidecar frame (random axis), accelerometer sensitivity "
                   "+-1 % per axis (MEMS tolerance), gyro bias random walk 2e-4 rad/s per sqrt(s) on top of the "
                   "constant bias"},
                  {"misalignment_deg", e.misalignment_rad * 180.0 / M_PI},
                  {"misalignment_axis", {aa.axis().x(), aa.axis().y(), aa.axis().z()}},
                  {"sensor_axes_in_frame",
                   {{e.sensor_in_frame(0, 0), e.sensor_in_frame(0, 1), e.sensor_in_frame(0, 2)},
                    {e.sensor_in_frame(1, 0), e.sensor_in_frame(1, 1), e.sensor_in_frame(1, 2)},
                    {e.sensor_in_frame(2, 0), e.sensor_in_frame(2, 1), e.sensor_in_frame(2, 2)}}},
                  {"accel_scale", {e.accel_scale.x(), e.accel_scale.y(), e.accel_scale.z()}},
                  {"gyro_bias_walk_rad_s_per_sqrt_s", kImuGyroBiasWalk},
                  {"gyro_bias_walk_at_end", {walk.x(), walk.y(), walk.z()}}};
  }
  if (!run.plate_errors.empty()) {
    json plates = json::object();
    for (std::size_t p = 0; p < run.plate_errors.size(); ++p) {
      const PlateError& e = run.plate_errors[p];
      plates[run.scene.plates[p].name] = {{"gain", {e.gain.x(), e.gain.y(), e.gain.z()}},
                                          {"crosstalk_fz_to_fx_fy", {e.crosstalk_x, e.crosstalk_y}},
                                          {"cop_bias_m", {e.cop_bias_x, e.cop_bias_y}},
                                          {"cop_scale", {e.cop_scale_x, e.cop_scale_y}},
                                          {"drift_per_s",
                                           {e.drift_per_s[0], e.drift_per_s[1], e.drift_per_s[2], e.drift_per_s[3],
                                            e.drift_per_s[4], e.drift_per_s[5]}}};
    }
    out["force-plates"] = {{"source",
                            "strain-gauge plate class (AMTI/Bertec): force gains +-0.5 %, Fz read by Fx and Fy "
                            "+-1 %, COP off by +-1 mm plus +-0.5 % of its distance from the centre per axis, zero "
                            "drift since zeroing at t = 0 of +-0.2 N/min (forces) and +-0.02 N m/min (moments)"},
                           {"plates", plates}};
  }
  if (!run.ft_errors.empty()) {
    const RobotSidecar& sidecar = run.truth_sidecar ? *run.truth_sidecar : *run.robot.sidecar;
    json sensors = json::object();
    auto rows = [](const Matrix3& m) {
      return json::array({{m(0, 0), m(0, 1), m(0, 2)}, {m(1, 0), m(1, 1), m(1, 2)}, {m(2, 0), m(2, 1), m(2, 2)}});
    };
    for (std::size_t i = 0; i < run.ft_errors.size(); ++i) {
      const FtError& e = run.ft_errors[i];
      sensors[sidecar.ft_sensors[i].name] = {
          {"force_matrix", rows(e.force_matrix)},
          {"moment_matrix", rows(e.moment_matrix)},
          {"origin_error_m", {e.origin_error.x(), e.origin_error.y(), e.origin_error.z()}},
          {"drift_per_s",
           {e.drift_per_s[0], e.drift_per_s[1], e.drift_per_s[2], e.drift_per_s[3], e.drift_per_s[4],
            e.drift_per_s[5]}}};
    }
    out["ft"] = {{"source",
                  "six-axis strain-gauge sensor class (ATI Mini45), tared at t = 0: gains +-1 %, crosstalk +-1 % "
                  "between axes of a kind, sensing origin +-0.5 mm per axis, thermal zero drift +-0.5 N/min "
                  "(forces) and +-0.02 N m/min (moments)"},
                 {"sensors", sensors}};
  }
  if (run.markers) {
    const RobotSidecar& sidecar = run.truth_sidecar ? *run.truth_sidecar : *run.robot.sidecar;
    json mounts = json::object();
    double max_mount = 0.0;
    for (std::size_t m = 0; m < sidecar.markers.size(); ++m) {
      const Vector3& e = run.markers->mount_error[m];
      mounts[sidecar.markers[m].name] = {e.x(), e.y(), e.z()};
      max_mount = std::max(max_mount, e.cwiseAbs().maxCoeff());
    }
    json swap = nullptr;
    if (run.markers->swap_a >= 0)
      swap = {{"markers",
               {sidecar.markers[static_cast<std::size_t>(run.markers->swap_a)].name,
                sidecar.markers[static_cast<std::size_t>(run.markers->swap_b)].name}},
              {"start_s", run.markers->swap_start_s},
              {"duration_s", kMarkerSwapS},
              {"frames_recorded", run.recorder->swapped_marker_frames()}};
    const MarkerGaps* gaps = run.recorder->marker_gaps();
    out["markers"] = {{"source",
                       "markers mounted by hand against CAD-defined spots (each offset component uniform within "
                       "+-3 mm, link frame); occlusion gaps starting at 0.05 per visible second per marker, "
                       "0.05-0.5 s long; one label swap of the two closest markers on one link, 0.5 s"},
                      {"mount_tolerance_m", kMarkerMountToleranceM},
                      {"max_mount_error_m", max_mount},
                      {"mount_error_m", mounts},
                      {"gaps", gaps ? gaps->gaps() : 0},
                      {"hidden_marker_seconds", gaps ? gaps->hidden_time_s() : 0.0},
                      {"swap", swap}};
  }
  return out;
}

/// Per knee ("left", "right"): the mean over its foot's planned touch-downs of the peak winding
/// current [A] from 20 ms before to 150 ms after, and the mean current over the walk.
std::pair<json, json> knee_touchdown_currents(const Run& run, double dt) {
  json peaks = json::object(), means = json::object();
  for (const std::string& j : run.legs->joint_names()) {
    if (j.find("knee") == std::string::npos) continue;
    const bool left = j.rfind("l_", 0) == 0;
    const std::string side = left ? "left" : j.rfind("r_", 0) == 0 ? "right" : j;
    const std::vector<double>& current = run.legs->current_history_a(j);
    double sum_peak = 0.0, sum = 0.0;
    int count = 0;
    for (const auto& [time, left_foot] : run.touchdowns) {
      const long from = std::lround((time - kTouchdownBeforeS) / dt), to = std::lround((time + kTouchdownAfterS) / dt);
      if (left_foot != left || from < 0 || to >= static_cast<long>(current.size())) continue;
      sum_peak += *std::max_element(current.begin() + from, current.begin() + to + 1);
      ++count;
    }
    for (double c : current) sum += c;
    peaks[side] = count > 0 ? sum_peak / count : 0.0;
    means[side] = current.empty() ? 0.0 : sum / static_cast<double>(current.size());
  }
  return {peaks, means};
}

}  // namespace

std::vector<std::string> scenario_names() { return {"static-poses", "squat", "walk", "servo-bench", "excite"}; }

void check_scenario(const Robot& robot, const ScenarioOptions& options) {
  const auto names = scenario_names();
  if (std::find(names.begin(), names.end(), options.scenario) == names.end()) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown scenario '" + options.scenario + "' (known: " + list + ")");
  }
  if (options.out_dir.empty()) throw std::invalid_argument("no output directory (--out)");
  if (options.static_pose_base_tilt_deg != 0.0 && options.scenario != "static-poses")
    throw std::invalid_argument("--base-tilt tilts the base of static poses (--scenario static-poses), not of '" +
                                options.scenario + "'");
  if (options.still_s != 0.0 && !robot.model.floating_base)
    throw std::invalid_argument("--still: " + robot.model.name +
                                " has a fixed base, no base IMU to calibrate from a still period");
  if (options.still_s != 0.0 && options.scenario != "excite")
    throw std::invalid_argument("--still records a still period before an excite motion (--scenario excite), not '" +
                                options.scenario + "'");
  if (!(options.static_pose_base_tilt_deg >= 0.0 && options.static_pose_base_tilt_deg <= 20.0))
    throw std::invalid_argument("--base-tilt must lie within 0-20 deg");
  if (!options.servo_control.empty() && options.scenario != "walk")
    throw std::invalid_argument("--servo-control is paper 002's walking comparison: it needs --scenario walk, not '" +
                                options.scenario + "'");
  if (options.servo_kp != 0.0 && options.servo_control.empty())
    throw std::invalid_argument("--servo-kp is the P gain of --servo-control's leg servos; give --servo-control");
  if (!options.actuator_model.empty() && options.servo_control != "feed-forward")
    throw std::invalid_argument("--actuator-model is the model of --servo-control feed-forward");
  if (options.scenario == "servo-bench") return check_servo_bench(robot);
  if (!robot.sidecar)
    throw std::invalid_argument(robot.urdf_path + " has no sidecar; scenario '" + options.scenario +
                                "' needs its contacts (docs/robot-sidecar.md)");
  if (!robot.model.floating_base && options.scenario == "excite")
    return scenario_detail::check_arm_excite(robot, options);
  if (!robot.model.floating_base)
    throw std::invalid_argument("scenario '" + options.scenario + "' needs a floating-base robot; " + robot.model.name +
                                " has a fixed base");
  if (robot.sidecar->contacts.size() < 2)
    throw std::invalid_argument("scenario '" + options.scenario + "' needs two sole contacts in " +
                                robot.sidecar->source_path);
  if (options.scenario == "walk") scenario_detail::check_walk(robot, options);
  if (options.scenario == "excite") scenario_detail::check_excite_motion(robot, options);
}

ScenarioSummary run_scenario(const Robot& robot, const ScenarioOptions& options) {
  check_scenario(robot, options);
  fs::create_directories(options.out_dir);
  SceneSpec scene;
  StreamRates rates;
  if (options.scenario == "static-poses" || options.scenario == "squat") {
    scene.floor = false;
    scene.plates = default_force_plates();
  }
  if (options.scenario == "servo-bench") scene.floor = false;  // the leg swings free of the table
  if (options.scenario == "walk") scene.slope_rad = options.slope_deg * M_PI / 180.0;
  if (options.scenario == "static-poses") {
    // Settled poses: slow streams suffice except the plates and the mocap (their own rates).
    rates.truth_hz = rates.encoders_hz = rates.imu_hz = rates.ft_hz = 100.0;
  }
  const auto wall_start = std::chrono::steady_clock::now();
  Run run(robot, options, scene, rates);
  if (options.scenario == "static-poses")
    scenario_detail::run_static_poses(run);
  else if (options.scenario == "squat")
    scenario_detail::run_squat(run);
  else if (options.scenario == "walk")
    scenario_detail::run_walk(run);
  else if (options.scenario == "excite" && !robot.model.floating_base)
    scenario_detail::run_arm_excite(run);
  else if (options.scenario == "excite")
    scenario_detail::run_excite(run);
  ServoBenchResult bench;
  if (options.scenario == "servo-bench") {
    run.start_simulation();
    bench = run_servo_bench(run.truth.model, *robot.sidecar, options, *run.sim, *run.recorder);
    run.simulated = run.sim->time();
    run.segments.push_back({"servo swing", "servo-bench", bench.record_start_s, bench.record_end_s, 0.0, 0.0});
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  if (!run.recorder) throw std::logic_error("scenario did not start a simulation");
  auto streams = run.recorder->finish();
  if (options.scenario == "servo-bench") streams.push_back({bench.stream, {bench.stream_file, bench.stream_rate_hz}});

  write_urdf_file(run.truth.model, robot.urdf_path, options.out_dir + "/truth.urdf");

  ScenarioSummary s;
  s.scenario = options.scenario;
  s.robot = robot.model.name;
  s.duration_s = run.simulated;
  s.samples = run.recorder->truth_rows();
  s.fell = run.fell;
  s.steps = run.steps;
  s.realtime_factor = wall > 0.0 ? run.simulated / wall : 0.0;
  s.nominal_total_mass = robot.model.total_mass();
  s.true_total_mass = run.truth.model.total_mass();
  s.consistency_max_rel_error = run.recorder->max_consistency_error();

  json dataset;
  dataset["format"] = "dynid-dataset";
  dataset["version"] = 1;
  dataset["robot"] = robot.model.name;
  dataset["model"] = fs::absolute(robot.urdf_path).string();
  dataset["truth"] = "truth.urdf";
  dataset["scenario"] = options.scenario;
  dataset["seed"] = options.seed;
  dataset["noise"] = to_string(options.noise);
  // The encoders' view of the gears' play (docs/scenarios.md): what --gear-backlash takes off.
  if (options.noise == NoiseLevel::Realistic && options.backlash_rad > 0.0)
    dataset["encoder_backlash_deg"] = options.backlash_rad * 180.0 / M_PI;
  dataset["gravity"] = {robot.model.gravity.x(), robot.model.gravity.y(), robot.model.gravity.z()};
  // Time stamps (docs/data-format.md): every sample is the value at its stamp, with the velocity
  // the simulator's forces go with. mj_Euler computes a step's forces with the velocity the
  // previous step produced (q_k = q_{k-1} + h v_k): the mean over the step before the stamp. When
  // the encoders sample every step, the data set says so ("velocity": "period-before"), and the
  // gyro, which reads that velocity, is the mean rate over its sample period.
  const double h = run.sim ? run.sim->timestep() : scene.timestep;
  const auto every_step = [&](double rate_hz) { return std::abs(rate_hz * h - 1.0) < 1e-9; };
  dataset["velocity"] = every_step(rates.encoders_hz) ? "period-before" : "instant";
  for (const auto& [name, file_rate] : streams) {
    json stamp = "instant";
    if (name == "plates") stamp = "period-mean";  // the amplifier's mean over the sample period
    // Slower than the step: the accelerometer's mean over its period, the gyro's last step's rate.
    if (name == "imu")
      stamp = {{"gyro", every_step(file_rate.second) ? "period-mean" : "instant"},
               {"acc", every_step(file_rate.second) ? "instant" : "period-mean"}};
    dataset["streams"][name] = {{"file", file_rate.first},
                                {"rate_hz", file_rate.second},
                                {"noise_free", name == "truth" || options.noise == NoiseLevel::None},
                                {"stamp", stamp}};
  }
  json plates = json::array();
  for (const ForcePlateSpec& p : scene.plates) {
    const Vector3 o = p.top_center_world;
    json corners = json::array();
    for (auto [sx, sy] : {std::pair{1, 1}, {-1, 1}, {-1, -1}, {1, -1}})
      corners.push_back({o.x() + sx * 0.5 * p.size_x, o.y() + sy * 0.5 * p.size_y, o.z()});
    plates.push_back({{"name", p.name},
                      {"origin", {o.x(), o.y(), o.z()}},
                      {"corners", corners},
                      {"channels", "force on the plate [N] and moment about origin [N m], world axes; COP world [m]"}});
  }
  dataset["force_plates"] = plates;
  json segments = json::array();
  double max_speed = 0.0, max_cop = 0.0;
  for (const Segment& seg : run.segments) {
    segments.push_back({{"label", seg.label}, {"category", seg.category}, {"start", seg.start}, {"end", seg.end}});
    if (!seg.support.empty()) segments.back()["support"] = seg.support;
    max_speed = std::max(max_speed, seg.max_joint_speed);
    max_cop = std::max(max_cop, seg.cop_gcom_error);
  }
  dataset["segments"] = segments;
  json perturbations = json::array();
  for (const TruePerturbation& p : run.truth.perturbations)
    perturbations.push_back({{"body", p.body},
                             {"cause", p.cause},
                             {"mass", p.mass},
                             {"position", {p.position_in_body.x(), p.position_in_body.y(), p.position_in_body.z()}}});
  dataset["truth_perturbations"] = perturbations;
  dataset["perturbations"] = perturbations_json(run);
  if (!run.scene.welds.empty()) {
    json welded = json::array();
    for (const MjcfWeld& w : run.scene.welds)
      welded.push_back(
          {{"joint", run.truth.model.bodies[static_cast<std::size_t>(w.body)].joint_name}, {"position", w.position}});
    dataset["welded_joints"] = welded;
  }
  for (const auto& [joint, values] : bench.actuators_truth)
    for (const auto& [key, value] : values) dataset["actuators_truth"][joint][key] = value;
  write_file_atomically(options.out_dir + "/dataset.json", dataset.dump(2) + "\n");

  json summary{{"scenario", s.scenario},
               {"robot", s.robot},
               {"duration_s", s.duration_s},
               {"samples", s.samples},
               {"fell", s.fell},
               {"steps", s.steps},
               {"realtime_factor", s.realtime_factor},
               {"nominal_total_mass", s.nominal_total_mass},
               {"true_total_mass", s.true_total_mass},
               {"consistency_max_rel_error", s.consistency_max_rel_error},
               {"noise", to_string(options.noise)},
               {"perturbations", options.perturbations},
               {"seed", options.seed}};
  if (options.scenario == "static-poses") {
    summary["poses"] = run.segments.size();
    summary["max_joint_speed_in_windows"] = max_speed;
    summary["max_cop_gcom_error_mm"] = 1e3 * max_cop;
  }
  for (const auto& [key, value] : bench.summary) summary[key] = value;
  for (const auto& [key, value] : run.extras) summary[key] = value;
  if (run.legs) {
    // walk --servo-control: paper 002's comparison (docs/actuators.md).
    const scenario_detail::LegServos& legs = *run.legs;
    const auto [touchdown_peak_current, mean_current] = knee_touchdown_currents(run, run.sim->timestep());
    json knee_energy = json::object(), knee_tracking = json::object(), energy = json::object(),
         tracking = json::object(), knee_supply = json::object(), knee_no_regeneration = json::object();
    for (const std::string& j : legs.joint_names()) {
      energy[j] = legs.energy_j(j);
      tracking[j] = legs.tracking_rms_rad(j);
      if (j.find("knee") == std::string::npos) continue;
      const std::string side = j.rfind("l_", 0) == 0 ? "left" : j.rfind("r_", 0) == 0 ? "right" : j;
      knee_energy[side] = legs.energy_j(j);
      knee_tracking[side] = legs.tracking_rms_rad(j);
      knee_supply[side] = legs.supply_energy_j(j);
      knee_no_regeneration[side] = legs.no_regeneration_energy_j(j);
    }
    summary["knee_energy_j"] = knee_energy;
    summary["tracking_rms_rad"] = legs.tracking_rms_rad();
    summary["servo_control"] = {
        {"control", to_string(legs.control())},
        {"k_p", legs.k_p()},
        {"p_gain_register", legs.p_gain_register()},
        {"feedforward_model", legs.control() != ServoControl::FeedForward ? "none"
                              : options.actuator_model.empty()            ? "datasheet"
                                                                          : options.actuator_model},
        {"energy_definition",
         "integral of U I dt (motor terminal voltage times winding current) per servo over the walk (after "
         "standing); knee_no_regeneration_energy_j: of max(U I, 0); knee_supply_energy_j: of U_bat |I|"},
        {"leg_energy_j", legs.total_energy_j()},
        {"energy_per_joint_j", energy},
        {"knee_tracking_rms_rad", knee_tracking},
        {"tracking_rms_per_joint_rad", tracking},
        {"knee_supply_energy_j", knee_supply},
        {"knee_no_regeneration_energy_j", knee_no_regeneration},
        {"swing_foot_load_share",
         run.swing_foot_load_samples > 0 ? run.swing_foot_load_share_sum / double(run.swing_foot_load_samples) : 0.0},
        {"knee_touchdown_peak_current_a", touchdown_peak_current},
        {"knee_mean_current_a", mean_current},
        {"feedforward_reaction_time_s", legs.reaction_time_s()},
        {"true_servo",
         {{"dead_time_s", legs.dead_time_s()},
          {"alpha", alpha_from_physical(actuator_physical(legs.true_parameters()))}}}};
  }
  if (options.scenario == "excite" && !robot.model.floating_base) {
    summary["motion"] = options.motion == "paper004" ? "fourier" : options.motion;
  } else if (options.scenario == "squat" || options.scenario == "excite") {
    summary["com_height_range_m"] = run.com_z_max - run.com_z_min;
    if (options.scenario == "excite") summary["motion"] = options.motion;
    summary["max_base_tilt_deg"] = run.max_tilt * 180.0 / M_PI;
  }
  s.summary_json = summary.dump(2) + "\n";
  write_file_atomically(options.out_dir + "/summary.json", s.summary_json);
  return s;
}

}  // namespace dynid
