// Sign-constrained least squares against an exhaustive search: for every set of bounded unknowns
// held at zero, the unconstrained fit of the rest; the best feasible one is the optimum.

#include "dynid/ident/bounded_least_squares.hpp"

#include <gtest/gtest.h>

#include <Eigen/QR>
#include <limits>
#include <random>

namespace dynid {
namespace {

VectorX exhaustive_optimum(const MatrixX& A, const VectorX& b, const std::vector<bool>& nonnegative) {
  const int n = static_cast<int>(A.cols());
  double best_cost = std::numeric_limits<double>::infinity();
  VectorX best;
  for (int mask = 0; mask < (1 << n); ++mask) {  // bit set: held at zero
    bool valid = true;
    std::vector<Eigen::Index> keep;
    for (int i = 0; i < n; ++i) {
      const bool held = (mask >> i) & 1;
      if (held && !nonnegative[static_cast<std::size_t>(i)]) valid = false;
      if (!held) keep.push_back(i);
    }
    if (!valid) continue;
    VectorX x = VectorX::Zero(n);
    if (!keep.empty()) {
      MatrixX Ak(A.rows(), static_cast<Eigen::Index>(keep.size()));
      for (std::size_t k = 0; k < keep.size(); ++k) Ak.col(static_cast<Eigen::Index>(k)) = A.col(keep[k]);
      const VectorX y = Ak.colPivHouseholderQr().solve(b);
      for (std::size_t k = 0; k < keep.size(); ++k) x[keep[k]] = y[static_cast<Eigen::Index>(k)];
    }
    bool feasible = true;
    for (int i = 0; i < n; ++i)
      if (nonnegative[static_cast<std::size_t>(i)] && x[i] < -1e-12) feasible = false;
    const double cost = (A * x - b).squaredNorm();
    if (feasible && cost < best_cost) {
      best_cost = cost;
      best = x;
    }
  }
  return best;
}

TEST(BoundedLeastSquares, MatchesTheExhaustiveSearchOnRandomProblems) {
  std::mt19937 rng(20261127);
  std::normal_distribution<double> gauss;
  int bounds_active = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 2 + trial % 7, m = n + 3 + trial % 5;
    MatrixX A(m, n);
    VectorX b(m);
    for (int r = 0; r < m; ++r) {
      b[r] = gauss(rng);
      for (int c = 0; c < n; ++c) A(r, c) = gauss(rng);
    }
    std::vector<bool> nonnegative(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) nonnegative[static_cast<std::size_t>(i)] = (i + trial) % 3 != 0;
    const BoundedLeastSquares fit = solve_bounded_least_squares(A, b, nonnegative);
    const VectorX expected = exhaustive_optimum(A, b, nonnegative);
    ASSERT_EQ(fit.x.size(), n);
    EXPECT_LT((fit.x - expected).norm(), 1e-9 * (1.0 + expected.norm())) << "trial " << trial;
    for (int i = 0; i < n; ++i) {
      const std::size_t k = static_cast<std::size_t>(i);
      if (nonnegative[k]) {
        EXPECT_GE(fit.x[i], 0.0);
      }
      if (fit.at_bound[k]) {
        EXPECT_TRUE(nonnegative[k]);
        EXPECT_EQ(fit.x[i], 0.0);
        ++bounds_active;
      }
    }
  }
  EXPECT_GT(bounds_active, 100);  // the problems do exercise the bounds
}

TEST(BoundedLeastSquares, NoBoundsIsOrdinaryLeastSquares) {
  MatrixX A(4, 2);
  A << 1, 0, 0, 1, 1, 1, 2, -1;
  VectorX b(4);
  b << 1, -2, 0.5, 3;
  const BoundedLeastSquares fit = solve_bounded_least_squares(A, b, {false, false});
  EXPECT_LT((fit.x - A.colPivHouseholderQr().solve(b)).norm(), 1e-14);
}

TEST(BoundedLeastSquares, SizesMustAgree) {
  EXPECT_THROW(solve_bounded_least_squares(MatrixX::Identity(3, 2), VectorX::Zero(3), {true}), std::invalid_argument);
  EXPECT_THROW(solve_bounded_least_squares(MatrixX::Identity(3, 2), VectorX::Zero(2), {true, true}),
               std::invalid_argument);
}

}  // namespace
}  // namespace dynid
