#include "dynid/ident/cad_prior.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace dynid {

const char* to_string(CadPriorCoordinates c) { return c == CadPriorCoordinates::Com ? "com" : "origin"; }

VectorX cad_parameter_scales(const Model& nominal, double fraction, CadPriorCoordinates coordinates) {
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
    // The COM in lengths, or the first moments in mass x length (a massless body has no COM).
    const bool com = coordinates == CadPriorCoordinates::Com && in.mass > 0.0;
    s.segment<3>(k + 1).setConstant(com ? fraction * L : fraction * m * L);
    s.segment<6>(k + 4).setConstant(fraction * m * L * L);
  }
  return s;
}

MatrixX cad_prior_jacobian(const Model& nominal, CadPriorCoordinates coordinates) {
  const int nb = nominal.num_moving_bodies();
  MatrixX J = MatrixX::Identity(10 * nb, 10 * nb);
  if (coordinates == CadPriorCoordinates::Origin) return J;
  for (int b = 1; b <= nb; ++b) {
    const Inertia& in = nominal.bodies[static_cast<std::size_t>(b)].inertia;
    const double m = in.mass;
    if (!(m > 0.0)) continue;
    const Vector3 c = in.com();
    const double x = c.x(), y = c.y(), z = c.z();
    // pi = (m, m c, I_com + m (|c|^2 E - c c^T)), inertia entries in the order xx xy yy xz yz zz;
    // the inertia about the COM enters one to one (the identity's lower right block).
    auto B = J.block<10, 10>(10 * (b - 1), 10 * (b - 1));
    B.col(0) << 1, x, y, z, y * y + z * z, -x * y, x * x + z * z, -x * z, -y * z, x * x + y * y;
    B.col(1) << 0, m, 0, 0, 0, -m * y, 2 * m * x, -m * z, 0, 2 * m * x;
    B.col(2) << 0, 0, m, 0, 2 * m * y, -m * x, 0, 0, -m * z, 2 * m * y;
    B.col(3) << 0, 0, 0, m, 2 * m * z, 0, 2 * m * z, -m * x, -m * y, 0;
  }
  return J;
}

InformationBlockFold::InformationBlockFold(StreamingLeastSquares& total, double block_s, std::size_t max_blocks)
    : total_(total), block_s_(block_s), max_blocks_(std::max<std::size_t>(2, max_blocks + max_blocks % 2)) {}

void InformationBlockFold::add(const Eigen::Ref<const MatrixX>& A, const Eigen::Ref<const VectorX>& b,
                               const Eigen::Ref<const VectorX>& weights, double time) {
  if (!current_ || time - start_ >= block_s_) {
    close();
    current_.emplace(total_.num_parameters(), 256);
    current_samples_ = 0;
    start_ = time;
  }
  current_->add(A, b, weights);
  ++current_samples_;
}

void InformationBlockFold::finish() { close(); }

void InformationBlockFold::close() {
  if (!current_) return;
  total_.merge(*current_);
  const MatrixX& R = current_->information_factor();
  blocks_.push_back({R.transpose() * R, R.transpose() * current_->factor_rhs()});
  samples_.push_back(current_samples_);
  current_.reset();
  if (blocks_.size() < max_blocks_ + 2) return;
  // Neighbours merged in pairs (an even count: all blocks keep one length); new blocks twice as long.
  std::size_t kept = 0;
  for (std::size_t i = 0; i < blocks_.size(); i += 2, ++kept) {
    InformationBlock merged = std::move(blocks_[i]);
    long n = samples_[i];
    if (i + 1 < blocks_.size()) {
      merged.H += blocks_[i + 1].H;
      merged.g += blocks_[i + 1].g;
      n += samples_[i + 1];
    }
    blocks_[kept] = std::move(merged);
    samples_[kept] = n;
  }
  blocks_.resize(kept);
  samples_.resize(kept);
  block_s_ *= 2.0;
}

CadPriorFit fit_with_cad_prior(const std::vector<InformationBlock>& blocks, const MatrixX& prior_information,
                               const VectorX& x0, int max_iterations, double initial_data_scale,
                               const InformationBlock& exact) {
  if (blocks.size() < 2) throw std::runtime_error("the CAD prior's data weight needs at least 2 blocks of samples");
  // An exact measurement (not scaled by c) enters every formula below as the prior does.
  MatrixX P = prior_information;
  if (exact.H.size() > 0) P += exact.H;
  const Eigen::Index p = P.rows();
  MatrixX H = MatrixX::Zero(p, p);
  VectorX g = VectorX::Zero(p);
  for (const InformationBlock& b : blocks) {
    H += b.H;
    g += b.g;
  }
  CadPriorFit fit;
  fit.data_scale = initial_data_scale > 0.0 ? initial_data_scale : 1.0;
  VectorX Px0 = prior_information * x0;
  if (exact.g.size() > 0) Px0 += exact.g;
  for (fit.iterations = 1; fit.iterations <= max_iterations; ++fit.iterations) {
    const double c = fit.data_scale;
    const Eigen::LDLT<MatrixX> posterior(H / c + P);
    if (posterior.info() != Eigen::Success || !(posterior.vectorD().array() > 0.0).all())
      throw std::runtime_error(
          "neither the data nor the CAD prior determine every unknown (an offset the motion does not excite?)");
    fit.x = posterior.solve(g / c + Px0);
    // c from the blocks' scores at x, s_b = H_b x - g_b, with M = (H + c P)^-1 (the regularized
    // inverse: directions neither data nor prior see drop out of every sum). At the true x they
    // would give E[sum_b s_b^T M s_b] = c tr(M H); at the fitted x, which the same scores pulled,
    // E[sum_b s_b^T M s_b] = c tr(M H) - sum_b tr(M H_b B H_b), B = (H / c + P)^-1: the degrees of
    // freedom the fit uses, large when few (filtered, decimated) rows carry many parameters.
    const Eigen::LDLT<MatrixX> M(H + c * P);
    const MatrixX B = posterior.solve(MatrixX::Identity(p, p));
    double quadratic = 0.0, used = 0.0;
    for (const InformationBlock& b : blocks) {
      const VectorX s = b.H * fit.x - b.g;
      quadratic += s.dot(M.solve(s));
      used += (M.solve(b.H) * (B * b.H)).trace();
    }
    const double trace_MH = M.solve(H).trace();
    const double next = std::max(1e-12, trace_MH > 0.0 ? (quadratic + used) / trace_MH : 1.0);
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
    if (prior_information.row(i).cwiseAbs().maxCoeff() > 0.0) with_prior.push_back(i);
  MatrixX Pp(static_cast<Eigen::Index>(with_prior.size()), static_cast<Eigen::Index>(with_prior.size()));
  for (std::size_t a = 0; a < with_prior.size(); ++a)
    for (std::size_t b = 0; b < with_prior.size(); ++b) Pp(a, b) = prior_information(with_prior[a], with_prior[b]);
  const MatrixX prior_cov = Pp.ldlt().solve(MatrixX::Identity(Pp.rows(), Pp.cols()));
  for (std::size_t a = 0; a < with_prior.size(); ++a)
    fit.prior_variance[with_prior[a]] = prior_cov(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(a));
  return fit;
}

CadParameterClass cad_parameter_class(Eigen::Index i) {
  const Eigen::Index k = i % 10;
  if (k == 0) return CadParameterClass::Mass;
  if (k <= 3) return CadParameterClass::FirstMoment;
  if (k == 4 || k == 6 || k == 9) return CadParameterClass::DiagonalInertia;
  return CadParameterClass::ProductOfInertia;
}

const char* to_string(CadParameterClass c) {
  switch (c) {
    case CadParameterClass::Mass:
      return "mass";
    case CadParameterClass::FirstMoment:
      return "first_moment";
    case CadParameterClass::DiagonalInertia:
      return "diagonal_inertia";
    case CadParameterClass::ProductOfInertia:
      return "product_of_inertia";
  }
  return "?";
}

namespace {

// Prior information on [offsets; x] for standard deviations `scales` of the standard parameters,
// and `offset_information` on the offsets (empty: none).
MatrixX prior_information_for(const MatrixX& K, const VectorX& scales, Eigen::Index num_offsets,
                              const VectorX& offset_information) {
  const Eigen::Index nx = K.rows(), np = num_offsets + nx;
  MatrixX P = MatrixX::Zero(np, np);
  if (offset_information.size() == num_offsets)
    P.topLeftCorner(num_offsets, num_offsets) = offset_information.asDiagonal();
  const MatrixX covariance = K * scales.array().square().matrix().asDiagonal() * K.transpose();
  P.bottomRightCorner(nx, nx) = covariance.ldlt().solve(MatrixX::Identity(nx, nx));
  return P;
}

}  // namespace

LearnedCadPrior fit_with_learned_cad_prior(const std::vector<InformationBlock>& blocks, const MatrixX& K,
                                           const VectorX& unit_scales, const VectorX& x_nominal,
                                           Eigen::Index num_offsets, double initial_fraction, int max_iterations,
                                           const VectorX& offset_information, const InformationBlock& exact) {
  const Eigen::Index nx = K.rows(), n = K.cols(), np = num_offsets + nx;
  VectorX x0 = VectorX::Zero(np);
  x0.tail(nx) = x_nominal;
  LearnedCadPrior out;
  out.fraction.fill(initial_fraction);
  std::array<int, kCadParameterClasses> members{};
  for (Eigen::Index i = 0; i < n; ++i) ++members[static_cast<std::size_t>(cad_parameter_class(i))];
  for (out.iterations = 1; out.iterations <= max_iterations; ++out.iterations) {
    out.scales.resize(n);
    for (Eigen::Index i = 0; i < n; ++i)
      out.scales[i] = out.fraction[static_cast<std::size_t>(cad_parameter_class(i))] * unit_scales[i];
    out.prior_information = prior_information_for(K, out.scales, num_offsets, offset_information);
    out.fit =
        fit_with_cad_prior(blocks, out.prior_information, x0, 30, out.iterations > 1 ? out.fit.data_scale : 1.0, exact);
    // E-step: the prior coordinates given x are N(G (x - x_0), S - G K S), G = S K^T (K S K^T)^-1;
    // with x ~ N(x_hat, Sigma) their second moments are (G d)^2 + diag(S - G K S + G Sigma G^T).
    const VectorX S = out.scales.array().square();
    const MatrixX SKt = S.asDiagonal() * K.transpose();
    const MatrixX G = (K * SKt).ldlt().solve(SKt.transpose()).transpose();
    const VectorX mean = G * (out.fit.x.tail(nx) - x0.tail(nx));
    const MatrixX Sigma = out.fit.covariance.bottomRightCorner(nx, nx);
    const VectorX conditional = S - (G.cwiseProduct(SKt)).rowwise().sum();
    const VectorX propagated = ((G * Sigma).cwiseProduct(G)).rowwise().sum();
    std::array<double, kCadParameterClasses> moment{};
    out.coordinate_moves.resize(n);
    for (Eigen::Index i = 0; i < n; ++i) {
      const double second = mean[i] * mean[i] + std::max(0.0, conditional[i]) + propagated[i];
      out.coordinate_moves[i] = second / (unit_scales[i] * unit_scales[i]);
      moment[static_cast<std::size_t>(cad_parameter_class(i))] += out.coordinate_moves[i];
    }
    double change = 0.0;
    for (std::size_t c = 0; c < kCadParameterClasses; ++c) {
      if (members[c] == 0) continue;
      // A floor of 0.1 % of the body's scale: a class the data pin to CAD exactly would otherwise
      // collapse to zero and make the prior singular. A ceiling at the initial fraction: it already
      // allows a CAD error of 30 % of every body's scale; data that ask for more carry errors their
      // noise model does not explain (an uncalibrated sensor), which must not loosen the prior.
      const double wanted = std::sqrt(moment[c] / members[c]);
      out.wanted_fraction[c] = wanted;
      const double next = std::clamp(wanted, 1e-3, initial_fraction);
      change = std::max(change, std::abs(std::log(next / out.fraction[c])));
      out.fraction[c] = next;
    }
    if (change < 1e-3) {
      out.converged = true;
      break;
    }
  }
  out.iterations = std::min(out.iterations, max_iterations);
  for (Eigen::Index i = 0; i < n; ++i)
    out.scales[i] = out.fraction[static_cast<std::size_t>(cad_parameter_class(i))] * unit_scales[i];
  out.prior_information = prior_information_for(K, out.scales, num_offsets, offset_information);
  out.fit = fit_with_cad_prior(blocks, out.prior_information, x0, 30, out.fit.data_scale, exact);
  return out;
}

std::vector<CadParameterClass> classes_above_ceiling(const LearnedCadPrior& learned, double ceiling) {
  std::vector<CadParameterClass> above;
  for (int c = 0; c < kCadParameterClasses; ++c) {
    const auto k = static_cast<std::size_t>(c);
    if (learned.fraction[k] >= ceiling * (1.0 - 1e-9) && learned.wanted_fraction[k] > ceiling * (1.0 + 1e-9))
      above.push_back(static_cast<CadParameterClass>(c));
  }
  return above;
}

std::string cad_prior_coordinate_name(const std::string& standard_name, CadPriorCoordinates coordinates) {
  if (coordinates != CadPriorCoordinates::Com) return standard_name;
  const std::size_t dot = standard_name.rfind('.');
  if (dot == std::string::npos) return standard_name;
  const std::string body = standard_name.substr(0, dot), suffix = standard_name.substr(dot + 1);
  if (suffix.size() == 3 && suffix.rfind("mc", 0) == 0) return body + ".com_" + suffix.substr(2);
  if (!suffix.empty() && suffix[0] == 'I') return body + "." + suffix + "_about_com";
  return standard_name;
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

std::vector<Eigen::Index> keep_undetermined_at_prior(CadPriorFit& fit, const std::vector<InformationBlock>& blocks,
                                                     const MatrixX& prior_information, const VectorX& x0,
                                                     const InformationBlock& exact, Eigen::Index first,
                                                     double threshold) {
  const VectorX d = determination(fit);
  const Eigen::Index p = fit.x.size();
  std::vector<Eigen::Index> held, free;
  for (Eigen::Index i = 0; i < p; ++i)
    (i >= first && std::isfinite(fit.prior_variance[i]) && d[i] <= threshold ? held : free).push_back(i);
  if (held.empty()) return held;
  // The posterior's information A and its right-hand side b: A x = b at the unconditional estimate.
  MatrixX A = prior_information;
  VectorX b = prior_information * x0;
  for (const InformationBlock& block : blocks) {
    A += block.H / fit.data_scale;
    b += block.g / fit.data_scale;
  }
  if (exact.H.size() > 0) {
    A += exact.H;
    b += exact.g;
  }
  // x_F = A_FF^-1 (b_F - A_FK x0_K), x_K = x0_K.
  const auto nf = static_cast<Eigen::Index>(free.size()), nk = static_cast<Eigen::Index>(held.size());
  MatrixX A_ff(nf, nf), A_fk(nf, nk);
  VectorX rhs(nf), x0_k(nk);
  for (Eigen::Index k = 0; k < nk; ++k) x0_k[k] = x0[held[static_cast<std::size_t>(k)]];
  for (Eigen::Index r = 0; r < nf; ++r) {
    const Eigen::Index i = free[static_cast<std::size_t>(r)];
    rhs[r] = b[i];
    for (Eigen::Index c = 0; c < nf; ++c) A_ff(r, c) = A(i, free[static_cast<std::size_t>(c)]);
    for (Eigen::Index c = 0; c < nk; ++c) A_fk(r, c) = A(i, held[static_cast<std::size_t>(c)]);
  }
  if (nf > 0) {
    const Eigen::LDLT<MatrixX> conditional(A_ff);
    const VectorX x_f = conditional.solve(rhs - A_fk * x0_k);
    for (Eigen::Index r = 0; r < nf; ++r) fit.x[free[static_cast<std::size_t>(r)]] = x_f[r];
  }
  for (Eigen::Index k = 0; k < nk; ++k) fit.x[held[static_cast<std::size_t>(k)]] = x0_k[k];
  return held;
}

}  // namespace dynid
