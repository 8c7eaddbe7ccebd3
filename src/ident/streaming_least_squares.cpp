#include "dynid/ident/streaming_least_squares.hpp"

#include <Eigen/QR>
#include <Eigen/SVD>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace dynid {

StreamingLeastSquares::StreamingLeastSquares(int num_parameters, int block_rows)
    : p_(num_parameters), block_rows_(block_rows > 0 ? block_rows : 4 * num_parameters) {
  if (num_parameters <= 0) throw std::invalid_argument("least squares needs at least one parameter");
  R_ = MatrixX::Zero(p_ + 1, p_ + 1);
  pending_ = MatrixX::Zero(block_rows_ + p_ + 1, p_ + 1);
}

void StreamingLeastSquares::add(const Eigen::Ref<const MatrixX>& A, const Eigen::Ref<const VectorX>& b) {
  add(A, b, VectorX::Ones(A.rows()));
}

void StreamingLeastSquares::add(const Eigen::Ref<const MatrixX>& A, const Eigen::Ref<const VectorX>& b,
                                const Eigen::Ref<const VectorX>& weights) {
  if (A.cols() != p_ || b.size() != A.rows() || weights.size() != A.rows())
    throw std::invalid_argument("least squares rows: A is " + std::to_string(A.rows()) + " x " +
                                std::to_string(A.cols()) + ", b has " + std::to_string(b.size()) + ", weights " +
                                std::to_string(weights.size()) + "; expected " + std::to_string(p_) + " columns");
  for (Eigen::Index r = 0; r < A.rows(); ++r) {
    if (!(weights[r] >= 0.0) || !std::isfinite(weights[r]))
      throw std::invalid_argument("least squares row weight " + std::to_string(weights[r]) +
                                  " is not a finite, non-negative number");
    if (!A.row(r).allFinite() || !std::isfinite(b[r]))
      throw std::invalid_argument("least squares row " + std::to_string(rows_ + r) + " has a NaN or infinite value");
    const double s = std::sqrt(weights[r]);
    pending_.row(pending_rows_).head(p_) = s * A.row(r);
    pending_(pending_rows_, p_) = s * b[r];
    if (++pending_rows_ == block_rows_) fold();
  }
  rows_ += A.rows();
}

void StreamingLeastSquares::fold() {
  if (pending_rows_ == 0) return;
  // Stack the current factor under the pending rows and re-triangularize.
  pending_.middleRows(pending_rows_, p_ + 1) = R_;
  const Eigen::Index m = pending_rows_ + p_ + 1;
  Eigen::HouseholderQR<MatrixX> qr(pending_.topRows(m));
  R_ = qr.matrixQR().topRows(std::min<Eigen::Index>(m, p_ + 1)).triangularView<Eigen::Upper>();
  pending_rows_ = 0;
}

const MatrixX& StreamingLeastSquares::information_factor() {
  fold();
  R_top_ = R_.topLeftCorner(p_, p_);
  return R_top_;
}

VectorX StreamingLeastSquares::factor_rhs() {
  fold();
  return R_.col(p_).head(p_);
}

double StreamingLeastSquares::residual_sum_of_squares() {
  fold();
  return R_(p_, p_) * R_(p_, p_);
}

LeastSquaresSolution StreamingLeastSquares::solve(const std::vector<std::string>& names, double rank_tolerance) {
  fold();
  if (rows_ < p_)
    throw std::runtime_error("least squares has " + std::to_string(rows_) + " rows for " + std::to_string(p_) +
                             " parameters: record more data");
  const MatrixX R = R_.topLeftCorner(p_, p_);
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
  out.x = R.triangularView<Eigen::Upper>().solve(R_.col(p_).head(p_));
  const double rss = R_(p_, p_) * R_(p_, p_);
  out.residual_rms = std::sqrt(rss / static_cast<double>(rows_));
  out.condition_number = sv[0] / sv[p_ - 1];
  // cov = sigma^2 (R^T R)^-1 = sigma^2 R^-1 R^-T; diag from the rows of R^-1.
  const double sigma2 = rows_ > p_ ? rss / static_cast<double>(rows_ - p_) : 0.0;
  const MatrixX Rinv = R.triangularView<Eigen::Upper>().solve(MatrixX::Identity(p_, p_));
  out.standard_deviation = (Rinv.rowwise().squaredNorm() * sigma2).cwiseSqrt();
  return out;
}

}  // namespace dynid
