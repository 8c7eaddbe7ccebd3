#pragma once
// `dynid simulate`: run a documented, seeded scenario on the true version of a robot and write a
// data set (docs/data-format.md, docs/scenarios.md): sensor streams, dataset.json, truth.urdf and
// summary.json.

#include <functional>
#include <string>
#include <vector>

#include "dynid/model/robot.hpp"
#include "dynid/sim/sensor_noise.hpp"

namespace dynid {

struct ScenarioOptions {
  std::string scenario;
  std::string out_dir;
  unsigned seed = 1;
  NoiseLevel noise = NoiseLevel::Realistic;
  double slope_deg = 0.0;
  double backlash_rad = 0.0017;  ///< encoder backlash with realistic noise (0.1 deg, harmonic-drive class)
  int static_pose_count = 172;   ///< paper 000
  /// static-poses: the base tilted in each pose by up to this angle [deg] about a random horizontal
  /// axis (0: upright, paper 000's poses); for calibrating an IMU's mounting.
  double static_pose_base_tilt_deg = 0.0;
  int walk_steps = 10;           ///< walk: steps, the closing step included
  double walk_speed_mps = 0.2;   ///< walk: mean forward speed [m/s]
  bool lock_upper_body = false;  ///< walk, excite trunk-bend: joints off the legs welded (no arm swing)
  /// Main-controller (field-bus) rate [Hz]: references sent and sensors read this often, held in
  /// between; the servos' PD loops run at the physics rate (1 kHz). Must divide 1000 Hz.
  double bus_rate_hz = 125.0;
  std::string motion = "paper004";  ///< excite: paper004 | evaluation | trunk-bend | fourier | a dynid-excitation file
  double duration_s = 0.0;          ///< excite: length of the recorded motion [s]; 0 = the motion's default
  /// excite (floating base): seconds recorded standing still before the motion (segment category
  /// `still`), what an IMU's biases are calibrated from (`identify inertial --imu-calibration`); 0: none.
  double still_s = 0.0;
  /// walk: the leg joints driven by paper 002's servo model under this controller, "high-gain",
  /// "low-gain" or "feed-forward" (docs/actuators.md); empty: the stiff PD servos.
  std::string servo_control;
  /// walk with servo_control "feed-forward": the actuators file of the feed-forward's model (a
  /// sidecar, or the actuator.yaml of `dynid identify actuator`); empty: the servos' datasheet.
  std::string actuator_model;
  /// walk with servo_control: the leg servos' normalised P gain k_P (1.0 = the MX firmware's P
  /// register 128, docs/actuators.md); 0: the controller's own (1.0 high-gain, 0.35 otherwise).
  double servo_kp = 0.0;
  /// Testbed imperfections switched on (sim/perturbations.hpp: parse_perturbations), none by default.
  std::vector<std::string> perturbations;
  /// Called with the fraction done (0..1) and a short message; may be empty.
  std::function<void(double, const std::string&)> progress;
};

struct ScenarioSummary {
  std::string scenario, robot;
  double duration_s = 0.0;  ///< simulated time [s]
  long samples = 0;         ///< rows of the truth stream
  bool fell = false;
  int steps = 0;                 ///< walking steps completed
  double realtime_factor = 0.0;  ///< simulated time / wall time
  double nominal_total_mass = 0.0, true_total_mass = 0.0;
  double consistency_max_rel_error = 0.0;
  std::string summary_json;  ///< what was written to summary.json
};

/// Scenario names `simulate` knows.
std::vector<std::string> scenario_names();

/// Checks that the robot and options suit the scenario before anything runs (throws with the
/// reason: unknown scenario, missing sidecar entries, ...).
void check_scenario(const Robot& robot, const ScenarioOptions& options);

/// Runs the scenario and writes the data set into options.out_dir (created if needed).
ScenarioSummary run_scenario(const Robot& robot, const ScenarioOptions& options);

}  // namespace dynid
