#include "dynid/ident/streaming_least_squares.hpp"

#include "dynid/ident/householder_kernel.hpp"

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace dynid {

StreamingLeastSquares::StreamingLeastSquares(int num_parameters, int block_rows)
    : p_(num_parameters), block_rows_(std::max(block_rows, 0)) {
  if (num_parameters <= 0) throw std::invalid_argument("least squares needs at least one parameter");
  std::vector<int> all(static_cast<std::size_t>(p_));
  for (int i = 0; i < p_; ++i) all[static_cast<std::size_t>(i)] = i;
  groups_.push_back(make_group(std::move(all)));
}

StreamingLeastSquares::Group StreamingLeastSquares::make_group(std::vector<int> columns) const {
  Group g;
  g.columns = std::move(columns);
  const int w = static_cast<int>(g.columns.size());
  // Default: at least 1024 rows per fold, so the factor's own w + 1 rows stacked under the new ones
  // are a small part of each QR and small groups do not fold after every few samples.
  g.block_rows = block_rows_ > 0 ? block_rows_ : std::max(4 * (w + 1), 1024);
  g.R = MatrixX::Zero(w + 1, w + 1);
  g.pending = MatrixX::Zero(g.block_rows + w + 1, w + 1);
  g.work = VectorX::Zero(2 * (w + 1));
  return g;
}

int StreamingLeastSquares::add_column_group(const std::vector<int>& columns) {
  for (std::size_t k = 0; k < columns.size(); ++k)
    if (columns[k] < 0 || columns[k] >= p_ || (k > 0 && columns[k] <= columns[k - 1]))
      throw std::invalid_argument("least squares column group: columns must be ascending, distinct indices below " +
                                  std::to_string(p_) + " (entry " + std::to_string(k) + " is " +
                                  std::to_string(columns[k]) + ")");
  groups_.push_back(make_group(columns));
  return static_cast<int>(groups_.size()) - 1;
}

void StreamingLeastSquares::add(const Eigen::Ref<const MatrixX>& A, const Eigen::Ref<const VectorX>& b) {
  add_rows(groups_[0], A, b, nullptr);
}

void StreamingLeastSquares::add(const Eigen::Ref<const MatrixX>& A, const Eigen::Ref<const VectorX>& b,
                                const Eigen::Ref<const VectorX>& weights) {
  if (weights.size() != A.rows())
    throw std::invalid_argument("least squares rows: A has " + std::to_string(A.rows()) + " rows, weights " +
                                std::to_string(weights.size()));
  add_rows(groups_[0], A, b, weights.data());
}

void StreamingLeastSquares::add(int group, const Eigen::Ref<const MatrixX>& A, const Eigen::Ref<const VectorX>& b) {
  if (group < 0 || group >= static_cast<int>(groups_.size()))
    throw std::invalid_argument("least squares: no column group " + std::to_string(group));
  add_rows(groups_[static_cast<std::size_t>(group)], A, b, nullptr);
}

void StreamingLeastSquares::add(int group, const Eigen::Ref<const MatrixX>& A, const Eigen::Ref<const VectorX>& b,
                                const Eigen::Ref<const VectorX>& weights) {
  if (group < 0 || group >= static_cast<int>(groups_.size()))
    throw std::invalid_argument("least squares: no column group " + std::to_string(group));
  if (weights.size() != A.rows())
    throw std::invalid_argument("least squares rows: A has " + std::to_string(A.rows()) + " rows, weights " +
                                std::to_string(weights.size()));
  add_rows(groups_[static_cast<std::size_t>(group)], A, b, weights.data());
}

void StreamingLeastSquares::add_rows(Group& g, const Eigen::Ref<const MatrixX>& A, const Eigen::Ref<const VectorX>& b,
                                     const double* weights) {
  const Eigen::Index w = static_cast<Eigen::Index>(g.columns.size());
  if (A.cols() != w || b.size() != A.rows())
    throw std::invalid_argument("least squares rows: A is " + std::to_string(A.rows()) + " x " +
                                std::to_string(A.cols()) + ", b has " + std::to_string(b.size()) + "; expected " +
                                std::to_string(w) + " columns");
  // Validate the whole block first (vectorized); name the first bad row only when there is one.
  for (Eigen::Index r = 0; weights && r < A.rows(); ++r)
    if (!(weights[r] >= 0.0) || !std::isfinite(weights[r]))
      throw std::invalid_argument("least squares row weight " + std::to_string(weights[r]) +
                                  " is not a finite, non-negative number");
  // A block that spans a fold is checked whole first, so that a bad row leaves the stream unchanged;
  // a block that fits the buffer (every per-sample call) is checked as it is copied.
  const auto name_bad_row = [&](Eigen::Index from, Eigen::Index to) {
    for (Eigen::Index r = from; r < to; ++r)
      if (!A.row(r).allFinite() || !std::isfinite(b[r]))
        throw std::invalid_argument("least squares row " + std::to_string(rows_ + r) + " has a NaN or infinite value");
  };
  if (A.rows() > g.block_rows - g.pending_rows && (!A.allFinite() || !b.allFinite())) name_bad_row(0, A.rows());
  // Copy the rows into the column-major buffer, folding each time it fills. A plain strided loop:
  // calls bring a few rows of up to p + 1 entries, where Eigen's block assignment spends its time
  // setting up each column. |x| <= max is false for NaN and infinities.
  constexpr double kMax = std::numeric_limits<double>::max();
  const Eigen::Index ld = g.pending.rows(), lda = A.outerStride();
  for (Eigen::Index r = 0; r < A.rows();) {
    const Eigen::Index k = std::min<Eigen::Index>(A.rows() - r, g.block_rows - g.pending_rows);
    bool finite = true;
    for (Eigen::Index i = 0; i < k; ++i) {
      const double s = weights && weights[r + i] != 1.0 ? std::sqrt(weights[r + i]) : 1.0;
      const double* src = A.data() + (r + i);
      double* dst = g.pending.data() + (g.pending_rows + i);
      for (Eigen::Index c = 0; c < w; ++c) {
        const double x = src[c * lda];
        finite &= std::abs(x) <= kMax;
        dst[c * ld] = s * x;
      }
      finite &= std::abs(b[r + i]) <= kMax;
      dst[w * ld] = s * b[r + i];
    }
    if (!finite) name_bad_row(r, r + k);  // copied past the counted rows only: nothing added
    r += k;
    g.pending_rows += static_cast<int>(k);
    if (g.pending_rows == g.block_rows) fold(g);
  }
  rows_ += A.rows();
}

template <typename Row>
void StreamingLeastSquares::append_weighted_row(Group& g, const Row& row) {
  g.pending.row(g.pending_rows) = row;
  if (++g.pending_rows == g.block_rows) fold(g);
}

void StreamingLeastSquares::fold(Group& g) {
  if (g.pending_rows == 0) return;
  // Stack the current factor under the pending rows and re-triangularize.
  const Eigen::Index n = g.R.rows();
  g.pending.middleRows(g.pending_rows, n) = g.R;
  householder_triangularize(g.pending.data(), g.pending_rows + n, n, g.pending.rows(), g.work.data());
  g.R = g.pending.topRows(n).triangularView<Eigen::Upper>();
  g.pending_rows = 0;
  g.empty = false;
}

void StreamingLeastSquares::fold_all() {
  Group& full = groups_[0];
  Eigen::RowVectorXd row(p_ + 1);
  for (std::size_t k = 1; k < groups_.size(); ++k) {
    Group& g = groups_[k];
    fold(g);
    if (g.empty) continue;
    // The group's factor rows, scattered to their columns, are rows of the full problem.
    const Eigen::Index w = static_cast<Eigen::Index>(g.columns.size());
    for (Eigen::Index r = 0; r <= w; ++r) {
      row.setZero();
      for (Eigen::Index c = r; c < w; ++c) row[g.columns[static_cast<std::size_t>(c)]] = g.R(r, c);
      row[p_] = g.R(r, w);
      append_weighted_row(full, row);
    }
    g.R.setZero();
    g.empty = true;
  }
  fold(full);
}

void StreamingLeastSquares::merge(const StreamingLeastSquares& other, double weight) {
  if (other.p_ != p_)
    throw std::invalid_argument("least squares merge: " + std::to_string(other.p_) + " parameters into " +
                                std::to_string(p_));
  if (&other == this) throw std::invalid_argument("least squares merge: a stream cannot merge itself");
  if (!(weight > 0.0) || !std::isfinite(weight))
    throw std::invalid_argument("least squares merge: the weight must be positive and finite");
  const double scale = std::sqrt(weight);
  for (const Group& h : other.groups_) {
    // The matching group here (same columns), or a new one.
    std::size_t k = 0;
    while (k < groups_.size() && groups_[k].columns != h.columns) ++k;
    if (k == groups_.size()) groups_.push_back(make_group(h.columns));
    Group& g = groups_[k];
    for (int r = 0; r < h.pending_rows; ++r) append_weighted_row(g, scale * h.pending.row(r));
    if (!h.empty)
      for (Eigen::Index r = 0; r < h.R.rows(); ++r) append_weighted_row(g, scale * h.R.row(r));
  }
  rows_ += other.rows_;
}

const MatrixX& StreamingLeastSquares::information_factor() {
  fold_all();
  R_top_ = full_factor().topLeftCorner(p_, p_);
  return R_top_;
}

VectorX StreamingLeastSquares::factor_rhs() {
  fold_all();
  return full_factor().col(p_).head(p_);
}

double StreamingLeastSquares::residual_sum_of_squares() {
  fold_all();
  return full_factor()(p_, p_) * full_factor()(p_, p_);
}

LeastSquaresSolution StreamingLeastSquares::solve(const std::vector<std::string>& names, double rank_tolerance) {
  fold_all();
  const MatrixX& Rb = full_factor();  // [R z; 0 residual norm]
  if (rows_ < p_)
    throw std::runtime_error("least squares has " + std::to_string(rows_) + " rows for " + std::to_string(p_) +
                             " parameters: record more data");
  const MatrixX R = Rb.topLeftCorner(p_, p_);
  Eigen::JacobiSVD<MatrixX> svd(R, Eigen::ComputeFullV);
  const VectorX sv = svd.singularValues();
  if (!(sv[p_ - 1] > rank_tolerance * sv[0])) {
    // Name the worst-determined direction by its largest components.
    const VectorX dir = svd.matrixV().col(p_ - 1);
    std::ostringstream why;
    why << "the data do not determine all " << p_ << " parameters (condition number "
        << (sv[p_ - 1] > 0.0 ? sv[0] / sv[p_ - 1] : INFINITY) << "); the least determined combination is";
    std::vector<std::pair<double, int>> parts;
    for (int i = 0; i < p_; ++i) parts.push_back({std::abs(dir[i]), i});
    std::sort(parts.rbegin(), parts.rend());
    for (int k = 0; k < std::min(4, p_) && parts[static_cast<std::size_t>(k)].first > 1e-3; ++k) {
      const int i = parts[static_cast<std::size_t>(k)].second;
      why << (k ? " + " : " ") << dir[i] << "*"
          << (static_cast<std::size_t>(i) < names.size() ? names[static_cast<std::size_t>(i)]
                                                         : "p" + std::to_string(i));
    }
    why << " (excite the motion that changes it, or fix it from a prior)";
    throw std::runtime_error(why.str());
  }
  LeastSquaresSolution out;
  out.rows = rows_;
  out.x = R.triangularView<Eigen::Upper>().solve(Rb.col(p_).head(p_));
  const double rss = Rb(p_, p_) * Rb(p_, p_);
  out.residual_rms = std::sqrt(rss / static_cast<double>(rows_));
  out.condition_number = sv[0] / sv[p_ - 1];
  // cov = sigma^2 (R^T R)^-1 = sigma^2 R^-1 R^-T; diag from the rows of R^-1.
  const double sigma2 = rows_ > p_ ? rss / static_cast<double>(rows_ - p_) : 0.0;
  const MatrixX Rinv = R.triangularView<Eigen::Upper>().solve(MatrixX::Identity(p_, p_));
  out.standard_deviation = (Rinv.rowwise().squaredNorm() * sigma2).cwiseSqrt();
  return out;
}

}  // namespace dynid
