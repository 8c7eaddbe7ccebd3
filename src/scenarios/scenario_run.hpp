#pragma once
// Private to the scenario implementations (src/scenarios/scenario_*.cpp): what one `dynid simulate` run
// shares — true model, scene, servos, simulation, recorder, the recorded segments — and the entry
// point of each scenario. Each scenario lives in its own file and is dispatched by scenario.cpp.

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dynid/dynamics/center_of_mass.hpp"
#include "dynid/dynamics/kinematics.hpp"
#include "dynid/dynamics/sole_contacts.hpp"
#include "dynid/locomotion/attitude_filter.hpp"
#include "dynid/locomotion/balance_stabilizer.hpp"
#include "dynid/locomotion/joint_servo.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "dynid/scenarios/static_poses.hpp"
#include "dynid/sim/dataset_recorder.hpp"
#include "dynid/sim/geometry_perturbation.hpp"
#include "dynid/sim/inertia_perturbation.hpp"
#include "dynid/sim/joint_elasticity_perturbation.hpp"
#include "dynid/sim/marker_perturbation.hpp"
#include "dynid/sim/perturbations.hpp"
#include "dynid/sim/sensor_bus_perturbation.hpp"
#include "dynid/sim/simulation.hpp"
#include "dynid/sim/stream_clock_perturbation.hpp"
#include "dynid/sim/true_model.hpp"
#include "leg_servos.hpp"

namespace dynid::scenario_detail {

struct Segment {
  std::string label, category;
  double start = 0.0, end = 0.0;
  double max_joint_speed = 0.0;  ///< [rad/s] in the window
  double cop_gcom_error = 0.0;   ///< [m] combined plate COP vs true GCOM, window mean (noise-free)
  std::string support = "";      ///< feet on the ground (walk, excite): "both", "left" or "right"
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
  double com_z_min = 1e9, com_z_max = -1e9;            ///< true COM height over the recorded motion [m]
  double max_tilt = 0.0;                               ///< largest angle of the base z axis from vertical [rad]
  int steps = 0;                                       ///< walking steps completed (summary.json)
  std::vector<std::pair<std::string, double>> extras;  ///< scenario-specific numbers for summary.json
  bool sensing = false;  ///< read the sensors every servo tick also while not recording (read_sensors)
  std::unique_ptr<AttitudeFilter> attitude;  ///< the controller's IMU orientation estimate
  /// walk --servo-control: paper 002's servo model drives the leg joints (their PD servo torques
  /// are replaced in step()); null otherwise.
  std::unique_ptr<LegServos> legs;
  /// --perturb inertia: how each true body's mass is spread about its COM (applied to truth.model), else empty.
  std::vector<BodyInertiaError> inertia;
  /// --perturb geometry: the true joint origins and axes (applied to truth.model), else empty.
  std::vector<JointGeometryError> geometry;
  /// --perturb joint-elasticity: each joint's wind-up behind its encoder, else unset.
  std::optional<JointElasticity> elasticity;
  /// --perturb ft: each sidecar F/T sensor's calibration errors and drift, else empty.
  std::vector<FtError> ft_errors;
  /// --perturb imu: the IMU's mounting and calibration errors, else unset.
  std::optional<ImuError> imu_error;
  /// --perturb sensor-bus: the balance control's sensor latency, else unset (read at once).
  std::optional<SensorBusDelay> sensor_bus;
  /// --perturb force-plates: each scene plate's calibration errors and drift, else empty.
  std::vector<PlateError> plate_errors;
  /// --perturb markers: where the lab's markers sit and when two swap (applied by the recorder), else unset.
  std::optional<MarkerPerturbation> markers;
  /// When the markers' swapped-label event may start [s]: within the first seconds every scenario records.
  static constexpr double kMarkerSwapWindowStartS = 2.0, kMarkerSwapWindowEndS = 5.0;
  /// --perturb time: the clock of each stream recorded on another device, else empty.
  std::map<std::string, StreamClock> stream_clocks;
  /// walk: planned touch-downs, seconds after the walk's start (when the leg servos start measuring),
  /// and whether the landing foot is the left one.
  std::vector<std::pair<double, bool>> touchdowns;
  /// walk --servo-control: the share of the measured vertical ground force on the planned swing foot,
  /// summed over the physics steps of the planned single supports, and their count.
  double swing_foot_load_share_sum = 0.0;
  long swing_foot_load_samples = 0;
  /// The true robot's sidecar when its actuators differ from the nominal one's (the arm's excite:
  /// true joint friction and armature); the simulation and recorder use it. Unset: the robot's.
  std::optional<RobotSidecar> truth_sidecar;

  Run(const Robot& r, const ScenarioOptions& o, const SceneSpec& s, const StreamRates& rates)
      : robot(r),
        options(o),
        truth(make_true_model(r.model, true_total_mass(r.model), o.seed)),
        scene(s),
        truth_data(truth.model),
        rates_(rates) {
    if (perturbation_enabled(o.perturbations, "inertia")) inertia = perturb_inertia(truth.model, o.seed);
    if (perturbation_enabled(o.perturbations, "geometry")) geometry = perturb_geometry(truth.model, o.seed);
    if (perturbation_enabled(o.perturbations, "sensor-bus")) sensor_bus = perturb_sensor_bus(o.seed);
  }

  /// Builds the servos for a reference configuration and the simulation around them (the servos'
  /// damping is part of the simulated joints).
  /// Bodies marked in `own_servo` get no simulated joint damping: a servo model drives them, whose
  /// back-EMF and friction are its damping.
  void start(const VectorX& q_ref, const std::vector<bool>& own_servo = {}) {
    std::vector<int> soles;
    const auto [left, right] = left_right_soles(robot.model, *robot.sidecar);
    for (int c : {left, right})
      soles.push_back(robot.model
                          .frames[static_cast<std::size_t>(
                              robot.model.frame_index(robot.sidecar->contacts[static_cast<std::size_t>(c)].name))]
                          .body);
    servo = std::make_unique<JointServo>(robot.model, q_ref, joint_armature(robot.model, *robot.sidecar), soles);
    scene.joint_damping = servo->damping_per_body();
    for (std::size_t b = 0; b < own_servo.size() && b < scene.joint_damping.size(); ++b)
      if (own_servo[b]) scene.joint_damping[b] = 0.0;
    start_simulation();
  }

  /// The simulation of the scene as it is and its recorder (without stance servos, a scenario
  /// computes every joint torque itself).
  void start_simulation() {
    const RobotSidecar& simulated_robot = truth_sidecar ? *truth_sidecar : *robot.sidecar;
    sim = std::make_unique<Simulation>(truth.model, simulated_robot, scene);
    recorder =
        std::make_unique<DatasetRecorder>(options.out_dir, truth.model, simulated_robot, scene,
                                          sensor_noise(options.noise, options.backlash_rad), rates_, options.seed + 1);
    if (perturbation_enabled(options.perturbations, "time")) {
      stream_clocks = perturb_stream_clocks(options.seed);
      recorder->set_stream_clocks(stream_clocks);
    }
    if (perturbation_enabled(options.perturbations, "joint-elasticity")) {
      elasticity = perturb_joint_elasticity(truth.model, options.seed);
      recorder->set_joint_elasticity(elasticity->compliance);
    }
    if (perturbation_enabled(options.perturbations, "ft") && !simulated_robot.ft_sensors.empty()) {
      ft_errors = perturb_ft_sensors(simulated_robot.ft_sensors.size(), options.seed);
      recorder->set_ft_perturbation(ft_errors);
    }
    if (perturbation_enabled(options.perturbations, "imu") && simulated_robot.imu) {
      imu_error = perturb_imu(options.seed);
      recorder->set_imu_perturbation(*imu_error);
    }
    if (perturbation_enabled(options.perturbations, "force-plates") && !scene.plates.empty()) {
      plate_errors = perturb_force_plates(scene.plates.size(), options.seed);
      recorder->set_force_plate_perturbation(plate_errors);
    }
    if (perturbation_enabled(options.perturbations, "markers") && !simulated_robot.markers.empty()) {
      markers = perturb_markers(simulated_robot, options.seed, kMarkerSwapWindowStartS, kMarkerSwapWindowEndS);
      recorder->set_marker_perturbation(*markers);
    }
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

  /// One control period: servo torques (with the feed-forward torque `tau_ff`, nv, when given),
  /// physics, optional recording, integration.
  void step(const VectorX& q_ref, const VectorX& v_ref, bool record, const VectorX* tau_ff = nullptr) {
    const VectorX zero = VectorX::Zero(truth.model.nv);
    const VectorX* applied = &servo->torque(sim->q(), sim->v(), q_ref, v_ref, tau_ff ? *tau_ff : zero);
    if (legs) {
      leg_tau_ = *applied;
      legs->apply(sim->q(), sim->v(), q_ref, leg_tau_);
      applied = &leg_tau_;
    }
    const VectorX& tau = *applied;
    sim->forward(tau);
    if (record || sensing) recorder->record(*sim, tau, record);
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

  /// What the robot's controller knows about its balance, from its own sensors as the streams
  /// record them (noisy with realistic noise; read at the last servo tick, set `sensing`):
  /// orientation from an attitude filter on the IMU (updated every `dt` [s], the bus period), the
  /// gyro, and the foot F/T wrenches placed at the planned sole poses `planned_soles` (world), so
  /// that the COP is measured relative to the footholds, as a robot does. Without an IMU on the
  /// base body or an F/T sensor on a foot, that quantity comes from the simulation (ideal sensor).
  /// With `--perturb sensor-bus` every reading (and the ideal values standing in for missing
  /// sensors) arrives `sensor_bus->latency_bus_periods` calls late: call it once per bus tick.
  BalanceMeasurement read_sensors(const std::vector<int>& soles, const std::vector<SE3>& planned_soles, double dt) {
    if (!bus_line_) bus_line_.emplace(sensor_bus ? sensor_bus->latency_bus_periods : 0);
    const BusReading& delivered = bus_line_->pass({measure_balance(soles), recorder->latest()});
    BalanceMeasurement m = delivered.ideal;
    const SensorReadings& r = delivered.readings;
    const Model& model = truth.model;
    if (r.imu && robot.sidecar->imu) {
      const Frame& imu = model.frames[static_cast<std::size_t>(model.frame_index(robot.sidecar->imu->name))];
      if (imu.body == 1) {
        if (!attitude)
          attitude = std::make_unique<AttitudeFilter>(m.base_rotation * imu.placement.rotation);
        else
          attitude->update(r.gyro, r.accelerometer, dt);
        m.base_rotation = attitude->world_from_imu() * imu.placement.rotation.transpose();
        m.base_angular_velocity = imu.placement.rotation * r.gyro;
      }
    }
    for (std::size_t i = 0; i < soles.size(); ++i) {
      const Frame& sole = model.frames[static_cast<std::size_t>(
          model.frame_index(robot.sidecar->contacts[static_cast<std::size_t>(soles[i])].name))];
      for (std::size_t s = 0; s < robot.sidecar->ft_sensors.size() && s < r.ft.size(); ++s) {
        const ForceTorqueSensor& ft = robot.sidecar->ft_sensors[s];
        const Frame& sensor = model.frames[static_cast<std::size_t>(model.frame_index(ft.name))];
        if (ft.measures != WrenchMeasured::External || sensor.body != sole.body) continue;
        m.sole_wrenches[i] = (planned_soles[i] * sole.placement.inverse() * sensor.placement).act(r.ft[s]);
        break;
      }
    }
    return m;
  }

  /// Whether a controller read the robot's sensors (read_sensors) during the run.
  bool controller_read_sensors() const { return bus_line_.has_value(); }

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

 private:
  VectorX leg_tau_;  ///< step()'s joint torques with the leg servos' in place
  struct BusReading {
    BalanceMeasurement ideal;  ///< the simulation's values, for sensors the robot does not have
    SensorReadings readings;   ///< the robot's sensors as the streams record them
  };
  std::optional<BusDelayLine<BusReading>> bus_line_;
};

void run_static_poses(Run& run);
void run_squat(Run& run);
void run_walk(Run& run);
/// Checks the walk's options and robot before anything runs (throws with the reason).
void check_walk(const Robot& robot, const ScenarioOptions& options);
/// Names of the walk's leg joints (on the chains from the soles to the base), in body order.
std::vector<std::string> walk_leg_joints(const Robot& robot);
/// Servo ticks per field-bus period; throws unless the bus rate divides the servo rate.
int bus_ticks(double bus_rate_hz, double timestep);
void run_excite(Run& run);
/// excite on a fixed-base robot (scenario_arm_excite.cpp): a Fourier excitation of every joint
/// under computed torque, with the true joint friction and armature; check_arm_excite throws with
/// the reason when the motion does not suit the robot.
void run_arm_excite(Run& run);
void check_arm_excite(const Robot& robot, const ScenarioOptions& options);
/// Throws with the reason when the excite motion is neither built in nor a readable trajectory
/// of this robot's joints, or the duration is negative.
void check_excite_motion(const Robot& robot, const ScenarioOptions& options);

/// Joint torques (nv, zero on the base) of the nominal model along a reference sampled every
/// `period` [s] (finite-difference velocities and accelerations), with the ground reaction the
/// motion needs shared between the two sole bodies, `left_share` (0..1, one per sample) on the
/// left: the feed-forward that lets the stiff servos track without a large error. Without
/// `sole_points` each foot takes its share of the whole ground wrench (its COP at the ZMP); with
/// the left and right sole centres (world [m]) its share of the force acts at its own centre.
std::vector<VectorX> planned_feedforward(const Model& nominal, const std::vector<VectorX>& q_ref,
                                         const std::vector<double>& left_share, int left_body, int right_body,
                                         double period, const std::array<Vector3, 2>* sole_points = nullptr);

/// Planned ZMP of the nominal model along a reference sampled every `period` [s] (linear inverted
/// pendulum: COM minus height/g times its horizontal acceleration), what the balance stabilizer
/// holds the measured COP to.
std::vector<Eigen::Vector2d> planned_zmp(const Model& nominal, const std::vector<VectorX>& q_ref, double period);

}  // namespace dynid::scenario_detail
