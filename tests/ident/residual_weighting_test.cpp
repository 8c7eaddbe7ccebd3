// Residual (Gautier) weighting against a dense weighted least-squares solve with the weights written
// out, and the weighted merge it rests on against adding the rows with those weights.

#include "dynid/ident/residual_weighting.hpp"

#include <gtest/gtest.h>

#include <random>

namespace dynid {
namespace {

/// Samples of 3 equations each, x has 5 parameters; the errors are `level` times the sensors' sigma
/// of 0.1 (weight 100), equation 2's further `sigma2` times.
struct ThreeEquations {
  int p = 5, samples = 3000;
  MatrixX A;
  VectorX b, w, x_true;
  ThreeEquations(double sigma2, unsigned seed, double level = 1.0) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> g(0.0, 1.0);
    A.resize(3 * samples, p);
    b.resize(3 * samples);
    w = VectorX::Constant(3 * samples, 100.0);
    x_true = VectorX::NullaryExpr(p, [&] { return g(rng); });
    for (int k = 0; k < 3 * samples; ++k) {
      for (int c = 0; c < p; ++c) A(k, c) = g(rng);
      b[k] = A.row(k).dot(x_true) + 0.1 * level * (k % 3 == 2 ? sigma2 : 1.0) * g(rng);
    }
  }
  void add_to(ResidualWeighting& rw) const {
    for (int s = 0; s < samples; ++s) rw.add(A.middleRows(3 * s, 3), b.segment(3 * s, 3), w.segment(3 * s, 3));
  }
  /// Dense weighted least squares with equation 2 scaled by 1 / s2^2.
  VectorX dense(double s2) const {
    VectorX sw = w.cwiseSqrt();
    for (int k = 2; k < 3 * samples; k += 3) sw[k] /= s2;
    return (sw.asDiagonal() * A).householderQr().solve(sw.asDiagonal() * b);
  }
};

TEST(ResidualWeighting, FindsTheNoisyEquationAndEqualsTheDenseWeightedSolve) {
  const ThreeEquations P(10.0, 3);
  ResidualWeighting rw(P.p);
  P.add_to(rw);
  EXPECT_EQ(rw.rows(), 3 * P.samples);
  StreamingLeastSquares ls = rw.fit({}, 3, {});
  const std::vector<EquationGroupScale> scales = rw.scales();
  ASSERT_EQ(scales.size(), 3u);
  // Equations 0 and 1 are at their sensors' noise (floored at 1), equation 2 ten times above.
  EXPECT_EQ(scales[0].scale, 1.0);
  EXPECT_EQ(scales[1].scale, 1.0);
  EXPECT_NEAR(scales[2].scale, 10.0, 0.5);
  EXPECT_EQ(scales[2].rows, P.samples);
  const VectorX x = ls.solve().x;
  // The stream returned is the last weighting's: the dense solve with that scale.
  EXPECT_LT((x - P.dense(scales[2].scale)).norm(), 1e-10 * x.norm());
  // And the weighting pays: closer to the truth than the unweighted fit, over a few draws.
  double err_weighted = 0.0, err_plain = 0.0;
  for (unsigned seed = 10; seed < 20; ++seed) {
    const ThreeEquations Q(10.0, seed);
    ResidualWeighting q(Q.p);
    Q.add_to(q);
    err_weighted += (q.fit({}, 3, {}).solve().x - Q.x_true).squaredNorm();
    err_plain += (Q.dense(1.0) - Q.x_true).squaredNorm();
  }
  EXPECT_LT(err_weighted, 0.5 * err_plain);
}

TEST(ResidualWeighting, ErrorsBelowTheSensorsNoiseKeepTheSensorWeights) {
  const ThreeEquations P(1.0, 4, 0.8);
  ResidualWeighting rw(P.p);
  P.add_to(rw);
  int prior_calls = 0;
  StreamingLeastSquares ls = rw.fit([&](StreamingLeastSquares&) { ++prior_calls; }, 2, {});
  EXPECT_EQ(prior_calls, 3);  // each iteration's fit and the returned stream
  for (const EquationGroupScale& g : rw.scales()) EXPECT_EQ(g.scale, 1.0);
  EXPECT_LT((ls.solve().x - P.dense(1.0)).norm(), 1e-10 * P.x_true.norm());
}

TEST(ResidualWeighting, SamplesWithAnotherNumberOfEquationsFormTheirOwnGroups) {
  ResidualWeighting rw(2);
  const MatrixX A3 = MatrixX::Random(3, 2), A2 = MatrixX::Random(2, 2);
  rw.add(A3, VectorX::Zero(3), VectorX::Ones(3));
  rw.add(A2, VectorX::Zero(2), VectorX::Ones(2));
  rw.add(A3, VectorX::Zero(3), VectorX::Ones(3));
  const auto scales = rw.scales();
  ASSERT_EQ(scales.size(), 5u);
  EXPECT_EQ(scales[0].equations_per_sample, 3);
  EXPECT_EQ(scales[0].rows, 2);
  EXPECT_EQ(scales[3].equations_per_sample, 2);
  EXPECT_EQ(scales[4].equation, 1);
}

TEST(StreamingLeastSquares, WeightedMergeEqualsRowsAddedWithThoseWeights) {
  const ThreeEquations P(1.0, 5);
  StreamingLeastSquares direct(P.p), a(P.p), part(P.p, 64);
  const int half = 3 * P.samples / 2;
  direct.add(P.A.topRows(half), P.b.head(half), P.w.head(half));
  direct.add(P.A.bottomRows(half), P.b.tail(half), 7.0 * P.w.tail(half));
  a.add(P.A.topRows(half), P.b.head(half), P.w.head(half));
  part.add(P.A.bottomRows(half), P.b.tail(half), P.w.tail(half));  // leaves rows pending
  a.merge(part, 7.0);
  const LeastSquaresSolution s = a.solve(), d = direct.solve();
  EXPECT_LT((s.x - d.x).norm(), 1e-12 * d.x.norm());
  EXPECT_NEAR(a.residual_sum_of_squares(), direct.residual_sum_of_squares(), 1e-10 * direct.residual_sum_of_squares());
  EXPECT_THROW(a.merge(part, 0.0), std::invalid_argument);
  EXPECT_THROW(a.merge(part, -1.0), std::invalid_argument);
}

}  // namespace
}  // namespace dynid
