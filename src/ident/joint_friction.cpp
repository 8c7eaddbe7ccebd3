#include "dynid/ident/joint_friction.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace dynid {

std::vector<std::string> JointFrictionTerms::names() const {
  std::vector<std::string> n;
  if (viscous) n.emplace_back("viscous");
  if (coulomb) n.emplace_back("coulomb");
  if (coulomb_asymmetric) {
    n.emplace_back("coulomb_positive");
    n.emplace_back("coulomb_negative");
  }
  if (offset) n.emplace_back("offset");
  if (armature) n.emplace_back("armature");
  return n;
}

JointFrictionTerms parse_joint_friction_terms(const std::string& friction, bool armature,
                                              double coulomb_smoothing_velocity, const std::string& what) {
  JointFrictionTerms t;
  t.armature = armature;
  if (!(coulomb_smoothing_velocity >= 0.0) || !std::isfinite(coulomb_smoothing_velocity))
    throw std::invalid_argument("the Coulomb smoothing velocity must be >= 0 rad/s (0: the sign function)");
  t.coulomb_smoothing_velocity = coulomb_smoothing_velocity;
  if (friction.empty() || friction == "none") return t;
  std::stringstream list(friction);
  std::string term;
  while (std::getline(list, term, ',')) {
    if (term == "viscous")
      t.viscous = true;
    else if (term == "coulomb")
      t.coulomb = true;
    else if (term == "coulomb-asymmetric")
      t.coulomb_asymmetric = true;
    else if (term == "offset")
      t.offset = true;
    else if (term == "armature")
      t.armature = true;
    else
      throw std::invalid_argument(what + ": unknown term '" + term +
                                  "' (viscous, coulomb, coulomb-asymmetric, offset, armature)");
  }
  if (t.coulomb_asymmetric && t.coulomb)
    throw std::invalid_argument(what +
                                ": coulomb-asymmetric already holds the symmetric Coulomb level "
                                "(f_c+ = f_c- = f_c): use one of coulomb, coulomb-asymmetric");
  if (t.coulomb_asymmetric && t.offset)
    throw std::invalid_argument(what +
                                ": coulomb-asymmetric and offset are the same unknowns on a joint that moves "
                                "both ways ((f_c+ - f_c-) / 2 acts as an offset): use coulomb-asymmetric or "
                                "coulomb,offset");
  return t;
}

double joint_friction_regressor(const std::string& term, double qd, double qdd, double coulomb_smoothing_velocity) {
  if (term == "viscous") return qd;
  if (term == "coulomb")
    return coulomb_smoothing_velocity > 0.0 ? std::tanh(qd / coulomb_smoothing_velocity)
                                            : static_cast<double>((qd > 0.0) - (qd < 0.0));
  if (term == "coulomb_positive" || term == "coulomb_negative") {
    const double s = joint_friction_regressor("coulomb", qd, qdd, coulomb_smoothing_velocity);
    return term == "coulomb_positive" ? std::max(s, 0.0) : std::min(s, 0.0);
  }
  if (term == "offset") return 1.0;
  if (term == "armature") return qdd;
  throw std::invalid_argument("unknown friction term '" + term + "'");
}

FrictionGrouping group_friction_columns(const MatrixX& base_rows, const MatrixX& friction_rows, double tolerance) {
  const Eigen::Index nb = base_rows.cols(), nf = friction_rows.cols();
  FrictionGrouping g;
  g.separable.assign(static_cast<std::size_t>(nf), true);
  g.base_coefficients = MatrixX::Zero(nb, nf);
  MatrixX kept = base_rows;
  for (Eigen::Index k = 0; k < nf; ++k) {
    const VectorX c = friction_rows.col(k);
    const double norm = c.norm();
    if (norm == 0.0) {  // never excited at any state: nothing to estimate
      g.separable[static_cast<std::size_t>(k)] = false;
      continue;
    }
    const Eigen::ColPivHouseholderQR<MatrixX> qr(kept);
    const VectorX x = qr.solve(c);
    if ((kept * x - c).norm() <= tolerance * norm) {
      g.separable[static_cast<std::size_t>(k)] = false;
      g.base_coefficients.col(k) = x.head(nb);
      if (x.size() > nb && x.tail(x.size() - nb).norm() > tolerance * (1.0 + x.head(nb).norm()))
        g.base_coefficients.col(k).setConstant(
            std::numeric_limits<double>::quiet_NaN());  // needs another friction term
      continue;
    }
    kept.conservativeResize(Eigen::NoChange, kept.cols() + 1);
    kept.col(kept.cols() - 1) = c;
  }
  return g;
}

}  // namespace dynid
