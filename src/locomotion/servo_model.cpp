#include "dynid/locomotion/servo_model.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace dynid {

ServoParameters servo_parameters(const ActuatorInfo& a) {
  auto need = [&](const std::optional<double>& value, const char* field) {
    if (!value)
      throw std::invalid_argument("actuator of joint '" + a.joint + "' has no '" + field +
                                  "' (the servo model needs it; docs/robot-sidecar.md)");
    return *value;
  };
  ServoParameters p;
  p.gear_ratio = need(a.gear_ratio, "gear_ratio");
  p.torque_constant_nm_per_a = need(a.torque_constant, "torque_constant");
  p.resistance_ohm = need(a.resistance, "resistance");
  p.supply_voltage_v = need(a.supply_voltage, "supply_voltage");
  p.p_gain = need(a.p_gain, "p_gain");
  p.effort_limit_nm = need(a.effort_limit, "effort_limit");
  p.coulomb_friction_nm = a.coulomb_friction.value_or(0.0);
  p.stribeck_friction_nm = a.stribeck_friction.value_or(0.0);
  p.stribeck_velocity_rad_s = a.stribeck_velocity.value_or(0.1);
  p.viscous_friction_nm_s_per_rad = a.damping.value_or(0.0);
  if (a.armature)
    p.armature_kg_m2 = *a.armature;
  else if (a.rotor_inertia)
    p.armature_kg_m2 = p.gear_ratio * p.gear_ratio * *a.rotor_inertia;
  if (!(p.gear_ratio > 0.0 && p.torque_constant_nm_per_a > 0.0 && p.resistance_ohm > 0.0 && p.supply_voltage_v > 0.0 &&
        p.effort_limit_nm > 0.0 && p.stribeck_velocity_rad_s > 0.0))
    throw std::invalid_argument("actuator of joint '" + a.joint +
                                "': gear_ratio, torque_constant, resistance, supply_voltage, effort_limit and "
                                "stribeck_velocity must be positive");
  return p;
}

ActuatorPhysical actuator_physical(const ServoParameters& p) {
  ActuatorPhysical a;
  a.gear_ratio = p.gear_ratio;
  a.torque_constant_nm_per_a = p.torque_constant_nm_per_a;
  a.resistance_ohm = p.resistance_ohm;
  a.viscous_nm_s_per_rad = p.viscous_friction_nm_s_per_rad;
  a.coulomb_nm = p.coulomb_friction_nm;
  a.static_nm = p.coulomb_friction_nm + p.stribeck_friction_nm;
  a.armature_kg_m2 = p.armature_kg_m2;
  return a;
}

ServoModel::ServoModel(const ServoParameters& params)
    : p_(params),
      physical_(actuator_physical(params)),
      count_rad_(2.0 * std::numbers::pi / params.encoder_counts_per_rev) {}

double ServoModel::voltage_per_rad() const {
  // Robotis MX firmware: K_P = P gain / 8 on the error in counts, output in 1/pwm_full_scale duty.
  return p_.supply_voltage_v * servo_gain_per_rad(p_.p_gain, p_.encoder_counts_per_rev, p_.pwm_full_scale);
}

double ServoModel::encoder(double q_rad) const { return std::round(q_rad / count_rad_) * count_rad_; }

double ServoModel::current_limit_a() const {
  return p_.effort_limit_nm / (p_.gear_ratio * p_.torque_constant_nm_per_a);
}

double ServoModel::friction_torque(double qdot_rad_s) const {
  // Paper 002, eqs. (8)-(9), delta = 1: sgn(qdot) ((1 - beta) tau_c + beta tau_s) + c_v qdot, with
  // tau_s - tau_c = stribeck_friction.
  return dynid::friction_torque(physical_, qdot_rad_s, {p_.stribeck_velocity_rad_s, 1.0},
                                p_.friction_sign_velocity_rad_s);
}

double ServoModel::current(double voltage_v, double qdot_rad_s) const {
  // Paper 002, eq. (3) with omega = k_gear qdot (eq. 7) and tau / I = k_tau (eq. 4).
  return motor_current(physical_, voltage_v, qdot_rad_s);
}

ServoStep ServoModel::step(double q_cmd_rad, double q_rad, double qdot_rad_s) const {
  return step(q_cmd_rad, q_rad, qdot_rad_s, p_.supply_voltage_v);
}

ServoStep ServoModel::step(double q_cmd_rad, double q_rad, double qdot_rad_s, double supply_v) const {
  ServoStep s;
  s.encoder_position_rad = encoder(q_rad);
  // Paper 002, eq. (16), saturated at the supply voltage (100 % duty).
  const double gain = servo_gain_per_rad(p_.p_gain, p_.encoder_counts_per_rev, p_.pwm_full_scale);
  double u = std::clamp(servo_voltage(q_cmd_rad, s.encoder_position_rad, gain, supply_v), -supply_v, supply_v);
  // The firmware's current limit: when the motor brakes against its own back-EMF, |U - emf| may
  // exceed U_bat; the duty cycle is cut so |I| <= I_max (the stall current for the sidecar values).
  const double emf = p_.torque_constant_nm_per_a * p_.gear_ratio * qdot_rad_s;
  const double du = current_limit_a() * p_.resistance_ohm;
  u = std::clamp(std::clamp(u, emf - du, emf + du), -supply_v, supply_v);
  s.voltage_v = u;
  s.current_a = current(u, qdot_rad_s);
  s.motor_torque_nm = p_.gear_ratio * p_.torque_constant_nm_per_a * s.current_a;  // eq. (4), through the gear
  s.friction_torque_nm = friction_torque(qdot_rad_s);
  s.joint_torque_nm = s.motor_torque_nm - s.friction_torque_nm;  // eq. (6)
  return s;
}

}  // namespace dynid
