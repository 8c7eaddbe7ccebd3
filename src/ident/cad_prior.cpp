#include "dynid/ident/cad_prior.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace dynid {

VectorX cad_parameter_scales(const Model& nominal, double fraction) {
  const int nb = nominal.num_moving_bodies();
  double mean_mass = 0.0;
  for (int b = 1; b <= nb; ++b) mean_mass += nominal.bodies[static_cast<std::size_t>(b)].inertia.mass;
  mean_mass /= std::max(1, nb);
  VectorX s(10 * nb);
  for (int b = 1; b <= nb; ++b) {
    const Inertia& in = nominal.bodies[static_cast<std::size_t>(b)].inertia;
    const double m = std::max(in.mass, 0.01 * mean_mass);
    const double gyration = in.mass > 0.0 ? std::sqrt(std::max(0.0, in.inertia_com().trace()) / (2.0 * in.mass)) : 0.0;
    const double L = std::max({in.com().norm(), gyration, 0.02});
    const Eigen::Index k = 10 * (b - 1);
    s[k] = fraction * m;
    s.segment<3>(k + 1).setConstant(fraction * m * L);
    s.segment<6>(k + 4).setConstant(fraction * m * L * L);
  }
  return s;
}

CadPriorFit fit_with_cad_prior(const std::vector<InformationBlock>& blocks, const MatrixX& P, const VectorX& x0,
                               int max_iterations) {
  if (blocks.size() < 2) throw std::runtime_error("the CAD prior's data weight needs at least 2 blocks of samples");
  const Eigen::Index p = P.rows();
  MatrixX H = MatrixX::Zero(p, p);
  VectorX g = VectorX::Zero(p);
  for (const InformationBlock& b : blocks) {
    H += b.H;
    g += b.g;
  }
  CadPriorFit fit;
  fit.data_scale = 1.0;
  const VectorX Px0 = P * x0;
  for (fit.iterations = 1; fit.iterations <= max_iterations; ++fit.iterations) {
    const double c = fit.data_scale;
    const Eigen::LDLT<MatrixX> posterior(H / c + P);
    if (posterior.info() != Eigen::Success || !(posterior.vectorD().array() > 0.0).all())
      throw std::runtime_error(
          "neither the data nor the CAD prior determine every unknown (an offset the motion does not excite?)");
    fit.x = posterior.solve(g / c + Px0);
    // c from the blocks' scores at x: sum_b s_b^T M s_b / tr(M H), M = (H + c P)^-1 (the regularized
    // inverse: directions neither data nor prior see drop out of both sums).
    const Eigen::LDLT<MatrixX> M(H + c * P);
    double quadratic = 0.0;
    for (const InformationBlock& b : blocks) {
      const VectorX s = b.H * fit.x - b.g;
      quadratic += s.dot(M.solve(s));
    }
    const double dof = M.solve(H).trace();
    const double next = std::max(1e-12, dof > 0.0 ? quadratic / dof : 1.0);
    const bool settled = std::abs(std::log(next / c)) < 1e-3;
    fit.data_scale = next;
    if (settled) {
      fit.converged = true;
      break;
    }
  }
  fit.iterations = std::min(fit.iterations, max_iterations);
  const Eigen::LDLT<MatrixX> posterior(H / fit.data_scale + P);
  fit.x = posterior.solve(g / fit.data_scale + Px0);
  fit.covariance = posterior.solve(MatrixX::Identity(p, p));
  fit.posterior_variance = fit.covariance.diagonal();
  // Prior variance of each unknown: diag(P^+) over the unknowns that have a prior.
  fit.prior_variance = VectorX::Constant(p, std::numeric_limits<double>::infinity());
  std::vector<Eigen::Index> with_prior;
  for (Eigen::Index i = 0; i < p; ++i)
    if (P.row(i).cwiseAbs().maxCoeff() > 0.0) with_prior.push_back(i);
  MatrixX Pp(static_cast<Eigen::Index>(with_prior.size()), static_cast<Eigen::Index>(with_prior.size()));
  for (std::size_t a = 0; a < with_prior.size(); ++a)
    for (std::size_t b = 0; b < with_prior.size(); ++b) Pp(a, b) = P(with_prior[a], with_prior[b]);
  const MatrixX prior_cov = Pp.ldlt().solve(MatrixX::Identity(Pp.rows(), Pp.cols()));
  for (std::size_t a = 0; a < with_prior.size(); ++a)
    fit.prior_variance[with_prior[a]] = prior_cov(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(a));
  return fit;
}

VectorX determination(const CadPriorFit& fit) {
  VectorX d(fit.x.size());
  for (Eigen::Index i = 0; i < d.size(); ++i)
    d[i] = std::isfinite(fit.prior_variance[i])
               ? std::clamp(1.0 - fit.posterior_variance[i] / fit.prior_variance[i], 0.0, 1.0)
               : 1.0;
  return d;
}

const char* determination_status(double d) {
  return d >= 0.75 ? "determined by this motion" : d <= 0.25 ? "kept at CAD" : "partly determined";
}

DeterminationCounts count_determination(const VectorX& determination) {
  DeterminationCounts c;
  for (Eigen::Index k = 0; k < determination.size(); ++k) {
    if (determination[k] >= 0.75)
      ++c.determined;
    else if (determination[k] <= 0.25)
      ++c.kept_at_cad;
    else
      ++c.partly;
  }
  return c;
}

}  // namespace dynid
