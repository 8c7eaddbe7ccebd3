#include "dynid/mocap/marker_ik.hpp"

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "dynid/dynamics/jacobian.hpp"
#include "dynid/dynamics/joint_motion.hpp"
#include "dynid/dynamics/kinematics.hpp"
#include "dynid/model/topology.hpp"

namespace dynid {

std::vector<ModelMarker> model_markers(const Model& model) {
  std::vector<ModelMarker> out;
  for (const Frame& f : model.frames)
    if (f.kind == FrameKind::Marker) out.push_back({f.name, f.body, f.placement.translation, 1.0});
  return out;
}

MarkerIk::MarkerIk(const Model& model, std::vector<ModelMarker> markers, MarkerIkOptions options)
    : model_(model), markers_(std::move(markers)), options_(options), data_(model) {
  if (markers_.empty()) throw std::invalid_argument(model.label() + ": marker IK needs markers (sidecar `markers`)");
  for (const ModelMarker& m : markers_)
    if (m.body < 0 || m.body >= static_cast<int>(model.bodies.size()) || !(m.weight >= 0.0))
      throw std::invalid_argument("marker '" + m.name + "': body index or weight out of range");
  const Eigen::Index rows = 3 * static_cast<Eigen::Index>(markers_.size());
  J_.setZero(rows, model.nv);
  residual_.setZero(rows);
  weights_.setZero(rows);
  active_.assign(markers_.size(), 0);
  for (const ModelMarker& m : markers_) {
    support_begin_.push_back(static_cast<int>(support_.size()));
    const std::size_t first = support_.size();
    for_each_support(model, m.body, [&](int j) {
      const Body& b = model.bodies[static_cast<std::size_t>(j)];
      for (int k = 0; k < b.nv; ++k) support_.push_back(b.idx_v + k);
    });
    std::sort(support_.begin() + static_cast<std::ptrdiff_t>(first), support_.end());
  }
  support_begin_.push_back(static_cast<int>(support_.size()));
  S_linear_.setZero(3, model.nv);
  S_angular_.setZero(3, model.nv);
  normal_.setZero(model.nv, model.nv);
  H_.setZero(model.nv, model.nv);
  gradient_.setZero(model.nv);
  step_.setZero(model.nv);
  rhs_.setZero(model.nv);
  q_trial_.setZero(model.nq);
  diag_.setZero(model.nv);
  held_.assign(static_cast<std::size_t>(model.nv), 0);
  ldlt_ = Eigen::LDLT<MatrixX>(model.nv);
}

void MarkerIk::set_offsets(const std::vector<Vector3>& offsets) {
  if (offsets.size() != markers_.size()) throw std::invalid_argument("marker offsets: wrong count");
  for (std::size_t m = 0; m < offsets.size(); ++m) markers_[m].offset = offsets[m];
}

void MarkerIk::clamp_to_limits(Eigen::Ref<VectorX> q) const {
  if (!options_.joint_limits) return;
  for (std::size_t i = 1; i < model_.bodies.size(); ++i) {
    const Body& b = model_.bodies[i];
    if (b.joint_type != JointType::Revolute && b.joint_type != JointType::Prismatic) continue;
    q[b.idx_q] = std::clamp(q[b.idx_q], b.limits.lower, b.limits.upper);
  }
}

// Weighted squared error at q; with `jacobian`, also J, residual and weights at q.
double MarkerIk::evaluate(const Eigen::Ref<const Eigen::Matrix3Xd>& measured, const Eigen::Ref<const VectorX>& q,
                          bool jacobian) {
  forward_kinematics(model_, data_, q);
  if (jacobian)  // every joint's subspace in the world frame once, shared by the markers it moves
    for (std::size_t j = 1; j < model_.bodies.size(); ++j) {
      const Body& b = model_.bodies[j];
      for (int k = 0; k < b.nv; ++k) {
        const Motion S = data_.oMi[j].act(joint::subspace_column(b, k));
        S_linear_.col(b.idx_v + k) = S.linear;
        S_angular_.col(b.idx_v + k) = S.angular;
      }
    }
  double cost = 0.0;
  used_ = 0;
  max_distance_ = 0.0;
  sum_squared_ = 0.0;
  for (std::size_t m = 0; m < markers_.size(); ++m) {
    const Eigen::Index r = 3 * static_cast<Eigen::Index>(m);
    const ModelMarker& mk = markers_[m];
    const auto y = measured.col(static_cast<Eigen::Index>(m));
    if (!y.allFinite() || mk.weight == 0.0) {
      if (jacobian) {
        active_[m] = 0;
        residual_.segment<3>(r).setZero();
        weights_.segment<3>(r).setZero();
      }
      continue;
    }
    const Vector3 p = data_.oMi[static_cast<std::size_t>(mk.body)].act(mk.offset);
    const Vector3 e = y - p;
    cost += mk.weight * e.squaredNorm();
    sum_squared_ += e.squaredNorm();
    max_distance_ = std::max(max_distance_, e.norm());
    ++used_;
    if (jacobian) {
      residual_.segment<3>(r) = e;
      weights_.segment<3>(r).setConstant(mk.weight);
      active_[m] = 1;
      // The point Jacobian (point_jacobian) column by column: S_linear + S_angular x p.
      for (int i = support_begin_[m]; i < support_begin_[m + 1]; ++i) {
        const int c = support_[static_cast<std::size_t>(i)];
        J_.block<3, 1>(r, c) = S_linear_.col(c) + S_angular_.col(c).cross(p);
      }
    }
  }
  return cost;
}

void MarkerIk::normal_equations() {
  normal_.setZero();
  gradient_.setZero();
  for (std::size_t m = 0; m < markers_.size(); ++m) {
    if (!active_[m]) continue;
    const Eigen::Index r = 3 * static_cast<Eigen::Index>(m);
    const double w = markers_[m].weight;
    const int begin = support_begin_[m], end = support_begin_[m + 1];
    for (int a = begin; a < end; ++a) {
      const int ca = support_[static_cast<std::size_t>(a)];
      const Vector3 wJa = w * J_.block<3, 1>(r, ca);
      gradient_[ca] += wJa.dot(residual_.segment<3>(r));
      for (int b = a; b < end; ++b) {
        const int cb = support_[static_cast<std::size_t>(b)];
        normal_(cb, ca) += wJa.dot(J_.block<3, 1>(r, cb));  // cb >= ca: the lower triangle
      }
    }
  }
  normal_.triangularView<Eigen::StrictlyUpper>() = normal_.transpose();
}

MarkerIkFrame MarkerIk::solve(const Eigen::Ref<const Eigen::Matrix3Xd>& measured, Eigen::Ref<VectorX> q) {
  if (measured.cols() != static_cast<Eigen::Index>(markers_.size()))
    throw std::invalid_argument("marker IK: frame has " + std::to_string(measured.cols()) + " markers, expected " +
                                std::to_string(markers_.size()));
  MarkerIkFrame out;
  q_trial_ = q;
  clamp_to_limits(q_trial_);
  q = q_trial_;
  double cost = evaluate(measured, q_trial_, true);
  out.markers_used = used_;
  if (used_ < 3) return out;
  double lambda = options_.initial_damping;
  const double sum_weights = weights_.sum() / 3.0;
  for (int it = 0; it < options_.max_iterations; ++it) {
    out.iterations = it + 1;
    normal_equations();
    diag_ = normal_.diagonal();
    for (std::size_t k = 0; k < held_.size(); ++k)
      held_[k] = options_.base_only && !(model_.floating_base && k < 6) ? 1 : 0;
    bool accepted = false;
    double new_cost = cost;
    // Up to a few damping increases per iteration; each trial re-solves with the held joints.
    for (int trial = 0; trial < 12 && !accepted; ++trial) {
      for (int pass = 0; pass < 2; ++pass) {
        H_ = normal_;
        H_.diagonal() = diag_ * (1.0 + lambda) + VectorX::Constant(model_.nv, 1e-12 * (1.0 + diag_.maxCoeff()));
        for (int k = 0; k < model_.nv; ++k)
          if (held_[static_cast<std::size_t>(k)]) {
            H_.row(k).setZero();
            H_.col(k).setZero();
            H_(k, k) = 1.0;
          }
        rhs_ = gradient_;
        for (int k = 0; k < model_.nv; ++k)
          if (held_[static_cast<std::size_t>(k)]) rhs_[k] = 0.0;
        ldlt_.compute(H_);
        step_ = ldlt_.solve(rhs_);  // into a separate vector: LDLT::solveInPlace makes a temporary
        // Hold joints sitting at a limit that the step pushes further out, then solve again.
        bool newly_held = false;
        if (options_.joint_limits)
          for (std::size_t i = 1; i < model_.bodies.size(); ++i) {
            const Body& b = model_.bodies[i];
            if (b.joint_type != JointType::Revolute && b.joint_type != JointType::Prismatic) continue;
            const double v = q[b.idx_q];
            const double s = step_[b.idx_v];
            if ((v <= b.limits.lower && s < 0.0) || (v >= b.limits.upper && s > 0.0)) {
              if (!held_[static_cast<std::size_t>(b.idx_v)]) newly_held = true;
              held_[static_cast<std::size_t>(b.idx_v)] = 1;
            }
          }
        if (!newly_held) break;
      }
      integrate(model_, q, step_, q_trial_);
      clamp_to_limits(q_trial_);
      new_cost = evaluate(measured, q_trial_, false);
      if (new_cost <= cost) {
        accepted = true;
        lambda = std::max(lambda * 0.1, 1e-12);
      } else {
        lambda *= 10.0;
      }
    }
    if (!accepted) {
      out.converged = true;  // no descent left at any damping: a (local) minimum to machine precision
      break;
    }
    const double step_norm = step_.norm();
    const double previous_cost = cost;
    q = q_trial_;
    cost = evaluate(measured, q, true);
    // Converged: the step is negligible, the fit exact, or (noisy markers) the cost no longer
    // falls by more than a part in 1e12 (Gauss-Newton then moves q by ~1e-6 of the noise).
    if (step_norm < options_.step_tolerance || cost <= 1e-30 * sum_weights ||
        previous_cost - cost <= options_.cost_tolerance * previous_cost) {
      out.converged = true;
      break;
    }
  }
  evaluate(measured, q, false);
  out.markers_used = used_;
  out.rms = used_ > 0 ? std::sqrt(sum_squared_ / used_) : 0.0;
  out.max = max_distance_;
  return out;
}

Eigen::Matrix3Xd MarkerIk::model_positions(const VectorX& q) {
  forward_kinematics(model_, data_, q);
  Eigen::Matrix3Xd out(3, static_cast<Eigen::Index>(markers_.size()));
  for (std::size_t m = 0; m < markers_.size(); ++m)
    out.col(static_cast<Eigen::Index>(m)) =
        data_.oMi[static_cast<std::size_t>(markers_[m].body)].act(markers_[m].offset);
  return out;
}

VectorX MarkerIk::initial_configuration(const Eigen::Ref<const Eigen::Matrix3Xd>& measured) const {
  VectorX q = model_.neutral_configuration();
  if (!model_.floating_base) return q;
  const int base = 1;
  const Body& b = model_.bodies[base];
  // Kabsch on the base body's visible markers: R, p minimising sum ||R o + p - y||^2.
  std::vector<std::pair<Vector3, Vector3>> pairs;  // (offset in base frame, measured)
  for (std::size_t m = 0; m < markers_.size(); ++m)
    if (markers_[m].body == base && measured.col(static_cast<Eigen::Index>(m)).allFinite())
      pairs.emplace_back(markers_[m].offset, measured.col(static_cast<Eigen::Index>(m)));
  Matrix3 R = Matrix3::Identity();
  Vector3 p = Vector3::Zero();
  if (pairs.size() >= 3) {
    Vector3 co = Vector3::Zero(), cy = Vector3::Zero();
    for (const auto& [o, y] : pairs) {
      co += o;
      cy += y;
    }
    co /= static_cast<double>(pairs.size());
    cy /= static_cast<double>(pairs.size());
    Matrix3 C = Matrix3::Zero();
    for (const auto& [o, y] : pairs) C += (y - cy) * (o - co).transpose();
    const Eigen::JacobiSVD<Matrix3> svd(C, Eigen::ComputeFullU | Eigen::ComputeFullV);
    Matrix3 D = Matrix3::Identity();
    D(2, 2) = (svd.matrixU() * svd.matrixV().transpose()).determinant() < 0.0 ? -1.0 : 1.0;
    R = svd.matrixU() * D * svd.matrixV().transpose();
    p = cy - R * co;
  } else {
    // Upright base; translate so the model's markers at the neutral pose match the measured centroid.
    Data data(model_);
    forward_kinematics(model_, data, q);
    Vector3 shift = Vector3::Zero();
    int n = 0;
    for (std::size_t m = 0; m < markers_.size(); ++m) {
      const auto y = measured.col(static_cast<Eigen::Index>(m));
      if (!y.allFinite()) continue;
      shift += y - data.oMi[static_cast<std::size_t>(markers_[m].body)].act(markers_[m].offset);
      ++n;
    }
    if (n > 0) p = shift / n;
  }
  q.segment<3>(b.idx_q) = p;
  q.segment<4>(b.idx_q + 3) = Eigen::Quaterniond(R).normalized().coeffs();
  return q;
}

std::vector<Vector3> calibrate_marker_offsets(const Model& model, const std::vector<ModelMarker>& markers,
                                              const std::vector<Eigen::Matrix3Xd>& measured,
                                              const std::vector<VectorX>& q) {
  if (measured.size() != q.size())
    throw std::invalid_argument("marker calibration: frames and configurations differ in count");
  std::vector<Vector3> sum(markers.size(), Vector3::Zero());
  std::vector<int> count(markers.size(), 0);
  Data data(model);
  for (std::size_t f = 0; f < q.size(); ++f) {
    forward_kinematics(model, data, q[f]);
    for (std::size_t m = 0; m < markers.size(); ++m) {
      const Eigen::Vector3d y = measured[f].col(static_cast<Eigen::Index>(m));
      if (!y.allFinite()) continue;
      sum[m] += data.oMi[static_cast<std::size_t>(markers[m].body)].act_inv(y);
      ++count[m];
    }
  }
  std::vector<Vector3> out(markers.size());
  for (std::size_t m = 0; m < markers.size(); ++m)
    out[m] = count[m] > 0 ? Vector3(sum[m] / count[m]) : markers[m].offset;
  return out;
}

std::vector<VectorX> calibrate_from_neutral_trial(MarkerIk& ik, const std::vector<Eigen::Matrix3Xd>& measured,
                                                  int rounds) {
  std::vector<VectorX> q(measured.size());
  for (int round = 0; round <= rounds; ++round) {
    for (std::size_t f = 0; f < measured.size(); ++f) {
      q[f] = f == 0 ? (round == 0 ? ik.initial_configuration(measured[0]) : q[0]) : q[f - 1];
      ik.solve(measured[f], q[f]);
    }
    if (round < rounds) ik.set_offsets(calibrate_marker_offsets(ik.model(), ik.markers(), measured, q));
  }
  return q;
}

}  // namespace dynid
