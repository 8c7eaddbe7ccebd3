#include "dynid/locomotion/discrete_riccati.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <stdexcept>
#include <string>

namespace dynid {

namespace {

void check_sizes(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, const Eigen::MatrixXd& Q,
                 const Eigen::MatrixXd& R) {
  const auto n = A.rows();
  const auto m = B.cols();
  if (A.cols() != n || B.rows() != n || Q.rows() != n || Q.cols() != n || R.rows() != m || R.cols() != m) {
    throw std::invalid_argument("discrete Riccati equation: sizes do not match (A " + std::to_string(A.rows()) + "x" +
                                std::to_string(A.cols()) + ", B " + std::to_string(B.rows()) + "x" +
                                std::to_string(B.cols()) + ", Q " + std::to_string(Q.rows()) + "x" +
                                std::to_string(Q.cols()) + ", R " + std::to_string(R.rows()) + "x" +
                                std::to_string(R.cols()) + ")");
  }
}

// Newton steps on the DARE from a converged P: with K = (R + BᵀPB)^-1 BᵀPA and Ac = A - B K, the
// derivative of the right-hand side at P is D -> Acᵀ D Ac, so the correction solves the Stein
// equation D - Acᵀ D Ac = residual(P). The doubling iterates accumulate rounding relative to the
// largest entries of P; a correction computed from the residual itself brings the residual down to
// the rounding of its own evaluation. Solved through the Kronecker form (n^2 unknowns), so only for
// small systems.
void refine(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, const Eigen::MatrixXd& Q, const Eigen::MatrixXd& R,
            Eigen::MatrixXd& P) {
  const auto n = A.rows();
  if (n > 16) return;
  for (int step = 0; step < 2; ++step) {
    const Eigen::MatrixXd K = (R + B.transpose() * P * B).ldlt().solve(B.transpose() * P * A);
    const Eigen::MatrixXd Ac = A - B * K;
    const Eigen::MatrixXd residual = discrete_riccati_residual(A, B, Q, R, P);
    // vec(Acᵀ D Ac) = (Acᵀ ⊗ Acᵀ) vec(D), column-major vec.
    Eigen::MatrixXd stein = Eigen::MatrixXd::Identity(n * n, n * n);
    for (Eigen::Index j = 0; j < n; ++j) {
      for (Eigen::Index i = 0; i < n; ++i) stein.block(i * n, j * n, n, n) -= Ac(j, i) * Ac.transpose();
    }
    const Eigen::VectorXd d = stein.partialPivLu().solve(residual.reshaped());
    P += d.reshaped(n, n);
    P = 0.5 * (P + P.transpose()).eval();
  }
}

}  // namespace

DiscreteRiccatiSolution solve_discrete_riccati(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                                               const Eigen::MatrixXd& Q, const Eigen::MatrixXd& R,
                                               double relative_tolerance, int max_iterations) {
  check_sizes(A, B, Q, R);
  const Eigen::LLT<Eigen::MatrixXd> R_llt(R);
  if (R_llt.info() != Eigen::Success) {
    throw std::invalid_argument("discrete Riccati equation: the input weight R is not positive definite");
  }
  const auto n = A.rows();
  const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(n, n);
  // SDA (Chu, Fan, Lin, Wang 2004): with A_0 = A, G_0 = B R^-1 B^T, H_0 = Q and W_k = I + G_k H_k,
  //   A_{k+1} = A_k W_k^-1 A_k,  G_{k+1} = G_k + A_k W_k^-1 G_k A_k^T,  H_{k+1} = H_k + A_k^T H_k W_k^-1 A_k;
  // H_k is the Riccati recursion from P = Q after 2^k steps and converges to the stabilizing P.
  Eigen::MatrixXd Ak = A;
  Eigen::MatrixXd G = B * R_llt.solve(B.transpose());
  Eigen::MatrixXd H = Q;
  for (int k = 1; k <= max_iterations; ++k) {
    const Eigen::PartialPivLU<Eigen::MatrixXd> W(I + G * H);
    const Eigen::MatrixXd W_inv_A = W.solve(Ak);
    const Eigen::MatrixXd H_next = H + Ak.transpose() * H * W_inv_A;
    G += Ak * W.solve(G) * Ak.transpose();
    G = 0.5 * (G + G.transpose()).eval();
    Ak = Ak * W_inv_A;
    // Max norms: the Frobenius norm overflows long before the entries of a diverging H do.
    const double change = (H_next - H).cwiseAbs().maxCoeff();
    H = 0.5 * (H_next + H_next.transpose());
    if (!H.allFinite()) break;
    if (!(change <= relative_tolerance * H.cwiseAbs().maxCoeff())) continue;
    refine(A, B, Q, R, H);
    if (!H.allFinite()) break;
    return {H, k};
  }
  throw std::runtime_error("discrete Riccati equation: the doubling algorithm diverged or did not converge within " +
                           std::to_string(max_iterations) +
                           " iterations; check that (A, B) is stabilizable and (A, Q) detectable");
}

Eigen::MatrixXd discrete_riccati_residual(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, const Eigen::MatrixXd& Q,
                                          const Eigen::MatrixXd& R, const Eigen::MatrixXd& P) {
  check_sizes(A, B, Q, R);
  const Eigen::MatrixXd BtPA = B.transpose() * P * A;
  const Eigen::MatrixXd S = R + B.transpose() * P * B;
  return A.transpose() * P * A - BtPA.transpose() * S.ldlt().solve(BtPA) + Q - P;
}

}  // namespace dynid
