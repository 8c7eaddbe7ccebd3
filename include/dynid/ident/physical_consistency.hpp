#pragma once
// Physically consistent inertial parameters (paper 004 III-B; Wensing, Kim & Slotine 2017; Rucker &
// Wensing 2022). Least squares can return a negative mass or an impossible inertia for a link the
// data barely excite. Parametrizing each link by the log-Cholesky factor of its pseudo-inertia,
//   J = U U^T,  U = e^alpha [[e^d1, s12, s13, t1], [0, e^d2, s23, t2], [0, 0, e^d3, t3], [0, 0, 0, 1]],
// makes every estimate a realizable rigid body (J positive definite) while the fit stays an
// unconstrained nonlinear least-squares problem.

#include "dynid/spatial/inertia.hpp"

namespace dynid {

using Vector10 = Eigen::Matrix<double, 10, 1>;

/// theta = [alpha, d1, d2, d3, s12, s23, s13, t1, t2, t3] -> the 10 inertial parameters.
Vector10 parameters_from_log_cholesky(const Vector10& theta);
/// Inverse for a physically consistent body (pseudo-inertia positive definite); throws otherwise.
Vector10 log_cholesky_from_parameters(const Vector10& pi);

struct ConsistentFitOptions {
  /// Weight of the pull toward the prior in log-Cholesky coordinates, relative to the data scale
  /// (||z||^2 per parameter): keeps directions the data cannot see (non-base combinations) at the
  /// prior and bodies away from degenerate shapes.
  double prior_weight = 1e-4;
  int max_iterations = 200;
  double tolerance = 1e-12;  ///< relative cost decrease that ends the iterations
};

struct ConsistentFit {
  VectorX pi;  ///< stacked standard parameters, every body physically consistent
  bool converged = false;
  int iterations = 0;
  double data_cost = 0.0;   ///< ||R K pi - z||^2
  double prior_cost = 0.0;  ///< weighted ||theta - theta_prior||^2 (log-Cholesky coordinates)
};

/// Minimizes ||R K pi - z||^2 + w ||theta(pi) - theta(pi_prior)||^2 over physically consistent pi (one body per 10
/// entries), starting from the prior, by Levenberg-Marquardt on the log-Cholesky parameters.
/// R, z: the least-squares factor of the base-parameter problem (StreamingLeastSquares), K: base
/// parameters from standard ones (BaseParameters::K). pi_prior must be physically consistent.
ConsistentFit fit_physically_consistent(const MatrixX& R, const VectorX& z, const MatrixX& K, const VectorX& pi_prior,
                                        const ConsistentFitOptions& options = {});

}  // namespace dynid
