#pragma once
// Least squares accumulated row block by row block, with memory independent of the number of
// samples: identification data sets of 72,000+ samples (paper 004) never exist as one matrix.
//
//   minimize  sum_k w_k (a_k x - b_k)^2
//
// The rows are folded into the upper-triangular factor R of the augmented matrix [A | b]
// (R <- qr([R; W^(1/2) [A_block | b_block]]).R), which keeps the conditioning of the data rather
// than squaring it as the normal equations would. The last diagonal entry of R is the residual norm.

#include <string>
#include <vector>

#include "dynid/spatial/skew.hpp"

namespace dynid {

struct LeastSquaresSolution {
  VectorX x;                      ///< estimate
  VectorX standard_deviation;     ///< sqrt(diag(cov)), cov = sigma^2 (A^T W A)^-1, sigma^2 = RSS / (m - p)
  double residual_rms = 0.0;      ///< sqrt(RSS / m), weighted rows
  double condition_number = 0.0;  ///< of the weighted A (from R's singular values)
  long rows = 0;
};

class StreamingLeastSquares {
 public:
  /// `block_rows`: rows buffered before each fold (0 = 4 * num_parameters).
  explicit StreamingLeastSquares(int num_parameters, int block_rows = 0);

  /// Adds rows A (m x p) and observations b (m), all with weight 1.
  void add(const Eigen::Ref<const MatrixX>& A, const Eigen::Ref<const VectorX>& b);
  /// Adds rows with per-row weights (e.g. 1 / sigma_k^2 to make force and torque rows unit-consistent).
  void add(const Eigen::Ref<const MatrixX>& A, const Eigen::Ref<const VectorX>& b,
           const Eigen::Ref<const VectorX>& weights);

  int num_parameters() const { return p_; }
  long rows() const { return rows_; }

  /// Solves. Throws std::runtime_error when A^T W A is singular at `rank_tolerance` (relative to the
  /// largest singular value), naming the unidentifiable directions by their largest components
  /// (`names` label the parameters; may be empty).
  LeastSquaresSolution solve(const std::vector<std::string>& names = {}, double rank_tolerance = 1e-10);

  /// The accumulated p x p factor R with R^T R = A^T W A (after folding pending rows).
  const MatrixX& information_factor();
  /// z with ||W^(1/2)(A x - b)||^2 = ||R x - z||^2 + residual_sum_of_squares() for every x.
  VectorX factor_rhs();
  double residual_sum_of_squares();

 private:
  void fold();

  int p_;
  int block_rows_;
  long rows_ = 0;
  MatrixX R_;        ///< (p + 1) x (p + 1), upper triangular factor of [A | b]
  MatrixX pending_;  ///< buffered weighted rows of [A | b]
  int pending_rows_ = 0;
  MatrixX R_top_;  ///< p x p view returned by information_factor()
};

}  // namespace dynid
