// `excite`: paper 004's training set (squats at 0.5-3.5 Hz; squat + side sway + alternating foot
// lifts), its evaluation motion, or a Fourier excitation (designed by `dynid excite` or seeded),
// on a robot standing on both feet.

#include <filesystem>

#include "dynid/dynamics/whole_body_ik.hpp"
#include "dynid/ident/excitation.hpp"
#include "dynid/model/topology.hpp"
#include "scenario_run.hpp"

namespace dynid::scenario_detail {
namespace {

constexpr double kIkPeriod = 0.01;  ///< [s] spacing of the planned reference (linear in between)

/// What the plan asks for at one instant, relative to the standing pose.
struct Target {
  double depth = 0.0;                                                 ///< COM lowered by [m]
  Eigen::Vector2d com = Eigen::Vector2d::Zero();                      ///< COM horizontal target, world [m]
  double lift_left = 0.0, lift_right = 0.0;                           ///< sole raised by [m]
  Vector3 turn_left = Vector3::Zero(), turn_right = Vector3::Zero();  ///< sole rotation vector, world [rad]
  Vector3 trunk = Vector3::Zero();                  ///< base roll, pitch, yaw [rad] (world x, y, z; applied z·y·x)
  std::vector<std::pair<int, double>> held_joints;  ///< (body, value) set directly, not by IK
};

/// Smooth 0 -> 1 over [0, 1] with zero velocity and acceleration at both ends.
double min_jerk(double s) {
  s = std::clamp(s, 0.0, 1.0);
  return s * s * s * (10.0 - 15.0 * s + 6.0 * s * s);
}

/// The motion as a function of time, its parts (segments of dataset.json with the contact state)
/// and its length.
struct Motion {
  std::function<void(double, Target&)> at;
  std::vector<Segment> parts;  ///< start/end relative to the motion start
  double duration = 0.0;
  std::vector<MjcfWeld> welds;  ///< joints welded in the simulation for the whole run
};

/// Robot-dependent sizes of the motions, from the nominal standing pose.
struct Stance {
  VectorX q;
  int left_frame = 0, right_frame = 0;
  Vector3 left_sole, right_sole, com;
  double leg = 0.0;   ///< COM height above the soles [m]
  double size = 0.0;  ///< leg / 0.9: scales lengths to the robot (0.9 m = adult COM height)
};

bool is_leg_joint(const Model& model, const RobotSidecar& sidecar, int body) {
  for (const auto& contact : sidecar.contacts)
    if (supports(model, body, model.frames[static_cast<std::size_t>(model.frame_index(contact.name))].body))
      return true;
  return false;
}

/// Arms, torso and head swinging about the stance: each joint its own frequency (0.25-0.65 Hz,
/// times `speed`) and phase, 12 % of its range (6 % for torso joints, which move the COM most).
void upper_body(const Model& model, const RobotSidecar& sidecar, const Stance& st, double t, double speed,
                Target& target) {
  int k = 0;
  for (std::size_t i = 1; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    if (b.joint_type == JointType::FreeFlyer || is_leg_joint(model, sidecar, static_cast<int>(i))) continue;
    const double lo = std::isfinite(b.limits.lower) ? b.limits.lower : -1.0;
    const double hi = std::isfinite(b.limits.upper) ? b.limits.upper : 1.0;
    const bool torso =
        b.joint_name.find("torso") != std::string::npos || b.joint_name.find("waist") != std::string::npos;
    const double amplitude = (torso ? 0.06 : 0.12) * (hi - lo);
    const double f = speed * (0.25 + 0.1 * (k % 5));
    const double value = st.q[b.idx_q] + amplitude * std::sin(2.0 * M_PI * f * t + 0.7 * k);
    target.held_joints.push_back(
        {static_cast<int>(i), std::clamp(value, lo + 0.05 * (hi - lo), hi - 0.05 * (hi - lo))});
    ++k;
  }
}

/// Squat depth for frequency f: the COM's vertical acceleration kept below 0.2 g and the depth
/// below 8 % of the COM height (paper 004 lowers the amplitude as the frequency rises).
double squat_depth(const Stance& st, double f) {
  if (f <= 0.0) return 0.0;
  const double w = 2.0 * M_PI * f;
  return std::min(0.08 * st.leg, 0.1 * 9.81 / (0.5 * w * w));
}

/// Rotation of a lifted sole at phase s (0..1) of its lift, world axes [rad]: it turns about all
/// three axes, each with its own time course, and is flat at lift-off and touch-down. Turning, the
/// foot's rotational inertia shows in the leg's joint torques (a sole that stays flat only
/// translates, and the joint sensors alone cannot tell its inertia); 0.1 rad keeps the sole's
/// corners clear of the floor under the lift of 4 % of the COM height.
Vector3 swing_turn(double s) {
  const double bump = std::pow(std::sin(M_PI * s), 2);
  return 0.1 * bump * Vector3(std::sin(2.0 * M_PI * s), 1.0, std::cos(M_PI * s));
}

/// The IK problem of one instant: soles flat at their (lifted) stance poses, COM at its target,
/// base upright, the rest pulled toward the stance.
IkProblem ik_problem(const Stance& st, const Target& target) {
  IkProblem p;
  p.posture = st.q;
  const auto rotation = [](const Vector3& r) -> Matrix3 {
    return r.norm() > 0.0 ? Matrix3(Eigen::AngleAxisd(r.norm(), r.normalized())) : Matrix3::Identity();
  };
  const SE3 lpose(rotation(target.turn_left), st.left_sole + Vector3(0.0, 0.0, target.lift_left));
  const SE3 rpose(rotation(target.turn_right), st.right_sole + Vector3(0.0, 0.0, target.lift_right));
  p.frames = {{st.left_frame, lpose, 100.0, true}, {st.right_frame, rpose, 100.0, true}};
  p.com_target_enabled = true;
  p.com_world = Vector3(target.com.x(), target.com.y(), st.com.z() - target.depth);
  p.com_axes_weight = Vector3(10.0, 10.0, 10.0);
  p.base_orientation_world = Matrix3(Eigen::AngleAxisd(target.trunk.z(), Vector3::UnitZ()) *
                                     Eigen::AngleAxisd(target.trunk.y(), Vector3::UnitY()) *
                                     Eigen::AngleAxisd(target.trunk.x(), Vector3::UnitX()));
  return p;
}

/// How far the robot crouches with its COM over one foot, as a fraction of its COM height: bent
/// knees give the far leg the reach to put the COM over the other foot (straight legs cannot), but
/// a deep crouch runs the ankles into their dorsiflexion stops, sooner on a robot whose ankles stand
/// behind its hips (biped16). 12 % where the legs allow it (kid and adult humanoids), else the
/// deepest crouch, in 1 % steps, whose most demanding poses (COM over either foot, the other foot
/// lifted by `lift` [m], the deepest squat of the sway on top) the IK reaches with every leg joint
/// 0.05 rad inside its limits.
double sway_crouch(const Model& model, const RobotSidecar& sidecar, const Stance& st, double lift,
                   double squat_depth_m) {
  std::vector<int> upper;
  for (std::size_t i = 1; i < model.bodies.size(); ++i)
    if (model.bodies[i].joint_type != JointType::FreeFlyer && !is_leg_joint(model, sidecar, static_cast<int>(i)))
      upper.push_back(static_cast<int>(i));
  for (int percent = 12; percent >= 1; --percent) {
    bool reachable = true;
    for (int side = 0; side < 2 && reachable; ++side) {
      // Walked to from the stance in small steps, as the plan gets there.
      IkResult ik{st.q, false, 0, 0.0};
      for (int k = 1; k <= 20; ++k) {
        const double s = 0.05 * k;
        Target target;
        target.com = (1.0 - s) * 0.5 * (st.left_sole + st.right_sole).head<2>() +
                     s * (side == 0 ? st.left_sole : st.right_sole).head<2>();
        (side == 0 ? target.lift_right : target.lift_left) = s * lift;
        target.depth = s * (0.01 * percent * st.leg + squat_depth_m);
        IkProblem p = ik_problem(st, target);
        p.locked_joints = upper;  // held at the stance, as the plan holds them
        ik = solve_whole_body_ik(model, p, ik.q, 50);
      }
      reachable = ik.task_error < 1e-3;
      for (std::size_t i = 1; i < model.bodies.size() && reachable; ++i) {
        const Body& b = model.bodies[i];
        if (b.joint_type == JointType::FreeFlyer || !is_leg_joint(model, sidecar, static_cast<int>(i))) continue;
        reachable = ik.q[b.idx_q] > b.limits.lower + 0.05 && ik.q[b.idx_q] < b.limits.upper - 0.05;
      }
    }
    if (reachable) return 0.01 * percent;
  }
  throw std::runtime_error("cannot plan the excitation for " + model.label() +
                           ": no crouch puts its COM over one foot with the other foot lifted");
}

/// Paper 004's training set in `duration`: half squats at 0.5 .. 3.5 Hz (whole cycles, at least
/// one per frequency), half cycles of side sway with alternating foot lifts, squatting at 0, 0.5,
/// 1.0, 1.5, 2.0 Hz on top (one frequency per sway cycle; 6 s cycles as the paper's 1/6 Hz sway,
/// shorter when the duration asks, never below 3 s).
Motion paper004_motion(const Model& model, const RobotSidecar& sidecar, const Stance& st, double duration,
                       bool with_squats, bool with_sway) {
  Motion m;
  if (with_squats != with_sway) duration *= 2.0;  // one part: all the time for it
  struct Squat {
    double start, end, f, depth;
  };
  std::vector<Squat> squats;
  double t = 0.0;
  const double squat_share = 0.5 * duration / 7.0;
  for (int k = 1; k <= 7 && with_squats; ++k) {
    const double f = 0.5 * k;
    const double cycles = std::max(1.0, std::round(f * squat_share));
    squats.push_back({t, t + cycles / f, f, squat_depth(st, f)});
    char label[64];
    std::snprintf(label, sizeof label, "squat %.1f Hz", f);
    m.parts.push_back({label, "squat", t, t + cycles / f, 0.0, 0.0, "both"});
    t += cycles / f;
  }
  const double sway_start = t;
  const int sway_cycles = with_sway ? std::max(1, static_cast<int>(std::lround(0.5 * duration / 6.0))) : 0;
  const double period = std::clamp(0.5 * duration / sway_cycles, 3.0, 6.0);
  const double sway_freqs[] = {0.0, 0.5, 1.0, 1.5, 2.0};
  const char* phases[][2] = {{"shift to left foot", "both"},
                             {"lift right foot", "left"},
                             {"shift to right foot", "both"},
                             {"lift left foot", "right"},
                             {"shift to centre", "both"}};
  // Shifts take 20 % of the cycle per foot-to-centre distance (the planned ZMP stays near the COM),
  // each lift 13 %.
  const double bounds[] = {0.0, 0.2, 1.0 / 3.0, 2.0 / 3.0, 0.8, 1.0};
  for (int c = 0; c < sway_cycles; ++c) {
    const double f = sway_freqs[c % 5];
    for (int p = 0; p < 5; ++p) {
      char label[96];
      std::snprintf(label, sizeof label, "sway %d, squat %.1f Hz: %s", c + 1, f, phases[p][0]);
      const double a = sway_start + period * (c + bounds[p]), b = sway_start + period * (c + bounds[p + 1]);
      if (p % 2 == 0) {
        m.parts.push_back({label, "sway", a, b, 0.0, 0.0, phases[p][1]});
        continue;
      }
      // A lift: single support in its middle two thirds; over its first and last sixth the sole is
      // within a quarter of the lift height of the floor and may touch it (segments say `both`).
      const double edge = (b - a) / 6.0;
      m.parts.push_back({std::string(label) + " (lift-off)", "sway", a, a + edge, 0.0, 0.0, "both"});
      m.parts.push_back({label, "sway", a + edge, b - edge, 0.0, 0.0, phases[p][1]});
      m.parts.push_back({std::string(label) + " (touch-down)", "sway", b - edge, b, 0.0, 0.0, "both"});
    }
  }
  m.duration = sway_start + sway_cycles * period;
  const double lift = 0.04 * st.size;
  double max_sway_squat = 0.0;  // deepest squat on top of the sway [m]
  for (int c = 0; c < std::min(sway_cycles, 5); ++c)
    max_sway_squat = std::max(max_sway_squat, 0.25 * squat_depth(st, sway_freqs[c]));
  const double crouch = sway_cycles > 0 ? sway_crouch(model, sidecar, st, lift, max_sway_squat) : 0.0;
  m.at = [=, &model, &sidecar](double time, Target& target) {
    target = Target{};
    target.com = 0.5 * (st.left_sole + st.right_sole).head<2>();
    upper_body(model, sidecar, st, time, 1.0, target);
    if (time < sway_start || sway_cycles == 0) {
      for (const Squat& s : squats)
        if (time >= s.start && time < s.end)
          target.depth = 0.5 * s.depth * (1.0 - std::cos(2.0 * M_PI * s.f * (time - s.start)));
      return;
    }
    const int c = std::min(static_cast<int>((time - sway_start) / period), sway_cycles - 1);
    const double u = (time - sway_start) / period - c;  // phase in the cycle, 0..1
    const double f = sway_freqs[c % 5];
    // Squats while swaying are shallower: a quarter of the double-support depth.
    target.depth = 0.125 * squat_depth(st, f) * (1.0 - std::cos(2.0 * M_PI * f * (time - sway_start)));
    const Eigen::Vector2d centre = target.com, left = st.left_sole.head<2>(), right = st.right_sole.head<2>();
    if (u < bounds[1]) {
      target.com = centre + min_jerk(u / bounds[1]) * (left - centre);
    } else if (u < bounds[2]) {
      target.com = left;
      target.lift_right = lift * std::pow(std::sin(M_PI * (u - bounds[1]) / (bounds[2] - bounds[1])), 2);
      target.turn_right = swing_turn((u - bounds[1]) / (bounds[2] - bounds[1]));
    } else if (u < bounds[3]) {
      target.com = left + min_jerk((u - bounds[2]) / (bounds[3] - bounds[2])) * (right - left);
    } else if (u < bounds[4]) {
      target.com = right;
      target.lift_left = lift * std::pow(std::sin(M_PI * (u - bounds[3]) / (bounds[4] - bounds[3])), 2);
      target.turn_left = swing_turn((u - bounds[3]) / (bounds[4] - bounds[3]));
    } else {
      target.com = right + min_jerk((u - bounds[4]) / (bounds[5] - bounds[4])) * (centre - right);
    }
    // The robot crouches as it sways, fully with its COM over a foot (sway_crouch).
    const double over = std::abs((target.com - centre).dot(left - centre)) / (left - centre).squaredNorm();
    target.depth += crouch * st.leg * over;
  };
  return m;
}

/// Paper 004's evaluation motion: 1.5 Hz squatting (6 s in the paper), here with a slow side sway
/// (0.25 Hz, a third of the way to each foot, both feet down) and the upper body at 1.3 times the
/// training frequencies, so it is not a replay of the training data.
Motion evaluation_motion(const Model& model, const RobotSidecar& sidecar, const Stance& st, double duration) {
  Motion m;
  m.duration = duration;
  m.parts.push_back({"squat 1.5 Hz with side sway", "evaluation", 0.0, duration, 0.0, 0.0, "both"});
  m.at = [=, &model, &sidecar](double time, Target& target) {
    target = Target{};
    const Eigen::Vector2d centre = 0.5 * (st.left_sole + st.right_sole).head<2>();
    const Eigen::Vector2d half = 0.5 * (st.left_sole - st.right_sole).head<2>();
    // Sway and squat faded in over the first second, so the motion starts at rest.
    const double fade = min_jerk(time);
    target.com = centre + fade * std::sin(2.0 * M_PI * 0.25 * time) / 3.0 * half;
    target.depth = fade * 0.5 * squat_depth(st, 1.5) * (1.0 - std::cos(2.0 * M_PI * 1.5 * time));
    upper_body(model, sidecar, st, time, 1.3, target);
  };
  return m;
}

/// Paper 003's validation motion, trunk bending: both feet planted and the COM kept over the middle
/// of the feet while the trunk (the base, and the waist joints of a robot that has them) bends
/// forward, then sideways, then twists, then does all three at once (each a quarter of the
/// duration, whole cycles of about 0.5 Hz, faded in and out over a second so every part starts and
/// ends at rest), crouched by 6 % of the COM height. Bending forward moves the hips back (the IK
/// keeps the COM centred). The arms swing as in the other motions unless `lock_upper_body`, which
/// welds every joint off the legs at its neutral value (the walk's `--lock-upper-body`), so a model
/// identified with the upper body locked can be validated on it.
Motion trunk_bend_motion(const Model& model, const RobotSidecar& sidecar, const Stance& st, double duration,
                         bool lock_upper_body) {
  Motion m;
  m.duration = duration;
  const double part = duration / 4.0;
  const char* labels[] = {"trunk bends forward", "trunk bends sideways", "trunk twists", "trunk bends and twists"};
  for (int k = 0; k < 4; ++k) m.parts.push_back({labels[k], "trunk-bend", k * part, (k + 1) * part, 0.0, 0.0, "both"});
  const double f = std::max(1.0, std::round(0.5 * part)) / part;  // whole cycles per part [Hz]
  const double fade = std::min(1.0, 0.25 * part);                 // [s]
  // Amplitudes [rad]: within reach of the kid humanoid's hips (yaw ±0.5, roll -0.4..0.7 rad) with
  // both soles flat (the plan's IK check), and small enough that both feet keep a good share of the
  // weight (tests/scenarios/excite_test.cpp).
  constexpr double kForward = 0.3, kSideways = 0.1, kTwist = 0.2;
  constexpr double kCrouch = 0.06;             ///< COM lowered by this fraction of its height
  std::vector<std::pair<int, Vector3>> waist;  // (body, its share of roll, pitch, yaw)
  const VectorX neutral = model.neutral_configuration();
  for (std::size_t i = 1; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    if (b.joint_type == JointType::FreeFlyer || is_leg_joint(model, sidecar, static_cast<int>(i))) continue;
    if (lock_upper_body) {
      m.welds.push_back({static_cast<int>(i), neutral[b.idx_q]});
      continue;
    }
    if (b.joint_name.find("torso") == std::string::npos && b.joint_name.find("waist") == std::string::npos) continue;
    // A waist joint adds half the base's bend about its own axis (named roll, pitch or yaw).
    const Vector3 share(b.joint_name.find("roll") != std::string::npos ? 0.5 : 0.0,
                        b.joint_name.find("pitch") != std::string::npos ? 0.5 : 0.0,
                        b.joint_name.find("yaw") != std::string::npos ? 0.5 : 0.0);
    waist.push_back({static_cast<int>(i), share});
  }
  m.at = [=, &model, &sidecar, welds = m.welds](double time, Target& target) {
    target = Target{};
    target.com = 0.5 * (st.left_sole + st.right_sole).head<2>();
    // A crouch, faded in once: with straight knees the legs cannot move the hips back far enough
    // to keep the COM over the feet while the trunk leans forward.
    target.depth = kCrouch * st.leg * min_jerk(time / fade);
    const int k = std::clamp(static_cast<int>(time / part), 0, 3);
    const double t = time - k * part;
    const double envelope = min_jerk(t / fade) * min_jerk((part - t) / fade);
    const double w = 2.0 * M_PI * f;
    const double bend = 0.5 * (1.0 - std::cos(w * t)), side = std::sin(w * t), twist = std::sin(w * t);
    if (k == 0) target.trunk.y() = kForward * envelope * bend;
    if (k == 1) target.trunk.x() = kSideways * envelope * side;
    if (k == 2) target.trunk.z() = kTwist * envelope * twist;
    if (k == 3)  // all three, each at its own frequency
      target.trunk = envelope * Vector3(kSideways * std::sin(1.25 * w * t),
                                        kForward * 0.5 * (1.0 - std::cos(0.75 * w * t)), kTwist * std::sin(w * t));
    for (const MjcfWeld& weld : welds) target.held_joints.push_back({weld.body, weld.position});
    if (welds.empty()) {
      Target arms;
      upper_body(model, sidecar, st, time, 1.0, arms);
      for (const auto& [body, value] : arms.held_joints) {
        const Body& b = model.bodies[static_cast<std::size_t>(body)];
        double v = value;
        for (const auto& [waist_body, share] : waist)
          if (waist_body == body) {
            const double lo = b.limits.lower, hi = b.limits.upper;
            v = std::clamp(st.q[b.idx_q] + share.dot(target.trunk), lo + 0.05 * (hi - lo), hi - 0.05 * (hi - lo));
          }
        target.held_joints.push_back({body, v});
      }
    }
  };
  return m;
}

/// A Fourier trajectory on a standing robot: its non-leg joints follow it (faded in from the
/// stance over the first second), the legs and base come from IK with the feet planted and the
/// COM over the middle of the feet.
Motion fourier_motion(const Model& model, const RobotSidecar& sidecar, const Stance& st, const FourierTrajectory& traj,
                      double duration) {
  std::vector<std::pair<int, int>> played;  // (body, trajectory row)
  for (int j = 0; j < traj.num_joints(); ++j) {
    const auto body = model.find_joint(traj.joints[static_cast<std::size_t>(j)]);
    if (!body)
      throw std::invalid_argument("joint '" + traj.joints[static_cast<std::size_t>(j)] +
                                  "' of the excitation trajectory is not a joint of " + model.label());
    if (!is_leg_joint(model, sidecar, *body)) played.push_back({*body, j});
  }
  if (played.empty())
    throw std::invalid_argument("the excitation trajectory moves only leg joints; standing on both feet, " +
                                model.label() + " takes its legs from IK (design with --fixed-feet)");
  // The design's locks (held joints off the legs) are welded where the design held them: rigid, as
  // the locked model of the design and of identification. Held legs (a fixed-feet design) come
  // from IK like the other leg joints.
  Motion m;
  std::vector<JointLock> welded;
  for (const JointLock& lock : traj.held) {
    const auto body = model.find_joint(lock.joint);
    if (body && is_leg_joint(model, sidecar, *body)) continue;
    if (std::find(traj.joints.begin(), traj.joints.end(), lock.joint) != traj.joints.end())
      throw std::invalid_argument("joint '" + lock.joint + "' of the excitation trajectory is both moved and held");
    welded.push_back(lock);
    if (body) m.welds.push_back({*body, lock.position});
  }
  (void)lock_joints(model, welded);  // throws naming an unknown joint or a position outside its limits
  m.duration = duration;
  m.parts.push_back({"fourier excitation", "fourier", 0.0, duration, 0.0, 0.0, "both"});
  m.at = [=, &model, welds = m.welds](double time, Target& target) {
    target = Target{};
    target.com = 0.5 * (st.left_sole + st.right_sole).head<2>();
    for (const MjcfWeld& w : welds) target.held_joints.push_back({w.body, w.position});
    const int n = traj.num_joints();
    VectorX q(n), qd(n), qdd(n);
    traj.evaluate(time, q, qd, qdd);
    const double fade = min_jerk(time);
    for (const auto& [body, row] : played) {
      const Body& b = model.bodies[static_cast<std::size_t>(body)];
      const double value = st.q[b.idx_q] + fade * (q[row] - st.q[b.idx_q]);
      target.held_joints.push_back({body, std::clamp(value, b.limits.lower, b.limits.upper)});
    }
  };
  return m;
}

/// The planned reference every kIkPeriod and which foot carries the robot.
struct Plan {
  std::vector<VectorX> q_ref;
  std::vector<double> left_share;  ///< share of the ground reaction on the left foot, from the planned ZMP
};

/// Plans the reference every kIkPeriod with whole-body IK on the nominal model.
Plan plan(Run& run, const Stance& st, const Motion& motion) {
  const Model& nominal = run.robot.model;
  const int samples = static_cast<int>(std::ceil(motion.duration / kIkPeriod)) + 2;
  Plan out;
  std::vector<VectorX>& q_ref = out.q_ref;
  q_ref.reserve(static_cast<std::size_t>(samples));
  std::vector<int> lifted;  // -1: both feet down, 0: left foot lifted, 1: right foot lifted
  VectorX q = st.q;
  Target target;
  for (int i = 0; i < samples; ++i) {
    const double t = i * kIkPeriod;
    motion.at(t, target);
    IkProblem p = ik_problem(st, target);
    VectorX q0 = q;
    for (const auto& [body, value] : target.held_joints) {
      q0[nominal.bodies[static_cast<std::size_t>(body)].idx_q] = value;
      p.locked_joints.push_back(body);
    }
    const IkResult ik = solve_whole_body_ik(nominal, p, q0, 50);
    q = ik.q;
    if (ik.task_error > 1e-2) {  // ~1 mm of COM, 0.1 mm of sole, 0.01 rad of base tilt
      char what[160];
      std::snprintf(what, sizeof what,
                    "cannot plan the excitation for %s: the feet and COM targets at t = %.2f s are out "
                    "of reach (IK residual %.2g)",
                    nominal.label().c_str(), t, ik.task_error);
      throw std::runtime_error(what);
    }
    q_ref.push_back(q);
    lifted.push_back(target.lift_left > 0.0 ? 0 : target.lift_right > 0.0 ? 1 : -1);
    if (i % 500 == 0) run.progress(0.2 * i / samples, "planning the excitation (IK)");
  }
  // Both feet down, the ground reaction is shared as the planned ZMP lies between the sole centres.
  const std::vector<Eigen::Vector2d> zmp = planned_zmp(nominal, q_ref, kIkPeriod);
  const Eigen::Vector2d l = st.left_sole.head<2>(), r = st.right_sole.head<2>();
  for (std::size_t i = 0; i < q_ref.size(); ++i)
    out.left_share.push_back(lifted[i] == 0   ? 0.0
                             : lifted[i] == 1 ? 1.0
                                              : std::clamp((zmp[i] - r).dot(l - r) / (l - r).squaredNorm(), 0.0, 1.0));
  return out;
}

}  // namespace

void check_excite_motion(const Robot& robot, const ScenarioOptions& options) {
  if (!(options.duration_s >= 0.0) || !std::isfinite(options.duration_s))
    throw std::invalid_argument("duration must be a positive number of seconds");
  if (!(options.still_s >= 0.0 && options.still_s <= 600.0))
    throw std::invalid_argument("--still must lie within 0-600 s");
  const std::string& name = options.motion;
  if (options.lock_upper_body && name != "trunk-bend")
    throw std::invalid_argument("--lock-upper-body applies to the excite scenario's trunk-bend motion only");
  if (name == "trunk-bend" && options.duration_s > 0.0 && options.duration_s < 4.0)
    throw std::invalid_argument(
        "trunk-bend needs a duration of at least 4 s (four parts of at least one cycle, "
        "at most 1 Hz)");
  if (name == "paper004" || name == "paper004-squats" || name == "paper004-sway" || name == "evaluation" ||
      name == "fourier" || name == "trunk-bend")
    return;
  if (!std::filesystem::exists(name))
    throw std::invalid_argument(
        "motion '" + name +
        "' is neither paper004, paper004-squats, paper004-sway, evaluation, trunk-bend, fourier nor an existing " +
        "trajectory file");
  Stance st;
  st.q = robot.model.neutral_configuration();
  fourier_motion(robot.model, *robot.sidecar, st, read_fourier_trajectory(name), 1.0);
}

void run_excite(Run& run) {
  const Model& nominal = run.robot.model;
  const RobotSidecar& sidecar = *run.robot.sidecar;
  const auto [left, right] = left_right_soles(nominal, sidecar);
  Stance st;
  st.q = standing_configuration(nominal, sidecar);
  st.left_frame = nominal.frame_index(sidecar.contacts[static_cast<std::size_t>(left)].name);
  st.right_frame = nominal.frame_index(sidecar.contacts[static_cast<std::size_t>(right)].name);
  Data data(nominal);
  forward_kinematics(nominal, data, st.q);
  st.left_sole = frame_placement(nominal, data, st.left_frame).translation;
  st.right_sole = frame_placement(nominal, data, st.right_frame).translation;
  st.com = center_of_mass(nominal, data, st.q);
  st.leg = st.com.z() - std::min(st.left_sole.z(), st.right_sole.z());
  st.size = st.leg / 0.9;

  const std::string& name = run.options.motion;
  const double requested = run.options.duration_s;
  Motion motion;
  if (name == "paper004") {
    motion = paper004_motion(nominal, sidecar, st, requested > 0.0 ? requested : 60.0, true, true);
  } else if (name == "paper004-squats" || name == "paper004-sway") {
    motion = paper004_motion(nominal, sidecar, st, requested > 0.0 ? requested : 30.0, name == "paper004-squats",
                             name == "paper004-sway");
  } else if (name == "evaluation") {
    motion = evaluation_motion(nominal, sidecar, st, requested > 0.0 ? requested : 6.0);
  } else if (name == "trunk-bend") {
    motion = trunk_bend_motion(nominal, sidecar, st, requested > 0.0 ? requested : 16.0, run.options.lock_upper_body);
  } else if (name == "fourier") {
    // A seeded Fourier excitation of the arms, torso and head: `dynid excite`'s first random
    // feasible start, not optimized.
    ExcitationOptions o;
    o.fixed_feet = true;
    o.duration_s = requested > 0.0 ? requested : 10.0;
    o.iterations = 0;
    o.restarts = 1;
    o.seed = run.options.seed;
    o.samples = 50;
    motion = fourier_motion(nominal, sidecar, st, design_excitation(run.robot, o).trajectory, o.duration_s);
  } else {
    const FourierTrajectory traj = read_fourier_trajectory(name);
    motion = fourier_motion(nominal, sidecar, st, traj, requested > 0.0 ? requested : 1.0 / traj.base_frequency_hz);
  }
  run.scene.welds.insert(run.scene.welds.end(), motion.welds.begin(), motion.welds.end());
  const Plan planned = plan(run, st, motion);
  const std::vector<VectorX>& q_ref = planned.q_ref;
  const int samples = static_cast<int>(q_ref.size());
  std::vector<Eigen::Vector2d> zmp_ref = planned_zmp(nominal, q_ref, kIkPeriod);

  run.start(q_ref.front());
  const int lbody = nominal.frames[static_cast<std::size_t>(st.left_frame)].body,
            rbody = nominal.frames[static_cast<std::size_t>(st.right_frame)].body;
  const std::array<Vector3, 2> soles = {st.left_sole, st.right_sole};
  const std::vector<VectorX> tau_ff =
      planned_feedforward(nominal, q_ref, planned.left_share, lbody, rbody, kIkPeriod, &soles);
  BalanceStabilizer stabilizer(nominal, q_ref.front(), {lbody, rbody}, st.leg, run.sim->timestep());
  const double dt = run.sim->timestep();
  const VectorX zero_v = VectorX::Zero(nominal.nv);
  const std::vector<int> both = {left, right};
  run.sim->set_state(run.on_ground(q_ref.front(), both), zero_v);
  // Settle with the stabilizer on (it leans the heavier true robot over its feet), not recorded.
  // Standing, the robot also weighs itself with its foot sensors: the feed-forward torques of the
  // nominal plan are scaled by the measured over the nominal weight.
  const int settle = static_cast<int>(1.0 / dt);
  double measured_weight = 0.0;
  int weighings = 0;
  for (int k = 0; k < settle; ++k) {
    const BalanceMeasurement m = run.measure_balance(both);
    if (2 * k >= settle) {
      for (const Force& w : m.sole_wrenches) measured_weight += w.linear.z();
      ++weighings;
    }
    run.step(stabilizer.correct(q_ref.front(), zmp_ref.front(), m), zero_v, false, &tau_ff.front());
  }
  const double ff_scale = measured_weight / std::max(weighings, 1) / (nominal.total_mass() * nominal.gravity.norm());
  VectorX tau(nominal.nv);
  const double t_record = run.sim->time();
  run.recorder->restart_clocks(t_record);
  // Standing still before the motion, recorded (--still): as the settling, the stabilizer on.
  const int still_steps = static_cast<int>(std::lround(run.options.still_s / dt));
  const VectorX tau_stand = ff_scale * tau_ff.front();
  for (int k = 0; k < still_steps && !run.fell; ++k) {
    run.step(stabilizer.correct(q_ref.front(), zmp_ref.front(), run.measure_balance(both)), zero_v, true, &tau_stand);
    run.track_motion();
  }
  if (still_steps > 0) {
    Segment still;
    still.label = "standing still before the motion";
    still.category = "still";
    still.start = t_record;
    still.end = run.sim->time();
    still.support = "both";
    run.segments.push_back(still);
  }
  const double t0 = run.sim->time();
  const int steps = static_cast<int>(std::lround(motion.duration / dt));
  VectorX qr(nominal.nq), vr(nominal.nv);
  for (int k = 0; k < steps && !run.fell; ++k) {
    const double t = k * dt;
    const int i = std::min(static_cast<int>(t / kIkPeriod), samples - 2);
    const double s = t / kIkPeriod - i;
    // Cubic Hermite between the planned samples with central-difference slopes: position and
    // velocity references are continuous (a velocity reference that jumps every 10 ms makes the
    // stiff servos knock the feet on the ground).
    const VectorX& q0 = q_ref[static_cast<std::size_t>(std::max(i - 1, 0))];
    const VectorX& qa = q_ref[static_cast<std::size_t>(i)];
    const VectorX& qb = q_ref[static_cast<std::size_t>(i + 1)];
    const VectorX& q3 = q_ref[static_cast<std::size_t>(std::min(i + 2, samples - 1))];
    const double h00 = 2 * s * s * s - 3 * s * s + 1, h10 = s * s * s - 2 * s * s + s, h01 = 1 - h00,
                 h11 = s * s * s - s * s;
    const double d00 = 6 * s * s - 6 * s, d10 = 3 * s * s - 4 * s + 1, d11 = 3 * s * s - 2 * s;
    for (Eigen::Index c = 0; c < nominal.nq; ++c) {
      const double ma = 0.5 * (qb[c] - q0[c]), mb = 0.5 * (q3[c] - qa[c]);  // slopes per sample
      qr[c] = h00 * qa[c] + h10 * ma + h01 * qb[c] + h11 * mb;
    }
    for (std::size_t j = 1; j < nominal.bodies.size(); ++j) {
      const Body& b = nominal.bodies[j];
      if (b.joint_type == JointType::FreeFlyer) continue;
      const Eigen::Index c = b.idx_q;
      const double ma = 0.5 * (qb[c] - q0[c]), mb = 0.5 * (q3[c] - qa[c]);
      vr[b.idx_v] = (d00 * qa[c] + d10 * ma - d00 * qb[c] + d11 * mb) / kIkPeriod;
    }
    const Eigen::Vector2d& za = zmp_ref[static_cast<std::size_t>(i)];
    const Eigen::Vector2d& zb = zmp_ref[static_cast<std::size_t>(i + 1)];
    tau = ff_scale * ((1.0 - s) * tau_ff[static_cast<std::size_t>(i)] + s * tau_ff[static_cast<std::size_t>(i + 1)]);
    run.step(stabilizer.correct(qr, za + s * (zb - za), run.measure_balance(both)), vr, true, &tau);
    run.track_motion();
    if (k % 1000 == 0) run.progress(0.2 + 0.8 * k / steps, "excite t = " + std::to_string(t).substr(0, 5) + " s");
  }
  for (Segment seg : motion.parts) {
    seg.start += t0;
    seg.end = std::min(seg.end + t0, run.sim->time());
    if (seg.start < seg.end) run.segments.push_back(seg);
  }
}

}  // namespace dynid::scenario_detail
