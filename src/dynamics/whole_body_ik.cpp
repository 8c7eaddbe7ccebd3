#include "dynid/dynamics/whole_body_ik.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Geometry>

#include "dynid/dynamics/center_of_mass.hpp"
#include "dynid/dynamics/jacobian.hpp"
#include "dynid/spatial/explog.hpp"

namespace dynid {

namespace {

int task_rows(const Model&, const IkProblem& p) {
  int rows = 0;
  for (const FrameTarget& f : p.frames) rows += f.orientation ? 6 : 3;
  if (p.com_target_enabled) rows += 3;
  if (p.base_orientation_enabled) rows += 3;
  return rows;
}

/// Weighted residual of the frame, COM and base tasks at q.
double task_residual(const Model& model, const IkProblem& p, const VectorX& q, Data& data) {
  forward_kinematics(model, data, q);
  double sum = 0.0;
  for (const FrameTarget& f : p.frames) {
    const SE3 M = frame_placement(model, data, f.frame);
    sum += f.weight * (f.pose_world.translation - M.translation).squaredNorm();
    if (f.orientation) sum += f.weight * log3(f.pose_world.rotation * M.rotation.transpose()).squaredNorm();
  }
  if (p.com_target_enabled) {
    center_of_mass(model, data, q);
    sum += (p.com_world - data.com).cwiseAbs2().dot(p.com_axes_weight);
  }
  if (p.base_orientation_enabled)
    sum += p.base_orientation_weight * log3(p.base_orientation_world * data.oMi[1].rotation.transpose()).squaredNorm();
  return std::sqrt(sum);
}

void clamp_to_limits(const Model& model, VectorX& q) {
  for (std::size_t i = 1; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    if (b.joint_type == JointType::FreeFlyer) continue;
    q[b.idx_q] = std::clamp(q[b.idx_q], b.limits.lower, b.limits.upper);
  }
}

}  // namespace

IkResult solve_whole_body_ik(const Model& model, const IkProblem& problem, const VectorX& q0, int max_iterations,
                             double tolerance) {
  Data data(model);
  const int rows = task_rows(model, problem);
  const int nv = model.nv;
  std::vector<bool> locked(static_cast<std::size_t>(nv), false);
  for (int b : problem.locked_joints) {
    const Body& body = model.bodies[static_cast<std::size_t>(b)];
    for (int k = 0; k < body.nv; ++k) locked[static_cast<std::size_t>(body.idx_v + k)] = true;
  }
  MatrixX J(rows, nv);
  VectorX e(rows), w(rows);
  Matrix6X Jf(6, nv);
  Eigen::Matrix<double, 3, Eigen::Dynamic> Jc(3, nv);
  IkResult result{q0, false, 0, 0.0};
  VectorX& q = result.q;
  clamp_to_limits(model, q);
  double damping = 1e-9;
  // Two phases: with the posture pull (picks a natural solution), then with the pull almost off,
  // so the tasks are met exactly instead of traded against the posture.
  for (int it = 0; it < 2 * max_iterations; ++it) {
    const bool refine = it >= max_iterations || result.converged;
    const double posture_weight = refine ? problem.posture_weight * 1e-6 : problem.posture_weight;
    result.iterations = it + 1;
    forward_kinematics(model, data, q);
    int r = 0;
    for (const FrameTarget& f : problem.frames) {
      const SE3 M = frame_placement(model, data, f.frame);
      frame_jacobian(model, data, f.frame, ReferenceFrame::LocalWorldAligned, Jf);
      J.middleRows(r, 3) = Jf.topRows<3>();
      e.segment<3>(r) = f.pose_world.translation - M.translation;
      w.segment<3>(r).setConstant(f.weight);
      r += 3;
      if (f.orientation) {
        J.middleRows(r, 3) = Jf.bottomRows<3>();
        e.segment<3>(r) = log3(f.pose_world.rotation * M.rotation.transpose());
        w.segment<3>(r).setConstant(f.weight);
        r += 3;
      }
    }
    if (problem.com_target_enabled) {
      center_of_mass(model, data, q);
      com_jacobian(model, data, Jc);
      J.middleRows(r, 3) = Jc;
      e.segment<3>(r) = problem.com_world - data.com;
      w.segment<3>(r) = problem.com_axes_weight;
      r += 3;
    }
    if (problem.base_orientation_enabled) {
      // The base body's angular velocity in world axes is R * w_body: columns 3..5 of the base.
      J.middleRows(r, 3).setZero();
      J.block<3, 3>(r, model.bodies[1].idx_v + 3) = data.oMi[1].rotation;
      e.segment<3>(r) = log3(problem.base_orientation_world * data.oMi[1].rotation.transpose());
      w.segment<3>(r).setConstant(problem.base_orientation_weight);
      r += 3;
    }

    // Normal equations with posture regularization: (J^T W J + (lambda + mu) I) dq = J^T W e + mu (q_ref - q).
    MatrixX H = J.transpose() * w.asDiagonal() * J;
    VectorX g = J.transpose() * w.asDiagonal() * e;
    for (std::size_t i = 1; i < model.bodies.size(); ++i) {
      const Body& b = model.bodies[i];
      if (b.joint_type == JointType::FreeFlyer || problem.posture.size() != model.nq) continue;
      g[b.idx_v] += posture_weight * (problem.posture[b.idx_q] - q[b.idx_q]);
    }
    H.diagonal().array() += posture_weight + damping;
    for (int i = 0; i < nv; ++i) {
      if (!locked[static_cast<std::size_t>(i)]) continue;
      H.row(i).setZero();
      H.col(i).setZero();
      H(i, i) = 1.0;
      g[i] = 0.0;
    }
    const VectorX dq = H.ldlt().solve(g);
    VectorX q_next(model.nq);
    integrate(model, q, dq, q_next);
    clamp_to_limits(model, q_next);
    q = q_next;
    if (dq.norm() < tolerance) {
      if (refine && result.converged) break;
      if (!refine) result.converged = true;
    }
  }
  result.task_error = task_residual(model, problem, q, data);
  return result;
}

}  // namespace dynid
