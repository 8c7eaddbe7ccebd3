#include "dynid/ident/physical_consistency.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <cmath>
#include <stdexcept>

namespace dynid {
namespace {

Matrix4 factor_from_theta(const Vector10& t) {
  Matrix4 U;
  U << std::exp(t[1]), t[4], t[6], t[7],  //
      0.0, std::exp(t[2]), t[5], t[8],    //
      0.0, 0.0, std::exp(t[3]), t[9],     //
      0.0, 0.0, 0.0, 1.0;
  return std::exp(t[0]) * U;
}

Vector10 parameters_from_pseudo_inertia(const Matrix4& J) {
  const Matrix3 sigma = J.topLeftCorner<3, 3>();
  const Matrix3 I = sigma.trace() * Matrix3::Identity() - sigma;
  Vector10 pi;
  pi << J(3, 3), J(0, 3), J(1, 3), J(2, 3), I(0, 0), I(0, 1), I(1, 1), I(0, 2), I(1, 2), I(2, 2);
  return pi;
}

}  // namespace

Vector10 parameters_from_log_cholesky(const Vector10& theta) {
  const Matrix4 U = factor_from_theta(theta);
  return parameters_from_pseudo_inertia(U * U.transpose());
}

Vector10 log_cholesky_from_parameters(const Vector10& pi) {
  const Matrix4 J = Inertia::from_parameters(pi).pseudo_inertia();
  // J = U U^T with U upper triangular: Cholesky of the index-reversed matrix, reversed back.
  const Eigen::PermutationMatrix<4> P(Eigen::Vector4i(3, 2, 1, 0));
  const Matrix4 Jr = P * J * P.transpose();
  Eigen::LLT<Matrix4> llt(Jr);
  if (llt.info() != Eigen::Success) throw std::invalid_argument("inertial parameters are not physically consistent");
  const Matrix4 L = llt.matrixL();
  const Matrix4 U = P.transpose() * L * P;
  const double scale = U(3, 3);
  Vector10 t;
  t[0] = std::log(scale);
  t[1] = std::log(U(0, 0) / scale);
  t[2] = std::log(U(1, 1) / scale);
  t[3] = std::log(U(2, 2) / scale);
  t[4] = U(0, 1) / scale;
  t[5] = U(1, 2) / scale;
  t[6] = U(0, 2) / scale;
  t[7] = U(0, 3) / scale;
  t[8] = U(1, 3) / scale;
  t[9] = U(2, 3) / scale;
  return t;
}

ConsistentFit fit_physically_consistent(const MatrixX& R, const VectorX& z, const MatrixX& K, const VectorX& pi_prior,
                                        const ConsistentFitOptions& options) {
  const Eigen::Index n = pi_prior.size();
  if (n % 10 != 0 || K.cols() != n || R.cols() != K.rows() || z.size() != R.rows())
    throw std::invalid_argument("consistent fit: sizes of R, z, K and the prior do not match");
  const int bodies = static_cast<int>(n / 10);
  const MatrixX A = R * K;  // data residual: A pi - z
  // The prior acts on the log-Cholesky coordinates: dimensionless (log mass, log principal
  // lengths, shears), so one weight fits masses and inertias alike, and it keeps bodies away from
  // the degenerate (lamina) boundary that a pull in pi would let the fit approach.
  const double w = options.prior_weight * std::max(1e-300, z.squaredNorm() / static_cast<double>(n));
  const double sw = std::sqrt(w);

  VectorX theta(n);
  for (int b = 0; b < bodies; ++b)
    theta.segment<10>(10 * b) = log_cholesky_from_parameters(pi_prior.segment<10>(10 * b));
  const VectorX theta_prior = theta;
  auto params = [&](const VectorX& th) {
    VectorX pi(n);
    for (int b = 0; b < bodies; ++b) pi.segment<10>(10 * b) = parameters_from_log_cholesky(th.segment<10>(10 * b));
    return pi;
  };
  auto residual = [&](const VectorX& pi, const VectorX& th) {
    VectorX r(A.rows() + n);
    r << A * pi - z, sw * (th - theta_prior);
    return r;
  };

  ConsistentFit fit;
  VectorX pi = params(theta);
  VectorX r = residual(pi, theta);
  double cost = r.squaredNorm();
  double lambda = 1e-3;
  MatrixX Jpi = MatrixX::Zero(n, n);  // d pi / d theta, block diagonal
  for (int it = 0; it < options.max_iterations; ++it) {
    fit.iterations = it + 1;
    // Per-body Jacobian by central differences (10 x 10 each; the map is smooth and cheap).
    for (int b = 0; b < bodies; ++b) {
      for (int k = 0; k < 10; ++k) {
        Vector10 tp = theta.segment<10>(10 * b), tm = tp;
        const double h = 1e-6 * std::max(1.0, std::abs(tp[k]));
        tp[k] += h;
        tm[k] -= h;
        Jpi.block<10, 1>(10 * b, 10 * b + k) =
            (parameters_from_log_cholesky(tp) - parameters_from_log_cholesky(tm)) / (2 * h);
      }
    }
    MatrixX Jr(A.rows() + n, n);
    Jr << A * Jpi, sw * MatrixX::Identity(n, n);
    const MatrixX H = Jr.transpose() * Jr;
    const VectorX g = Jr.transpose() * r;
    bool improved = false;
    for (int tries = 0; tries < 20 && !improved; ++tries) {
      MatrixX Hd = H;
      Hd.diagonal() += lambda * (H.diagonal().array() + 1e-12).matrix();
      const VectorX step = -Hd.ldlt().solve(g);
      const VectorX theta_new = theta + step;
      const VectorX pi_new = params(theta_new);
      const VectorX r_new = residual(pi_new, theta_new);
      const double cost_new = r_new.squaredNorm();
      if (std::isfinite(cost_new) && cost_new < cost) {
        const double decrease = (cost - cost_new) / std::max(cost, 1e-300);
        theta = theta_new;
        pi = pi_new;
        r = r_new;
        cost = cost_new;
        lambda = std::max(lambda / 3.0, 1e-12);
        improved = true;
        if (decrease < options.tolerance) fit.converged = true;
      } else {
        lambda *= 4.0;
      }
    }
    if (!improved || fit.converged) {
      fit.converged = true;
      break;
    }
  }
  fit.pi = pi;
  fit.data_cost = (A * pi - z).squaredNorm();
  fit.prior_cost = w * (theta - theta_prior).squaredNorm();
  return fit;
}

}  // namespace dynid
