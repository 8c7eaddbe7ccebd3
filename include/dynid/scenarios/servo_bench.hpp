#pragma once
// The `servo-bench` scenario of `dynid simulate` (docs/scenarios.md): paper 002's single-joint rig,
// the torso fixed to a table and one position-controlled servo swinging the leg. Every joint of the
// fixed-base robot is a servo (locomotion/servo_model.hpp) simulated in the loop at the physics rate
// (1 kHz): the firmware's P controller turns the commanded position into a motor voltage, the DC
// motor and the gear friction into the torque MuJoCo applies to the link.

#include <string>
#include <utility>
#include <vector>

#include "dynid/locomotion/servo_model.hpp"
#include "dynid/model/robot.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "dynid/sim/dataset_recorder.hpp"
#include "dynid/sim/simulation.hpp"

namespace dynid {

/// A seeded smooth swing: q(t) = center + w(t) sum_i A_i sin(2 pi f_i t + phi_i), three components
/// with f_i in [0.2, 1.2] Hz, random phases, amplitudes summing to 0.6-0.9 rad (at most 40 % of the
/// joint range), scaled down so the peak speed stays within 60 % of the velocity limit. w(t) is a
/// minimum-jerk fade (10 s^3 - 15 s^4 + 6 s^5) over the first and last second, so the command starts
/// and ends at rest at `center` with zero velocity and acceleration. Paper 002 uses such smooth
/// swings as ILC reference trajectories.
struct ServoSwing {
  double center_rad = 0.0;
  double duration_s = 8.0;
  double fade_s = 1.0;
  std::vector<double> amplitude_rad, frequency_hz, phase_rad;

  double position(double t_s) const;  ///< [rad]
  double velocity(double t_s) const;  ///< [rad/s] (analytic)
};

/// The swing for a joint with limits [lower, upper] (center: mid-range) and a velocity limit.
ServoSwing make_servo_swing(double lower_rad, double upper_rad, double velocity_limit_rad_s, unsigned seed,
                            double duration_s = 8.0);

/// Noise of the servo's own sensors with --noise realistic (Dynamixel MX-106 registers).
struct ServoSensorNoise {
  double current_resolution_a = 0.0045;  ///< Present Current register: 4.5 mA per unit
  double current_sigma_a = 0.0045;       ///< white, before quantization
  double voltage_sigma_v = 0.02;         ///< PWM-averaged motor voltage: ripple left after averaging
  double supply_resolution_v = 0.1;      ///< Present Voltage register: 0.1 V per unit
  double supply_sigma_v = 0.02;          ///< supply ripple, before quantization
  bool enabled = true;                   ///< false: exact values, encoder unquantized
};

struct ServoBenchResult {
  double record_start_s = 0.0, record_end_s = 0.0;
  std::string stream = "servo", stream_file = "servo.csv";
  double stream_rate_hz = 1000.0;
  /// Per joint: the true actuator values the simulation used (dataset.json `actuators_truth`).
  std::vector<std::pair<std::string, std::vector<std::pair<std::string, double>>>> actuators_truth;
  /// Numbers for summary.json.
  std::vector<std::pair<std::string, double>> summary;
};

/// Throws if the robot cannot run the bench: it needs a fixed base and a complete servo entry in
/// the sidecar's actuators for every joint.
void check_servo_bench(const Robot& robot);

/// Holds the start pose 1 s (not recorded), then records the swing (ServoSwing::duration_s) into
/// `recorder` and DIR/servo.csv. `sim` must be built on `truth` without joint damping (the servo's
/// viscous friction is part of its torque).
ServoBenchResult run_servo_bench(const Model& truth, const RobotSidecar& sidecar, const ScenarioOptions& options,
                                 Simulation& sim, DatasetRecorder& recorder);

}  // namespace dynid
