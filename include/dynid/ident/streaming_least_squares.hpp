#pragma once
// Least squares accumulated row block by row block, with memory independent of the number of
// samples: identification data sets of 72,000+ samples (paper 004) never exist as one matrix.
//
//   minimize  sum_k w_k (a_k x - b_k)^2
//
// The rows are folded into the upper-triangular factor R of the augmented matrix [A | b]
// (R <- qr([R; W^(1/2) [A_block | b_block]]).R), which keeps the conditioning of the data rather
// than squaring it as the normal equations would. The last diagonal entry of R is the residual norm.
//
// Structure: rows that are zero outside a known set of columns (a joint's torque row involves only
// the parameters of its subtree; the force rows of the base-link equations never involve rotational
// inertia) can go to a column group, whose own factor has only those columns. A row of w nonzero
// columns then costs (w / p)^2 of a full row. Group factors join the full factor when a result is
// asked for; the result is that of one stream of all rows (R^T R = sum of the groups' R_g^T R_g).
// Streams filled on different threads merge the same way (merge()), in a fixed order.

#include <Eigen/QR>
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
  /// `block_rows`: rows buffered before each fold (0 = max(4 (columns + 1), 1024) per column group).
  explicit StreamingLeastSquares(int num_parameters, int block_rows = 0);

  /// Adds rows A (m x p) and observations b (m), all with weight 1.
  void add(const Eigen::Ref<const MatrixX>& A, const Eigen::Ref<const VectorX>& b);
  /// Adds rows with per-row weights (e.g. 1 / sigma_k^2 to make force and torque rows unit-consistent).
  void add(const Eigen::Ref<const MatrixX>& A, const Eigen::Ref<const VectorX>& b,
           const Eigen::Ref<const VectorX>& weights);

  /// Declares a column group for rows that are zero outside `columns` (ascending, distinct indices
  /// into 0 .. p-1) and returns its id for add(group, ...). Throws std::invalid_argument for bad indices.
  int add_column_group(const std::vector<int>& columns);
  /// Adds rows of a column group: A is m x columns.size() and holds those columns only.
  void add(int group, const Eigen::Ref<const MatrixX>& A, const Eigen::Ref<const VectorX>& b);
  void add(int group, const Eigen::Ref<const MatrixX>& A, const Eigen::Ref<const VectorX>& b,
           const Eigen::Ref<const VectorX>& weights);

  /// Adds everything `other` (same number of parameters) has accumulated, as if its rows had been
  /// added here; `other` is unchanged. For parallel accumulation: one stream per thread, merged in a
  /// fixed order, gives a result independent of timing. `weight` (> 0) multiplies the weights of
  /// all of `other`'s rows (re-weighting a group of rows after the fact).
  void merge(const StreamingLeastSquares& other, double weight = 1.0);

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
  /// Rows confined to `columns`, folded into their own factor of [A_columns | b].
  struct Group {
    std::vector<int> columns;  ///< parameter indices, ascending
    MatrixX R;                 ///< (w + 1) x (w + 1), upper triangular, w = columns.size()
    MatrixX pending;           ///< buffered weighted rows, with room below for R
    int pending_rows = 0;
    int block_rows = 0;
    bool empty = true;  ///< R is zero (nothing folded since it last joined the full factor)
    VectorX work;       ///< 2 (w + 1) scratch of the triangularization
  };

  Group make_group(std::vector<int> columns) const;
  void add_rows(Group& g, const Eigen::Ref<const MatrixX>& A, const Eigen::Ref<const VectorX>& b,
                const double* weights);
  /// Appends one already weighted row of [A_columns | b] (w + 1 entries).
  template <typename Row>
  void append_weighted_row(Group& g, const Row& row);
  void fold(Group& g);
  /// Folds every group into the full factor (groups_[0]).
  void fold_all();
  const MatrixX& full_factor() const { return groups_[0].R; }

  int p_;
  int block_rows_;  ///< requested rows per fold (0 = the default per group)
  long rows_ = 0;
  std::vector<Group> groups_;  ///< [0]: all columns
  MatrixX R_top_;              ///< p x p view returned by information_factor()
};

}  // namespace dynid
