#include "dynid/data/residual_wrench.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "dynid/dynamics/rnea.hpp"
#include "dynid/mocap/filtfilt.hpp"
#include "dynid/spatial/explog.hpp"

namespace dynid {
namespace {

Matrix3 base_rotation(const Body& b, const VectorX& q) {
  return Eigen::Quaterniond(q[b.idx_q + 6], q[b.idx_q + 3], q[b.idx_q + 4], q[b.idx_q + 5])
      .normalized()
      .toRotationMatrix();
}

}  // namespace

SampledMotion differentiate_configurations(const Model& model, const std::vector<double>& time,
                                           const std::vector<VectorX>& q_in, double cutoff_hz, int order) {
  const std::size_t n = time.size();
  if (n < 5 || q_in.size() != n)
    throw std::invalid_argument("motion: need at least 5 samples with a configuration each");
  const double dt = (time.back() - time.front()) / static_cast<double>(n - 1);
  for (std::size_t k = 1; k < n; ++k)
    if (std::abs(time[k] - time[k - 1] - dt) > 0.25 * dt)
      throw std::invalid_argument("motion: samples are not uniform in time (gap at " + std::to_string(time[k - 1]) +
                                  " s)");
  MatrixX Q(model.nq, static_cast<Eigen::Index>(n));
  for (std::size_t k = 0; k < n; ++k) {
    if (q_in[k].size() != model.nq || !q_in[k].allFinite())
      throw std::invalid_argument("motion: invalid configuration at sample " + std::to_string(k));
    Q.col(static_cast<Eigen::Index>(k)) = q_in[k];
  }
  for (std::size_t i = 1; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    if (b.joint_type != JointType::FreeFlyer) continue;
    for (Eigen::Index k = 1; k < Q.cols(); ++k)  // sign continuity of the quaternion
      if (Q.col(k).segment<4>(b.idx_q + 3).dot(Q.col(k - 1).segment<4>(b.idx_q + 3)) < 0.0)
        Q.col(k).segment<4>(b.idx_q + 3) *= -1.0;
  }
  // Onto the uniform grid the filter and the differences assume (linear interpolation; the
  // quaternion is renormalised below). A capture clock's jitter otherwise shows up, twice
  // differentiated, as acceleration noise.
  std::vector<double> grid(n);
  MatrixX U(Q.rows(), Q.cols());
  for (std::size_t k = 0, j = 0; k < n; ++k) {
    grid[k] = time.front() + dt * static_cast<double>(k);
    while (j + 2 < n && time[j + 1] < grid[k]) ++j;
    const double s = std::clamp((grid[k] - time[j]) / (time[j + 1] - time[j]), 0.0, 1.0);
    U.col(static_cast<Eigen::Index>(k)) =
        (1.0 - s) * Q.col(static_cast<Eigen::Index>(j)) + s * Q.col(static_cast<Eigen::Index>(j + 1));
  }
  Q = U;
  if (cutoff_hz > 0.0) Q = filtfilt_rows(butterworth_lowpass(order, cutoff_hz, 1.0 / dt), Q);
  SampledMotion out;
  out.time = grid;
  out.q.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    out.q[k] = Q.col(static_cast<Eigen::Index>(k));
    for (std::size_t i = 1; i < model.bodies.size(); ++i) {
      const Body& b = model.bodies[i];
      if (b.joint_type == JointType::FreeFlyer) out.q[k].segment<4>(b.idx_q + 3).normalize();
    }
  }
  auto diff_v = [&](std::size_t k0, std::size_t k1) {
    const double h = (grid[k1] - grid[k0]);
    VectorX v(model.nv);
    for (std::size_t i = 1; i < model.bodies.size(); ++i) {
      const Body& b = model.bodies[i];
      if (b.joint_type == JointType::FreeFlyer) {
        const Matrix3 R0 = base_rotation(b, out.q[k0]), R1 = base_rotation(b, out.q[k1]);
        const Matrix3 Rm = base_rotation(b, out.q[(k0 + k1) / 2]);
        v.segment<3>(b.idx_v) = Rm.transpose() * (out.q[k1].segment<3>(b.idx_q) - out.q[k0].segment<3>(b.idx_q)) / h;
        v.segment<3>(b.idx_v + 3) = log3(R0.transpose() * R1) / h;
      } else {
        v.segment(b.idx_v, b.nv) = (out.q[k1].segment(b.idx_q, b.nq) - out.q[k0].segment(b.idx_q, b.nq)) / h;
      }
    }
    return v;
  };
  out.v.resize(n);
  out.a.resize(n);
  for (std::size_t k = 0; k < n; ++k) out.v[k] = diff_v(k == 0 ? 0 : k - 1, k + 1 == n ? k : k + 1);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t k0 = k == 0 ? 0 : k - 1, k1 = k + 1 == n ? k : k + 1;
    out.a[k] = (out.v[k1] - out.v[k0]) / (grid[k1] - grid[k0]);
  }
  return out;
}

ResidualWrench residual_base_wrench(const Model& model, const SampledMotion& motion,
                                    const std::vector<Force>& ground_reaction_world) {
  if (!model.floating_base)
    throw std::invalid_argument(model.label() + ": the residual base wrench needs a floating base");
  const std::size_t n = motion.time.size();
  if (ground_reaction_world.size() != n)
    throw std::invalid_argument("residual wrench: one ground reaction per sample needed");
  Data data(model);
  std::vector<Force> fext(model.bodies.size(), Force::Zero());
  ResidualWrench out;
  out.time = motion.time;
  out.values.resize(6, static_cast<Eigen::Index>(n));
  for (std::size_t k = 0; k < n; ++k) {
    forward_kinematics(model, data, motion.q[k]);
    fext[1] = world_wrench_to_body(data, 1, ground_reaction_world[k]);
    const VectorX& tau = rnea(model, data, motion.q[k], motion.v[k], motion.a[k], fext);
    out.values.col(static_cast<Eigen::Index>(k)) << tau.segment<3>(3), tau.head<3>();
  }
  const Eigen::ArrayXXd mag = out.values.array().abs();
  out.mean_abs = mag.rowwise().mean();
  for (int r = 0; r < 6; ++r)
    out.std_abs[r] =
        n > 1 ? std::sqrt((mag.row(r) - out.mean_abs[r]).square().sum() / static_cast<double>(n - 1)) : 0.0;
  return out;
}

}  // namespace dynid
