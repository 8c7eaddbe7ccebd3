// The CAD prior's empirical Bayes against problems whose answer is known by construction: a linear
// Gaussian model with parameters drawn from the prior the estimator should find, and sensor noise
// of a known multiple of its nominal sigma.

#include "dynid/ident/cad_prior.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "support/test_models.hpp"

namespace dynid {
namespace {

/// 10 standard parameters per body, each class of them off CAD by its own fraction of a unit scale;
/// blocks of random regressor rows whose noise is `noise_level` times the sigma the weights assume.
struct DrawnFromThePrior {
  static constexpr int bodies = 20, n = 10 * bodies;
  VectorX unit_scales, pi_nominal, pi_true;
  MatrixX K = MatrixX::Identity(n, n);  // every standard parameter a base parameter
  std::vector<InformationBlock> blocks;

  /// `outliers`: (parameter, move in its unit scale) added to the drawn CAD errors.
  DrawnFromThePrior(const std::array<double, kCadParameterClasses>& fraction, double noise_level, unsigned seed,
                    bool only_masses_excited = false, const std::vector<std::pair<int, double>>& outliers = {}) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> g(0.0, 1.0);
    std::uniform_real_distribution<double> u(0.5, 2.0);
    unit_scales = VectorX::NullaryExpr(n, [&] { return u(rng); });
    pi_nominal = VectorX::NullaryExpr(n, [&] { return g(rng); });
    pi_true = pi_nominal;
    for (Eigen::Index i = 0; i < n; ++i)
      pi_true[i] += fraction[static_cast<std::size_t>(cad_parameter_class(i))] * unit_scales[i] * g(rng);
    for (const auto& [i, move] : outliers) pi_true[i] += move * unit_scales[i];
    const double sigma = 0.01;
    for (int b = 0; b < 20; ++b) {
      MatrixX A(60, n);
      for (Eigen::Index r = 0; r < A.rows(); ++r)
        for (Eigen::Index c = 0; c < n; ++c)
          A(r, c) = (only_masses_excited && cad_parameter_class(c) != CadParameterClass::Mass) ? 0.0 : g(rng);
      VectorX y = A * pi_true;
      for (Eigen::Index r = 0; r < y.size(); ++r) y[r] += noise_level * sigma * g(rng);
      blocks.push_back({A.transpose() * A / (sigma * sigma), A.transpose() * y / (sigma * sigma)});
    }
  }
};

TEST(CadPrior, ClassesFollowPinocchioOrder) {
  EXPECT_EQ(cad_parameter_class(0), CadParameterClass::Mass);
  EXPECT_EQ(cad_parameter_class(13), CadParameterClass::FirstMoment);
  for (Eigen::Index k : {4, 6, 9}) EXPECT_EQ(cad_parameter_class(20 + k), CadParameterClass::DiagonalInertia);
  for (Eigen::Index k : {5, 7, 8}) EXPECT_EQ(cad_parameter_class(k), CadParameterClass::ProductOfInertia);
}

TEST(CadPrior, ComCoordinatesJacobianIsTheStandardParametersDerivative) {
  // J = d pi / d (m, c, inertia about the COM) against central differences of Inertia::from_com, a
  // second formulation (the parallel-axis theorem as the spatial module applies it), on every body
  // of the kid humanoid; identity for Origin.
  const Model model = test::bundled_robot("kid_humanoid").model;
  const MatrixX J = cad_prior_jacobian(model, CadPriorCoordinates::Com);
  ASSERT_EQ(J.rows(), 10 * model.num_moving_bodies());
  EXPECT_TRUE(cad_prior_jacobian(model, CadPriorCoordinates::Origin).isIdentity(0.0));
  auto standard = [](const Vector10& p) {
    Matrix3 I;
    I << p[4], p[5], p[7], p[5], p[6], p[8], p[7], p[8], p[9];
    return Inertia::from_com(p[0], p.segment<3>(1), I).to_parameters();
  };
  double worst = 0.0;
  for (int b = 1; b <= model.num_moving_bodies(); ++b) {
    const Inertia& in = model.bodies[static_cast<std::size_t>(b)].inertia;
    if (!(in.mass > 0.0)) continue;
    const Matrix3 Ic = in.inertia_com();
    Vector10 p;
    p << in.mass, in.com(), Ic(0, 0), Ic(0, 1), Ic(1, 1), Ic(0, 2), Ic(1, 2), Ic(2, 2);
    ASSERT_LT((standard(p) - in.to_parameters()).norm(), 1e-12 * (1.0 + in.to_parameters().norm()));
    for (int k = 0; k < 10; ++k) {
      const double h = 1e-6 * std::max(1e-3, std::abs(p[k]));
      Vector10 up = p, down = p;
      up[k] += h;
      down[k] -= h;
      const Vector10 fd = (standard(up) - standard(down)) / (2.0 * h);
      const Vector10 col = J.block<10, 1>(10 * (b - 1), 10 * (b - 1) + k);
      worst = std::max(worst, (fd - col).norm() / std::max(1.0, fd.norm()));
    }
  }
  EXPECT_LT(worst, 1e-7);
  // The COM coordinates' scales: the COM in lengths (a 1 kg body's first-moment scale over its mass).
  const VectorX origin = cad_parameter_scales(model, 0.3, CadPriorCoordinates::Origin);
  const VectorX com = cad_parameter_scales(model, 0.3, CadPriorCoordinates::Com);
  const double m1 = model.bodies[1].inertia.mass;
  EXPECT_NEAR(com[1], origin[1] / m1, 1e-12 * origin[1] / m1);
  EXPECT_EQ(com[0], origin[0]);
  EXPECT_EQ(com[4], origin[4]);
}

TEST(CadPrior, DataScaleIsTheNoiseOverItsNominalSigmaSquared) {
  // Noise three times what the weights say: c = 9 (the blocks' scores, not the residual, find it).
  const DrawnFromThePrior problem({0.3, 0.3, 0.3, 0.3}, 3.0, 1);
  const MatrixX P = (problem.unit_scales.array().square() * 0.09).inverse().matrix().asDiagonal();
  const CadPriorFit fit = fit_with_cad_prior(problem.blocks, P, problem.pi_nominal);
  EXPECT_TRUE(fit.converged);
  EXPECT_NEAR(fit.data_scale, 9.0, 9.0 * 0.15);
}

TEST(CadPrior, LearnsEachClassScaleTheParametersWereDrawnWith) {
  // Well-determined data: the learned fraction of each class is the spread of its parameters'
  // CAD errors (within the sampling error of 20-60 draws per class, about 15 %).
  const std::array<double, kCadParameterClasses> truth{0.2, 0.05, 0.1, 0.01};
  const DrawnFromThePrior problem(truth, 1.0, 2);
  const LearnedCadPrior learned =
      fit_with_learned_cad_prior(problem.blocks, problem.K, problem.unit_scales, problem.K * problem.pi_nominal, 0);
  EXPECT_TRUE(learned.converged);
  for (std::size_t c = 0; c < kCadParameterClasses; ++c)
    EXPECT_NEAR(learned.fraction[c], truth[c], 0.25 * truth[c]) << to_string(static_cast<CadParameterClass>(c));
  // The estimate is the posterior mean under the learned prior: closer to the truth than CAD.
  EXPECT_LT((learned.fit.x - problem.pi_true).norm(), 0.1 * (problem.pi_nominal - problem.pi_true).norm());
}

TEST(CadPrior, ClassesTheDataDoNotSeeKeepTheInitialScaleAndADataErrorCannotLoosenIt) {
  // Only the masses excited: the other classes have nothing to learn from and stay at 0.3.
  const DrawnFromThePrior silent({0.2, 0.05, 0.1, 0.01}, 1.0, 3, true);
  const LearnedCadPrior a =
      fit_with_learned_cad_prior(silent.blocks, silent.K, silent.unit_scales, silent.K * silent.pi_nominal, 0);
  EXPECT_NEAR(a.fraction[0], 0.2, 0.05);
  for (std::size_t c = 1; c < kCadParameterClasses; ++c) EXPECT_NEAR(a.fraction[c], 0.3, 1e-3);
  // CAD errors of twice the initial scale: the data ask for 0.6, the ceiling holds 0.3.
  const DrawnFromThePrior loose({0.6, 0.6, 0.6, 0.6}, 1.0, 4);
  const LearnedCadPrior b =
      fit_with_learned_cad_prior(loose.blocks, loose.K, loose.unit_scales, loose.K * loose.pi_nominal, 0);
  for (std::size_t c = 0; c < kCadParameterClasses; ++c) {
    EXPECT_NEAR(b.fraction[c], 0.3, 1e-12);
    EXPECT_NEAR(b.wanted_fraction[c], 0.6, 0.2);
  }
}

TEST(CadPrior, AClassTheDataWantLooserThanTheCeilingNamesTheCoordinatesThatMovedIt) {
  // First moments off CAD by 2 % of their scale, but two of them by 3 scales (a biased sensor pulls
  // two parameters): the class's RMS move is sqrt(2 * 9 / 60) = 0.55 > 0.3.
  const int a = 10 * 4 + 2, b = 10 * 11 + 3;  // body 4's mc_y, body 11's mc_z
  const DrawnFromThePrior problem({0.1, 0.02, 0.05, 0.01}, 1.0, 5, false, {{a, 3.0}, {b, -3.0}});
  const LearnedCadPrior learned =
      fit_with_learned_cad_prior(problem.blocks, problem.K, problem.unit_scales, problem.K * problem.pi_nominal, 0);
  const std::vector<CadParameterClass> above = classes_above_ceiling(learned, 0.3);
  ASSERT_EQ(above.size(), 1u);
  EXPECT_EQ(above[0], CadParameterClass::FirstMoment);
  EXPECT_NEAR(learned.wanted_fraction[1], std::sqrt(18.0 / 60.0), 0.1);
  // The two largest moves of the class are the two outliers, each about 3 scales.
  std::vector<Eigen::Index> order;
  for (Eigen::Index i = 0; i < learned.coordinate_moves.size(); ++i)
    if (cad_parameter_class(i) == CadParameterClass::FirstMoment) order.push_back(i);
  std::sort(order.begin(), order.end(),
            [&](Eigen::Index x, Eigen::Index y) { return learned.coordinate_moves[x] > learned.coordinate_moves[y]; });
  EXPECT_EQ(std::min(order[0], order[1]), a);
  EXPECT_EQ(std::max(order[0], order[1]), b);
  EXPECT_NEAR(std::sqrt(learned.coordinate_moves[a]), 3.0, 0.3);
  EXPECT_NEAR(std::sqrt(learned.coordinate_moves[b]), 3.0, 0.3);
  EXPECT_LT(std::sqrt(learned.coordinate_moves[order[2]]), 0.3);
  // The classes within the ceiling are not reported, whatever they learned.
  for (std::size_t c : {0u, 2u, 3u}) EXPECT_LT(learned.wanted_fraction[c], 0.3);
}

TEST(CadPrior, CoordinateNamesFollowThePriorsFrame) {
  EXPECT_EQ(cad_prior_coordinate_name("thigh.mcy", CadPriorCoordinates::Com), "thigh.com_y");
  EXPECT_EQ(cad_prior_coordinate_name("thigh.Ixz", CadPriorCoordinates::Com), "thigh.Ixz_about_com");
  EXPECT_EQ(cad_prior_coordinate_name("thigh.m", CadPriorCoordinates::Com), "thigh.m");
  EXPECT_EQ(cad_prior_coordinate_name("thigh.mcy", CadPriorCoordinates::Origin), "thigh.mcy");
}

TEST(CadPrior, KeepAtCadHoldsWhatTheDataDoNotSeeAndConditionsTheRest) {
  // Only the masses excited, and a prior in which each body's first moments move with its mass
  // (correlation 0.5, as a COM-frame prior makes them): unconditionally the unseen first moments
  // follow the masses the data move; kept at CAD they stay there and the masses are the posterior
  // conditioned on that, checked here in covariance form (the function uses the information form).
  const DrawnFromThePrior problem({0.2, 0.05, 0.1, 0.01}, 1.0, 5, true);
  const Eigen::Index n = DrawnFromThePrior::n;
  const VectorX sd = 0.3 * problem.unit_scales;
  MatrixX S = sd.array().square().matrix().asDiagonal();
  for (Eigen::Index b = 0; b < DrawnFromThePrior::bodies; ++b)
    for (Eigen::Index j = 1; j <= 3; ++j)
      S(10 * b, 10 * b + j) = S(10 * b + j, 10 * b) = 0.5 * sd[10 * b] * sd[10 * b + j];
  const MatrixX P = S.ldlt().solve(MatrixX::Identity(n, n));
  const CadPriorFit unconditional = fit_with_cad_prior(problem.blocks, P, problem.pi_nominal);
  CadPriorFit kept = unconditional;
  const std::vector<Eigen::Index> held = keep_undetermined_at_prior(kept, problem.blocks, P, problem.pi_nominal);

  // Held: every unknown but the masses (the data see nothing else).
  ASSERT_EQ(held.size(), static_cast<std::size_t>(n - DrawnFromThePrior::bodies));
  std::vector<bool> is_held(static_cast<std::size_t>(n), false);
  for (Eigen::Index i : held) {
    EXPECT_NE(cad_parameter_class(i), CadParameterClass::Mass) << i;
    is_held[static_cast<std::size_t>(i)] = true;
  }
  double moved = 0.0;
  for (Eigen::Index i : held) {
    moved = std::max(moved, std::abs(unconditional.x[i] - problem.pi_nominal[i]) / sd[i]);
    EXPECT_EQ(kept.x[i], problem.pi_nominal[i]) << i;
  }
  EXPECT_GT(moved, 0.1);  // without keeping, the unseen first moments moved with the masses

  // The free unknowns: x_F + S_FK S_KK^-1 (x0_K - x_K) with S the unconditional posterior covariance.
  std::vector<Eigen::Index> free;
  for (Eigen::Index i = 0; i < n; ++i)
    if (!is_held[static_cast<std::size_t>(i)]) free.push_back(i);
  const auto nf = static_cast<Eigen::Index>(free.size()), nk = static_cast<Eigen::Index>(held.size());
  MatrixX S_fk(nf, nk), S_kk(nk, nk);
  VectorX shift(nk);
  for (Eigen::Index a = 0; a < nk; ++a) {
    const Eigen::Index i = held[static_cast<std::size_t>(a)];
    shift[a] = problem.pi_nominal[i] - unconditional.x[i];
    for (Eigen::Index b = 0; b < nk; ++b) S_kk(a, b) = unconditional.covariance(i, held[static_cast<std::size_t>(b)]);
    for (Eigen::Index r = 0; r < nf; ++r) S_fk(r, a) = unconditional.covariance(free[static_cast<std::size_t>(r)], i);
  }
  const VectorX conditional = S_fk * S_kk.ldlt().solve(shift);
  for (Eigen::Index r = 0; r < nf; ++r) {
    const Eigen::Index i = free[static_cast<std::size_t>(r)];
    EXPECT_NEAR(kept.x[i], unconditional.x[i] + conditional[r], 1e-9 * sd[i]) << i;
  }
}

}  // namespace
}  // namespace dynid
