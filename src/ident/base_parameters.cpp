#include "dynid/ident/base_parameters.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>
#include <stdexcept>

#include "dynid/dynamics/regressor.hpp"
#include "dynid/model/random_state.hpp"

namespace dynid {
namespace {

constexpr const char* kNoEffect = "does not affect any selected equation";

/// R (n x n, upper triangular) with R^T R = W^T W, W the selected rows of Y stacked at `num_samples`
/// random states. Blocks of states are folded into R one at a time (R <- qr([R; W_block]).R), so
/// memory stays at a few n x n matrices and the QR runs blocked, however many states are stacked.
/// Q is orthogonal: column norms and every linear relation between columns are those of W.
MatrixX compressed_regressor(const Model& model, const std::vector<int>& rows, int num_samples, std::uint32_t seed,
                             const std::function<StateSample(std::mt19937&)>& sample_state) {
  Data data(model);
  std::mt19937 rng(seed);
  const Eigen::Index n = 10 * model.num_moving_bodies();
  const Eigen::Index r = static_cast<Eigen::Index>(rows.size());
  const Eigen::Index block_samples = std::max<Eigen::Index>(1, (4 * n + r - 1) / r);
  MatrixX stack = MatrixX::Zero(n + block_samples * r, n);
  Eigen::HouseholderQR<MatrixX> qr(stack.rows(), n);
  for (int done = 0; done < num_samples;) {
    const Eigen::Index count = std::min<Eigen::Index>(block_samples, num_samples - done);
    for (Eigen::Index k = 0; k < count; ++k, ++done) {
      const StateSample s = sample_state ? sample_state(rng) : random_state(model, rng);
      const MatrixX& Y = joint_torque_regressor(model, data, s.q, s.v, s.a);
      stack.middleRows(n + k * r, r) = Y(rows, Eigen::all);
    }
    qr.compute(stack.topRows(n + count * r));
    stack.topRows(n) = qr.matrixQR().topRows(n).triangularView<Eigen::Upper>();
  }
  return stack.topRows(n);
}

std::string format_coefficient(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

}  // namespace

std::vector<int> all_equation_rows(const Model& model) {
  std::vector<int> rows(static_cast<std::size_t>(model.nv));
  for (int i = 0; i < model.nv; ++i) rows[static_cast<std::size_t>(i)] = i;
  return rows;
}

std::vector<int> base_link_rows(const Model& model) {
  if (!model.floating_base)
    throw std::invalid_argument(model.label() + " has a fixed base: it has no base-link equations");
  const Body& base = model.bodies[1];
  std::vector<int> rows;
  for (int k = 0; k < 6; ++k) rows.push_back(base.idx_v + k);
  return rows;
}

std::vector<int> equation_rows(const Model& model, const std::vector<std::string>& names) {
  const std::vector<std::string> all = model.velocity_names();
  std::vector<int> rows;
  for (const std::string& n : names) {
    const auto it = std::find(all.begin(), all.end(), n);
    if (it == all.end())
      throw std::invalid_argument("equation '" + n + "' is not a velocity coordinate of " + model.label());
    rows.push_back(static_cast<int>(it - all.begin()));
  }
  return rows;
}

const std::string& BaseParameters::name(int k) const {
  return parameter_names.at(static_cast<std::size_t>(independent.at(static_cast<std::size_t>(k))));
}

std::string BaseParameters::expression(int k) const {
  const auto& terms = groups.at(static_cast<std::size_t>(k));
  std::string out = parameter_names[static_cast<std::size_t>(terms.front().parameter)];
  for (std::size_t t = 1; t < terms.size(); ++t) {
    const double c = terms[t].coefficient;
    const std::string magnitude = format_coefficient(std::abs(c));
    out += c < 0.0 ? " - " : " + ";
    if (magnitude != "1") out += magnitude + "*";
    out += parameter_names[static_cast<std::size_t>(terms[t].parameter)];
  }
  return out;
}

BaseParameters compute_base_parameters(const Model& model, const BaseParameterOptions& options) {
  BaseParameters out;
  out.model_name = model.name;
  out.parameter_names = model.parameter_names();
  out.rows = options.rows.empty() ? all_equation_rows(model) : options.rows;
  const std::vector<std::string> velocity_names = model.velocity_names();
  for (std::size_t i = 0; i < out.rows.size(); ++i) {
    const int row = out.rows[i];
    if (row < 0 || row >= model.nv)
      throw std::invalid_argument("equation row " + std::to_string(row) + " is outside 0.." +
                                  std::to_string(model.nv - 1) + " of " + model.label());
    if (std::find(out.rows.begin(), out.rows.begin() + static_cast<std::ptrdiff_t>(i), row) !=
        out.rows.begin() + static_cast<std::ptrdiff_t>(i))
      throw std::invalid_argument("equation row '" + velocity_names[static_cast<std::size_t>(row)] +
                                  "' is selected twice");
    out.row_names.push_back(velocity_names[static_cast<std::size_t>(row)]);
  }
  if (out.rows == all_equation_rows(model)) {
    out.rows_label = model.nv == 1 ? "its 1 equation" : "all " + std::to_string(model.nv) + " equations";
  } else if (model.floating_base && out.rows == base_link_rows(model)) {
    out.rows_label = "the 6 base-link equations";
  } else {
    out.rows_label =
        std::to_string(out.rows.size()) + (out.rows.size() == 1 ? " selected equation:" : " selected equations:");
    for (const std::string& row : out.row_names) out.rows_label += " " + row;
  }
  if (!(options.rank_tolerance > 0.0 && options.rank_tolerance < 1.0))
    throw std::invalid_argument("rank tolerance must lie in (0, 1)");
  if (options.num_samples < 0) throw std::invalid_argument("number of samples must not be negative");
  if (!(options.near_dependence_tolerance >= 0.0 && options.near_dependence_tolerance < 1.0))
    throw std::invalid_argument("near-dependence tolerance must lie in [0, 1)");

  const int n = out.num_standard();
  const int r = static_cast<int>(out.rows.size());
  out.num_samples = options.num_samples > 0 ? options.num_samples : std::max(20, (4 * n + r - 1) / r);
  out.seed = options.seed;
  out.rank_tolerance = options.rank_tolerance;
  out.near_dependence_tolerance = options.near_dependence_tolerance;
  const double tol = options.rank_tolerance;
  const double near = std::max(tol, options.near_dependence_tolerance);

  // Unit-norm columns, so the decision compares directions, not units (kg against kg m^2).
  MatrixX W = compressed_regressor(model, out.rows, out.num_samples, out.seed, options.sample_state);
  const VectorX norms = W.colwise().norm();
  const double largest = norms.maxCoeff();
  std::vector<int> nonzero;
  for (int j = 0; j < n; ++j) {
    if (norms[j] <= tol * largest) {
      out.unidentifiable.push_back({j, kNoEffect});
    } else {
      W.col(j) /= norms[j];
      nonzero.push_back(j);
    }
  }

  // Rank: column-pivoted Householder QR (Gautier 1990; papers 003 ref. 10, 004 ref. 19).
  const MatrixX Wn = W(Eigen::all, nonzero);
  Eigen::ColPivHouseholderQR<MatrixX> pivoted(Wn);
  pivoted.setThreshold(near);
  const Eigen::Index rank = pivoted.rank();

  // Independent set in model order: Gram-Schmidt, twice (orthogonal to working precision), against the
  // columns accepted so far. W_I = Q R; a dependent column is Q c with c over the earlier Q columns.
  const Eigen::Index m = W.rows();
  MatrixX Q(m, static_cast<Eigen::Index>(nonzero.size()));
  MatrixX R = MatrixX::Zero(Q.cols(), Q.cols());
  MatrixX C = MatrixX::Zero(Q.cols(), Q.cols());
  Eigen::Index accepted = 0;
  out.smallest_independent_distance = 1.0;
  for (int j : nonzero) {
    VectorX w = W.col(j);
    VectorX c = VectorX::Zero(accepted);
    for (int pass = 0; pass < 2; ++pass) {
      const VectorX h = Q.leftCols(accepted).transpose() * w;
      w.noalias() -= Q.leftCols(accepted) * h;
      c += h;
    }
    const double distance = w.norm();
    if (distance > near) {
      R.col(accepted).head(accepted) = c;
      R(accepted, accepted) = distance;
      Q.col(accepted) = w / distance;
      ++accepted;
      out.independent.push_back(j);
      out.smallest_independent_distance = std::min(out.smallest_independent_distance, distance);
    } else {
      C.col(static_cast<Eigen::Index>(out.dependent.size())).head(accepted) = c;
      out.dependent.push_back(j);
      if (distance > tol)
        out.nearly_dependent.emplace_back(j, distance);
      else
        out.largest_dependent_distance = std::max(out.largest_dependent_distance, distance);
    }
  }
  if (accepted != rank)
    throw std::runtime_error(model.label() + ": the rank of the regressor is ambiguous at tolerance " +
                             format_coefficient(near) + " (pivoted QR: " + std::to_string(rank) +
                             ", in model order: " + std::to_string(accepted) +
                             "); some parameter is barely excited - try another tolerance or more samples");

  // beta in unit-scaled columns, then back to parameter units: Y_D = Y_I beta.
  const Eigen::Index nb = accepted;
  const Eigen::Index nd = static_cast<Eigen::Index>(out.dependent.size());
  // No dependent column (every parameter identifiable): nothing to solve. Eigen's triangular solve
  // of an empty right-hand side binds a reference to its null data (UndefinedBehaviorSanitizer in
  // Excitation.ServoBenchWithinLimitsFullRankAndBetterThanItsStart under scripts/test.sh --sanitize).
  const MatrixX beta_scaled =
      nd == 0 ? MatrixX(nb, 0)
              : MatrixX(R.topLeftCorner(nb, nb).triangularView<Eigen::Upper>().solve(C.topLeftCorner(nb, nd)));
  out.beta.resize(nb, nd);
  out.K = MatrixX::Zero(nb, n);
  out.groups.resize(static_cast<std::size_t>(nb));
  for (Eigen::Index k = 0; k < nb; ++k) {
    const int own = out.independent[static_cast<std::size_t>(k)];
    out.K(k, own) = 1.0;
    out.groups[static_cast<std::size_t>(k)].push_back({own, 1.0});
    for (Eigen::Index d = 0; d < nd; ++d) {
      const int dep = out.dependent[static_cast<std::size_t>(d)];
      out.beta(k, d) = beta_scaled(k, d) * norms[dep] / norms[own];
      out.K(k, dep) = out.beta(k, d);
      if (std::abs(beta_scaled(k, d)) > tol) out.groups[static_cast<std::size_t>(k)].push_back({dep, out.beta(k, d)});
    }
  }
  return out;
}

MatrixX base_regressor(const BaseParameters& base, const MatrixX& Y) {
  if (Y.cols() != base.num_standard())
    throw std::invalid_argument("regressor has " + std::to_string(Y.cols()) + " columns, " + base.model_name + " has " +
                                std::to_string(base.num_standard()) + " standard parameters");
  return Y(Eigen::all, base.independent);
}

VectorX base_parameter_values(const BaseParameters& base, const VectorX& pi) {
  if (pi.size() != base.num_standard())
    throw std::invalid_argument("parameter vector has " + std::to_string(pi.size()) + " entries, " + base.model_name +
                                " has " + std::to_string(base.num_standard()) + " standard parameters");
  return base.K * pi;
}

std::string format_report(const BaseParameters& base) {
  std::ostringstream s;
  s << "base parameters of " << base.model_name << " from " << base.rows_label << "\n"
    << "  standard parameters: " << base.num_standard() << " (" << base.num_standard() / 10
    << (base.num_standard() == 10 ? " body" : " bodies") << " x 10)\n"
    << "  base parameters:     " << base.num_base() << "\n"
    << "  regrouped:           " << base.dependent.size() << " (act only through the base parameters below)\n"
    << "  unidentifiable:      " << base.unidentifiable.size() << "\n"
    << "  rank decision:       " << base.num_samples << " random states (seed " << base.seed << "), tolerance "
    << format_coefficient(base.rank_tolerance) << "; weakest independent column "
    << format_coefficient(base.smallest_independent_distance) << ", strongest dependent "
    << format_coefficient(base.largest_dependent_distance) << "\n";
  if (!base.nearly_dependent.empty()) {
    s << "  nearly dependent:    " << base.nearly_dependent.size()
      << " regrouped although their columns are only within " << format_coefficient(base.near_dependence_tolerance)
      << " of dependent (joint axes a fraction of a degree from parallel; no motion identifies them):\n   ";
    for (const auto& [parameter, distance] : base.nearly_dependent)
      s << " " << base.parameter_names[static_cast<std::size_t>(parameter)] << " (" << format_coefficient(distance)
        << ")";
    s << "\n";
  }
  s << "\n";
  std::size_t width = 14;
  for (int k = 0; k < base.num_base(); ++k) width = std::max(width, base.name(k).size());
  s << "  " << std::string("base parameter").append(width - 14, ' ') << " = standard parameters it stands for\n";
  for (int k = 0; k < base.num_base(); ++k)
    s << "  " << std::string(base.name(k)).append(width - base.name(k).size(), ' ') << " = " << base.expression(k)
      << "\n";
  if (!base.unidentifiable.empty()) {
    s << "\nunidentifiable (" << kNoEffect << "):\n ";
    for (const UnidentifiableParameter& u : base.unidentifiable)
      s << " " << base.parameter_names[static_cast<std::size_t>(u.parameter)];
    s << "\n";
  }
  return s.str();
}

}  // namespace dynid
