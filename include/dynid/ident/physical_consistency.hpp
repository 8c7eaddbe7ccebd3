#pragma once
// Physically consistent inertial parameters (paper 004 III-B; Wensing, Kim & Slotine 2017; Rucker &
// Wensing 2022). Least squares can return a negative mass or an impossible inertia for a link the
// data barely excite. The estimate constrains every link's pseudo-inertia to be positive definite
// (fit_physically_consistent): the pseudo-inertia is linear in the parameters, so the constraints
// are linear matrix inequalities and the fit is a convex problem.

#include <vector>

#include "dynid/spatial/inertia.hpp"

namespace dynid {

using Vector10 = Eigen::Matrix<double, 10, 1>;

struct ConsistentFitOptions {
  /// Weight of the pull toward the prior, relative to the data scale (||z||^2 per parameter), on
  /// parameters scaled per body (mass, mass x gyration radius, mass x gyration radius^2): settles
  /// the directions the data cannot see (non-base combinations) at the prior. Small, so that it
  /// does not bias what the data do see (docs/identification.md, "Physically consistent estimate").
  double prior_weight = 1e-10;
  int max_iterations = 200;  ///< Newton iterations per barrier step at most
  double tolerance = 1e-12;  ///< ends when the barrier's duality-gap bound is this part of the cost
  /// Entries (of the stacked standard parameters) kept at the prior's value; empty = none. The
  /// two-phase mode keeps the masses and first moments of a static identification.
  std::vector<bool> fixed;
};

struct ConsistentFit {
  VectorX pi;  ///< stacked standard parameters, every body physically consistent (J_b > 0)
  bool converged = false;
  int iterations = 0;       ///< Newton iterations over all barrier steps
  double data_cost = 0.0;   ///< ||R K pi - z||^2
  double prior_cost = 0.0;  ///< the weighted pull toward the prior at the solution
};

/// Minimizes ||R K pi - z||^2 + w ||S^-1 (pi - pi_prior)||^2 subject to every body's pseudo-inertia
/// J_b(pi) positive definite (one body per 10 entries), with a sliver of margin: J_b - 1e-6 J_b,prior > 0,
/// so that no body ends on the boundary (a lamina). The constraints are linear matrix
/// inequalities (Wensing, Kim & Slotine 2017), so the problem is convex: a log-det barrier
/// (interior point, Newton steps, barrier parameter driven to zero) finds its global minimum from the
/// prior, with no local minima and no slow crawl along curved valleys.
/// R, z: the least-squares factor of the base-parameter problem (StreamingLeastSquares), K: base
/// parameters from standard ones (BaseParameters::K). pi_prior must be physically consistent.
ConsistentFit fit_physically_consistent(const MatrixX& R, const VectorX& z, const MatrixX& K, const VectorX& pi_prior,
                                        const ConsistentFitOptions& options = {});

}  // namespace dynid
