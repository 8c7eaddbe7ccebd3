#include "dynid/scenarios/servo_trials.hpp"

#include <cmath>
#include <deque>
#include <random>
#include <stdexcept>

#include "dynid/sim/scene.hpp"
#include "dynid/sim/simulation.hpp"

namespace dynid {
namespace {

const ActuatorInfo* find_actuator(const RobotSidecar& sidecar, const std::string& joint) {
  for (const ActuatorInfo& a : sidecar.actuators)
    if (a.joint == joint) return &a;
  return nullptr;
}

}  // namespace

TrueServo make_true_servo(const ServoParameters& datasheet, unsigned seed) {
  std::mt19937 rng(seed * 2654435761u + 17u);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  TrueServo s;
  s.params = datasheet;
  auto change = [&](const char* name, double& value, double factor) {
    const double before = value;
    value *= factor;
    s.differences.push_back({name, {before, value}});
  };
  // Gears wear and their grease stiffens: friction 20-60 % above the datasheet (one factor for
  // the Coulomb and static levels, one for the viscous part).
  const double dry = 1.2 + 0.4 * u(rng), viscous = 1.2 + 0.4 * u(rng);
  change("coulomb_friction", s.params.coulomb_friction_nm, dry);
  change("stribeck_friction", s.params.stribeck_friction_nm, dry);
  change("viscous_friction", s.params.viscous_friction_nm_s_per_rad, viscous);
  // Magnet and winding spread: torque constant -6..+2 %, resistance +0..6 % (warm windings).
  change("torque_constant", s.params.torque_constant_nm_per_a, 0.94 + 0.08 * u(rng));
  change("resistance", s.params.resistance_ohm, 1.0 + 0.06 * u(rng));
  // Battery and cables: 0.15-0.35 ohm between the cells and the servo.
  s.supply_resistance_ohm = 0.15 + 0.2 * u(rng);
  // Bus latency: one to three 8 ms bus cycles (125 Hz) before the firmware uses a command.
  s.dead_time_s = 0.008 * double(1 + static_cast<int>(3.0 * u(rng) * 0.999));
  return s;
}

ActuatorAlpha true_alpha(const TrueServo& servo) { return alpha_from_physical(actuator_physical(servo.params)); }

ServoTrialBench::ServoTrialBench(const Robot& robot, const std::string& joint, unsigned seed)
    : robot_(robot), truth_(make_true_model(robot.model, true_total_mass(robot.model), seed)) {
  if (robot.model.floating_base)
    throw std::invalid_argument(
        "the actuator bench needs a fixed-base robot (the torso on a table, like "
        "servo_bench); " +
        robot.model.name + " has a floating base");
  if (!robot.sidecar)
    throw std::invalid_argument(robot.urdf_path + " has no sidecar; the actuator bench needs its actuators entries");
  body_ = -1;
  for (std::size_t i = 1; i < robot.model.bodies.size(); ++i) {
    const Body& b = robot.model.bodies[i];
    const ActuatorInfo* a = find_actuator(*robot.sidecar, b.joint_name);
    if (!a)
      throw std::invalid_argument("joint '" + b.joint_name + "' has no actuators entry in " +
                                  robot.sidecar->source_path);
    servo_parameters(*a);  // throws naming the missing field
    if (b.joint_name == joint) body_ = static_cast<int>(i);
  }
  if (body_ < 0) throw std::invalid_argument("unknown joint '" + joint + "' in " + robot.model.name);
  datasheet_ = servo_parameters(*find_actuator(*robot.sidecar, joint));
  servo_ = make_true_servo(datasheet_, seed);
  SceneSpec scene;
  scene.floor = false;  // the leg swings free of the table
  sim_ = std::make_unique<Simulation>(truth_.model, *robot.sidecar, scene);
}

ServoTrialBench::~ServoTrialBench() = default;

double ServoTrialBench::timestep() const { return sim_->timestep(); }

ServoTrialRecord ServoTrialBench::run(const std::vector<double>& command, double p_gain) {
  if (command.empty()) throw std::invalid_argument("empty servo command");
  const Model& m = truth_.model;
  const Body& joint = m.bodies[static_cast<std::size_t>(body_)];
  ServoParameters p = servo_.params;
  if (p_gain > 0.0) p.p_gain = p_gain;
  const ServoModel servo(p);
  // The other joints: datasheet servos holding their neutral value.
  std::vector<std::pair<int, ServoModel>> holders;
  for (std::size_t i = 1; i < m.bodies.size(); ++i)
    if (static_cast<int>(i) != body_)
      holders.push_back(
          {static_cast<int>(i), ServoModel(servo_parameters(*find_actuator(*robot_.sidecar, m.bodies[i].joint_name)))});
  VectorX q0 = m.neutral_configuration();
  q0[joint.idx_q] = command.front();
  sim_->set_state(q0, VectorX::Zero(m.nv));
  const double dt = sim_->timestep();
  const int delay = static_cast<int>(std::lround(servo_.dead_time_s / dt));
  std::deque<double> in_flight(static_cast<std::size_t>(delay), command.front());
  double last_current = 0.0;
  VectorX tau = VectorX::Zero(m.nv);
  ServoTrialRecord r;
  r.dt_s = dt;

  auto tick = [&](double sent, bool record) {
    in_flight.push_back(sent);
    const double applied = in_flight.front();
    in_flight.pop_front();
    const double q = sim_->q()[joint.idx_q], v = sim_->v()[joint.idx_v];
    const double supply = p.supply_voltage_v - servo_.supply_resistance_ohm * std::abs(last_current);
    const ServoStep s = servo.step(applied, q, v, supply);
    last_current = s.current_a;
    tau[joint.idx_v] = s.joint_torque_nm;
    for (const auto& [b, holder] : holders) {
      const Body& hb = m.bodies[static_cast<std::size_t>(b)];
      tau[hb.idx_v] = holder.step(q0[hb.idx_q], sim_->q()[hb.idx_q], sim_->v()[hb.idx_v]).joint_torque_nm;
    }
    sim_->forward(tau);
    if (record) {
      r.command_rad.push_back(sent);
      r.position_rad.push_back(s.encoder_position_rad);
      r.supply_v.push_back(supply);
      r.voltage_v.push_back(s.voltage_v);
      r.current_a.push_back(s.current_a);
      r.true_position_rad.push_back(q);
      r.true_velocity_rad_s.push_back(v);
      r.electrical_energy_j += supply * std::abs(s.current_a) * dt;
    }
    sim_->integrate();
  };
  for (int k = 0; k < static_cast<int>(std::lround(0.5 / dt)); ++k) tick(command.front(), false);
  for (double c : command) {
    if (!std::isfinite(c)) throw std::invalid_argument("servo command is not finite");
    tick(c, true);
  }
  return r;
}

}  // namespace dynid
