// `walk`: a straight walk on level ground or a slope. The walking pattern (locomotion/walking_pattern.hpp)
// of the NOMINAL model goes through whole-body IK (feet, COM, upright pelvis with the pattern's yaw,
// upper body at its neutral posture, arms swinging a little) to joint references; the main
// controller sends them over the field bus, corrected by the balance stabilizer from the robot's
// own sensors, with feed-forward torques of the planned motion scaled to the weight the robot
// measures, and the joint servos track them on the heavier TRUE robot. docs/scenarios.md.

#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "dynid/dynamics/whole_body_ik.hpp"
#include "dynid/locomotion/foot_geometry.hpp"
#include "dynid/locomotion/walking_pattern.hpp"
#include "dynid/model/sidecar_reader.hpp"
#include "dynid/model/topology.hpp"
#include "scenario_run.hpp"

namespace dynid::scenario_detail {
namespace {

constexpr double kMaxSlopeDeg = 12.0;            // steepest incline the walk is tested for (10 deg with margin)
constexpr double kMaxSpeedMps = 0.4;             // fastest mean speed offered (0.15-0.3 m/s tested)
constexpr double kFootToleranceM = 5e-3;         // IK foot placement error beyond which a step is unreachable
constexpr double kSettleS = 0.5;                 // standing with the stabilizer on before the recording starts
constexpr double kArmSwingRad = 0.15;            // shoulder pitch swing at full stride
constexpr double kMaxServoControlMassKg = 10.0;  // --servo-control's MX-106 legs (kid humanoid: 6.7 kg)

/// A number for a message: at most `digits` significant digits.
std::string num(double x, int digits = 3) {
  std::ostringstream out;
  out << std::setprecision(digits) << x;
  return out.str();
}

/// Bodies whose joints lie on a chain from one of `sole_bodies` to the base: the legs.
std::vector<bool> leg_bodies(const Model& model, const std::vector<int>& sole_bodies) {
  return on_chains_to_root(model, sole_bodies);
}

/// Share of the ground reaction the plan puts on the left foot: all of it in left support, none in
/// right support, in double support where the reference ZMP lies between the sole centres.
double left_share(const WalkingSample& s) {
  if (s.support == SupportPhase::Left) return 1.0;
  if (s.support == SupportPhase::Right) return 0.0;
  const Vector3 l = s.left_foot.sole_world.translation, r = s.right_foot.sole_world.translation;
  return std::clamp((s.zmp_reference_world - r).dot(l - r) / std::max((l - r).squaredNorm(), 1e-12), 0.0, 1.0);
}

struct Plan {
  WalkingPattern pattern;
  std::vector<VectorX> q_ref;      ///< joint references at the bus rate, one per pattern sample
  std::vector<double> left_share;  ///< share of the planned ground reaction on the left foot
  std::vector<VectorX> tau_ff;     ///< nominal joint torques of the planned motion (nv, zero on the base)
  int left = 0, right = 0;         ///< sidecar contact indices of the soles
  int left_frame = 0, right_frame = 0;
  std::vector<int> upper;  ///< bodies of the joints off the legs (held at their posture by the IK)
};

/// Pattern and joint references of the walk on the nominal model. Throws when the legs cannot
/// reach the footholds (too fast, too steep for this robot) — before anything is simulated.
Plan plan_walk(const Run& run, double bus_period) {
  const Model& nominal = run.robot.model;
  const RobotSidecar& sidecar = *run.robot.sidecar;
  const ScenarioOptions& options = run.options;
  Plan plan;
  std::tie(plan.left, plan.right) = left_right_soles(nominal, sidecar);
  const std::string& lname = sidecar.contacts[static_cast<std::size_t>(plan.left)].name;
  const std::string& rname = sidecar.contacts[static_cast<std::size_t>(plan.right)].name;
  plan.left_frame = nominal.frame_index(lname);
  plan.right_frame = nominal.frame_index(rname);

  WalkingParams params = walking_params_for(foot_geometry(run.robot, lname, rname));
  params.footsteps.num_steps = options.walk_steps;
  params.footsteps.walking_speed_mps = options.walk_speed_mps;
  params.footsteps.slope_rad = options.slope_deg * M_PI / 180.0;
  params.output_rate_hz = 1.0 / bus_period;

  plan.pattern = generate_walking_pattern(params);

  const int lbody = nominal.frames[static_cast<std::size_t>(plan.left_frame)].body;
  const int rbody = nominal.frames[static_cast<std::size_t>(plan.right_frame)].body;
  const std::vector<bool> leg = leg_bodies(nominal, {lbody, rbody});
  // Posture: the neutral configuration with the knees bent, away from the stretched-knee
  // singularity (the IK starts there and its posture term keeps the knees forward).
  VectorX neutral = nominal.neutral_configuration();
  for (std::size_t j = 1; j < nominal.bodies.size(); ++j) {
    const Body& b = nominal.bodies[j];
    if (b.joint_type != JointType::FreeFlyer && b.joint_name.find("knee") != std::string::npos)
      neutral[b.idx_q] = std::clamp(0.35, b.limits.lower, b.limits.upper);
  }
  Data data(nominal);
  forward_kinematics(nominal, data, neutral);
  // Shoulder pitch joints and the sign that swings each arm forward (hand toward +x).
  std::vector<std::pair<int, double>> shoulders;
  std::vector<int>& upper = plan.upper;
  for (std::size_t j = 1; j < nominal.bodies.size(); ++j) {
    const Body& b = nominal.bodies[j];
    if (b.joint_type == JointType::FreeFlyer || leg[j]) continue;
    upper.push_back(static_cast<int>(j));
    if (!options.lock_upper_body && b.joint_name.find("shoulder_pitch") != std::string::npos) {
      const double axis_y = (data.oMi[j].rotation * b.axis).y();
      // A +y rotation turns a hanging arm's hand toward -x.
      shoulders.push_back({static_cast<int>(j), axis_y > 0.0 ? -1.0 : 1.0});
    }
  }

  const std::vector<WalkingSample>& samples = plan.pattern.samples;
  const double stride = std::max(plan.pattern.plan.step_length_m(), 1e-6);
  const Vector3 along = plan.pattern.plan.ground_world.rotation.col(0);
  VectorX q = neutral;
  q[nominal.bodies[1].idx_q + 2] -= std::min(frame_placement(nominal, data, plan.left_frame).translation.z(),
                                             frame_placement(nominal, data, plan.right_frame).translation.z());
  plan.q_ref.reserve(samples.size());
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const WalkingSample& s = samples[i];
    IkProblem p;
    p.posture = neutral;
    // Arms swing against the legs: the left arm forward when the right foot is ahead.
    const double lead = std::clamp(
        (s.right_foot.sole_world.translation - s.left_foot.sole_world.translation).dot(along) / stride, -1.0, 1.0);
    for (const auto& [body, forward] : shoulders) {
      const Body& b = nominal.bodies[static_cast<std::size_t>(body)];
      const double side = b.joint_name[0] == 'l' ? 1.0 : -1.0;
      p.posture[b.idx_q] =
          std::clamp(neutral[b.idx_q] + forward * side * kArmSwingRad * lead, b.limits.lower, b.limits.upper);
    }
    p.frames = {{plan.left_frame, s.left_foot.sole_world, 100.0, true},
                {plan.right_frame, s.right_foot.sole_world, 100.0, true}};
    p.com_target_enabled = true;
    p.com_world = s.com_world;
    p.com_axes_weight = Vector3(10.0, 10.0, 10.0);
    // Uphill the pelvis leans into the slope (downhill back), by half its angle: the rear leg then
    // stays within its hip extension range.
    p.base_orientation_world = (Eigen::AngleAxisd(s.pelvis_yaw_rad, Vector3::UnitZ()) *
                                Eigen::AngleAxisd(0.5 * params.footsteps.slope_rad, Vector3::UnitY()))
                                   .toRotationMatrix();
    for (int j : upper)
      q[nominal.bodies[static_cast<std::size_t>(j)].idx_q] =
          p.posture[nominal.bodies[static_cast<std::size_t>(j)].idx_q];
    p.locked_joints = upper;
    if (i == 0) {
      // From the neutral configuration (legs stretched): feet first, then the COM height.
      IkProblem feet_first = p;
      feet_first.com_axes_weight = Vector3(10.0, 10.0, 0.0);
      q = solve_whole_body_ik(nominal, feet_first, q, 300).q;
    }
    q = solve_whole_body_ik(nominal, p, q, i == 0 ? 300 : 50).q;
    forward_kinematics(nominal, data, q);
    for (const FrameTarget& f : p.frames) {
      const double error = (frame_placement(nominal, data, f.frame).translation - f.pose_world.translation).norm();
      if (error > kFootToleranceM)
        throw std::invalid_argument("walk: the legs of " + nominal.name + " cannot reach the footholds at " +
                                    num(options.walk_speed_mps) + " m/s on a " + num(options.slope_deg) +
                                    " deg slope (foot off by " + num(1e3 * error) + " mm at t = " + num(s.time_s) +
                                    " s); try a lower --speed or --slope");
    }
    plan.q_ref.push_back(q);
    plan.left_share.push_back(left_share(s));
    if (i % 100 == 0) run.progress(0.2 * double(i) / samples.size(), "planning the walk (IK)");
  }
  return plan;
}

/// Segments of the walk in dataset.json: the support phases of the plan, `offset` [s] added.
std::vector<Segment> walk_segments(const FootstepPlan& plan, double offset, double end) {
  std::vector<Segment> out;
  auto add = [&](const std::string& label, const std::string& support, double a, double b) {
    if (a + offset >= end) return;
    Segment seg{label,      support == "both" ? "double-support" : "single-support",
                a + offset, std::min(b + offset, end),
                0.0,        0.0};
    seg.support = support;
    out.push_back(seg);
  };
  double t = 0.0;
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    const Footstep& st = plan.steps[k];
    const std::string n = std::to_string(k + 1);
    add(k == 0 ? "standing, weight shift" : "step " + std::to_string(k) + " double support", "both", t,
        st.liftoff_time_s);
    const bool left_swings = st.swing_foot == Foot::Left;
    add("step " + n + " single support (" + (left_swings ? "left" : "right") + " foot swinging)",
        left_swings ? "right" : "left", st.liftoff_time_s, st.touchdown_time_s);
    t = st.touchdown_time_s;
  }
  add("final double support, standing", "both", t, plan.duration_s);
  return out;
}

}  // namespace

std::vector<std::string> walk_leg_joints(const Robot& robot) {
  const auto [left, right] = left_right_soles(robot.model, *robot.sidecar);
  std::vector<int> soles;
  for (int c : {left, right})
    soles.push_back(robot.model
                        .frames[static_cast<std::size_t>(
                            robot.model.frame_index(robot.sidecar->contacts[static_cast<std::size_t>(c)].name))]
                        .body);
  const std::vector<bool> leg = leg_bodies(robot.model, soles);
  std::vector<std::string> names;
  for (std::size_t b = 1; b < robot.model.bodies.size(); ++b)
    if (leg[b] && robot.model.bodies[b].joint_type != JointType::FreeFlyer)
      names.push_back(robot.model.bodies[b].joint_name);
  return names;
}

/// The feed-forward's actuator model per leg joint (`--actuator-model`), empty for the datasheet's.
std::vector<ActuatorModel> walk_actuator_models(const Robot& robot, const ScenarioOptions& options) {
  if (options.actuator_model.empty()) return {};
  return leg_actuator_models(read_actuators_file(options.actuator_model), options.actuator_model,
                             walk_leg_joints(robot));
}

int bus_ticks(double bus_rate_hz, double timestep) {
  const double ticks = 1.0 / (bus_rate_hz * timestep);
  if (!(bus_rate_hz > 0.0) || !std::isfinite(ticks) || ticks < 1.0 - 1e-9 || std::abs(ticks - std::round(ticks)) > 1e-6)
    throw std::invalid_argument("field-bus rate " + num(bus_rate_hz) + " Hz must divide the servo rate " +
                                num(1.0 / timestep) + " Hz (e.g. 125, 250, 500, 1000)");
  return static_cast<int>(std::lround(ticks));
}

void check_walk(const Robot& robot, const ScenarioOptions& options) {
  if (!(options.walk_steps >= 1 && options.walk_steps <= 10000))
    throw std::invalid_argument("walk: --steps " + std::to_string(options.walk_steps) + " must be in 1..10000");
  if (!(options.walk_speed_mps > 0.0 && options.walk_speed_mps <= kMaxSpeedMps))
    throw std::invalid_argument("walk: --speed " + num(options.walk_speed_mps) + " m/s must be in (0, " +
                                num(kMaxSpeedMps) + "] (0.15-0.3 m/s tested)");
  if (!(std::abs(options.slope_deg) <= kMaxSlopeDeg))
    throw std::invalid_argument("walk: --slope " + num(options.slope_deg) + " deg is beyond the " + num(kMaxSlopeDeg) +
                                " deg the walk supports");
  const auto [left, right] = left_right_soles(robot.model, *robot.sidecar);
  for (int c : {left, right}) {
    const ContactSurface& sole = robot.sidecar->contacts[static_cast<std::size_t>(c)];
    if (sole.polygon.size() < 3 && sole.points.size() < 3)
      throw std::invalid_argument("walk: contact '" + sole.name + "' of " + robot.sidecar->source_path +
                                  " is not a sole (needs a polygon or 3+ points to stand on)");
    // Standing on the incline needs friction; keep a margin for the walk's horizontal forces.
    if (std::tan(std::abs(options.slope_deg) * M_PI / 180.0) > 0.6 * sole.friction)
      throw std::invalid_argument("walk: a " + num(options.slope_deg) + " deg slope needs more friction than " +
                                  sole.name + "'s " + num(sole.friction));
  }
  (void)bus_ticks(options.bus_rate_hz, SceneSpec{}.timestep);
  if (!options.servo_control.empty()) {
    (void)parse_servo_control(options.servo_control);
    // The legs get MX-106 servos (10 N m): a kid-size robot's. A heavier one collapses at once.
    if (robot.model.total_mass() > kMaxServoControlMassKg)
      throw std::invalid_argument("walk --servo-control puts MX-106 servos on the legs, for kid-size robots up to " +
                                  num(kMaxServoControlMassKg) + " kg; " + robot.model.name + " weighs " +
                                  num(robot.model.total_mass()) + " kg");
    (void)walk_actuator_models(robot, options);  // the file, its entries, one per leg joint
    // The MX firmware's P register is one byte (1-254 in use); k_P = 1.0 is register 128.
    const double max_kp = 254.0 / full_gain_register();
    if (options.servo_kp != 0.0 && !(options.servo_kp > 0.0 && options.servo_kp <= max_kp))
      throw std::invalid_argument("--servo-kp " + num(options.servo_kp) + " is outside (0, " + num(max_kp) +
                                  "]: the MX firmware's P register is 1-254, k_P 1.0 = register 128");
  }
}

void run_walk(Run& run) {
  const Model& nominal = run.robot.model;
  const double dt = run.scene.timestep;
  const int per_bus = bus_ticks(run.options.bus_rate_hz, dt);
  const double bus_period = per_bus * dt;
  Plan plan = plan_walk(run, bus_period);
  plan.tau_ff = planned_feedforward(nominal, plan.q_ref, plan.left_share,
                                    nominal.frames[static_cast<std::size_t>(plan.left_frame)].body,
                                    nominal.frames[static_cast<std::size_t>(plan.right_frame)].body, bus_period);
  const FootstepPlan& steps = plan.pattern.plan;
  const std::vector<WalkingSample>& samples = plan.pattern.samples;

  // Locked upper body: welded in the simulation at the references' (constant) values, rigid as the
  // 18-DOF model of the data set assumes. Held by servos they would still move by ~1 mrad.
  if (run.options.lock_upper_body)
    for (int j : plan.upper)
      run.scene.welds.push_back({j, plan.q_ref.front()[nominal.bodies[static_cast<std::size_t>(j)].idx_q]});
  const int lbody = nominal.frames[static_cast<std::size_t>(plan.left_frame)].body;
  const int rbody = nominal.frames[static_cast<std::size_t>(plan.right_frame)].body;
  if (run.options.servo_control.empty()) {
    run.start(plan.q_ref.front());
  } else {
    // Paper 002's comparison: servo models on the legs, the PD servos on the rest.
    std::vector<bool> leg = leg_bodies(nominal, {lbody, rbody});
    for (std::size_t b = 1; b < nominal.bodies.size(); ++b)
      if (nominal.bodies[b].joint_type == JointType::FreeFlyer) leg[b] = false;
    run.start(plan.q_ref.front(), leg);
    const ServoControl control = parse_servo_control(run.options.servo_control);
    run.legs = std::make_unique<LegServos>(
        nominal, leg, control, run.options.servo_kp > 0.0 ? run.options.servo_kp : servo_control_gain(control),
        walk_actuator_models(run.robot, run.options), run.options.seed, dt);
  }
  // Walking gains: gentle IMU tilt damping, no COP integral. The squat's gains (COP integral 0.5/s,
  // tilt 0.3) lean the body about both ankles, which in single support also moves the swing foot;
  // with them 1 of 5 seeds of the kid fell on level ground, and with the COP integral 2-5 of 5 on
  // 10 deg slopes, while these walk all of them (docs/scenarios.md).
  BalanceGains gains;
  gains.cop_integral = 0.0;
  gains.tilt = 0.05;
  gains.tilt_rate = 0.005;
  BalanceStabilizer stabilizer(nominal, plan.q_ref.front(), {lbody, rbody}, plan.pattern.params.preview.com_height_m,
                               bus_period, gains);
  const std::vector<int> both = {plan.left, plan.right};
  const VectorX zero_v = VectorX::Zero(nominal.nv);
  run.sim->set_state(run.on_ground(plan.q_ref.front(), both), zero_v);

  // Stand still for kSettleS with the stabilizer on and the nominal standing feed-forward. The main
  // controller reads the sensors and sends references once per bus period; the servos hold them in
  // between.
  run.sensing = true;
  VectorX q_cmd = plan.q_ref.front(), v_cmd = zero_v;
  std::vector<SE3> feet = {samples.front().left_foot.sole_world, samples.front().right_foot.sole_world};
  const Eigen::Vector2d zmp0 = samples.front().zmp_reference_world.head<2>();
  const int settle = static_cast<int>(std::lround(kSettleS / bus_period));
  // Standing, the robot also weighs itself with its foot sensors: the feed-forward torques of the
  // nominal plan are scaled by the measured over the nominal weight.
  double measured_weight = 0.0;
  int weighings = 0;
  for (int i = 0; i < settle * per_bus && !run.fell; ++i) {
    if (i % per_bus == 0) {
      const BalanceMeasurement m = run.read_sensors(both, feet, bus_period);
      q_cmd = stabilizer.correct(plan.q_ref.front(), zmp0, m);
      if (run.legs) run.legs->send(q_cmd, zero_v, zero_v, plan.tau_ff.front());
      if (2 * i >= settle * per_bus) {
        for (const Force& w : m.sole_wrenches) measured_weight += w.linear.z();
        ++weighings;
      }
    }
    run.step(q_cmd, zero_v, false, &plan.tau_ff.front());
  }
  const double ff_scale = measured_weight / std::max(weighings, 1) / (nominal.total_mass() * nominal.gravity.norm());
  VectorX tau_cmd = plan.tau_ff.front();

  const double t0 = run.sim->time();
  run.recorder->restart_clocks(t0);
  const Vector3 start = run.sim->q().head<3>();
  const Vector3 normal = steps.ground_normal_world();
  const double weight = run.truth.model.total_mass() * run.truth.model.gravity.norm();
  std::vector<bool> landed(steps.steps.size(), false);
  double fell_at = 1e300;
  // Servo models on the legs: the feed-forward is the model's voltage for the planned motion one
  // reaction time ahead (eq. 15: the voltage at t - t_d acts on the motion at t).
  const int n = static_cast<int>(samples.size());
  const int ahead = run.legs ? static_cast<int>(std::lround(run.legs->reaction_time_s() / bus_period)) : 0;
  VectorX v_ahead = zero_v, a_ahead = zero_v, tau_ahead = zero_v;
  auto planned_motion = [&](int k) {
    const VectorX& qm = plan.q_ref[static_cast<std::size_t>(std::max(k - 1, 0))];
    const VectorX& q0 = plan.q_ref[static_cast<std::size_t>(k)];
    const VectorX& qp = plan.q_ref[static_cast<std::size_t>(std::min(k + 1, n - 1))];
    for (std::size_t j = 1; j < nominal.bodies.size(); ++j) {
      const Body& b = nominal.bodies[j];
      if (b.joint_type == JointType::FreeFlyer) continue;
      v_ahead[b.idx_v] = (qp[b.idx_q] - qm[b.idx_q]) / (2.0 * bus_period);
      a_ahead[b.idx_v] = (qp[b.idx_q] - 2.0 * q0[b.idx_q] + qm[b.idx_q]) / (bus_period * bus_period);
    }
  };
  if (run.legs) run.legs->measuring = true;
  for (const Footstep& st : steps.steps) run.touchdowns.push_back({st.touchdown_time_s, st.swing_foot == Foot::Left});
  for (std::size_t i = 0; i < samples.size() && !run.fell; ++i) {
    const VectorX& qa = plan.q_ref[i];
    const VectorX& qb = plan.q_ref[std::min(i + 1, samples.size() - 1)];
    for (std::size_t j = 1; j < nominal.bodies.size(); ++j) {
      const Body& b = nominal.bodies[j];
      if (b.joint_type != JointType::FreeFlyer) v_cmd[b.idx_v] = (qb[b.idx_q] - qa[b.idx_q]) / bus_period;
    }
    feet[0] = samples[i].left_foot.sole_world;
    feet[1] = samples[i].right_foot.sole_world;
    q_cmd = stabilizer.correct(qa, samples[i].zmp_reference_world.head<2>(), run.read_sensors(both, feet, bus_period));
    tau_cmd = ff_scale * plan.tau_ff[i];
    if (run.legs) {
      const int k = std::min(static_cast<int>(i) + ahead, n - 1);
      planned_motion(k);
      tau_ahead = ff_scale * plan.tau_ff[static_cast<std::size_t>(k)];
      run.legs->send(q_cmd, v_ahead, a_ahead, tau_ahead);
    }
    for (int k = 0; k < per_bus && !run.fell; ++k) {
      run.step(q_cmd, v_cmd, true, &tau_cmd);
      run.track_motion();
      // A step counts once its foot is down and carries 30 % of the weight (the closing step ends
      // in double support, where each foot carries about half).
      const double t = run.sim->time() - t0;
      if (run.legs) {
        // How closely the robot keeps the planned support: the share of its weight the planned swing
        // foot still (or already) carries. A late weight shift leaves it loaded after the lift-off.
        if (const Footstep* swing = steps.swing_at(t)) {
          const auto& wrenches = run.sim->contact_wrenches_world();
          const double fl = std::max(wrenches[static_cast<std::size_t>(plan.left)].linear.dot(normal), 0.0);
          const double fr = std::max(wrenches[static_cast<std::size_t>(plan.right)].linear.dot(normal), 0.0);
          if (fl + fr > 0.0) {
            run.swing_foot_load_share_sum += (swing->swing_foot == Foot::Left ? fl : fr) / (fl + fr);
            ++run.swing_foot_load_samples;
          }
        }
      }
      for (std::size_t s = 0; s < steps.steps.size(); ++s) {
        const Footstep& st = steps.steps[s];
        if (landed[s] || t < st.touchdown_time_s) continue;
        const int c = st.swing_foot == Foot::Left ? plan.left : plan.right;
        if (run.sim->contact_wrenches_world()[static_cast<std::size_t>(c)].linear.dot(normal) > 0.3 * weight)
          landed[s] = true;
      }
    }
    if (run.fell) fell_at = run.sim->time();
    if (i % 200 == 0)
      run.progress(0.2 + 0.8 * double(i) / samples.size(),
                   "walk t = " + std::to_string(samples[i].time_s).substr(0, 4) + " s");
  }
  run.steps = static_cast<int>(std::count(landed.begin(), landed.end(), true));
  run.segments = walk_segments(steps, t0, std::min(fell_at, run.sim->time()));
  const Vector3 moved = run.sim->q().head<3>() - start;
  run.extras.push_back({"walked_distance_m", moved.dot(steps.ground_world.rotation.col(0))});
  run.extras.push_back({"planned_distance_m", (steps.params.num_steps - 1) * steps.step_length_m()});
  run.extras.push_back({"max_base_tilt_deg", run.max_tilt * 180.0 / M_PI});
  run.extras.push_back({"speed_mps", run.options.walk_speed_mps});
  run.extras.push_back({"slope_deg", run.options.slope_deg});
  run.extras.push_back({"bus_rate_hz", 1.0 / bus_period});
}

}  // namespace dynid::scenario_detail
