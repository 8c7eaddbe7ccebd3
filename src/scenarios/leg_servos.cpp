#include "leg_servos.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "dynid/scenarios/servo_trials.hpp"

namespace dynid::scenario_detail {
namespace {

// Friction sign of the feed-forward: a planned velocity crosses zero at every reversal, and an exact
// sign would switch the Coulomb voltage (~1 V) on the IK's numerical noise.
constexpr double kFeedforwardSignVelocity = 0.05;  // rad/s

}  // namespace

// Paper 002 gives k_P normalised (1.0 and 0.35) without the register behind it. dynid takes k_P = 1.0
// as the MX firmware's P register 128 (K_P = 16, 4 times the factory default 32): the kid humanoid
// walks with its knees bent to ~1.2 rad, which takes 5-7 N m per knee in single support; at
// register 32 (26 N m/rad with the MX-106) the knees sag by 0.1 rad and the robot falls within a
// few steps (docs/actuators.md).
double full_gain_register() { return 128.0; }

ActuatorModel datasheet_model(const ServoParameters& datasheet) {
  ActuatorModel m;
  m.alpha = alpha_from_physical(actuator_physical(datasheet));
  m.stribeck = {datasheet.stribeck_velocity_rad_s, 1.0};
  return m;
}

std::vector<ActuatorModel> leg_actuator_models(const std::vector<ActuatorInfo>& entries, const std::string& file,
                                               const std::vector<std::string>& leg_joint_names) {
  auto model_of = [&](const ActuatorInfo& a) {
    ActuatorModel m;
    m.alpha = alpha_from_physical(actuator_physical(servo_parameters(a)));
    m.stribeck = {a.stribeck_velocity.value_or(0.1), a.stribeck_exponent.value_or(1.0)};
    m.reaction_time_s = a.reaction_time.value_or(0.0);
    if (!(m.reaction_time_s >= 0.0 && m.reaction_time_s < 0.5))
      throw std::invalid_argument(file + ": reaction_time of joint '" + a.joint + "' must be in [0, 0.5) s");
    return m;
  };
  std::vector<ActuatorModel> out;
  for (const std::string& joint : leg_joint_names) {
    const ActuatorInfo* found = nullptr;
    for (const ActuatorInfo& a : entries)
      if (a.joint == joint) found = &a;
    if (!found && entries.size() == 1) found = &entries.front();
    if (!found)
      throw std::invalid_argument(file + " has no actuators entry for leg joint '" + joint +
                                  "' (give one entry per leg joint, or a single entry for all of them)");
    try {
      out.push_back(model_of(*found));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(file + ": " + e.what());
    }
  }
  return out;
}

LegServos::LegServos(const Model& model, const std::vector<bool>& leg, ServoControl control, double k_p,
                     const std::vector<ActuatorModel>& models, unsigned seed, double timestep)
    : control_(control), servo_(ServoParameters{}), timestep_(timestep) {
  const ServoParameters datasheet;  // MX-106
  const TrueServo truth = make_true_servo(datasheet, seed);
  true_params_ = truth.params;
  p_gain_ = k_p * full_gain_register();
  true_params_.p_gain = p_gain_;
  dead_time_s_ = truth.dead_time_s;
  supply_resistance_ohm_ = truth.supply_resistance_ohm;
  servo_ = ServoModel(true_params_);
  const int delay = static_cast<int>(std::lround(dead_time_s_ / timestep));
  for (std::size_t b = 1; b < model.bodies.size(); ++b) {
    const Body& body = model.bodies[b];
    if (!leg[b] || body.joint_type == JointType::FreeFlyer) continue;
    Joint j;
    j.name = body.joint_name;
    j.idx_q = body.idx_q;
    j.idx_v = body.idx_v;
    j.model = models.empty() ? datasheet_model(datasheet) : models.at(joints_.size());
    j.in_flight.assign(static_cast<std::size_t>(delay), 0.0);
    j.reported_supply_v = datasheet.supply_voltage_v;
    joints_.push_back(j);
  }
  if (!models.empty() && models.size() != joints_.size())
    throw std::logic_error("leg servos: one actuator model per leg joint expected");
}

double LegServos::reaction_time_s() const {
  double t = 0.0;
  for (const Joint& j : joints_) t = std::max(t, j.model.reaction_time_s);
  return t;
}

void LegServos::send(const VectorX& q_cmd, const VectorX& v, const VectorX& a, const VectorX& tau) {
  const double gain_per_rad =
      servo_gain_per_rad(p_gain_, true_params_.encoder_counts_per_rev, true_params_.pwm_full_scale);
  for (Joint& j : joints_) {
    j.sent = q_cmd[j.idx_q];
    if (control_ == ServoControl::FeedForward)
      j.sent = feedforward_command(j.model, q_cmd[j.idx_q], v[j.idx_v], a[j.idx_v], tau[j.idx_v],
                                   gain_per_rad * j.reported_supply_v, kFeedforwardSignVelocity);
    // Before the first command the bus carried nothing: the servo starts on the first one.
    if (!primed_) std::fill(j.in_flight.begin(), j.in_flight.end(), j.sent);
  }
  primed_ = true;
}

void LegServos::apply(const VectorX& q, const VectorX& v, const VectorX& q_target, VectorX& tau) {
  if (!primed_) throw std::logic_error("leg servos: apply() before the first send()");
  const double dt = timestep_;
  for (Joint& j : joints_) {
    double applied = j.sent;
    if (!j.in_flight.empty()) {
      j.in_flight.push_back(j.sent);
      applied = j.in_flight.front();
      j.in_flight.pop_front();
    }
    const double supply = true_params_.supply_voltage_v - supply_resistance_ohm_ * std::abs(j.last_current_a);
    const ServoStep s = servo_.step(applied, q[j.idx_q], v[j.idx_v], supply);
    j.last_current_a = s.current_a;
    j.reported_supply_v = std::round(supply * 10.0) / 10.0;
    tau[j.idx_v] = s.joint_torque_nm;
    if (measuring) {
      j.energy_j += s.voltage_v * s.current_a * dt;
      j.no_regeneration_energy_j += std::max(s.voltage_v * s.current_a, 0.0) * dt;
      j.supply_energy_j += supply * std::abs(s.current_a) * dt;
      const double e = q[j.idx_q] - q_target[j.idx_q];
      j.squared_error += e * e;
      j.abs_current_a.push_back(std::abs(s.current_a));
    }
  }
  if (measuring) ++samples_;
}

std::vector<std::string> LegServos::joint_names() const {
  std::vector<std::string> names;
  for (const Joint& j : joints_) names.push_back(j.name);
  return names;
}

const LegServos::Joint& LegServos::joint(const std::string& name) const {
  for (const Joint& j : joints_)
    if (j.name == name) return j;
  throw std::invalid_argument("'" + name + "' is not a leg joint driven by a servo model");
}

double LegServos::energy_j(const std::string& name) const { return joint(name).energy_j; }
double LegServos::no_regeneration_energy_j(const std::string& name) const {
  return joint(name).no_regeneration_energy_j;
}
double LegServos::supply_energy_j(const std::string& name) const { return joint(name).supply_energy_j; }

const std::vector<double>& LegServos::current_history_a(const std::string& name) const {
  return joint(name).abs_current_a;
}

double LegServos::total_energy_j() const {
  double e = 0.0;
  for (const Joint& j : joints_) e += j.energy_j;
  return e;
}

double LegServos::tracking_rms_rad() const {
  double sum = 0.0;
  for (const Joint& j : joints_) sum += j.squared_error;
  return samples_ > 0 ? std::sqrt(sum / (double(samples_) * double(joints_.size()))) : 0.0;
}

double LegServos::tracking_rms_rad(const std::string& name) const {
  return samples_ > 0 ? std::sqrt(joint(name).squared_error / double(samples_)) : 0.0;
}

}  // namespace dynid::scenario_detail
