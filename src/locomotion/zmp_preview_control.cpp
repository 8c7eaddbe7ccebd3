#include "dynid/locomotion/zmp_preview_control.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "dynid/locomotion/discrete_riccati.hpp"

namespace dynid {

Matrix3 CartTableModel::A() const {
  const double T = sample_time_s;
  Matrix3 A;
  A << 1.0, T, 0.5 * T * T, 0.0, 1.0, T, 0.0, 0.0, 1.0;
  return A;
}

Vector3 CartTableModel::B() const {
  const double T = sample_time_s;
  return {T * T * T / 6.0, 0.5 * T * T, T};
}

RowVector3 CartTableModel::C() const { return {1.0, 0.0, -com_height_m / gravity_mps2}; }

Eigen::Matrix4d PreviewGains::augmented_A() const {
  Eigen::Matrix4d At = Eigen::Matrix4d::Zero();
  At(0, 0) = 1.0;
  At.block<1, 3>(0, 1) = model.C() * model.A();
  At.block<3, 3>(1, 1) = model.A();
  return At;
}

Eigen::Vector4d PreviewGains::augmented_B() const {
  Eigen::Vector4d Bt;
  Bt << model.C() * model.B(), model.B();
  return Bt;
}

Eigen::Matrix4d PreviewGains::augmented_Q(double zmp_error_weight) const {
  Eigen::Matrix4d Qt = Eigen::Matrix4d::Zero();
  Qt(0, 0) = zmp_error_weight;
  return Qt;
}

PreviewGains compute_preview_gains(const PreviewControlParams& params) {
  const auto require_positive = [](double value, const char* name) {
    if (!(value > 0.0) || !std::isfinite(value)) {
      throw std::invalid_argument(std::string("preview control: ") + name + " = " + std::to_string(value) +
                                  " must be positive and finite");
    }
  };
  require_positive(params.com_height_m, "com_height_m");
  require_positive(params.gravity_mps2, "gravity_mps2");
  require_positive(params.sample_time_s, "sample_time_s");
  require_positive(params.preview_horizon_s, "preview_horizon_s");
  require_positive(params.zmp_error_weight, "zmp_error_weight");
  require_positive(params.jerk_weight, "jerk_weight");
  const auto preview_samples = static_cast<int>(std::lround(params.preview_horizon_s / params.sample_time_s));
  if (preview_samples < 1) {
    throw std::invalid_argument("preview control: preview_horizon_s = " + std::to_string(params.preview_horizon_s) +
                                " is shorter than one sample of " + std::to_string(params.sample_time_s) + " s");
  }

  PreviewGains gains;
  gains.model = {params.com_height_m, params.gravity_mps2, params.sample_time_s};
  const Eigen::Matrix4d At = gains.augmented_A();
  const Eigen::Vector4d Bt = gains.augmented_B();
  const Eigen::Matrix<double, 1, 1> R = Eigen::Matrix<double, 1, 1>::Constant(params.jerk_weight);
  const auto dare = solve_discrete_riccati(At, Bt, gains.augmented_Q(params.zmp_error_weight), R);
  const Eigen::Matrix4d& P = gains.riccati_solution = dare.P;
  gains.riccati_iterations = dare.iterations;

  // Gains of the incremental servo (formulas at the top of the header).
  const double S = params.jerk_weight + Bt.dot(P * Bt);
  // Ã = [Ĩ F̃], so the LQ gain of the incremental system is K = S^-1 B̃ᵀ P Ã = [Gi, Gx].
  const Eigen::RowVector4d K = Bt.transpose() * P * At / S;
  const Eigen::Vector4d I1 = Eigen::Vector4d::UnitX();
  gains.integral_gain = K[0];
  gains.state_gain = K.tail<3>();
  const Eigen::Matrix4d Ac = At - Bt * K;
  gains.preview_gains.resize(preview_samples);
  gains.preview_gains[0] = -gains.integral_gain;
  Eigen::Vector4d X = -Ac.transpose() * P * I1;
  for (int j = 1; j < preview_samples; ++j) {
    gains.preview_gains[j] = Bt.dot(X) / S;
    X = Ac.transpose() * X;
  }
  return gains;
}

Vector3 CartTableTrajectory::state_at(double t) const {
  const double T = model.sample_time_s;
  const auto last = static_cast<long>(states.size()) - 1;
  if (last <= 0 || t <= 0.0) return states.front();
  if (t >= static_cast<double>(last) * T) return states.back();
  const long k = std::min(static_cast<long>(std::floor(t / T)), last - 1);
  const double tau = t - static_cast<double>(k) * T;
  const Vector3& x = states[static_cast<std::size_t>(k)];
  const double u = jerks[static_cast<std::size_t>(k)];
  return {x[0] + tau * (x[1] + tau * (0.5 * x[2] + tau * u / 6.0)), x[1] + tau * (x[2] + 0.5 * tau * u),
          x[2] + tau * u};
}

CartTableTrajectory run_preview_control(const PreviewGains& gains, const std::vector<double>& zmp_reference) {
  if (zmp_reference.empty()) throw std::invalid_argument("preview control: empty ZMP reference");
  const auto n = zmp_reference.size();
  const auto preview = static_cast<std::size_t>(gains.preview_gains.size());
  const Matrix3 A = gains.model.A();
  const Vector3 B = gains.model.B();
  const RowVector3 C = gains.model.C();
  const auto ref = [&](std::size_t k) { return zmp_reference[std::min(k, n - 1)]; };
  CartTableTrajectory out;
  out.model = gains.model;
  out.states.reserve(n);
  out.jerks.reserve(n);
  Vector3 x(zmp_reference.front(), 0.0, 0.0);  // at rest above the first reference point
  Vector3 x_previous = x;
  double u = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    out.states.push_back(x);
    double du = -gains.integral_gain * (C.dot(x) - ref(k)) - gains.state_gain.dot(x - x_previous);
    for (std::size_t j = 1; j <= preview; ++j) {
      du -= gains.preview_gains[static_cast<Eigen::Index>(j - 1)] * (ref(k + j) - ref(k + j - 1));
    }
    u += du;
    out.jerks.push_back(u);
    x_previous = x;
    x = A * x + B * u;
  }
  return out;
}

}  // namespace dynid
