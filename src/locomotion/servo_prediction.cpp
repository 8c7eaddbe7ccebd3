#include "dynid/locomotion/servo_prediction.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <stdexcept>

#include "dynid/dynamics/crba.hpp"
#include "dynid/dynamics/rnea.hpp"

namespace dynid {

std::vector<double> predict_servo_tracking(const Model& links, int body, const ActuatorModel& actuator,
                                           const ServoPredictionSetup& s, const std::vector<double>& command) {
  if (command.empty()) return {};
  if (body <= 0 || body >= static_cast<int>(links.bodies.size()))
    throw std::invalid_argument("predict_servo_tracking: no such body");
  const Body& joint = links.bodies[static_cast<std::size_t>(body)];
  Data data(links);
  VectorX q = links.neutral_configuration(), v = VectorX::Zero(links.nv);
  q[joint.idx_q] = command.front();
  const int delay = static_cast<int>(std::lround(actuator.reaction_time_s / s.dt_s));
  std::deque<double> in_flight(static_cast<std::size_t>(delay), command.front());
  const ActuatorAlpha& a = actuator.alpha;
  std::vector<double> out;
  auto tick = [&](double sent, bool record) {
    in_flight.push_back(sent);
    const double applied = in_flight.front();
    in_flight.pop_front();
    if (record) out.push_back(q[joint.idx_q]);
    const double qd = v[joint.idx_v];
    const double u = std::clamp(servo_voltage(applied, q[joint.idx_q], s.gain_per_rad, s.supply_voltage_v),
                                -s.supply_voltage_v, s.supply_voltage_v);
    // Eq. (14) with tau_o = M qdd + h: U = a0 (M qdd + h) + a1 qd + friction + a4 qdd.
    const double m = crba(links, data, q)(joint.idx_v, joint.idx_v);
    const double h = nonlinear_effects(links, data, q, v)[joint.idx_v];
    auto friction = [&](double w) {  // a1 qd + a2 sgn (1 - beta) + a3 sgn beta, in volts
      const ActuatorAlpha phi = actuator_regressor(0.0, w, 0.0, actuator.stribeck, s.sign_velocity_rad_s);
      return a[1] * phi[1] + a[2] * phi[2] + a[3] * phi[3];
    };
    // Linearly implicit in the velocity: the smoothed friction is steep near rest, an explicit
    // step would chatter there.
    const double slope = std::max(0.0, (friction(qd + 1e-5) - friction(qd - 1e-5)) / 2e-5);
    const double qdd = (u - a[0] * h - friction(qd)) / (a[0] * m + a[4] + s.dt_s * slope);
    // Semi-implicit Euler, as the simulator integrates.
    v[joint.idx_v] += s.dt_s * qdd;
    q[joint.idx_q] += s.dt_s * v[joint.idx_v];
  };
  for (int k = 0; k < static_cast<int>(std::lround(0.5 / s.dt_s)); ++k) tick(command.front(), false);
  for (double c : command) tick(c, true);
  return out;
}

}  // namespace dynid
