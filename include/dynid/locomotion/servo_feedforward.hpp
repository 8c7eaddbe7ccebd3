#pragma once
// Compliant control of position servos with model feed-forward (paper 002, sec. 5.2): the servo's
// firmware runs a P controller on the position command, and a model-based controller adds to the
// reference the offset that makes the firmware apply the voltage the actuator model predicts for
// the planned joint torque and motion (eqs. 16-19):
//
//   q_d' = q_d + U / (k_P k_ctrl U_bat),   U = alpha . phi(tau, qdot, qddot)   (eq. 14)
//
// so at a low P gain the joint still follows the reference, and the P term corrects only what the
// model misses. Units: rad, rad/s, rad/s^2, N m, V.

#include <string>

#include "dynid/actuator/actuator_model.hpp"

namespace dynid {

/// The three controllers of paper 002's walking comparison (fig. 5).
enum class ServoControl {
  HighGain,     ///< (a) P only, k_P = 1.0
  LowGain,      ///< (b) P only, k_P = 0.35
  FeedForward,  ///< (c) k_P = 0.35 plus the model's feed-forward
};

/// "high-gain" | "low-gain" | "feed-forward"; throws std::invalid_argument naming the known values.
ServoControl parse_servo_control(const std::string& name);
std::string to_string(ServoControl control);

/// The paper's normalised P gain k_P of a controller: 1.0 or 0.35.
double servo_control_gain(ServoControl control);

/// The position command of eq. (19) about the reference: the reference `q_ref_rad` plus the
/// command offset that makes a P servo with `volts_per_rad` (k_P k_ctrl U_bat [V/rad]) apply the
/// voltage `model` needs for joint torque `tau_nm` at the reference motion. `sign_velocity_rad_s`
/// smooths the friction sign (a planned velocity crosses zero at reversals).
double feedforward_command(const ActuatorModel& model, double q_ref_rad, double qdot_ref_rad_s, double qddot_ref_rad_s2,
                           double tau_nm, double volts_per_rad, double sign_velocity_rad_s = 0.0);

}  // namespace dynid
