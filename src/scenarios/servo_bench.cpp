#include "dynid/scenarios/servo_bench.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <numbers>
#include <random>
#include <stdexcept>

#include "dynid/io/csv_stream.hpp"
#include "dynid/scenarios/servo_trials.hpp"

namespace dynid {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

// Minimum-jerk blend 0 -> 1 on s in [0, 1] and its derivative d/ds.
double min_jerk(double s) { return s * s * s * (10.0 - 15.0 * s + 6.0 * s * s); }
double min_jerk_rate(double s) { return 30.0 * s * s * (1.0 - s) * (1.0 - s); }

const ActuatorInfo* find_actuator(const RobotSidecar& sidecar, const std::string& joint) {
  for (const ActuatorInfo& a : sidecar.actuators)
    if (a.joint == joint) return &a;
  return nullptr;
}

struct BenchJoint {
  std::string name;
  int idx_q = 0, idx_v = 0;
  TrueServo truth;  ///< the servo's own values, dead time and supply line (make_true_servo)
  ServoModel servo;
  ServoSwing swing;
  ServoStep last;
  std::deque<double> in_flight;  ///< commands on the bus, oldest first (one dead time long)
  double supply_v = 0.0;         ///< supply at the servo this period: U_bat minus the line's drop
};

}  // namespace

double ServoSwing::position(double t) const {
  const double s_in = std::clamp(t / fade_s, 0.0, 1.0), s_out = std::clamp((duration_s - t) / fade_s, 0.0, 1.0);
  double sum = 0.0;
  for (std::size_t i = 0; i < amplitude_rad.size(); ++i)
    sum += amplitude_rad[i] * std::sin(kTwoPi * frequency_hz[i] * t + phase_rad[i]);
  return center_rad + min_jerk(s_in) * min_jerk(s_out) * sum;
}

double ServoSwing::velocity(double t) const {
  const double s_in = std::clamp(t / fade_s, 0.0, 1.0), s_out = std::clamp((duration_s - t) / fade_s, 0.0, 1.0);
  double sum = 0.0, sum_rate = 0.0;
  for (std::size_t i = 0; i < amplitude_rad.size(); ++i) {
    const double phase = kTwoPi * frequency_hz[i] * t + phase_rad[i];
    sum += amplitude_rad[i] * std::sin(phase);
    sum_rate += amplitude_rad[i] * kTwoPi * frequency_hz[i] * std::cos(phase);
  }
  const double w = min_jerk(s_in) * min_jerk(s_out);
  const double w_rate =
      (t > 0.0 && t < fade_s ? min_jerk_rate(s_in) / fade_s * min_jerk(s_out) : 0.0) -
      (t > duration_s - fade_s && t < duration_s ? min_jerk(s_in) * min_jerk_rate(s_out) / fade_s : 0.0);
  return w_rate * sum + w * sum_rate;
}

ServoSwing make_servo_swing(double lower, double upper, double velocity_limit, unsigned seed, double duration_s) {
  if (!(upper > lower) || !std::isfinite(upper - lower))
    throw std::invalid_argument("the servo bench needs finite joint limits");
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  ServoSwing swing;
  swing.center_rad = 0.5 * (lower + upper);
  swing.duration_s = duration_s;
  const double amplitude = std::min(0.6 + 0.3 * u(rng), 0.4 * (upper - lower));
  double weight_sum = 0.0;
  for (int i = 0; i < 3; ++i) {
    swing.frequency_hz.push_back(0.2 + 1.0 * u(rng));
    swing.phase_rad.push_back(kTwoPi * u(rng));
    swing.amplitude_rad.push_back(0.5 + u(rng));
    weight_sum += swing.amplitude_rad.back();
  }
  for (double& a : swing.amplitude_rad) a *= amplitude / weight_sum;
  // Speed cap: the servo slows down near its no-load speed; a command faster than it can follow
  // measures saturation, not the actuator model.
  double peak_speed = 0.0;
  for (double t = 0.0; t <= duration_s; t += 1e-3) peak_speed = std::max(peak_speed, std::abs(swing.velocity(t)));
  if (std::isfinite(velocity_limit) && velocity_limit > 0.0 && peak_speed > 0.6 * velocity_limit)
    for (double& a : swing.amplitude_rad) a *= 0.6 * velocity_limit / peak_speed;
  return swing;
}

void check_servo_bench(const Robot& robot) {
  if (robot.model.floating_base)
    throw std::invalid_argument(
        "scenario 'servo-bench' needs a fixed-base robot (root link 'world', the torso on a "
        "table); " +
        robot.model.name + " has a floating base");
  if (!robot.sidecar)
    throw std::invalid_argument(robot.urdf_path +
                                " has no sidecar; scenario 'servo-bench' needs its actuators entries");
  if (robot.model.nv == 0) throw std::invalid_argument(robot.model.name + " has no joint to drive");
  for (std::size_t i = 1; i < robot.model.bodies.size(); ++i) {
    const Body& b = robot.model.bodies[i];
    const ActuatorInfo* a = find_actuator(*robot.sidecar, b.joint_name);
    if (!a)
      throw std::invalid_argument("scenario 'servo-bench': joint '" + b.joint_name + "' has no actuators entry in " +
                                  robot.sidecar->source_path);
    servo_parameters(*a);  // throws naming the missing field
  }
}

ServoBenchResult run_servo_bench(const Model& truth, const RobotSidecar& sidecar, const ScenarioOptions& options,
                                 Simulation& sim, DatasetRecorder& recorder) {
  std::vector<BenchJoint> joints;
  for (std::size_t i = 1; i < truth.bodies.size(); ++i) {
    const Body& b = truth.bodies[i];
    // The true servo differs from the sidecar's datasheet as `identify actuator --seed` makes it (the
    // first joint with the same seed: the same servo), the way real servos do (docs/actuators.md).
    const TrueServo truth_servo = make_true_servo(servo_parameters(*find_actuator(sidecar, b.joint_name)),
                                                  options.seed + 7919u * unsigned(joints.size()));
    const double v_limit = std::isfinite(b.limits.velocity) && b.limits.velocity > 0.0 ? b.limits.velocity : 5.0;
    joints.push_back({b.joint_name,
                      b.idx_q,
                      b.idx_v,
                      truth_servo,
                      ServoModel(truth_servo.params),
                      make_servo_swing(b.limits.lower, b.limits.upper, v_limit, options.seed + 7919u * unsigned(i)),
                      {},
                      {},
                      truth_servo.params.supply_voltage_v});
  }

  ServoSensorNoise noise;
  noise.enabled = options.noise != NoiseLevel::None;
  std::mt19937 rng(options.seed + 2);
  std::normal_distribution<double> gauss(0.0, 1.0);
  auto quantize = [](double x, double step) { return std::round(x / step) * step; };

  ServoBenchResult result;
  std::vector<Channel> channels;
  for (const BenchJoint& j : joints) {
    channels.push_back({j.name + ".q_cmd", "rad"});
    channels.push_back({j.name + ".q", "rad"});
    channels.push_back({j.name + ".current", "A"});
    channels.push_back({j.name + ".voltage", "V"});
    channels.push_back({j.name + ".supply_voltage", "V"});
  }
  // 12 significant digits like the truth stream: the noise-free motor equation holds to ~1e-11 V.
  CsvStreamWriter servo_csv(options.out_dir + "/" + result.stream_file, channels, 12);
  result.stream_rate_hz = 1.0 / sim.timestep();

  VectorX q0 = truth.neutral_configuration();
  for (BenchJoint& j : joints) {
    q0[j.idx_q] = j.swing.center_rad;
    j.in_flight.assign(static_cast<std::size_t>(std::lround(j.truth.dead_time_s / sim.timestep())), j.swing.center_rad);
  }
  sim.set_state(q0, VectorX::Zero(truth.nv));
  VectorX tau = VectorX::Zero(truth.nv);
  std::vector<double> row;
  double error_sq_sum = 0.0, max_error = 0.0, max_current = 0.0, max_link_torque = 0.0, max_speed = 0.0;
  long samples = 0, saturated = 0;

  // One servo period = one physics step: the command sent reaches the firmware one dead time later;
  // encoder, voltage (on the supply the last period's current left), current, torque, physics.
  auto control = [&](double t_swing, bool record) {
    for (BenchJoint& j : joints) {
      double applied = j.swing.position(t_swing);
      if (!j.in_flight.empty()) {
        j.in_flight.push_back(applied);
        applied = j.in_flight.front();
        j.in_flight.pop_front();
      }
      j.supply_v = j.truth.params.supply_voltage_v - j.truth.supply_resistance_ohm * std::abs(j.last.current_a);
      j.last = j.servo.step(applied, sim.q()[j.idx_q], sim.v()[j.idx_v], j.supply_v);
      tau[j.idx_v] = j.last.joint_torque_nm;
    }
    sim.forward(tau);
    if (record) {
      recorder.record(sim, tau);
      row.clear();
      for (const BenchJoint& j : joints) {
        const double q = sim.q()[j.idx_q], q_cmd = j.swing.position(t_swing);
        const ServoStep& s = j.last;
        const double supply = j.supply_v;
        row.push_back(q_cmd);
        if (noise.enabled) {
          row.push_back(s.encoder_position_rad);
          row.push_back(quantize(s.current_a + noise.current_sigma_a * gauss(rng), noise.current_resolution_a));
          row.push_back(s.voltage_v + noise.voltage_sigma_v * gauss(rng));
          row.push_back(quantize(supply + noise.supply_sigma_v * gauss(rng), noise.supply_resolution_v));
        } else {
          row.insert(row.end(), {q, s.current_a, s.voltage_v, supply});
        }
        const double error = q_cmd - q;
        error_sq_sum += error * error;
        max_error = std::max(max_error, std::abs(error));
        max_current = std::max(max_current, std::abs(s.current_a));
        max_link_torque = std::max(max_link_torque, std::abs(sim.link_torques()[j.idx_v]));
        max_speed = std::max(max_speed, std::abs(sim.v()[j.idx_v]));
        if (std::abs(s.voltage_v) >= supply * (1.0 - 1e-12)) ++saturated;
        ++samples;
      }
      servo_csv.write(sim.time(), row);
    }
    sim.integrate();
  };

  const double dt = sim.timestep();
  for (int k = 0; k < static_cast<int>(std::lround(1.0 / dt)); ++k) control(0.0, false);
  result.record_start_s = sim.time();
  recorder.restart_clocks(sim.time());
  const double duration = joints.front().swing.duration_s;
  const int steps = static_cast<int>(std::lround(duration / dt));
  for (int k = 0; k <= steps; ++k) {
    control(k * dt, true);
    if (options.progress && k % 1000 == 0)
      options.progress(double(k) / steps, "servo bench t = " + std::to_string(k / 1000) + " s");
  }
  result.record_end_s = sim.time();
  servo_csv.close();

  double effort_limit = std::numeric_limits<double>::infinity();
  for (const BenchJoint& j : joints) {
    const ServoParameters& p = j.servo.parameters();
    effort_limit = std::min(effort_limit, p.effort_limit_nm);
    // Paper 002, eqs. (12)-(14) with joint-side torques: U = a0 tau_o + a1 qdot + a2 sgn (1 - beta) +
    // a3 sgn beta + a4 qddot, tau_o the torque on the links (rnea of the true links), a4 the rotor.
    const double kn = p.gear_ratio * p.torque_constant_nm_per_a;
    const double alpha0 = p.resistance_ohm / kn;
    result.actuators_truth.push_back({j.name,
                                      {{"gear_ratio", p.gear_ratio},
                                       {"torque_constant", p.torque_constant_nm_per_a},
                                       {"resistance", p.resistance_ohm},
                                       {"supply_voltage", p.supply_voltage_v},
                                       {"p_gain", p.p_gain},
                                       {"voltage_per_rad", j.servo.voltage_per_rad()},
                                       {"current_limit", j.servo.current_limit_a()},
                                       {"effort_limit", p.effort_limit_nm},
                                       {"armature", p.armature_kg_m2},
                                       {"viscous_friction", p.viscous_friction_nm_s_per_rad},
                                       {"coulomb_friction", p.coulomb_friction_nm},
                                       {"stribeck_friction", p.stribeck_friction_nm},
                                       {"stribeck_velocity", p.stribeck_velocity_rad_s},
                                       {"friction_sign_velocity", p.friction_sign_velocity_rad_s},
                                       {"encoder_counts_per_rev", p.encoder_counts_per_rev},
                                       {"pwm_full_scale", p.pwm_full_scale},
                                       {"alpha0", alpha0},
                                       {"alpha1", kn + alpha0 * p.viscous_friction_nm_s_per_rad},
                                       {"alpha2", alpha0 * p.coulomb_friction_nm},
                                       {"alpha3", alpha0 * (p.coulomb_friction_nm + p.stribeck_friction_nm)},
                                       {"alpha4", alpha0 * p.armature_kg_m2},
                                       {"dead_time", j.truth.dead_time_s},
                                       {"supply_resistance", j.truth.supply_resistance_ohm}}});
  }
  result.summary = {{"tracking_rms_error_rad", std::sqrt(error_sq_sum / std::max<long>(samples, 1))},
                    {"tracking_max_error_rad", max_error},
                    {"max_current_a", max_current},
                    {"max_abs_joint_torque_nm", max_link_torque},
                    {"effort_limit_nm", effort_limit},
                    {"max_joint_speed_rad_s", max_speed},
                    {"voltage_saturated_fraction", double(saturated) / std::max<long>(samples, 1)}};
  return result;
}

}  // namespace dynid
