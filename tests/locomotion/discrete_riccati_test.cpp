// The doubling DARE solver checked against the closed-form scalar solution and against the plain
// Riccati recursion (a second, independent way to reach the same fixed point).

#include "dynid/locomotion/discrete_riccati.hpp"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <random>
#include <stdexcept>

namespace dynid {
namespace {

TEST(DiscreteRiccati, ScalarMatchesClosedForm) {
  // b^2 P^2 + (r - a^2 r - q b^2) P - q r = 0, positive root; a > 1 makes the open loop unstable.
  const double a = 1.2, b = 0.5, q = 2.0, r = 0.3;
  const double lin = r - a * a * r - q * b * b;
  const double expected = (-lin + std::sqrt(lin * lin + 4.0 * b * b * q * r)) / (2.0 * b * b);
  const auto solution = solve_discrete_riccati(Eigen::MatrixXd::Constant(1, 1, a), Eigen::MatrixXd::Constant(1, 1, b),
                                               Eigen::MatrixXd::Constant(1, 1, q), Eigen::MatrixXd::Constant(1, 1, r));
  EXPECT_NEAR(solution.P(0, 0), expected, 1e-12 * expected);
}

TEST(DiscreteRiccati, MatchesPlainRecursionOnRandomSystems) {
  std::mt19937 rng(7);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 10; ++trial) {
    const int n = 2 + trial % 4, m = 1 + trial % 2;
    Eigen::MatrixXd A(n, n), B(n, m), L(n, n), M(m, m);
    for (auto* X : {&A, &B, &L, &M}) *X = X->unaryExpr([&](double) { return normal(rng); });
    A *= 1.1 / A.eigenvalues().cwiseAbs().maxCoeff();  // open loop unstable, like the cart-table
    const Eigen::MatrixXd Q = L * L.transpose() + 0.1 * Eigen::MatrixXd::Identity(n, n);
    const Eigen::MatrixXd R = M * M.transpose() + 0.1 * Eigen::MatrixXd::Identity(m, m);

    const auto solution = solve_discrete_riccati(A, B, Q, R);
    const Eigen::MatrixXd residual = discrete_riccati_residual(A, B, Q, R, solution.P);
    EXPECT_LT(residual.norm(), 1e-11 * solution.P.norm()) << "trial " << trial;

    Eigen::MatrixXd P = Q;  // the recursion the doubling algorithm accelerates, run to its fixed point
    for (int k = 0; k < 20000; ++k) {
      const Eigen::MatrixXd step = discrete_riccati_residual(A, B, Q, R, P);
      const Eigen::MatrixXd next = P + step;
      P = 0.5 * (next + next.transpose());  // rounding breaks symmetry, and the asymmetry grows
      if (step.norm() < 1e-15 * P.norm()) break;
    }
    EXPECT_LT((P - solution.P).norm(), 1e-8 * solution.P.norm()) << "trial " << trial;

    // Stabilizing: the LQ closed loop A - B K has its poles inside the unit circle.
    const Eigen::MatrixXd K = (R + B.transpose() * solution.P * B).ldlt().solve(B.transpose() * solution.P * A);
    EXPECT_LT((A - B * K).eigenvalues().cwiseAbs().maxCoeff(), 1.0) << "trial " << trial;
  }
}

TEST(DiscreteRiccati, RejectsBadInput) {
  const Eigen::MatrixXd A = Eigen::Vector2d(2.0, 0.5).asDiagonal();
  const Eigen::MatrixXd B = Eigen::Vector2d(0.0, 1.0);
  const Eigen::MatrixXd I2 = Eigen::MatrixXd::Identity(2, 2);
  // The unstable mode 2 is not reachable from the input: no stabilizing solution exists.
  EXPECT_THROW(solve_discrete_riccati(A, B, I2, Eigen::MatrixXd::Identity(1, 1)), std::runtime_error);
  EXPECT_THROW(solve_discrete_riccati(A, B, I2, -Eigen::MatrixXd::Identity(1, 1)), std::invalid_argument);
  EXPECT_THROW(solve_discrete_riccati(A, B, Eigen::MatrixXd::Identity(3, 3), Eigen::MatrixXd::Identity(1, 1)),
               std::invalid_argument);
}

}  // namespace
}  // namespace dynid
