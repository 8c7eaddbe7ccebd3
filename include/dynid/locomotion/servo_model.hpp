#pragma once
// A position-controlled DC servo (Dynamixel MX-106 class) as paper 002 models it: an ideal DC motor
// (eqs. 1-5: U I = omega tau + R I^2, tau = k_tau I, so U = omega k_tau + R tau / k_tau) behind a
// gear (eqs. 6-7: tau = tau_o + tau_f, omega = k_gear qdot) with Coulomb + Stribeck + viscous
// friction (eqs. 8-9, exponent delta = 1 as the paper fixes it), driven by the servo firmware's
// proportional position controller (eq. 16: U = U_bat k_ctrl k_P (q_d - q)).
//
// Units: SI at the joint (rad, rad/s, N m) and at the motor terminals (V, A, ohm). Torques are joint
// side: the motor torque k_tau I times the gear ratio. The rotor's reflected inertia (armature) is
// not here: the simulation gives it to the joint (MuJoCo joint armature), so the torque this model
// returns accelerates the links and the rotor together.

#include "dynid/actuator/actuator_model.hpp"
#include "dynid/model/sidecar.hpp"

namespace dynid {

struct ServoParameters {
  double gear_ratio = 225.0;                    ///< motor turns per joint turn (k_gear)
  double torque_constant_nm_per_a = 0.011318;   ///< k_tau at the motor; also the back-EMF constant [V s/rad]
  double resistance_ohm = 3.6378;               ///< winding resistance R
  double supply_voltage_v = 14.8;               ///< U_bat
  double p_gain = 32.0;                         ///< P-gain register (Robotis firmware units: k_P = p_gain / 8)
  double effort_limit_nm = 10.36;               ///< current limit of the firmware, as joint torque
  double coulomb_friction_nm = 0.69;            ///< tau_c
  double stribeck_friction_nm = 0.15;           ///< extra static friction at rest: tau_s - tau_c
  double stribeck_velocity_rad_s = 0.1;         ///< qdot^(s)
  double viscous_friction_nm_s_per_rad = 0.72;  ///< c^(v), mechanical only (back-EMF is the motor's)
  double armature_kg_m2 = 0.0;                  ///< reflected rotor inertia (simulated by MuJoCo)
  double encoder_counts_per_rev = 4096.0;       ///< MX-106 magnetic encoder (12 bit)
  double pwm_full_scale = 1023.0;               ///< controller output for 100 % duty (k_ctrl, see below)
  /// Velocity scale of the sign smoothing: sgn(qdot) -> tanh(qdot / eps). Real gears stick; a
  /// 1 ms explicit step cannot represent a discontinuous sign, and the slope (tau_c + tau_s) / eps
  /// must stay below ~2 J / dt for the joint inertia J (0.02 rad/s: 42 N m s/rad, stable for J >
  /// 0.021 kg m^2 at 1 kHz; the bench leg has 0.05).
  double friction_sign_velocity_rad_s = 0.02;
};

/// The actuator entry of the sidecar as servo parameters. Throws naming the joint and the first
/// missing field (every field the model uses is required; armature falls back to N^2 rotor inertia).
ServoParameters servo_parameters(const ActuatorInfo& actuator);

/// One control period of the servo.
struct ServoStep {
  double encoder_position_rad = 0.0;  ///< what the servo's own encoder reads (quantized)
  double voltage_v = 0.0;             ///< PWM-averaged motor terminal voltage U
  double current_a = 0.0;             ///< winding current I
  double motor_torque_nm = 0.0;       ///< k_gear k_tau I, joint side
  double friction_torque_nm = 0.0;    ///< tau_f (eq. 8), joint side
  double joint_torque_nm = 0.0;       ///< tau_o = motor - friction: what drives the link (eq. 6)
};

/// The physical values of the DC motor and gear friction (actuator/actuator_model.hpp), tau_s =
/// coulomb + stribeck friction.
ActuatorPhysical actuator_physical(const ServoParameters& params);

/// Stateless: a value type whose step() maps command and joint state to voltage, current and
/// torques. Safe in a 1 kHz loop (no allocation).
class ServoModel {
 public:
  explicit ServoModel(const ServoParameters& params);

  const ServoParameters& parameters() const { return p_; }

  /// k_ctrl k_P U_bat of eq. (16) [V/rad]: the firmware multiplies the error in encoder counts by
  /// k_P = p_gain / 8 and outputs that as a duty cycle in 1/pwm_full_scale (Robotis protocol 1.0
  /// range 0..1023); paper 002 leaves k_ctrl unknown, this is our documented assumption.
  double voltage_per_rad() const;
  /// The encoder reading of joint position q (rounded to whole counts).
  double encoder(double q_rad) const;
  /// Current limit of the firmware [A]: the effort limit divided by k_gear k_tau.
  double current_limit_a() const;
  /// tau_f of eqs. (8)-(9) with delta = 1 and sgn smoothed by tanh(qdot / eps).
  double friction_torque(double qdot_rad_s) const;
  /// Motor current for voltage U at joint speed qdot: I = (U - k_tau k_gear qdot) / R (eq. 3 with
  /// omega = k_gear qdot and tau / I = k_tau).
  double current(double voltage_v, double qdot_rad_s) const;

  /// One control period: U = clamp(k_ctrl k_P U_bat (q_cmd - q_enc), +-U_bat) (eq. 16), further
  /// limited so |I| stays within current_limit_a(); then I, motor torque, friction, joint torque.
  /// `q` and `qdot` are the true joint state; the controller sees only the quantized encoder.
  ServoStep step(double q_cmd_rad, double q_rad, double qdot_rad_s) const;
  /// The same with the supply voltage the servo has at this instant (a battery sagging under load)
  /// instead of the nominal one [V].
  ServoStep step(double q_cmd_rad, double q_rad, double qdot_rad_s, double supply_voltage_v) const;

 private:
  ServoParameters p_;
  ActuatorPhysical physical_;
  double count_rad_;
};

}  // namespace dynid
