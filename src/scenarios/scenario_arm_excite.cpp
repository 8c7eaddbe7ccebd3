// `excite` on a fixed-base arm (models/arm7.urdf): every joint on a Fourier excitation within its
// limits (`dynid excite`'s design, or a trajectory file), tracked by computed torque of the
// nominal model plus a PD loop, on the true arm with its joint friction and rotor inertia: the
// data set an arm's identification with `--friction --armature` starts from.

#include <filesystem>
#include <random>
#include <sstream>

#include "dynid/core/atomic_file.hpp"
#include "dynid/core/number_format.hpp"
#include "dynid/dynamics/rnea.hpp"
#include "dynid/ident/excitation.hpp"
#include "scenario_run.hpp"

namespace dynid::scenario_detail {
namespace {

constexpr double kFadeIn = 1.0;             ///< [s] from rest to the trajectory, not recorded
constexpr double kCoulombSmoothing = 0.02;  ///< [rad/s] the simulated Coulomb friction's tanh scale
constexpr double kServoHz = 8.0;            ///< PD bandwidth [Hz] about the computed torque

/// Smooth 0 -> 1 over [0, 1] and its first two derivatives (zero at both ends).
Vector3 min_jerk(double s) {
  if (s <= 0.0) return Vector3::Zero();
  if (s >= 1.0) return Vector3(1.0, 0.0, 0.0);
  return Vector3(s * s * s * (10.0 - 15.0 * s + 6.0 * s * s), 30.0 * s * s * (1.0 - s) * (1.0 - s),
                 60.0 * s * (1.0 - s) * (1.0 - 2.0 * s));
}

/// The true arm's joint friction and armature: the sidecar's values, each off by a seeded
/// factor (viscous and Coulomb +-30 %, armature +-20 %), as a real arm differs from its datasheet.
std::vector<ActuatorInfo> true_actuators(const Model& model, const RobotSidecar& sidecar, unsigned seed) {
  std::mt19937 rng(seed ^ 0x5eedf00du);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const std::vector<double> armature = joint_armature(model, sidecar);
  std::vector<ActuatorInfo> out;
  for (std::size_t i = 1; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    if (b.joint_type == JointType::FreeFlyer) continue;
    ActuatorInfo a;
    a.joint = b.joint_name;
    for (const ActuatorInfo& s : sidecar.actuators)
      if (s.joint == b.joint_name) {
        a.damping = s.damping.value_or(0.0) * (1.0 + 0.3 * u(rng));
        a.coulomb_friction = s.coulomb_friction.value_or(0.0) * (1.0 + 0.3 * u(rng));
      }
    a.armature = armature[i] * (1.0 + 0.2 * u(rng));
    out.push_back(a);
  }
  return out;
}

/// truth.yaml next to truth.urdf: a sidecar of the true arm whose actuators are the simulated
/// joints' friction and armature (what `identify inertial --truth` compares the estimates with).
std::string truth_sidecar_yaml(const RobotSidecar& sidecar, const std::vector<ActuatorInfo>& actuators) {
  std::ostringstream y;
  y << "# The simulated (true) arm's joint friction and armature, written by dynid simulate.\n"
    << "# Coulomb friction acts as coulomb_friction * tanh(v / " << format_exact(kCoulombSmoothing)
    << " rad/s) (docs/scenarios.md).\n"
    << "robot: " << sidecar.robot << "\nbase_link: " << sidecar.base_link << "\nfloating_base: false\n"
    << "joint_torque_sensors: [";
  for (std::size_t i = 0; i < sidecar.joint_torque_sensors.size(); ++i)
    y << (i ? ", " : "") << sidecar.joint_torque_sensors[i];
  y << "]\njoint_torque_side: " << (sidecar.joint_torque_at_motor ? "motor" : "link") << "\nactuators:\n";
  for (const ActuatorInfo& a : actuators)
    y << "  - joint: " << a.joint << "\n    damping: " << format_exact(*a.damping)
      << "\n    coulomb_friction: " << format_exact(*a.coulomb_friction)
      << "\n    armature: " << format_exact(*a.armature) << "\n";
  return y.str();
}

}  // namespace

void check_arm_excite(const Robot& robot, const ScenarioOptions& options) {
  if (!(options.duration_s >= 0.0) || !std::isfinite(options.duration_s))
    throw std::invalid_argument("duration must be a positive number of seconds");
  if (robot.model.nv == 0) throw std::invalid_argument(robot.model.label() + " has no joint to excite");
  const std::string& name = options.motion;
  if (name == "paper004" || name == "fourier") return;  // paper004 is the default: the arm's is fourier
  if (!std::filesystem::exists(name))
    throw std::invalid_argument("motion '" + name + "' is neither fourier nor an existing trajectory file (" +
                                robot.model.label() + " has a fixed base: paper 004's motions need legs)");
  const FourierTrajectory traj = read_fourier_trajectory(name);
  for (const std::string& j : traj.joints)
    if (!robot.model.find_joint(j))
      throw std::invalid_argument("joint '" + j + "' of the excitation trajectory is not a joint of " +
                                  robot.model.label());
}

void run_arm_excite(Run& run) {
  const Model& nominal = run.robot.model;
  const RobotSidecar& sidecar = *run.robot.sidecar;
  const ScenarioOptions& o = run.options;
  FourierTrajectory traj;
  double duration = o.duration_s;
  if (o.motion == "paper004" || o.motion == "fourier") {
    // dynid excite's design for the fixed base (all joint torque rows), a short optimisation.
    ExcitationOptions e;
    e.duration_s = duration > 0.0 ? duration : 20.0;
    e.sensors = "full";
    e.seed = o.seed;
    e.restarts = 4;
    e.iterations = 10;
    e.samples = 200;
    run.progress(0.0, "designing the excitation");
    traj = design_excitation(run.robot, e).trajectory;
    duration = e.duration_s;
  } else {
    traj = read_fourier_trajectory(o.motion);
    if (!(duration > 0.0)) duration = 1.0 / traj.base_frequency_hz;
  }
  std::vector<int> row_of(nominal.bodies.size(), -1);  // trajectory row per body, -1: held at 0
  for (int r = 0; r < traj.num_joints(); ++r)
    row_of[static_cast<std::size_t>(*nominal.find_joint(traj.joints[static_cast<std::size_t>(r)]))] = r;

  // The true arm: truth model (make_true_model) and true joint friction and armature.
  const std::vector<ActuatorInfo> truth_actuators = true_actuators(nominal, sidecar, o.seed);
  run.truth_sidecar = sidecar;
  run.truth_sidecar->actuators = truth_actuators;
  run.scene.joint_viscous.assign(nominal.bodies.size(), 0.0);
  run.scene.joint_coulomb.assign(nominal.bodies.size(), 0.0);
  run.scene.joint_coulomb_smoothing_velocity = kCoulombSmoothing;
  for (const ActuatorInfo& a : truth_actuators) {
    const std::size_t b = static_cast<std::size_t>(*nominal.find_joint(a.joint));
    run.scene.joint_viscous[b] = *a.damping;
    run.scene.joint_coulomb[b] = *a.coulomb_friction;
  }
  // Noise-free encoders with the truth stream's digits (StreamRates::encoder_digits), so the sensor
  // path's exactness shows to 1e-7 rather than to the rounding of the file.
  if (o.noise == NoiseLevel::None) run.rates_.encoder_digits = 12;
  run.start_simulation();
  write_file_atomically(o.out_dir + "/truth.yaml", truth_sidecar_yaml(sidecar, truth_actuators));

  // Controller: computed torque of the nominal model with the nominal (sidecar) friction and
  // armature, plus a PD loop of kServoHz bandwidth on each joint's nominal inertia at the zero pose.
  const std::vector<double> armature = joint_armature(nominal, sidecar);
  VectorX viscous = VectorX::Zero(nominal.nv), coulomb = VectorX::Zero(nominal.nv), rotor = VectorX::Zero(nominal.nv);
  for (std::size_t i = 1; i < nominal.bodies.size(); ++i) {
    const Body& b = nominal.bodies[i];
    rotor[b.idx_v] = armature[i];
    for (const ActuatorInfo& a : sidecar.actuators)
      if (a.joint == b.joint_name) {
        viscous[b.idx_v] = a.damping.value_or(0.0);
        coulomb[b.idx_v] = a.coulomb_friction.value_or(0.0);
      }
  }
  Data data(nominal);
  VectorX kp(nominal.nv), kd(nominal.nv);
  {
    const VectorX zero = VectorX::Zero(nominal.nv);
    const double w = 2.0 * M_PI * kServoHz;
    for (Eigen::Index j = 0; j < nominal.nv; ++j) {
      VectorX unit = zero;
      unit[j] = 1.0;
      const double inertia = rnea(nominal, data, nominal.neutral_configuration(), zero, unit)[j] -
                             rnea(nominal, data, nominal.neutral_configuration(), zero, zero)[j] + rotor[j];
      kp[j] = inertia * w * w;
      kd[j] = 2.0 * inertia * w;
    }
  }
  const int n = traj.num_joints();
  VectorX tq(n), tv(n), ta(n);
  VectorX q_ref = nominal.neutral_configuration(), v_ref = VectorX::Zero(nominal.nv), a_ref = v_ref;
  traj.evaluate(0.0, tq, tv, ta);
  const VectorX start = tq;
  // Reference at time t [s] from the start: faded in from rest at the trajectory's start over
  // kFadeIn, then the trajectory itself from its t = 0.
  auto reference = [&](double t) {
    const bool fading = t < kFadeIn;
    traj.evaluate(fading ? 0.0 : t - kFadeIn, tq, tv, ta);
    const Vector3 s = fading ? min_jerk(t / kFadeIn) : Vector3(1.0, 0.0, 0.0);
    for (std::size_t i = 1; i < nominal.bodies.size(); ++i) {
      const Body& b = nominal.bodies[i];
      const int r = row_of[i];
      if (r < 0) continue;
      // During the fade the trajectory's start pose is approached from the zero pose.
      const double d = start[r] - 0.0;
      q_ref[b.idx_q] = fading ? s[0] * d : tq[r];
      v_ref[b.idx_v] = fading ? s[1] * d / kFadeIn : tv[r];
      a_ref[b.idx_v] = fading ? s[2] * d / (kFadeIn * kFadeIn) : ta[r];
    }
  };
  VectorX tau(nominal.nv);
  const double dt = run.sim->timestep();
  const int fade_steps = static_cast<int>(std::lround(kFadeIn / dt));
  const int steps = fade_steps + static_cast<int>(std::lround(duration / dt));
  double tracking_sq = 0.0, max_error = 0.0;
  long tracked = 0;
  double t0 = 0.0;
  for (int k = 0; k < steps; ++k) {
    const bool record = k >= fade_steps;
    if (k == fade_steps) {
      t0 = run.sim->time();
      run.recorder->restart_clocks(t0);
    }
    reference(k * dt);
    const VectorX& q = run.sim->q();
    const VectorX& v = run.sim->v();
    tau = rnea(nominal, data, q_ref, v_ref, a_ref);
    for (Eigen::Index j = 0; j < nominal.nv; ++j) {
      tau[j] += rotor[j] * a_ref[j] + viscous[j] * v_ref[j] + coulomb[j] * std::tanh(v_ref[j] / kCoulombSmoothing) +
                kp[j] * (q_ref[j] - q[j]) + kd[j] * (v_ref[j] - v[j]);
      if (record) {
        tracking_sq += (q_ref[j] - q[j]) * (q_ref[j] - q[j]);
        max_error = std::max(max_error, std::abs(q_ref[j] - q[j]));
      }
    }
    tracked += record ? nominal.nv : 0;
    run.sim->forward(tau);
    run.recorder->record(*run.sim, tau, record);
    run.sim->integrate();
    run.simulated = run.sim->time() - t0;
    if (k % 1000 == 0)
      run.progress(static_cast<double>(k) / steps, "excite t = " + std::to_string(k * dt).substr(0, 5) + " s");
  }
  run.simulated = run.sim->time() - t0;
  run.segments.push_back({"fourier excitation", "fourier", t0, run.sim->time(), 0.0, 0.0, ""});
  run.extras.push_back({"tracking_rms_rad", std::sqrt(tracking_sq / std::max<long>(tracked, 1))});
  run.extras.push_back({"tracking_max_rad", max_error});
  run.extras.push_back({"coulomb_smoothing_velocity", kCoulombSmoothing});
  run.extras.push_back({"excitation_base_frequency_hz", traj.base_frequency_hz});
}

}  // namespace dynid::scenario_detail
