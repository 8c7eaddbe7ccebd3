#include "dynid/actuator/actuator_model.hpp"

#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>

namespace dynid {

double stribeck_beta(double qdot, const StribeckShape& shape) {
  return std::exp(-std::pow(std::abs(qdot / shape.velocity_rad_s), shape.exponent));
}

double friction_sign(double qdot, double sign_velocity) {
  if (sign_velocity > 0.0) return std::tanh(qdot / sign_velocity);
  return qdot > 0.0 ? 1.0 : (qdot < 0.0 ? -1.0 : 0.0);
}

ActuatorAlpha actuator_regressor(double tau_o, double qdot, double qddot, const StribeckShape& shape,
                                 double sign_velocity) {
  const double beta = stribeck_beta(qdot, shape), sign = friction_sign(qdot, sign_velocity);
  return {tau_o, qdot, sign * (1.0 - beta), sign * beta, qddot};
}

double ActuatorModel::voltage(double tau_o, double qdot, double qddot, double sign_velocity) const {
  const ActuatorAlpha phi = actuator_regressor(tau_o, qdot, qddot, stribeck, sign_velocity);
  double u = 0.0;
  for (std::size_t i = 0; i < phi.size(); ++i) u += alpha[i] * phi[i];
  return u;
}

ActuatorAlpha alpha_from_physical(const ActuatorPhysical& p) {
  const double kn = p.gear_ratio * p.torque_constant_nm_per_a;
  const double a0 = p.resistance_ohm / kn;
  return {a0, kn + a0 * p.viscous_nm_s_per_rad, a0 * p.coulomb_nm, a0 * p.static_nm, a0 * p.armature_kg_m2};
}

ActuatorPhysical physical_from_alpha(const ActuatorAlpha& a, double gear_ratio, double torque_constant) {
  if (!(a[0] > 0.0))
    throw std::invalid_argument("alpha0 = " + std::to_string(a[0]) +
                                " is not positive: no physical motor (resistance / (N k_tau) > 0)");
  ActuatorPhysical p;
  p.gear_ratio = gear_ratio;
  p.torque_constant_nm_per_a = torque_constant;
  const double kn = gear_ratio * torque_constant;
  p.resistance_ohm = a[0] * kn;
  p.viscous_nm_s_per_rad = (a[1] - kn) / a[0];
  p.coulomb_nm = a[2] / a[0];
  p.static_nm = a[3] / a[0];
  p.armature_kg_m2 = a[4] / a[0];
  return p;
}

double motor_current(const ActuatorPhysical& p, double voltage, double qdot) {
  return (voltage - p.torque_constant_nm_per_a * p.gear_ratio * qdot) / p.resistance_ohm;
}

double friction_torque(const ActuatorPhysical& p, double qdot, const StribeckShape& shape, double sign_velocity) {
  const double beta = stribeck_beta(qdot, shape);
  return friction_sign(qdot, sign_velocity) * ((1.0 - beta) * p.coulomb_nm + beta * p.static_nm) +
         p.viscous_nm_s_per_rad * qdot;
}

double servo_gain_per_rad(double p_gain_register, double counts_per_rev, double pwm_full_scale) {
  return (p_gain_register / 8.0) / (pwm_full_scale * 2.0 * std::numbers::pi / counts_per_rev);
}

double servo_voltage(double q_cmd, double q, double gain_per_rad, double supply_voltage) {
  return gain_per_rad * supply_voltage * (q_cmd - q);
}

double servo_command(double voltage, double q, double gain_per_rad, double supply_voltage) {
  return q + voltage / (gain_per_rad * supply_voltage);
}

std::string alpha_text(const ActuatorAlpha& a) {
  std::ostringstream s;
  s.precision(5);
  for (std::size_t i = 0; i < a.size(); ++i) s << (i ? " " : "") << a[i];
  return s.str();
}

}  // namespace dynid
