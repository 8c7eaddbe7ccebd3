#include "dynid/ident/physical_consistency.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace dynid {
namespace {

/// Pseudo-inertia basis: J(pi) = sum_k pi_k E_k (the map is linear).
std::array<Matrix4, 10> pseudo_inertia_basis() {
  std::array<Matrix4, 10> E;
  for (int k = 0; k < 10; ++k)
    E[static_cast<std::size_t>(k)] = Inertia::from_parameters(Vector10::Unit(k)).pseudo_inertia();
  return E;
}

/// Scale of each standard parameter of a body: its mass, mass x length, mass x length^2, with the
/// length its radius of gyration (at least 1 cm). Makes the prior unit-consistent.
Vector10 parameter_scales(const Vector10& pi) {
  const Inertia I = Inertia::from_parameters(pi);
  const double m = std::max(pi[0], 1e-6);
  const double r = std::max(0.01, std::sqrt(std::max(0.0, I.inertia_com().trace()) / (2.0 * m)));
  Vector10 s;
  s << m, m * r, m * r, m * r, m * r * r, m * r * r, m * r * r, m * r * r, m * r * r, m * r * r;
  return s;
}

}  // namespace

ConsistentFit fit_physically_consistent(const MatrixX& R, const VectorX& z, const MatrixX& K, const VectorX& pi_prior,
                                        const ConsistentFitOptions& options) {
  const Eigen::Index n = pi_prior.size();
  if (n % 10 != 0 || K.cols() != n || R.cols() != K.rows() || z.size() != R.rows())
    throw std::invalid_argument("consistent fit: sizes of R, z, K and the prior do not match");
  const int bodies = static_cast<int>(n / 10);
  if (!options.fixed.empty() && options.fixed.size() != static_cast<std::size_t>(n))
    throw std::invalid_argument("consistent fit: the fixed-parameter mask has the wrong size");
  auto is_fixed = [&](Eigen::Index i) { return !options.fixed.empty() && options.fixed[static_cast<std::size_t>(i)]; };
  const std::array<Matrix4, 10> E = pseudo_inertia_basis();
  auto pseudo = [&](const VectorX& pi, int b) {
    Matrix4 J = Matrix4::Zero();
    for (int k = 0; k < 10; ++k) J += pi[10 * b + k] * E[static_cast<std::size_t>(k)];
    return J;
  };
  for (int b = 0; b < bodies; ++b)
    if (Eigen::LLT<Matrix4>(pseudo(pi_prior, b)).info() != Eigen::Success)
      throw std::invalid_argument("consistent fit: the prior's body " + std::to_string(b) +
                                  " is not physically consistent");

  // Every body keeps a sliver of its prior's shape, J_b - delta J_b,prior > 0 (delta = 1e-6): the
  // optimum may lie on the boundary (a direction the data do not see, pulled toward an impossible
  // combination), and a body exactly on it is a lamina that no consistency test accepts.
  std::vector<Matrix4> margin(static_cast<std::size_t>(bodies));
  for (int b = 0; b < bodies; ++b) margin[static_cast<std::size_t>(b)] = 1e-6 * pseudo(pi_prior, b);

  // Convex problem (Wensing, Kim & Slotine 2017: the pseudo-inertias are linear in pi, so
  // "every body real" is a set of linear matrix inequalities):
  //   min ||A pi - z||^2 + w ||S^-1 (pi - pi_prior)||^2   s.t.  J_b(pi) > 0 for every body b,
  // solved by a log-det barrier (interior point): Newton on f + mu * sum_b -log det J_b, mu -> 0.
  // The prior's scales S (mass, mass x gyration radius, ...) make one weight fit every unit; it
  // settles the directions the data cannot see (non-base combinations) at the nominal model.
  const MatrixX A = R * K;
  const MatrixX AtA = A.transpose() * A;
  const VectorX Atz = A.transpose() * z;
  const double w = options.prior_weight * std::max(1e-300, z.squaredNorm() / static_cast<double>(n));
  VectorX weight(n);  // w / s^2 per parameter
  for (int b = 0; b < bodies; ++b)
    weight.segment<10>(10 * b) = w * parameter_scales(pi_prior.segment<10>(10 * b)).array().square().inverse();

  auto objective = [&](const VectorX& pi) {
    const VectorX d = pi - pi_prior;
    return (A * pi - z).squaredNorm() + d.dot(weight.cwiseProduct(d));
  };
  // -sum log det J_b, or +inf outside the feasible set.
  auto barrier = [&](const VectorX& pi) {
    double sum = 0.0;
    for (int b = 0; b < bodies; ++b) {
      Eigen::LLT<Matrix4> llt(pseudo(pi, b) - margin[static_cast<std::size_t>(b)]);
      if (llt.info() != Eigen::Success) return std::numeric_limits<double>::infinity();
      const Eigen::Vector4d diag = Matrix4(llt.matrixL()).diagonal();
      if (!(diag.minCoeff() > 0.0)) return std::numeric_limits<double>::infinity();
      sum -= 2.0 * diag.array().log().sum();
    }
    return sum;
  };

  ConsistentFit fit;
  VectorX pi = pi_prior;
  // Barrier parameter: starts at the size of the data cost per constraint dimension, ends when the
  // duality gap bound (4 per body x mu) is a 1e-10 part of the cost.
  const double m_lmi = 4.0 * bodies;
  double mu = std::max(objective(pi), 1e-300) / m_lmi;
  MatrixX H(n, n);
  VectorX g(n);
  for (int outer = 0; outer < 60; ++outer) {
    for (int it = 0; it < options.max_iterations; ++it) {
      ++fit.iterations;
      H = 2.0 * AtA;
      H.diagonal() += 2.0 * weight;
      g = 2.0 * (AtA * pi - Atz) + 2.0 * weight.cwiseProduct(pi - pi_prior);
      for (int b = 0; b < bodies; ++b) {
        const Matrix4 Jinv = (pseudo(pi, b) - margin[static_cast<std::size_t>(b)]).inverse();
        std::array<Matrix4, 10> JE;
        for (int k = 0; k < 10; ++k) JE[static_cast<std::size_t>(k)] = Jinv * E[static_cast<std::size_t>(k)];
        for (int k = 0; k < 10; ++k) {
          g[10 * b + k] -= mu * JE[static_cast<std::size_t>(k)].trace();
          for (int l = 0; l < 10; ++l)
            H(10 * b + k, 10 * b + l) +=
                mu * (JE[static_cast<std::size_t>(k)] * JE[static_cast<std::size_t>(l)]).trace();
        }
      }
      for (Eigen::Index i = 0; i < n; ++i)
        if (is_fixed(i)) {  // no step: a unit row and column, no gradient
          H.row(i).setZero();
          H.col(i).setZero();
          H(i, i) = 1.0;
          g[i] = 0.0;
        }
      // Jacobi scaling: masses, first moments and inertias differ by orders of magnitude.
      const VectorX d = H.diagonal().cwiseMax(1e-300).cwiseSqrt().cwiseInverse();
      const MatrixX Hs = d.asDiagonal() * H * d.asDiagonal();
      const VectorX step = -(d.asDiagonal() * Hs.ldlt().solve(d.cwiseProduct(g))).eval();
      const double decrement2 = -g.dot(step);  // Newton decrement squared
      if (!(decrement2 > 2e-12 * std::max(1.0, objective(pi)))) break;
      // Backtracking: stay strictly feasible, then Armijo on f + mu * barrier.
      const double phi0 = objective(pi) + mu * barrier(pi);
      double t = 1.0;
      bool moved = false;
      for (int tries = 0; tries < 60; ++tries, t *= 0.5) {
        const VectorX trial = pi + t * step;
        const double bar = barrier(trial);
        if (!std::isfinite(bar)) continue;
        if (objective(trial) + mu * bar <= phi0 - 0.25 * t * decrement2) {
          pi = trial;
          moved = true;
          break;
        }
      }
      if (!moved) break;
    }
    if (m_lmi * mu < options.tolerance * std::max(objective(pi), 1e-300)) {
      fit.converged = true;
      break;
    }
    mu *= 0.1;
  }
  fit.pi = pi;
  fit.data_cost = (A * pi - z).squaredNorm();
  fit.prior_cost = (pi - pi_prior).dot(weight.cwiseProduct(pi - pi_prior));
  return fit;
}

}  // namespace dynid
