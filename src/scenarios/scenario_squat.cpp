// `squat`: paper 000's validation motion on the force plates.

#include "dynid/dynamics/whole_body_ik.hpp"
#include "scenario_run.hpp"

namespace dynid::scenario_detail {

std::vector<Eigen::Vector2d> planned_zmp(const Model& nominal, const std::vector<VectorX>& q_ref, double period) {
  Data data(nominal);
  std::vector<Vector3> com;
  for (const VectorX& q : q_ref) com.push_back(center_of_mass(nominal, data, q));
  std::vector<Eigen::Vector2d> zmp;
  for (std::size_t i = 0; i < com.size(); ++i) {
    // The planned motions start and end at rest: no acceleration at the ends.
    const Vector3 acc = i == 0 || i + 1 == com.size()
                            ? Vector3::Zero()
                            : Vector3((com[i - 1] - 2.0 * com[i] + com[i + 1]) / (period * period));
    zmp.push_back(com[i].head<2>() - com[i].z() / nominal.gravity.norm() * acc.head<2>());
  }
  return zmp;
}

/// Paper 000's validation motion: pelvis down and up, arms and trunk shifting, 5 s.
void run_squat(Run& run) {
  const Model& nominal = run.robot.model;
  const auto [left, right] = left_right_soles(nominal, *run.robot.sidecar);
  // Start from the first double-support static pose generator's stance: reuse its IK setup.
  const std::vector<StaticPose> start =
      generate_static_poses(nominal, *run.robot.sidecar, run.scene.plates, 1, run.options.seed);
  Data data(nominal);
  forward_kinematics(nominal, data, start.front().q);
  const int lf = nominal.frame_index(run.robot.sidecar->contacts[static_cast<std::size_t>(left)].name);
  const int rf = nominal.frame_index(run.robot.sidecar->contacts[static_cast<std::size_t>(right)].name);
  const SE3 lpose = frame_placement(nominal, data, lf), rpose = frame_placement(nominal, data, rf);
  const Vector3 com0 = center_of_mass(nominal, data, start.front().q);
  const double leg = com0.z();

  const double duration = 5.0, ik_period = 0.01;
  const int samples = static_cast<int>(std::lround(duration / ik_period)) + 1;
  std::vector<VectorX> q_ref(static_cast<std::size_t>(samples));
  VectorX q = start.front().q;
  run.progress(0.0, "planning the squat (IK)");
  for (int i = 0; i < samples; ++i) {
    const double t = i * ik_period;
    IkProblem p;
    p.posture = start.front().q;
    p.frames = {{lf, lpose, 100.0, true}, {rf, rpose, 100.0, true}};
    p.com_target_enabled = true;
    // Two squats of 12 % of COM height with a lateral and fore-aft shift scaled to the robot.
    const double depth = 0.12 * leg * 0.5 * (1.0 - std::cos(2.0 * M_PI * t / 2.5));
    const double size = leg / 0.9;
    p.com_world = Vector3(com0.x() + 0.01 * size * std::sin(2.0 * M_PI * t / 5.0),
                          com0.y() + 0.015 * size * std::sin(2.0 * M_PI * t / 2.5), com0.z() - depth);
    p.com_axes_weight = Vector3(10.0, 10.0, 10.0);
    VectorX q0 = q;
    for (std::size_t j = 1; j < nominal.bodies.size(); ++j) {
      const Body& b = nominal.bodies[j];
      if (b.joint_type == JointType::FreeFlyer) continue;
      const std::string& n = b.joint_name;
      double value = start.front().q[b.idx_q];
      const double range = std::isfinite(b.limits.upper - b.limits.lower) ? b.limits.upper - b.limits.lower : 2.0;
      if (n.find("shoulder_pitch") != std::string::npos)
        value += 0.1 * range * std::sin(2.0 * M_PI * t / 2.5 + (n[0] == 'l' ? 0 : M_PI));
      else if (n.find("elbow") != std::string::npos)
        value -= 0.1 * range * (0.5 - 0.5 * std::cos(2.0 * M_PI * t / 1.25));
      else if (n.find("waist") != std::string::npos || n.find("torso") != std::string::npos)
        value += 0.08 * range * std::sin(2.0 * M_PI * t / 5.0);
      else
        continue;
      q0[b.idx_q] = std::clamp(value, b.limits.lower, b.limits.upper);
      p.locked_joints.push_back(static_cast<int>(j));
    }
    q = solve_whole_body_ik(nominal, p, q0, 50).q;
    q_ref[static_cast<std::size_t>(i)] = q;
  }
  const std::vector<Eigen::Vector2d> zmp_ref = planned_zmp(nominal, q_ref, ik_period);
  run.start(q_ref.front());
  const int lbody = nominal.frames[static_cast<std::size_t>(lf)].body,
            rbody = nominal.frames[static_cast<std::size_t>(rf)].body;
  const double dt = run.sim->timestep();
  // The main controller reads the sensors and sends corrected references once per field-bus period;
  // the servos hold them in between.
  const int per_bus = bus_ticks(run.options.bus_rate_hz, dt);
  BalanceStabilizer stabilizer(nominal, q_ref.front(), {lbody, rbody}, leg, per_bus * dt);
  const VectorX zero_v = VectorX::Zero(nominal.nv);
  const std::vector<int> both = {left, right};
  const std::vector<SE3> feet = {lpose, rpose};
  run.sensing = true;
  run.sim->set_state(run.on_ground(q_ref.front(), both), zero_v);
  // Settle with the stabilizer on, so its COP loop has leaned the true robot over its feet before
  // the motion starts.
  VectorX q_cmd = q_ref.front(), v_cmd = zero_v;
  for (int k = 0; k < static_cast<int>(1.0 / dt); ++k) {
    if (k % per_bus == 0)
      q_cmd = stabilizer.correct(q_ref.front(), zmp_ref.front(), run.read_sensors(both, feet, per_bus * dt));
    run.step(q_cmd, zero_v, false);
  }
  Segment seg{"squat", "squat", run.sim->time(), 0.0, 0.0, 0.0};
  run.recorder->restart_clocks(run.sim->time());
  const int steps = static_cast<int>(std::lround(duration / dt));
  VectorX qr(nominal.nq), vr(nominal.nv), q_servo(nominal.nq);
  for (int k = 0; k < steps; ++k) {
    const double t = k * dt;
    const int i = std::min(static_cast<int>(t / ik_period), samples - 2);
    const double s = t / ik_period - i;
    const VectorX& qa = q_ref[static_cast<std::size_t>(i)];
    const VectorX& qb = q_ref[static_cast<std::size_t>(i + 1)];
    qr = qa + s * (qb - qa);
    for (std::size_t j = 1; j < nominal.bodies.size(); ++j) {
      const Body& b = nominal.bodies[j];
      if (b.joint_type != JointType::FreeFlyer) vr[b.idx_v] = (qb[b.idx_q] - qa[b.idx_q]) / ik_period;
    }
    const Eigen::Vector2d& za = zmp_ref[static_cast<std::size_t>(i)];
    const Eigen::Vector2d& zb = zmp_ref[static_cast<std::size_t>(i + 1)];
    if (k % per_bus == 0) {
      q_cmd = stabilizer.correct(qr, za + s * (zb - za), run.read_sensors(both, feet, per_bus * dt));
      v_cmd = vr;
    }
    // Between bus packets each servo moves its set point on with the commanded velocity (the
    // interpolation of cyclic-synchronous-position drives); a set point held for a whole bus period
    // would jerk the stiff servos at the bus rate.
    const double since_packet = (k % per_bus) * dt;
    q_servo = q_cmd;
    for (std::size_t j = 1; j < nominal.bodies.size(); ++j) {
      const Body& b = nominal.bodies[j];
      if (b.joint_type != JointType::FreeFlyer) q_servo[b.idx_q] += since_packet * v_cmd[b.idx_v];
    }
    run.step(q_servo, v_cmd, true);
    run.track_motion();
    if (k % 500 == 0) run.progress(double(k) / steps, "squat t = " + std::to_string(t).substr(0, 4) + " s");
  }
  seg.end = run.sim->time();
  run.segments.push_back(seg);
}

}  // namespace dynid::scenario_detail
