#pragma once
// The DC motor + gear friction model of paper 002 (Schwarz & Behnke), linear in its coefficients:
//
//   U = a0 tau_o + a1 qdot + a2 sgn(qdot) (1 - beta) + a3 sgn(qdot) beta + a4 qddot      (eqs. 13-14)
//   beta = exp(-|qdot / qdot_s|^delta)                                                   (eq. 9)
//
// U is the motor terminal voltage [V], tau_o the torque the joint delivers to the links [N m],
// qdot, qddot the joint velocity [rad/s] and acceleration [rad/s^2]. With joint-side torques (motor
// torque k_tau I through the gear ratio N) the coefficients are (eqs. 10-12, one more term for the
// rotor's reflected inertia J):
//   a0 = R / (N k_tau) [V/(N m)]      a1 = N k_tau + a0 c_v [V s/rad]    a2 = a0 tau_c [V]
//   a3 = a0 tau_s [V]                 a4 = a0 J [V s^2/rad]
// tau_c is the Coulomb friction, tau_s the static friction at rest (tau_s > tau_c), c_v the
// viscous friction, all at the joint. The reaction time t_d (eq. 15) shifts the voltage against
// the motion: U(t - t_d) = a . phi(t).
//
// A position-controlled servo is commanded with q_d, not U; its firmware applies
// U = k_P k_ctrl U_bat (q_d - q) (eq. 16), so a voltage-equivalent is sent as
// q_d = q + U / (k_P k_ctrl U_bat) (eqs. 17-19).
//
// Both users share these equations: the simulated servo (locomotion/servo_model.hpp) runs them
// forward with physical values, identification (actuator/actuator_fit.hpp) fits the alphas.

#include <array>
#include <string>

namespace dynid {

/// Shape of the Stribeck curve (eq. 9): transition speed qdot_s [rad/s] and exponent delta.
struct StribeckShape {
  double velocity_rad_s = 0.1;
  double exponent = 1.0;
};

/// beta of eq. (9): 1 at rest, -> 0 well above qdot_s.
double stribeck_beta(double qdot_rad_s, const StribeckShape& shape);

/// sgn(qdot), optionally smoothed as tanh(qdot / eps) (eps = 0: the exact sign, 0 at rest).
double friction_sign(double qdot_rad_s, double sign_velocity_rad_s = 0.0);

using ActuatorAlpha = std::array<double, 5>;  ///< a0..a4 in the units above

/// The regressor row phi of eqs. (14), (27): U = alpha . phi.
ActuatorAlpha actuator_regressor(double tau_o_nm, double qdot_rad_s, double qddot_rad_s2, const StribeckShape& shape,
                                 double sign_velocity_rad_s = 0.0);

/// The identified (or datasheet) model of one actuator: alphas, Stribeck shape, reaction time.
struct ActuatorModel {
  ActuatorAlpha alpha{};
  StribeckShape stribeck;
  double reaction_time_s = 0.0;  ///< t_d of eq. (15)

  /// The motor voltage that makes the joint deliver tau_o at qdot, qddot (eq. 14) [V].
  double voltage(double tau_o_nm, double qdot_rad_s, double qddot_rad_s2, double sign_velocity_rad_s = 0.0) const;
};

/// Physical values of a DC servo, joint side (what a datasheet lists).
struct ActuatorPhysical {
  double gear_ratio = 1.0;                ///< N, motor turns per joint turn
  double torque_constant_nm_per_a = 0.0;  ///< k_tau at the motor (= back-EMF constant [V s/rad])
  double resistance_ohm = 0.0;            ///< winding resistance R
  double viscous_nm_s_per_rad = 0.0;      ///< c_v at the joint
  double coulomb_nm = 0.0;                ///< tau_c at the joint
  double static_nm = 0.0;                 ///< tau_s at the joint (the friction at rest)
  double armature_kg_m2 = 0.0;            ///< J, rotor inertia reflected to the joint (N^2 J_rotor)
};

/// The alphas of eqs. (10)-(14) for physical values.
ActuatorAlpha alpha_from_physical(const ActuatorPhysical& p);

/// Physical values for alphas. The alphas fix R, c_v, the frictions and J only once N k_tau is
/// known (a1 mixes the back-EMF N k_tau with a0 c_v): the datasheet's gear ratio and torque
/// constant fix that scale. Throws if a0 is not positive.
ActuatorPhysical physical_from_alpha(const ActuatorAlpha& alpha, double gear_ratio, double torque_constant_nm_per_a);

/// Motor current for terminal voltage U at joint speed qdot: I = (U - N k_tau qdot) / R (eq. 3
/// with omega = N qdot, eq. 7) [A].
double motor_current(const ActuatorPhysical& p, double voltage_v, double qdot_rad_s);

/// Friction torque at the joint, eq. (8) with beta of eq. (9) [N m].
double friction_torque(const ActuatorPhysical& p, double qdot_rad_s, const StribeckShape& shape,
                       double sign_velocity_rad_s = 0.0);

/// k_ctrl k_P of eq. (16) for a Robotis MX-class firmware [1/rad]: the error in encoder counts times
/// K_P = p_gain / 8 is the duty cycle in 1/pwm_full_scale, so k_ctrl k_P = (p_gain / 8) /
/// (pwm_full_scale * 2 pi / counts_per_rev). Multiply by U_bat for volts per radian. Paper 002
/// leaves k_ctrl unknown; this mapping is dynid's documented assumption (docs/actuators.md).
double servo_gain_per_rad(double p_gain_register, double encoder_counts_per_rev = 4096.0,
                          double pwm_full_scale = 1023.0);

/// Eq. (16): the voltage a P-controlled servo applies [V].
double servo_voltage(double q_cmd_rad, double q_rad, double gain_per_rad, double supply_voltage_v);

/// Eqs. (17)-(19): the position command that makes a P-controlled servo apply `voltage_v` at q [rad].
double servo_command(double voltage_v, double q_rad, double gain_per_rad, double supply_voltage_v);

/// "a0 ... a4" for messages.
std::string alpha_text(const ActuatorAlpha& alpha);

}  // namespace dynid
