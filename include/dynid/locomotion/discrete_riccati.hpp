#pragma once
// Discrete-time algebraic Riccati equation (DARE) of the infinite-horizon linear-quadratic regulator
//
//   P = A^T P A - A^T P B (R + B^T P B)^{-1} B^T P A + Q,
//
// for x(k+1) = A x(k) + B u(k) and the cost sum x^T Q x + u^T R u. The stabilizing solution P is
// what the ZMP preview servo of Kajita et al. 2003 needs (locomotion/zmp_preview_control.hpp), computed
// here with Eigen only.
//
// Solved by the structure-preserving doubling algorithm (SDA; Chu, Fan, Lin, Wang 2004): iteration
// k sums the Riccati recursion over 2^k steps, so it converges quadratically. The plain recursion
// P <- A^T P A - ... + Q converges only as fast as the closed loop decays; at the 5 ms sampling of
// a walking pattern its slowest pole is close to 1, which costs thousands of plain iterations and
// leaves a residual near the stopping tolerance, not near machine precision.

#include <Eigen/Core>

namespace dynid {

struct DiscreteRiccatiSolution {
  Eigen::MatrixXd P;   ///< stabilizing solution (n x n, symmetric positive semi-definite)
  int iterations = 0;  ///< doubling iterations used
};

/// Stabilizing solution of the DARE. A (n x n), B (n x m), Q (n x n, symmetric PSD), R (m x m,
/// symmetric positive definite). Requires (A, B) stabilizable and (A, Q^{1/2}) detectable; throws
/// std::invalid_argument on wrong sizes or a non positive-definite R, std::runtime_error when the
/// doubling does not converge within `max_iterations` (then the pair is not stabilizable/detectable).
DiscreteRiccatiSolution solve_discrete_riccati(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                                               const Eigen::MatrixXd& Q, const Eigen::MatrixXd& R,
                                               double relative_tolerance = 1e-14, int max_iterations = 80);

/// Right-hand side minus left-hand side of the DARE at P (zero at a solution).
Eigen::MatrixXd discrete_riccati_residual(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, const Eigen::MatrixXd& Q,
                                          const Eigen::MatrixXd& R, const Eigen::MatrixXd& P);

}  // namespace dynid
