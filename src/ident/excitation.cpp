#include "dynid/ident/excitation.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "dynid/dynamics/center_of_mass.hpp"
#include "dynid/dynamics/kinematics.hpp"
#include "dynid/dynamics/regressor.hpp"
#include "dynid/dynamics/rnea.hpp"
#include "dynid/dynamics/sole_contacts.hpp"
#include "dynid/dynamics/whole_body_ik.hpp"
#include "dynid/ident/base_parameters.hpp"
#include "dynid/model/topology.hpp"

namespace dynid {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// What the design optimizes over: the model of the situation (locks applied), its rows and base
/// parameters, the moving joints and their limits, the sample times and the ZMP region.
struct Situation {
  Model model;
  std::vector<int> rows;
  BaseParameters base;
  std::vector<std::string> joint_names;
  std::vector<Eigen::Index> joint_q, joint_v;
  VectorX lower, upper, max_velocity;  ///< usable range (margins applied) and speed bound per joint
  double max_acceleration = 0.0;
  VectorX q_still;  ///< design-model configuration with the base (if any) where it stands
  Eigen::Index base_v = -1;
  bool zmp = false;
  Eigen::Vector2d zmp_center = Eigen::Vector2d::Zero(), zmp_allowed = Eigen::Vector2d::Zero();
  std::vector<double> times;
};

/// Bodies on the way from each sole up to the base: the legs.
std::vector<int> leg_bodies(const Model& model, const RobotSidecar& sidecar) {
  const auto [left, right] = left_right_soles(model, sidecar);
  std::vector<int> legs;
  for (int c : {left, right}) {
    const int frame = model.frame_index(sidecar.contacts[static_cast<std::size_t>(c)].name);
    for_each_support(model, model.frames[static_cast<std::size_t>(frame)].body, [&](int j) {
      if (model.bodies[static_cast<std::size_t>(j)].joint_type != JointType::FreeFlyer) legs.push_back(j);
    });
  }
  return legs;
}

Situation make_situation(const Robot& robot, const ExcitationDesign& d, const ExcitationOptions& o) {
  Situation s;
  s.model = d.held.empty() ? robot.model : lock_joints(robot.model, d.held);
  const Model& m = s.model;
  if (m.floating_base) {
    s.base_v = m.bodies[1].idx_v;
    s.rows = d.sensors == "contact" ? base_link_rows(m) : all_equation_rows(m);
  } else {
    s.rows = all_equation_rows(m);
  }
  s.q_still = m.neutral_configuration();
  if (m.floating_base) s.q_still.segment<7>(m.bodies[1].idx_q) = d.base_configuration;
  const double range_keep = 1.0 - 2.0 * o.position_margin;
  for (std::size_t i = 1; i < m.bodies.size(); ++i) {
    const Body& b = m.bodies[i];
    if (b.joint_type == JointType::FreeFlyer) continue;
    s.joint_names.push_back(b.joint_name);
    s.joint_q.push_back(b.idx_q);
    s.joint_v.push_back(b.idx_v);
  }
  const auto n = static_cast<Eigen::Index>(s.joint_names.size());
  s.lower.resize(n);
  s.upper.resize(n);
  s.max_velocity.resize(n);
  for (Eigen::Index j = 0; j < n; ++j) {
    const Body& b = m.bodies[static_cast<std::size_t>(m.joint_index(s.joint_names[static_cast<std::size_t>(j)]))];
    const double lo = std::isfinite(b.limits.lower) ? b.limits.lower : -M_PI;
    const double hi = std::isfinite(b.limits.upper) ? b.limits.upper : M_PI;
    const double mid = 0.5 * (lo + hi), half = 0.5 * (hi - lo) * range_keep;
    s.lower[j] = mid - half;
    s.upper[j] = mid + half;
    s.max_velocity[j] = o.velocity_fraction * (std::isfinite(b.limits.velocity) ? b.limits.velocity : 5.0);
    if (!(half > 0.0) || !(s.max_velocity[j] > 0.0))
      throw std::invalid_argument("joint '" + b.joint_name + "' of " + m.label() +
                                  " has no room to move within its limits (range " + std::to_string(lo) + " .. " +
                                  std::to_string(hi) + ", velocity limit " + std::to_string(b.limits.velocity) +
                                  ") with a margin of " + std::to_string(o.position_margin));
  }
  s.max_acceleration = o.max_acceleration;

  BaseParameterOptions bo;
  bo.rows = s.rows;
  bo.seed = o.seed;
  // States of the situation: the base where it stands, still; the moving joints anywhere.
  bo.sample_state = [&m, &s](std::mt19937& rng) {
    StateSample st = random_state(m, rng);
    if (m.floating_base) {
      st.q.segment<7>(m.bodies[1].idx_q) = s.q_still.segment<7>(m.bodies[1].idx_q);
      st.v.segment<6>(s.base_v).setZero();
      st.a.segment<6>(s.base_v).setZero();
    }
    return st;
  };
  s.base = compute_base_parameters(m, bo);
  s.base.rows = s.rows;

  const int samples = d.samples;
  for (int k = 0; k < samples; ++k) s.times.push_back(d.duration_s * k / samples);

  if (d.mode == "fixed-feet") {
    // Support polygon: the box around both soles' polygons on the ground (feet side by side).
    Data data(robot.model);
    VectorX q_full = robot.model.neutral_configuration();
    q_full.segment<7>(robot.model.bodies[1].idx_q) = d.base_configuration;
    for (const JointLock& l : d.held)
      q_full[robot.model.bodies[static_cast<std::size_t>(robot.model.joint_index(l.joint))].idx_q] = l.position;
    forward_kinematics(robot.model, data, q_full);
    Eigen::Vector2d lo(kInf, kInf), hi(-kInf, -kInf);
    const auto [left, right] = left_right_soles(robot.model, *robot.sidecar);
    for (int c : {left, right}) {
      const ContactSurface& contact = robot.sidecar->contacts[static_cast<std::size_t>(c)];
      const SE3 pose = frame_placement(robot.model, data, robot.model.frame_index(contact.name));
      // Sole polygon or contact points (their x-y in the sole frame).
      std::vector<Vector3> corners;
      for (const Eigen::Vector2d& p : contact.polygon) corners.push_back(Vector3(p.x(), p.y(), 0.0));
      for (const Vector3& p : contact.points) corners.push_back(Vector3(p.x(), p.y(), 0.0));
      for (const Vector3& p : corners) {
        const Vector3 w = pose.act(p);
        lo = lo.cwiseMin(w.head<2>());
        hi = hi.cwiseMax(w.head<2>());
      }
    }
    if (!(hi.x() > lo.x() && hi.y() > lo.y()))
      throw std::invalid_argument("--fixed-feet: the soles of " + robot.model.label() +
                                  " have no polygon or contact points in the sidecar");
    s.zmp = true;
    s.zmp_center = 0.5 * (lo + hi);
    s.zmp_allowed = 0.5 * (hi - lo) * o.zmp_margin;
  }
  return s;
}

/// Scratch space of one evaluation.
struct Workspace {
  explicit Workspace(const Situation& s)
      : data(s.model),
        q(s.q_still),
        v(VectorX::Zero(s.model.nv)),
        a(VectorX::Zero(s.model.nv)),
        qj(static_cast<Eigen::Index>(s.joint_names.size())),
        vj(qj.size()),
        aj(qj.size()),
        gram(s.base.num_base(), s.base.num_base()) {}
  Data data;
  VectorX q, v, a, qj, vj, aj;
  MatrixX gram, yb;
};

ExcitationMetrics measure(const Situation& s, const FourierTrajectory& traj, Workspace& w) {
  ExcitationMetrics out;
  w.gram.setZero();
  const auto rows = static_cast<Eigen::Index>(s.rows.size());
  for (double t : s.times) {
    traj.evaluate(t, w.qj, w.vj, w.aj);
    for (std::size_t j = 0; j < s.joint_q.size(); ++j) {
      const auto jj = static_cast<Eigen::Index>(j);
      w.q[s.joint_q[j]] = w.qj[jj];
      w.v[s.joint_v[j]] = w.vj[jj];
      w.a[s.joint_v[j]] = w.aj[jj];
    }
    const MatrixX& Y = joint_torque_regressor(s.model, w.data, w.q, w.v, w.a);
    w.yb.resize(rows, s.base.num_base());
    for (Eigen::Index r = 0; r < rows; ++r)
      for (int k = 0; k < s.base.num_base(); ++k)
        w.yb(r, k) = Y(s.rows[static_cast<std::size_t>(r)], s.base.independent[static_cast<std::size_t>(k)]);
    w.gram.selfadjointView<Eigen::Lower>().rankUpdate(w.yb.transpose());
    if (s.zmp) {
      // Wrench the feet must give the still base (base frame, about its origin) -> world -> ZMP.
      const VectorX& tau = rnea(s.model, w.data, w.q, w.v, w.a);
      const SE3& base = w.data.oMi[1];
      const Vector3 f = base.rotation * tau.segment<3>(s.base_v);
      const Vector3 n = base.rotation * tau.segment<3>(s.base_v + 3) + base.translation.cross(f);
      if (f.z() <= 0.0) {
        out.zmp_use = kInf;
      } else {
        const Eigen::Vector2d zmp(-n.y() / f.z(), n.x() / f.z());
        out.zmp_use = std::max(out.zmp_use, ((zmp - s.zmp_center).cwiseAbs().cwiseQuotient(s.zmp_allowed)).maxCoeff());
      }
    }
  }
  Eigen::SelfAdjointEigenSolver<MatrixX> eig(w.gram, Eigen::EigenvaluesOnly);
  const VectorX& lambda = eig.eigenvalues();  // ascending
  const double top = lambda[lambda.size() - 1];
  out.condition_number = lambda[0] > 0.0 ? std::sqrt(top / lambda[0]) : kInf;
  out.log_det = 0.0;
  for (Eigen::Index i = 0; i < lambda.size(); ++i) {
    out.log_det += lambda[i] > 0.0 ? std::log(lambda[i]) : -kInf;
    // sigma > 1e-7 sigma_max: W^T W resolves singular values to ~1e-8 of the largest.
    if (lambda[i] > 1e-14 * top) ++out.rank;
  }
  return out;
}

/// The quantity minimized: log cond or -log det / n, plus a steep penalty outside the ZMP region.
double objective(const ExcitationMetrics& m, const std::string& criterion, int num_base) {
  double f = criterion == "logdet" ? -m.log_det / num_base : std::log(m.condition_number);
  if (!std::isfinite(f)) return 1e30;
  if (m.zmp_use > 1.0) f += 1e3 * (m.zmp_use - 1.0) * (m.zmp_use - 1.0) + 1.0;
  return f;
}

/// Decision vector x = [q0 (n); a (n x N, column-major); b (n x N)].
void unpack(const VectorX& x, FourierTrajectory& traj) {
  const Eigen::Index n = traj.q0.size(), h = traj.a.cols();
  traj.q0 = x.head(n);
  traj.a = Eigen::Map<const MatrixX>(x.data() + n, n, h);
  traj.b = Eigen::Map<const MatrixX>(x.data() + n + n * h, n, h);
}

VectorX pack(const FourierTrajectory& traj) {
  const Eigen::Index n = traj.q0.size(), h = traj.a.cols();
  VectorX x(n + 2 * n * h);
  x.head(n) = traj.q0;
  Eigen::Map<MatrixX>(x.data() + n, n, h) = traj.a;
  Eigen::Map<MatrixX>(x.data() + n + n * h, n, h) = traj.b;
  return x;
}

/// Into the feasible set: each joint's coefficients scaled down until its analytic velocity,
/// acceleration and position bounds fit, then its offset moved so the whole swing is in range.
void make_feasible(const Situation& s, FourierTrajectory& traj) {
  for (int j = 0; j < traj.num_joints(); ++j) {
    const double half_range = 0.5 * (s.upper[j] - s.lower[j]);
    double scale = 1.0;
    const double pos = traj.position_bound(j), vel = traj.velocity_bound(j), acc = traj.acceleration_bound(j);
    if (pos > half_range) scale = std::min(scale, half_range / pos);
    if (vel > s.max_velocity[j]) scale = std::min(scale, s.max_velocity[j] / vel);
    if (acc > s.max_acceleration) scale = std::min(scale, s.max_acceleration / acc);
    // A hair inside, so rounding never puts a bound above its limit.
    if (scale < 1.0) {
      traj.a.row(j) *= scale * (1.0 - 1e-12);
      traj.b.row(j) *= scale * (1.0 - 1e-12);
    }
    const double swing = traj.position_bound(j);
    traj.q0[j] = std::clamp(traj.q0[j], s.lower[j] + swing, s.upper[j] - swing);
  }
}

}  // namespace

VectorX standing_configuration(const Model& model, const RobotSidecar& sidecar) {
  const auto [left, right] = left_right_soles(model, sidecar);
  const int lf = model.frame_index(sidecar.contacts[static_cast<std::size_t>(left)].name);
  const int rf = model.frame_index(sidecar.contacts[static_cast<std::size_t>(right)].name);
  VectorX stand = model.neutral_configuration();
  for (std::size_t i = 1; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    if (b.joint_type != JointType::FreeFlyer && b.joint_name.find("knee") != std::string::npos)
      stand[b.idx_q] = std::clamp(0.35, b.limits.lower, b.limits.upper);
  }
  Data data(model);
  forward_kinematics(model, data, stand);
  const SE3 l0 = frame_placement(model, data, lf), r0 = frame_placement(model, data, rf);
  const double ground = std::min(l0.translation.z(), r0.translation.z());
  IkProblem p;
  p.posture = stand;
  p.frames = {{lf, SE3(Matrix3::Identity(), Vector3(l0.translation.x(), l0.translation.y(), 0.0)), 100.0, true},
              {rf, SE3(Matrix3::Identity(), Vector3(r0.translation.x(), r0.translation.y(), 0.0)), 100.0, true}};
  p.com_target_enabled = true;
  p.com_world =
      Vector3(0.5 * (l0.translation.x() + r0.translation.x()), 0.5 * (l0.translation.y() + r0.translation.y()), 0.0);
  p.com_axes_weight = Vector3(10.0, 10.0, 0.0);
  VectorX q0 = stand;
  q0[model.bodies[1].idx_q + 2] -= ground;
  const IkResult ik = solve_whole_body_ik(model, p, q0);
  if (ik.task_error > 1e-4)
    throw std::runtime_error("cannot find a standing pose of " + model.label() + " on both soles");
  return ik.q;
}

ExcitationDesign design_excitation(const Robot& robot, const ExcitationOptions& o) {
  const Model& model = robot.model;
  if (!(o.duration_s > 0.0) || !std::isfinite(o.duration_s)) throw std::invalid_argument("duration must be positive");
  if (!(o.base_frequency_hz >= 0.0) || !std::isfinite(o.base_frequency_hz))
    throw std::invalid_argument("base frequency must be positive");
  if (o.harmonics < 1 || o.harmonics > 50) throw std::invalid_argument("harmonics must be 1 .. 50");
  if (o.criterion != "cond" && o.criterion != "logdet")
    throw std::invalid_argument("criterion '" + o.criterion + "' is not cond or logdet");
  if (!(o.max_acceleration > 0.0)) throw std::invalid_argument("maximum acceleration must be positive");
  if (!(o.velocity_fraction > 0.0 && o.velocity_fraction <= 1.0))
    throw std::invalid_argument("velocity fraction must lie in (0, 1]");
  if (!(o.position_margin >= 0.0 && o.position_margin < 0.5))
    throw std::invalid_argument("position margin must lie in [0, 0.5)");
  if (!(o.zmp_margin > 0.0 && o.zmp_margin <= 1.0)) throw std::invalid_argument("ZMP margin must lie in (0, 1]");
  if (o.iterations < 0 || o.restarts < 1 || o.samples < 0)
    throw std::invalid_argument("iterations, restarts and samples must not be negative (restarts >= 1)");

  ExcitationDesign d;
  d.criterion = o.criterion;
  d.duration_s = o.duration_s;
  d.zmp_margin = o.zmp_margin;
  d.held = o.locks;
  if (!model.floating_base) {
    if (o.fixed_feet)
      throw std::invalid_argument(model.label() + " has a fixed base: --fixed-feet needs a floating robot");
    d.mode = "fixed-base";
    d.sensors = o.sensors.empty() ? "full" : o.sensors;
    if (d.sensors == "contact")
      throw std::invalid_argument(model.label() +
                                  " has a fixed base: it has no contact (base-link) equations; use --sensors full");
  } else {
    d.sensors = o.sensors.empty() ? "contact" : o.sensors;
    d.base_configuration = model.neutral_configuration().segment<7>(model.bodies[1].idx_q);
    d.mode = "base-held";
    if (o.fixed_feet) {
      if (!robot.sidecar || robot.sidecar->contacts.size() < 2)
        throw std::invalid_argument("--fixed-feet needs two sole contacts in the sidecar of " + model.label());
      d.mode = "fixed-feet";
      const VectorX stand = standing_configuration(model, *robot.sidecar);
      d.base_configuration = stand.segment<7>(model.bodies[1].idx_q);
      for (int body : leg_bodies(model, *robot.sidecar)) {
        const Body& b = model.bodies[static_cast<std::size_t>(body)];
        for (const JointLock& l : o.locks)
          if (l.joint == b.joint_name)
            throw std::invalid_argument("joint '" + l.joint + "' is in a leg: --fixed-feet already holds it");
        d.held.push_back({b.joint_name, stand[b.idx_q]});
      }
    }
  }
  if (d.sensors != "contact" && d.sensors != "full")
    throw std::invalid_argument("sensors '" + d.sensors + "' is not contact or full");

  // Samples need the base-parameter count: a first situation with a provisional count.
  d.samples = std::max(o.samples, 1);
  Situation s = make_situation(robot, d, o);
  if (s.joint_names.empty()) throw std::invalid_argument("no joint of " + model.label() + " is left to move");
  const int nb = s.base.num_base();
  const auto rows = static_cast<int>(s.rows.size());
  d.samples = o.samples > 0 ? o.samples : std::max(100, (4 * nb + rows - 1) / rows);
  s.times.clear();
  for (int k = 0; k < d.samples; ++k) s.times.push_back(d.duration_s * k / d.samples);
  d.num_base_parameters = nb;

  FourierTrajectory traj;
  traj.base_frequency_hz = o.base_frequency_hz > 0.0 ? o.base_frequency_hz : 1.0 / o.duration_s;
  traj.joints = s.joint_names;
  const auto n = static_cast<Eigen::Index>(traj.joints.size());
  traj.q0.resize(n);
  for (Eigen::Index j = 0; j < n; ++j) traj.q0[j] = s.q_still[s.joint_q[static_cast<std::size_t>(j)]];
  Workspace w(s);

  // Random feasible starts: velocity amplitudes spread over the harmonics, scaled into the limits.
  std::mt19937 rng(o.seed);
  std::normal_distribution<double> gauss(0.0, 1.0);
  const VectorX q_start = traj.q0;
  FourierTrajectory best = traj;
  double best_f = kInf;
  for (int r = 0; r < o.restarts; ++r) {
    FourierTrajectory cand = traj;
    cand.q0 = q_start;
    cand.a.resize(n, o.harmonics);
    cand.b.resize(n, o.harmonics);
    for (Eigen::Index j = 0; j < n; ++j)
      for (int l = 0; l < o.harmonics; ++l) {
        cand.a(j, l) = gauss(rng) * s.max_velocity[j];
        cand.b(j, l) = gauss(rng) * s.max_velocity[j];
      }
    make_feasible(s, cand);
    ExcitationMetrics m = measure(s, cand, w);
    // A start that leaves the ZMP region is shrunk until it stays inside.
    for (int shrink = 0; shrink < 20 && m.zmp_use > 1.0; ++shrink) {
      cand.a *= 0.7;
      cand.b *= 0.7;
      make_feasible(s, cand);
      m = measure(s, cand, w);
    }
    if (r == 0) d.initial = m;
    const double f = objective(m, o.criterion, nb);
    if (f < best_f) {
      best_f = f;
      best = cand;
      d.best_random = m;
    }
  }

  // Projected gradient in scaled variables (offsets per radian of range, coefficients per rad/s of
  // the speed bound), forward differences, backtracking step.
  VectorX x = pack(best);
  VectorX scale(x.size());
  for (Eigen::Index j = 0; j < n; ++j) {
    scale[j] = s.upper[j] - s.lower[j];
    for (int l = 0; l < o.harmonics; ++l) {
      scale[n + l * n + j] = s.max_velocity[j];
      scale[n + n * o.harmonics + l * n + j] = s.max_velocity[j];
    }
  }
  FourierTrajectory trial = best;
  double f = best_f, step = 0.05;
  VectorX grad(x.size()), xt(x.size());
  for (int it = 0; it < o.iterations; ++it) {
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      const double h = 1e-6 * scale[i];
      xt = x;
      xt[i] += h;
      unpack(xt, trial);
      grad[i] = (objective(measure(s, trial, w), o.criterion, nb) - f) / h * scale[i];
    }
    const double gnorm = grad.norm();
    if (!(gnorm > 0.0) || !std::isfinite(gnorm)) break;
    bool improved = false;
    for (int tries = 0; tries < 12 && !improved; ++tries, step *= 0.5) {
      xt = x - step * (grad / gnorm).cwiseProduct(scale);
      unpack(xt, trial);
      make_feasible(s, trial);
      const double ft = objective(measure(s, trial, w), o.criterion, nb);
      if (ft < f) {
        x = pack(trial);
        f = ft;
        improved = true;
      }
    }
    d.iterations = it + 1;
    if (improved) step = std::min(4.0 * step, 0.5);
    unpack(x, best);
    if (o.progress) o.progress(it + 1, measure(s, best, w).condition_number, improved ? "" : "no further descent");
    if (!improved) break;
  }
  unpack(x, best);
  d.trajectory = best;
  d.trajectory.held = d.held;
  d.optimized = measure(s, best, w);
  return d;
}

ExcitationMetrics evaluate_excitation(const Robot& robot, const ExcitationDesign& design,
                                      const FourierTrajectory& traj) {
  ExcitationOptions o;
  o.zmp_margin = design.zmp_margin;
  Situation s = make_situation(robot, design, o);
  Workspace w(s);
  return measure(s, traj, w);
}

}  // namespace dynid
