#include "dynid/ident/quadratic_search.hpp"

#include <Eigen/Cholesky>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <vector>

#include "dynid/core/number_format.hpp"

namespace dynid {

namespace {

/// Costs already evaluated, by point (rounded far below any step, so a point revisited is a hit).
class CostCache {
 public:
  CostCache(const std::function<double(const VectorX&)>& cost, double resolution)
      : cost_(cost), resolution_(resolution) {}

  double operator()(const VectorX& x) {
    std::vector<long long> key(static_cast<std::size_t>(x.size()));
    for (Eigen::Index i = 0; i < x.size(); ++i) key[static_cast<std::size_t>(i)] = std::llround(x[i] / resolution_);
    const auto hit = costs_.find(key);
    if (hit != costs_.end()) return hit->second.second;
    double c = cost_(x);
    if (!std::isfinite(c)) c = std::numeric_limits<double>::infinity();
    costs_.emplace(std::move(key), std::make_pair(x, c));
    return c;
  }

  int evaluations() const { return static_cast<int>(costs_.size()); }

  /// The point of the lowest cost evaluated within `bound` of `start` on every axis (the stencil
  /// reaches a step beyond it), and that cost; `start` itself is always evaluated first.
  const VectorX& best_point(const VectorX& start, double bound) const { return best(start, bound)->second.first; }
  double best_cost(const VectorX& start, double bound) const { return best(start, bound)->second.second; }

 private:
  using Costs = std::map<std::vector<long long>, std::pair<VectorX, double>>;
  Costs::const_iterator best(const VectorX& start, double bound) const {
    auto b = costs_.end();
    for (auto it = costs_.begin(); it != costs_.end(); ++it) {
      if (((it->second.first - start).array().abs() > bound * (1.0 + 1e-12)).any()) continue;
      if (b == costs_.end() || it->second.second < b->second.second) b = it;
    }
    return b;
  }
  const std::function<double(const VectorX&)>& cost_;
  double resolution_;
  Costs costs_;
};

}  // namespace

QuadraticSearchResult quadratic_search(const std::function<double(const VectorX&)>& cost, const VectorX& start,
                                       const QuadraticSearchOptions& options) {
  const Eigen::Index n = start.size();
  if (n < 1 || n > 3) throw std::invalid_argument("quadratic_search: one to three variables");
  if (!(options.initial_step > 0.0 && options.final_step > 0.0 && options.final_step < options.initial_step &&
        options.max_shift >= options.initial_step))
    throw std::invalid_argument("quadratic_search: steps must satisfy 0 < final_step < initial_step <= max_shift");
  CostCache f(cost, 1e-6 * options.final_step);
  QuadraticSearchResult r;
  r.start_cost = f(start);
  if (!std::isfinite(r.start_cost))
    throw std::invalid_argument("quadratic_search: the cost at the start is not finite");
  VectorX centre = start;
  double h = options.initial_step;
  auto inside = [&](const VectorX& x) {
    return ((x - start).array().abs() <= options.max_shift * (1.0 + 1e-12)).all();
  };
  while (true) {
    // The quadratic through the stencil: f(c + d) = f0 + g^T d + d^T H d / 2, exact for a quadratic.
    const double f0 = f(centre);
    VectorX g(n), plus(n), minus(n);
    MatrixX H(n, n);
    for (Eigen::Index i = 0; i < n; ++i) {
      VectorX x = centre;
      x[i] += h;
      plus[i] = f(x);
      x[i] -= 2.0 * h;
      minus[i] = f(x);
      g[i] = (plus[i] - minus[i]) / (2.0 * h);
      H(i, i) = (plus[i] - 2.0 * f0 + minus[i]) / (h * h);
    }
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = i + 1; j < n; ++j) {
        VectorX x = centre;
        x[i] += h;
        x[j] += h;
        H(i, j) = H(j, i) = (f(x) - plus[i] - plus[j] + f0) / (h * h);
      }
    const Eigen::LLT<MatrixX> llt(H);
    const bool model_valid = H.allFinite() && g.allFinite() && llt.info() == Eigen::Success;
    VectorX next;
    bool shrink = false;
    if (model_valid) {
      r.hessian = H;
      VectorX d = -llt.solve(g);
      const double longest = d.cwiseAbs().maxCoeff();
      if (longest > 2.0 * h) d *= 2.0 * h / longest;  // trust the model within two steps
      shrink = longest <= h;
      next = centre + d;
    } else {
      // No minimum in the model (a saddle, a ridge, or a cost that is not finite nearby): go to the
      // lowest point evaluated, or look closer when that is the centre.
      r.hessian.resize(0, 0);
      next = f.best_point(start, options.max_shift);
      shrink = (next - centre).cwiseAbs().maxCoeff() < 1e-12;
    }
    if (!inside(next)) {
      // At the edge of the searched range: look closer there (the minimum along the edge), and say
      // so below when that is where the search ends.
      next = start + (next - start)
                         .cwiseMax(VectorX::Constant(n, -options.max_shift))
                         .cwiseMin(VectorX::Constant(n, options.max_shift));
      shrink = true;
    }
    centre = next;
    if (shrink) h /= 3.0;
    if (h < options.final_step) {
      f(centre);
      r.converged = true;
      break;
    }
    if (f.evaluations() >= options.max_evaluations) {
      r.warning = "no convergence within " + std::to_string(options.max_evaluations) + " evaluations";
      break;
    }
  }
  r.x = f.best_point(start, options.max_shift);
  r.cost = f.best_cost(start, options.max_shift);
  if (((r.x - start).array().abs() >= options.max_shift * (1.0 - 1e-9)).any()) {
    r.converged = false;
    r.warning = "the minimum lies at or beyond the edge of the searched range (+-" +
                format_fixed(options.max_shift, 4) + " from the start)";
  }
  r.evaluations = f.evaluations();
  return r;
}

}  // namespace dynid
