// A consistent fit on noisy data keeps every link physical at little cost in fit and is the global
// minimum of its convex problem.

#include "dynid/ident/physical_consistency.hpp"

#include <gtest/gtest.h>

#include <random>

#include "dynid/dynamics/regressor.hpp"
#include "dynid/dynamics/rnea.hpp"
#include "dynid/ident/base_parameters.hpp"
#include "dynid/ident/streaming_least_squares.hpp"
#include "dynid/model/random_state.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

TEST(PhysicalConsistency, ConsistentFitOnNoisyContactData) {
  // biped16 base-link equations with noisy wrenches: the unconstrained base-parameter fit and the
  // physically consistent fit (started from a wrong prior: nominal masses scaled by 1.3) explain
  // held-out data about equally well; every link of the consistent fit is a real body.
  const Model model = test::bundled_robot("biped16").model;
  BaseParameterOptions bo;
  bo.rows = base_link_rows(model);
  const BaseParameters base = compute_base_parameters(model, bo);
  Data data(model);
  std::mt19937 rng(4);
  std::normal_distribution<double> noise(0.0, 1.0);
  StreamingLeastSquares ls(base.num_base());
  auto sample = [&](MatrixX& Yb, VectorX& w) {
    const auto s = random_state(model, rng, 3.0);
    w = rnea(model, data, s.q, s.v, s.a).head<6>();
    for (int k = 0; k < 6; ++k) w[k] += noise(rng) * (k < 3 ? 2.0 : 0.2);  // N, N m
    Yb = base_regressor(base, joint_torque_regressor(model, data, s.q, s.v, s.a).topRows<6>());
  };
  MatrixX Yb;
  VectorX w;
  for (int k = 0; k < 3000; ++k) {
    sample(Yb, w);
    ls.add(Yb, w);
  }
  const VectorX unconstrained = ls.solve().x;
  VectorX prior = model.inertial_parameters();
  for (int b = 0; b < prior.size() / 10; ++b) prior.segment<10>(10 * b) *= 1.3;  // uniformly heavier: still consistent
  const ConsistentFit fit = fit_physically_consistent(ls.information_factor(), ls.factor_rhs(), base.K, prior);
  for (int b = 0; b < prior.size() / 10; ++b)
    EXPECT_TRUE(check_physical_consistency(Inertia::from_parameters(fit.pi.segment<10>(10 * b))).consistent) << b;
  double rss_unconstrained = 0.0, rss_consistent = 0.0;
  for (int k = 0; k < 300; ++k) {
    sample(Yb, w);
    rss_unconstrained += (Yb * unconstrained - w).squaredNorm();
    rss_consistent += (Yb * (base.K * fit.pi) - w).squaredNorm();
  }
  EXPECT_LT(std::sqrt(rss_consistent / rss_unconstrained), 1.10);
  EXPECT_TRUE(fit.converged);
  // Optimality, checked without the solver's own derivatives: the problem is convex, so the fit is
  // the global minimum iff the objective grows along every segment toward another physically
  // consistent point (every body keeping 1e-6 of the prior's pseudo-inertia). The segments point toward the
  // least-squares estimate (where a fit that stopped early still has descent) and toward the prior, as far as every
  // body stays real.
  const MatrixX A = ls.information_factor() * base.K;
  const VectorX z = ls.factor_rhs();
  const double prior_w = ConsistentFitOptions{}.prior_weight * z.squaredNorm() / static_cast<double>(prior.size());
  auto objective = [&](const VectorX& pi) {
    double prior_term = 0.0;
    for (int b = 0; b < prior.size() / 10; ++b) {
      const Vector10 p = prior.segment<10>(10 * b);
      const double r = std::max(0.01, std::sqrt(Inertia::from_parameters(p).inertia_com().trace() / (2.0 * p[0])));
      Vector10 scale;
      scale << p[0], p[0] * r, p[0] * r, p[0] * r, Vector6::Constant(p[0] * r * r);
      prior_term += ((pi.segment<10>(10 * b) - p).array() / scale.array()).square().sum();
    }
    return (A * pi - z).squaredNorm() + prior_w * prior_term;
  };
  auto all_real = [&](const VectorX& pi) {
    for (int b = 0; b < pi.size() / 10; ++b)
      if (Eigen::LLT<Matrix4>(Inertia::from_parameters(pi.segment<10>(10 * b)).pseudo_inertia() -
                              1e-6 * Inertia::from_parameters(prior.segment<10>(10 * b)).pseudo_inertia())
              .info() != Eigen::Success)
        return false;
    return true;
  };
  const VectorX least_squares_standard =
      prior + base.K.transpose() * (base.K * base.K.transpose()).ldlt().solve(unconstrained - base.K * prior);
  const double best = objective(fit.pi);
  int segments = 0;
  for (const VectorX& toward : {least_squares_standard, prior}) {
    for (double t = 0.5; t > 1e-9; t *= 0.1) {
      const VectorX trial = fit.pi + t * (toward - fit.pi);
      if (!all_real(trial)) continue;
      ++segments;
      EXPECT_GE(objective(trial), best * (1.0 - 1e-12)) << "t " << t;
    }
  }
  EXPECT_GT(segments, 0);
  // Total mass is a base parameter the data pin down: the prior's 30 % error is gone.
  EXPECT_NEAR(fit.pi(Eigen::seq(0, Eigen::last, 10)).sum(), model.total_mass(), 0.01 * model.total_mass());
}

}  // namespace
}  // namespace dynid
