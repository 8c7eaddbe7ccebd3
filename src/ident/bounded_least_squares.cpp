#include "dynid/ident/bounded_least_squares.hpp"

#include <Eigen/QR>
#include <limits>
#include <stdexcept>

namespace dynid {

namespace {

// Unconstrained least squares over the passive columns; zeros elsewhere.
VectorX passive_solution(const MatrixX& A, const VectorX& b, const std::vector<bool>& passive) {
  std::vector<Eigen::Index> columns;
  for (std::size_t i = 0; i < passive.size(); ++i)
    if (passive[i]) columns.push_back(static_cast<Eigen::Index>(i));
  VectorX x = VectorX::Zero(A.cols());
  if (columns.empty()) return x;
  MatrixX Ap(A.rows(), static_cast<Eigen::Index>(columns.size()));
  for (std::size_t k = 0; k < columns.size(); ++k) Ap.col(static_cast<Eigen::Index>(k)) = A.col(columns[k]);
  const Eigen::ColPivHouseholderQR<MatrixX> qr(Ap);
  if (qr.rank() < Ap.cols()) throw std::runtime_error("bounded least squares: the passive columns are rank deficient");
  const VectorX y = qr.solve(b);
  for (std::size_t k = 0; k < columns.size(); ++k) x[columns[k]] = y[static_cast<Eigen::Index>(k)];
  return x;
}

}  // namespace

BoundedLeastSquares solve_bounded_least_squares(const MatrixX& A, const VectorX& b,
                                                const std::vector<bool>& nonnegative) {
  const Eigen::Index n = A.cols();
  if (A.rows() != b.size() || static_cast<Eigen::Index>(nonnegative.size()) != n)
    throw std::invalid_argument("bounded least squares: A, b and the constraint flags disagree in size");
  BoundedLeastSquares out;
  std::vector<bool> passive(static_cast<std::size_t>(n));
  for (Eigen::Index i = 0; i < n; ++i) passive[static_cast<std::size_t>(i)] = !nonnegative[static_cast<std::size_t>(i)];
  VectorX x = passive_solution(A, b, passive);
  const double tolerance = 1e-12 * std::max(1.0, A.norm() * b.norm());
  const int max_iterations = 10 * static_cast<int>(n) + 10;
  for (out.iterations = 0; out.iterations < max_iterations; ++out.iterations) {
    // Feasibility: move from x toward the passive solution as far as the bounds allow.
    for (int inner = 0; inner <= n; ++inner) {
      const VectorX z = passive_solution(A, b, passive);
      double step = 1.0;
      for (Eigen::Index i = 0; i < n; ++i) {
        const std::size_t k = static_cast<std::size_t>(i);
        if (passive[k] && nonnegative[k] && z[i] <= 0.0) {
          const double gap = x[i] - z[i];
          step = std::min(step, gap > 0.0 ? x[i] / gap : 0.0);
        }
      }
      if (step >= 1.0) {
        x = z;
        break;
      }
      x += step * (z - x);
      for (Eigen::Index i = 0; i < n; ++i) {
        const std::size_t k = static_cast<std::size_t>(i);
        if (passive[k] && nonnegative[k] && x[i] <= tolerance) {
          passive[k] = false;
          x[i] = 0.0;
        }
      }
    }
    // Optimality: the bounded unknown whose gradient most wants it above zero joins the passive set.
    const VectorX w = A.transpose() * (b - A * x);
    Eigen::Index best = -1;
    double largest = tolerance;
    for (Eigen::Index i = 0; i < n; ++i)
      if (!passive[static_cast<std::size_t>(i)] && w[i] > largest) {
        largest = w[i];
        best = i;
      }
    if (best < 0) break;
    passive[static_cast<std::size_t>(best)] = true;
  }
  out.x = x;
  out.at_bound.resize(static_cast<std::size_t>(n));
  for (Eigen::Index i = 0; i < n; ++i)
    out.at_bound[static_cast<std::size_t>(i)] = !passive[static_cast<std::size_t>(i)];
  return out;
}

}  // namespace dynid
