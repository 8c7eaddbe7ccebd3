#include "dynid/sim/scenario.hpp"

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "dynid/core/atomic_file.hpp"
#include "dynid/dynamics/center_of_mass.hpp"
#include "dynid/model/urdf_writer.hpp"
#include "dynid/sim/balance_stabilizer.hpp"
#include "dynid/sim/dataset_recorder.hpp"
#include "dynid/sim/joint_servo.hpp"
#include "dynid/sim/servo_bench.hpp"
#include "dynid/sim/simulation.hpp"
#include "dynid/sim/static_poses.hpp"
#include "dynid/sim/true_model.hpp"
#include "dynid/sim/whole_body_ik.hpp"

namespace dynid {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::vector<std::string> scenario_names() { return {"static-poses", "squat", "servo-bench"}; }

namespace {

struct Segment {
  std::string label, category;
  double start = 0.0, end = 0.0;
  double max_joint_speed = 0.0;  ///< [rad/s] in the window
  double cop_gcom_error = 0.0;   ///< [m] combined plate COP vs true GCOM, window mean (noise-free)
};

/// Everything one run shares: true model, scene, simulation, servo, recorder.
struct Run {
  const Robot& robot;
  const ScenarioOptions& options;
  TrueModel truth;
  SceneSpec scene;
  std::unique_ptr<JointServo> servo;
  std::unique_ptr<Simulation> sim;
  std::unique_ptr<DatasetRecorder> recorder;
  std::vector<Segment> segments;
  double simulated = 0.0;
  bool fell = false;
  Data truth_data;
  StreamRates rates_;
  double com_z_min = 1e9, com_z_max = -1e9;  ///< true COM height over the recorded motion [m]
  double max_tilt = 0.0;                     ///< largest angle of the base z axis from vertical [rad]

  Run(const Robot& r, const ScenarioOptions& o, const SceneSpec& s, const StreamRates& rates)
      : robot(r),
        options(o),
        truth(make_true_model(r.model, true_total_mass(r.model), o.seed)),
        scene(s),
        truth_data(truth.model),
        rates_(rates) {}

  /// Builds the servos for a reference configuration and the simulation around them (the servos'
  /// damping is part of the simulated joints).
  void start(const VectorX& q_ref) {
    std::vector<int> soles;
    const auto [left, right] = left_right_soles(robot.model, *robot.sidecar);
    for (int c : {left, right})
      soles.push_back(robot.model
                          .frames[static_cast<std::size_t>(
                              robot.model.frame_index(robot.sidecar->contacts[static_cast<std::size_t>(c)].name))]
                          .body);
    servo = std::make_unique<JointServo>(robot.model, q_ref, joint_armature(robot.model, *robot.sidecar), soles);
    scene.joint_damping = servo->damping_per_body();
    start_simulation();
  }

  /// The simulation of the scene as it is and its recorder (without stance servos, a scenario
  /// computes every joint torque itself).
  void start_simulation() {
    sim = std::make_unique<Simulation>(truth.model, *robot.sidecar, scene);
    recorder =
        std::make_unique<DatasetRecorder>(options.out_dir, truth.model, *robot.sidecar, scene,
                                          sensor_noise(options.noise, options.backlash_rad), rates_, options.seed + 1);
  }

  /// Places the robot so its lowest support sole is `depth` below the walking surface (z = 0).
  VectorX on_ground(VectorX q, const std::vector<int>& support, double depth = 2e-4) {
    forward_kinematics(truth.model, truth_data, q);
    double lowest = 1e9;
    for (int c : support)
      lowest = std::min(
          lowest, frame_placement(truth.model, truth_data,
                                  truth.model.frame_index(robot.sidecar->contacts[static_cast<std::size_t>(c)].name))
                      .translation.z());
    q[truth.model.bodies[1].idx_q + 2] -= lowest + depth;
    return q;
  }

  /// One control period: servo torques, physics, optional recording, integration.
  void step(const VectorX& q_ref, const VectorX& v_ref, bool record) {
    const VectorX zero = VectorX::Zero(truth.model.nv);
    const VectorX& tau = servo->torque(sim->q(), sim->v(), q_ref, v_ref, zero);
    sim->forward(tau);
    if (record) recorder->record(*sim, tau);
    sim->integrate();
    simulated += sim->timestep();
    // Fallen: base tilted beyond 60 degrees or fallen below a third of its start height.
    const Eigen::Quaterniond quat(sim->q()[6], sim->q()[3], sim->q()[4], sim->q()[5]);
    if ((quat.toRotationMatrix() * Vector3::UnitZ()).z() < 0.5) fell = true;
  }

  /// What the robot's own sensors say about its balance: IMU orientation and gyro (the base state)
  /// and the foot F/T sensors (external wrenches through the given sole contacts).
  BalanceMeasurement measure_balance(const std::vector<int>& soles) const {
    BalanceMeasurement m;
    const VectorX& q = sim->q();
    m.base_rotation = Eigen::Quaterniond(q[6], q[3], q[4], q[5]).toRotationMatrix();
    m.base_angular_velocity = sim->v().segment<3>(3);
    for (int c : soles) m.sole_wrenches.push_back(sim->contact_wrenches_world()[static_cast<std::size_t>(c)]);
    return m;
  }

  /// Updates the true COM height range and the largest base tilt (summary.json of motions).
  void track_motion() {
    const double com_z = center_of_mass(truth.model, truth_data, sim->q()).z();
    com_z_min = std::min(com_z_min, com_z);
    com_z_max = std::max(com_z_max, com_z);
    const Eigen::Quaterniond base(sim->q()[6], sim->q()[3], sim->q()[4], sim->q()[5]);
    max_tilt = std::max(max_tilt, std::acos(std::clamp((base * Vector3::UnitZ()).z(), -1.0, 1.0)));
  }

  void progress(double fraction, const std::string& what) const {
    if (options.progress) options.progress(fraction, what);
  }
};

void run_static_poses(Run& run) {
  const Model& nominal = run.robot.model;
  run.progress(0.0, "generating " + std::to_string(run.options.static_pose_count) + " static poses (IK)");
  const std::vector<StaticPose> poses = generate_static_poses(nominal, *run.robot.sidecar, run.scene.plates,
                                                              run.options.static_pose_count, run.options.seed);
  run.start(poses.front().q);
  const VectorX zero_v = VectorX::Zero(nominal.nv);
  const double dt = run.sim->timestep();
  const int settle_steps = static_cast<int>(std::lround(1.5 / dt));
  const int record_steps = static_cast<int>(std::lround(1.0 / dt));
  for (std::size_t i = 0; i < poses.size(); ++i) {
    const StaticPose& pose = poses[i];
    run.sim->set_state(run.on_ground(pose.q, pose.support), zero_v);
    for (int k = 0; k < settle_steps; ++k) run.step(pose.q, zero_v, false);
    Segment seg{"pose " + std::to_string(i), pose.category, run.sim->time(), 0.0, 0.0, 0.0};
    run.recorder->restart_clocks(run.sim->time());
    double cop_error_sum = 0.0;
    for (int k = 0; k < record_steps; ++k) {
      run.step(pose.q, zero_v, true);
      for (std::size_t j = 1; j < run.truth.model.bodies.size(); ++j) {
        const Body& b = run.truth.model.bodies[j];
        if (b.joint_type != JointType::FreeFlyer)
          seg.max_joint_speed = std::max(seg.max_joint_speed, std::abs(run.sim->v()[b.idx_v]));
      }
      // Combined COP of all plates (sum of wrenches about the world origin) vs the true GCOM.
      Force total = Force::Zero();
      for (std::size_t p = 0; p < run.scene.plates.size(); ++p) {
        const Force& w = run.sim->plate_wrenches()[p];
        total += Force(w.linear, w.angular + run.scene.plates[p].top_center_world.cross(w.linear));
      }
      const Eigen::Vector2d cop(-total.angular.y() / total.linear.z(), total.angular.x() / total.linear.z());
      const Vector3 com = center_of_mass(run.truth.model, run.truth_data, run.sim->q());
      cop_error_sum += (cop - com.head<2>()).norm();
    }
    seg.end = run.sim->time();
    seg.cop_gcom_error = cop_error_sum / record_steps;
    run.segments.push_back(seg);
    run.progress(double(i + 1) / double(poses.size()),
                 "pose " + std::to_string(i + 1) + "/" + std::to_string(poses.size()));
    if (run.fell) break;
  }
}

/// Planned ZMP of the nominal model along a reference sampled every `period` (linear inverted
/// pendulum: COM minus height/g times its horizontal acceleration), what the balance stabilizer
/// holds the measured COP to.
std::vector<Eigen::Vector2d> planned_zmp(const Model& nominal, const std::vector<VectorX>& q_ref, double period) {
  Data data(nominal);
  std::vector<Vector3> com;
  for (const VectorX& q : q_ref) com.push_back(center_of_mass(nominal, data, q));
  std::vector<Eigen::Vector2d> zmp;
  for (std::size_t i = 0; i < com.size(); ++i) {
    // The squat's sines have no acceleration at its ends.
    const Vector3 acc = i == 0 || i + 1 == com.size()
                            ? Vector3::Zero()
                            : Vector3((com[i - 1] - 2.0 * com[i] + com[i + 1]) / (period * period));
    zmp.push_back(com[i].head<2>() - com[i].z() / nominal.gravity.norm() * acc.head<2>());
  }
  return zmp;
}

/// Paper 000's validation motion: pelvis down and up, arms and trunk shifting, 5 s.
void run_squat(Run& run) {
  const Model& nominal = run.robot.model;
  const auto [left, right] = left_right_soles(nominal, *run.robot.sidecar);
  // Start from the first double-support static pose generator's stance: reuse its IK setup.
  const std::vector<StaticPose> start =
      generate_static_poses(nominal, *run.robot.sidecar, run.scene.plates, 1, run.options.seed);
  Data data(nominal);
  forward_kinematics(nominal, data, start.front().q);
  const int lf = nominal.frame_index(run.robot.sidecar->contacts[static_cast<std::size_t>(left)].name);
  const int rf = nominal.frame_index(run.robot.sidecar->contacts[static_cast<std::size_t>(right)].name);
  const SE3 lpose = frame_placement(nominal, data, lf), rpose = frame_placement(nominal, data, rf);
  const Vector3 com0 = center_of_mass(nominal, data, start.front().q);
  const double leg = com0.z();

  const double duration = 5.0, ik_period = 0.01;
  const int samples = static_cast<int>(std::lround(duration / ik_period)) + 1;
  std::vector<VectorX> q_ref(static_cast<std::size_t>(samples));
  VectorX q = start.front().q;
  run.progress(0.0, "planning the squat (IK)");
  for (int i = 0; i < samples; ++i) {
    const double t = i * ik_period;
    IkProblem p;
    p.posture = start.front().q;
    p.frames = {{lf, lpose, 100.0, true}, {rf, rpose, 100.0, true}};
    p.com_target_enabled = true;
    // Two squats of 12 % of COM height with a lateral and fore-aft shift scaled to the robot.
    const double depth = 0.12 * leg * 0.5 * (1.0 - std::cos(2.0 * M_PI * t / 2.5));
    const double size = leg / 0.9;
    p.com_world = Vector3(com0.x() + 0.01 * size * std::sin(2.0 * M_PI * t / 5.0),
                          com0.y() + 0.015 * size * std::sin(2.0 * M_PI * t / 2.5), com0.z() - depth);
    p.com_axes_weight = Vector3(10.0, 10.0, 10.0);
    VectorX q0 = q;
    for (std::size_t j = 1; j < nominal.bodies.size(); ++j) {
      const Body& b = nominal.bodies[j];
      if (b.joint_type == JointType::FreeFlyer) continue;
      const std::string& n = b.joint_name;
      double value = start.front().q[b.idx_q];
      const double range = std::isfinite(b.limits.upper - b.limits.lower) ? b.limits.upper - b.limits.lower : 2.0;
      if (n.find("shoulder_pitch") != std::string::npos)
        value += 0.1 * range * std::sin(2.0 * M_PI * t / 2.5 + (n[0] == 'l' ? 0 : M_PI));
      else if (n.find("elbow") != std::string::npos)
        value -= 0.1 * range * (0.5 - 0.5 * std::cos(2.0 * M_PI * t / 1.25));
      else if (n.find("waist") != std::string::npos || n.find("torso") != std::string::npos)
        value += 0.08 * range * std::sin(2.0 * M_PI * t / 5.0);
      else
        continue;
      q0[b.idx_q] = std::clamp(value, b.limits.lower, b.limits.upper);
      p.locked_joints.push_back(static_cast<int>(j));
    }
    q = solve_whole_body_ik(nominal, p, q0, 50).q;
    q_ref[static_cast<std::size_t>(i)] = q;
  }
  const std::vector<Eigen::Vector2d> zmp_ref = planned_zmp(nominal, q_ref, ik_period);
  run.start(q_ref.front());
  const int lbody = nominal.frames[static_cast<std::size_t>(lf)].body,
            rbody = nominal.frames[static_cast<std::size_t>(rf)].body;
  BalanceStabilizer stabilizer(nominal, q_ref.front(), {lbody, rbody}, leg, run.sim->timestep());
  const double dt = run.sim->timestep();
  const VectorX zero_v = VectorX::Zero(nominal.nv);
  const std::vector<int> both = {left, right};
  run.sim->set_state(run.on_ground(q_ref.front(), both), zero_v);
  // Settle with the stabilizer on, so its COP loop has leaned the true robot over its feet before
  // the motion starts.
  for (int k = 0; k < static_cast<int>(1.0 / dt); ++k)
    run.step(stabilizer.correct(q_ref.front(), zmp_ref.front(), run.measure_balance(both)), zero_v, false);
  Segment seg{"squat", "squat", run.sim->time(), 0.0, 0.0, 0.0};
  run.recorder->restart_clocks(run.sim->time());
  const int steps = static_cast<int>(std::lround(duration / dt));
  VectorX qr(nominal.nq), vr(nominal.nv);
  for (int k = 0; k < steps; ++k) {
    const double t = k * dt;
    const int i = std::min(static_cast<int>(t / ik_period), samples - 2);
    const double s = t / ik_period - i;
    const VectorX& qa = q_ref[static_cast<std::size_t>(i)];
    const VectorX& qb = q_ref[static_cast<std::size_t>(i + 1)];
    qr = qa + s * (qb - qa);
    for (std::size_t j = 1; j < nominal.bodies.size(); ++j) {
      const Body& b = nominal.bodies[j];
      if (b.joint_type != JointType::FreeFlyer) vr[b.idx_v] = (qb[b.idx_q] - qa[b.idx_q]) / ik_period;
    }
    const Eigen::Vector2d& za = zmp_ref[static_cast<std::size_t>(i)];
    const Eigen::Vector2d& zb = zmp_ref[static_cast<std::size_t>(i + 1)];
    run.step(stabilizer.correct(qr, za + s * (zb - za), run.measure_balance(both)), vr, true);
    run.track_motion();
    if (k % 500 == 0) run.progress(double(k) / steps, "squat t = " + std::to_string(t).substr(0, 4) + " s");
  }
  seg.end = run.sim->time();
  run.segments.push_back(seg);
}

}  // namespace

void check_scenario(const Robot& robot, const ScenarioOptions& options) {
  const auto names = scenario_names();
  if (std::find(names.begin(), names.end(), options.scenario) == names.end()) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown scenario '" + options.scenario + "' (known: " + list + ")");
  }
  if (options.out_dir.empty()) throw std::invalid_argument("no output directory (--out)");
  if (options.scenario == "servo-bench") return check_servo_bench(robot);
  if (!robot.sidecar)
    throw std::invalid_argument(robot.urdf_path + " has no sidecar; scenario '" + options.scenario +
                                "' needs its contacts (docs/robot-sidecar.md)");
  if (!robot.model.floating_base)
    throw std::invalid_argument("scenario '" + options.scenario + "' needs a floating-base robot; " + robot.model.name +
                                " has a fixed base");
  if (robot.sidecar->contacts.size() < 2)
    throw std::invalid_argument("scenario '" + options.scenario + "' needs two sole contacts in " +
                                robot.sidecar->source_path);
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
  if (options.scenario == "static-poses") {
    // Settled poses: slow streams suffice except the plates and the mocap (their own rates).
    rates.truth_hz = rates.encoders_hz = rates.imu_hz = rates.ft_hz = 100.0;
  }
  const auto wall_start = std::chrono::steady_clock::now();
  Run run(robot, options, scene, rates);
  if (options.scenario == "static-poses")
    run_static_poses(run);
  else if (options.scenario == "squat")
    run_squat(run);
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
  dataset["gravity"] = {robot.model.gravity.x(), robot.model.gravity.y(), robot.model.gravity.z()};
  for (const auto& [name, file_rate] : streams)
    dataset["streams"][name] = {
        {"file", file_rate.first}, {"rate_hz", file_rate.second}, {"noise_free", name == "truth"}};
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
               {"seed", options.seed}};
  if (options.scenario == "static-poses") {
    summary["poses"] = run.segments.size();
    summary["max_joint_speed_in_windows"] = max_speed;
    summary["max_cop_gcom_error_mm"] = 1e3 * max_cop;
  }
  for (const auto& [key, value] : bench.summary) summary[key] = value;
  if (options.scenario == "squat") {
    summary["com_height_range_m"] = run.com_z_max - run.com_z_min;
    summary["max_base_tilt_deg"] = run.max_tilt * 180.0 / M_PI;
  }
  s.summary_json = summary.dump(2) + "\n";
  write_file_atomically(options.out_dir + "/summary.json", s.summary_json);
  return s;
}

}  // namespace dynid
