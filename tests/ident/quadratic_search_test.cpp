#include "dynid/ident/quadratic_search.hpp"

#include <gtest/gtest.h>

#include <Eigen/Cholesky>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace dynid {
namespace {

TEST(QuadraticSearch, AQuadraticOfTwoVariablesIsMinimisedWhereItsGradientVanishes) {
  // A coupled quadratic, its minimum found analytically: H x* = -g.
  MatrixX H(2, 2);
  H << 4.0, 1.5, 1.5, 2.0;
  const VectorX g = (VectorX(2) << -0.03, 0.01).finished();
  auto cost = [&](const VectorX& x) { return 7.0 + g.dot(x) + 0.5 * x.dot(H * x); };
  const VectorX expected = -H.ldlt().solve(g);
  const QuadraticSearchResult r = quadratic_search(cost, VectorX::Zero(2));
  ASSERT_TRUE(r.converged) << r.warning;
  EXPECT_LT((r.x - expected).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_NEAR(r.cost, cost(expected), 1e-12);
  EXPECT_EQ(r.start_cost, 7.0);
  ASSERT_EQ(r.hessian.rows(), 2);
  EXPECT_LT((r.hessian - H).cwiseAbs().maxCoeff(), 1e-6);
}

TEST(QuadraticSearch, ACostThatIsNotQuadraticIsMinimisedToTheFinalStep) {
  // Far from quadratic beyond a few steps (cosh, a quartic term, coupling): the trust region of two
  // steps and the shrinking stencil still end within a fraction of the last step of the minimum.
  const VectorX minimum = (VectorX(2) << 0.012, -0.007).finished();
  auto cost = [&](const VectorX& x) {
    const VectorX d = x - minimum;
    return std::cosh(200.0 * d[0]) + 3e6 * std::pow(d[1], 4) + 1e4 * d[1] * d[1] + 2e3 * d[0] * d[1];
  };
  const QuadraticSearchResult r = quadratic_search(cost, VectorX::Zero(2));
  ASSERT_TRUE(r.converged) << r.warning;
  EXPECT_LT((r.x - minimum).cwiseAbs().maxCoeff(), 1e-4);
  EXPECT_LT(r.evaluations, 60);
}

TEST(QuadraticSearch, OneVariableAndAnOffsetBeyondTheSearchedRangeIsReported) {
  auto cost = [](const VectorX& x) { return (x[0] - 0.1) * (x[0] - 0.1); };
  const QuadraticSearchResult r = quadratic_search(cost, VectorX::Zero(1));
  EXPECT_FALSE(r.converged);
  EXPECT_NE(r.warning.find("edge of the searched range"), std::string::npos) << r.warning;
  EXPECT_NEAR(r.x[0], 0.03, 1e-12);  // the edge of the +-30 ms searched
}

TEST(QuadraticSearch, AStartWithoutAFiniteCostOrSillyStepsAreRefused) {
  auto nan_cost = [](const VectorX&) { return std::numeric_limits<double>::quiet_NaN(); };
  EXPECT_THROW(quadratic_search(nan_cost, VectorX::Zero(1)), std::invalid_argument);
  auto cost = [](const VectorX& x) { return x.squaredNorm(); };
  QuadraticSearchOptions o;
  o.final_step = o.initial_step;
  EXPECT_THROW(quadratic_search(cost, VectorX::Zero(1), o), std::invalid_argument);
  EXPECT_THROW(quadratic_search(cost, VectorX::Zero(4)), std::invalid_argument);
}

TEST(QuadraticSearch, ACostThatIsNotFiniteBesideTheStartIsAvoided) {
  // Infinite to the left of 0.002: the stencil there has no model; the search walks right.
  auto cost = [](const VectorX& x) {
    return x[0] < -0.002 ? std::numeric_limits<double>::infinity() : (x[0] - 0.01) * (x[0] - 0.01);
  };
  const QuadraticSearchResult r = quadratic_search(cost, VectorX::Zero(1));
  EXPECT_NEAR(r.x[0], 0.01, 1e-6);
}

}  // namespace
}  // namespace dynid
