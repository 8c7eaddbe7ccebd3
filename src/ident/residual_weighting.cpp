#include "dynid/ident/residual_weighting.hpp"

#include <cmath>
#include <stdexcept>

namespace dynid {

ResidualWeighting::ResidualWeighting(int num_parameters) : p_(num_parameters), row_(1, num_parameters) {}

void ResidualWeighting::add(const Eigen::Ref<const MatrixX>& A, const Eigen::Ref<const VectorX>& b,
                            const Eigen::Ref<const VectorX>& weights) {
  const int r = static_cast<int>(A.rows());
  for (int i = 0; i < r; ++i) {
    auto [it, inserted] = group_of_.try_emplace({r, i}, static_cast<int>(groups_.size()));
    if (inserted) {
      // Rows of a group arrive one per sample: small blocks keep the buffers of many groups small.
      groups_.emplace_back(p_, 256);
      scales_.push_back({r, i, 0, 1.0, ""});
    }
    const int g = it->second;
    row_ = A.row(i);  // contiguous copy: the stream takes a matrix of rows
    groups_[static_cast<std::size_t>(g)].add(row_, b.segment(i, 1), weights.segment(i, 1));
    ++scales_[static_cast<std::size_t>(g)].rows;
  }
  rows_ += r;
}

StreamingLeastSquares ResidualWeighting::merged() {
  StreamingLeastSquares all(p_);
  for (std::size_t g = 0; g < groups_.size(); ++g) all.merge(groups_[g], 1.0 / (scales_[g].scale * scales_[g].scale));
  return all;
}

StreamingLeastSquares ResidualWeighting::fit(const std::function<void(StreamingLeastSquares&)>& finish, int iterations,
                                             const std::vector<std::string>& names) {
  if (groups_.empty()) throw std::runtime_error("residual weighting: no equations");
  for (int k = 0; k < iterations; ++k) {
    StreamingLeastSquares all = merged();
    if (finish) finish(all);
    const VectorX x = all.solve(names).x;
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      StreamingLeastSquares& G = groups_[g];
      const double rss = (G.information_factor().triangularView<Eigen::Upper>() * x - G.factor_rhs()).squaredNorm() +
                         G.residual_sum_of_squares();
      scales_[g].scale = std::sqrt(std::max(1.0, rss / static_cast<double>(std::max(1L, scales_[g].rows))));
    }
  }
  StreamingLeastSquares all = merged();
  if (finish) finish(all);
  return all;
}

std::vector<EquationGroupScale> ResidualWeighting::scales() const { return scales_; }

}  // namespace dynid
