// Preview control of the cart-table (Kajita 2003) checked against the DARE it rests on, against a
// second, independent solution of the same optimal control problem (batch least squares over the
// whole horizon, no Riccati equation), and against the cart-table relation p = x - zc/g xdd
// evaluated by finite differences of the COM positions alone.

#include "dynid/locomotion/zmp_preview_control.hpp"

#include <gtest/gtest.h>

#include <Eigen/QR>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "dynid/locomotion/discrete_riccati.hpp"

namespace dynid {
namespace {

PreviewControlParams kajita_params() {
  PreviewControlParams params;  // Kajita 2003's HRP-2 figures: zc = 0.814 m, T = 5 ms, 1.6 s preview
  params.com_height_m = 0.814;
  return params;
}

std::vector<double> step_reference(std::size_t n, std::size_t step_sample, double before, double after) {
  std::vector<double> ref(n, before);
  for (std::size_t k = step_sample; k < n; ++k) ref[k] = after;
  return ref;
}

TEST(ZmpPreviewControl, RiccatiSolutionSatisfiesTheDare) {
  for (const double zc : {0.25, 0.814, 1.0}) {
    PreviewControlParams params = kajita_params();
    params.com_height_m = zc;
    const PreviewGains gains = compute_preview_gains(params);
    const Eigen::MatrixXd residual =
        discrete_riccati_residual(gains.augmented_A(), gains.augmented_B(), gains.augmented_Q(params.zmp_error_weight),
                                  Eigen::MatrixXd::Constant(1, 1, params.jerk_weight), gains.riccati_solution);
    EXPECT_LT(residual.cwiseAbs().maxCoeff(), 1e-9) << "zc " << zc << ", |P| " << gains.riccati_solution.norm();
    EXPECT_LT(residual.norm(), 1e-9 * gains.riccati_solution.norm()) << "zc " << zc;
    EXPECT_EQ(gains.preview_gains.size(), 320);
    // The preview gains fade over the horizon (as in Kajita 2003's plot of the preview gain) as the stable image of the
    // pendulum pole, exp(-t / sqrt(zc/g)): after 1.6 s to below 1 % of their peak even for zc = 1 m.
    const double peak = gains.preview_gains.cwiseAbs().maxCoeff();
    EXPECT_LT(std::abs(gains.preview_gains[319]), 1e-2 * peak) << "zc " << zc;
    const double decay = std::exp(-0.5 / std::sqrt(zc / params.gravity_mps2));
    EXPECT_NEAR(gains.preview_gains[299] / gains.preview_gains[199], decay, 0.02 * decay) << "zc " << zc;
  }
}

TEST(ZmpPreviewControl, StepResponseMatchesBatchOptimumAndCartTable) {
  // A 0.1 m ZMP step at t = 0.75 s. The batch problem minimizes the servo's cost
  //   sum_{k=1..N} Qe e(k)^2 + R sum_{k=0..N-1} (u(k) - u(k-1))^2
  // directly over the jerk increments (a least-squares problem, solved by QR), seeing the whole
  // reference; it has no terminal cost, so the two agree except in the last second.
  const PreviewControlParams params = kajita_params();
  const PreviewGains gains = compute_preview_gains(params);
  const std::size_t n = 700, step_sample = 150, compared = 450;  // 3.5 s; compare the first 2.25 s
  const std::vector<double> ref = step_reference(n, step_sample, 0.0, 0.1);
  const CartTableTrajectory servo = run_preview_control(gains, ref);
  ASSERT_EQ(servo.states.size(), n);

  const Matrix3 A = gains.model.A();
  const Vector3 B = gains.model.B();
  const RowVector3 C = gains.model.C();
  // ZMP at sample m after a unit jerk step starting at 0, from rest: the batch's Toeplitz kernel.
  Eigen::VectorXd unit_step_zmp(n);
  Vector3 x = Vector3::Zero();
  for (std::size_t m = 0; m < n; ++m) {
    unit_step_zmp[static_cast<long>(m)] = C.dot(x);
    x = A * x + B;
  }
  const long N = static_cast<long>(n) - 1;  // decisions du(0..N-1), errors e(1..N)
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(2 * N, N);
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(2 * N);
  for (long k = 1; k <= N; ++k) {
    for (long j = 0; j < k; ++j) M(k - 1, j) = std::sqrt(params.zmp_error_weight) * unit_step_zmp[k - j];
    rhs[k - 1] = std::sqrt(params.zmp_error_weight) * ref[static_cast<std::size_t>(k)];
  }
  M.bottomRows(N).diagonal().setConstant(std::sqrt(params.jerk_weight));
  const Eigen::VectorXd du = M.householderQr().solve(rhs);

  double max_difference = 0.0;
  x = Vector3::Zero();
  double u = 0.0;
  for (std::size_t k = 0; k < compared; ++k) {
    max_difference = std::max(max_difference, std::abs(C.dot(x) - gains.model.zmp(servo.states[k])));
    u += du[static_cast<long>(k)];
    x = A * x + B * u;
  }
  // Both are the same optimum; what is left is the batch's missing terminal cost, conditioning of
  // the least squares (jerk weights of 1e-6 against kernels of order 1) and the preview truncation.
  EXPECT_LT(max_difference, 1e-4) << "preview servo vs batch optimum, max ZMP difference [m]";

  // The same step 2 s ahead, beyond the preview horizon: the servo starts from a quiet reference.
  // The cart-table ZMP from COM positions only, xdd by central differences of x, must follow it.
  const std::size_t late_step = 400;
  const std::vector<double> late_ref = step_reference(1000, late_step, 0.0, 0.1);
  const CartTableTrajectory late = run_preview_control(gains, late_ref);
  const double T = params.sample_time_s, zc_over_g = params.com_height_m / params.gravity_mps2;
  double max_fd_error = 0.0, max_settled_error = 0.0, max_error = 0.0;
  for (std::size_t k = 1; k + 1 < late.states.size(); ++k) {
    const auto& x_pos = late.states;
    const double xdd = (x_pos[k + 1][0] - 2.0 * x_pos[k][0] + x_pos[k - 1][0]) / (T * T);
    const double p_fd = x_pos[k][0] - zc_over_g * xdd;
    // Central differences of a cubic with jerk u_k on [t_k, t_k+1) and u_k-1 before: the second
    // difference is xdd_k + T (u_k - u_k-1) / 6, so p_fd differs from C x by zc/g T (u_k - u_k-1) / 6.
    const double jerk_step_term = zc_over_g * T * (late.jerks[k] - late.jerks[k - 1]) / 6.0;
    max_fd_error = std::max(max_fd_error, std::abs(p_fd + jerk_step_term - gains.model.zmp(x_pos[k])));
    max_error = std::max(max_error, std::abs(p_fd - late_ref[k]));
    // From 0.25 s before to 0.5 s after the step the ZMP must pass through it; elsewhere it tracks.
    const bool settled = k + 50 < late_step || k > late_step + 100;
    if (settled) max_settled_error = std::max(max_settled_error, std::abs(p_fd - late_ref[k]));
  }
  EXPECT_LT(max_fd_error, 1e-9) << "finite-difference cart-table ZMP vs C x [m]";
  std::printf("step 0.1 m: ZMP error away from the step %.3g mm, max %.3g mm\n", 1e3 * max_settled_error,
              1e3 * max_error);
  EXPECT_LT(max_settled_error, 2e-3) << "ZMP away from the step vs reference [m]";
  EXPECT_LT(max_error, 0.06) << "the ZMP cannot jump, but it must not overshoot the step either";
  // Zero steady-state error (integral action) and the COM at rest above the new ZMP.
  EXPECT_NEAR(late.states.back()[0], 0.1, 1e-5);
  EXPECT_NEAR(late.states.back()[1], 0.0, 1e-5);
  // The preview moves the COM before the step: at the step it is already about halfway.
  EXPECT_GT(late.states[late_step][0], 0.03);
  EXPECT_LT(late.states[late_step][0], 0.07);
}

TEST(ZmpPreviewControl, InterpolationIsExactBetweenSamples) {
  const PreviewGains gains = compute_preview_gains(kajita_params());
  const CartTableTrajectory servo = run_preview_control(gains, step_reference(400, 200, 0.0, 0.05));
  const double T = gains.model.sample_time_s;
  for (std::size_t k = 0; k + 1 < servo.states.size(); ++k) {
    // The cubic of a sample interval ends where the discrete model goes next.
    const Vector3 end = servo.state_at((static_cast<double>(k) + 1.0 - 1e-12) * T);
    EXPECT_LT((end - servo.states[k + 1]).norm(), 1e-9) << "sample " << k;
  }
  const double t = 1.2345;
  const double h = 1e-4;  // velocity and acceleration are the derivatives of position
  EXPECT_NEAR((servo.state_at(t + h)[0] - servo.state_at(t - h)[0]) / (2 * h), servo.state_at(t)[1], 1e-7);
  EXPECT_NEAR((servo.state_at(t + h)[1] - servo.state_at(t - h)[1]) / (2 * h), servo.state_at(t)[2], 1e-6);
}

TEST(ZmpPreviewControl, RejectsBadParameters) {
  PreviewControlParams params;
  params.com_height_m = 0.0;
  EXPECT_THROW(compute_preview_gains(params), std::invalid_argument);
  params = {};
  params.preview_horizon_s = 0.001;
  EXPECT_THROW(compute_preview_gains(params), std::invalid_argument);
  EXPECT_THROW(run_preview_control(compute_preview_gains({}), {}), std::invalid_argument);
}

}  // namespace
}  // namespace dynid
