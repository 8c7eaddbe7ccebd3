#pragma once
// `dynid identify actuator` (paper 002, docs/actuators.md): Iterative Learning Control of one
// servo on the simulated single-joint bench (scenarios/servo_trials.hpp), the least-squares fit of
// the motor and friction model (actuator/actuator_fit.hpp), and its validation on a held-out
// trajectory and a held-out P gain; or the same fit from a user's recorded servo logs.

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "dynid/actuator/actuator_fit.hpp"
#include "dynid/actuator/ilc_reference.hpp"
#include "dynid/model/robot.hpp"

namespace dynid {

struct ActuatorIdentificationOptions {
  std::string joint;
  std::string reference;        ///< reference CSV (time,position); empty: the built-in one
  std::string logs;             ///< directory of servo.csv logs: fit them instead of simulating
  int iterations = 15;          ///< at most this many ILC trials
  double lambda = 0.8;          ///< ILC learning gain (eq. 21)
  double window_ms = 25.0;      ///< D of eq. (28)
  double threshold_rad = 0.02;  ///< ILC stops below this max windowed error
  unsigned seed = 1;            ///< the simulated bench's true links and servo
  bool true_links = false;      ///< tau_o from the simulation's true links instead of MODEL's
  /// What the simulated trials report: true (the exact joint position and supply voltage) or
  /// the servo's registers (12-bit encoder, supply in 0.1 V steps).
  bool noise_free = false;
  /// Zero-phase low-pass of the measured position before differentiating it [Hz]; 0: none;
  /// negative: 15 Hz, none for noise-free simulated trials.
  double cutoff_hz = -1.0;
  double p_gain = 0.0;          ///< P-gain register of the trials (0: the sidecar's)
  double heldout_p_gain = 0.0;  ///< validation gain (0: half the training gain)
  std::string links_urdf;       ///< logs: URDF of the links for tau_o (default: MODEL's)
  std::function<void(double, const std::string&)> progress;
};

/// One ILC trial kept for the report.
struct IlcIteration {
  double max_windowed_error_rad = 0.0;
  std::vector<double> command_rad, measured_rad;
};

struct ActuatorIdentificationResult {
  nlohmann::json summary;
  std::string sidecar_yaml;  ///< the fitted model as a sidecar `actuators:` entry
  std::string report_html;
  std::string trial_log_csv;  ///< the last ILC trial as a servo.csv log (empty from logs)
  std::string truth_urdf;     ///< the simulated bench's true links (URDF text; empty from logs)
  ActuatorFit fit;
  std::vector<IlcIteration> iterations;
};

/// Runs everything in memory; throws std::invalid_argument with a one-line reason (unknown joint,
/// a reference beyond the joint limits, a log without position or supply voltage, an ILC that
/// diverges) before anything is written.
ActuatorIdentificationResult run_actuator_identification(const Robot& robot, const ActuatorIdentificationOptions& o);

/// Writes DIR/summary.json, DIR/actuator.yaml, DIR/report.html and, simulated, DIR/ilc_trial/servo.csv
/// and DIR/truth.urdf, each atomically.
void write_actuator_identification(const ActuatorIdentificationResult& result, const std::string& out_dir);

}  // namespace dynid
