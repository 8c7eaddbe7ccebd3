#include "dynid/ident/actuator_differentiation.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace dynid {

const char* to_string(DifferenceScheme scheme) { return scheme == DifferenceScheme::Backward ? "backward" : "central"; }

DifferenceScheme parse_difference_scheme(const std::string& text) {
  if (text == "backward") return DifferenceScheme::Backward;
  if (text == "central") return DifferenceScheme::Central;
  throw std::invalid_argument("unknown difference scheme '" + text + "' (backward or central)");
}

void actuator_derivatives(const Eigen::Ref<const MatrixX>& positions, Eigen::Index k, Eigen::Index stride, double dt,
                          DifferenceScheme scheme, Eigen::Ref<VectorX> rate, Eigen::Ref<VectorX> acceleration) {
  const Eigen::Index last = positions.rows() - 1;
  auto row = [&](Eigen::Index i) { return positions.row(std::clamp<Eigen::Index>(i, 0, last)).transpose(); };
  if (scheme == DifferenceScheme::Backward) {
    rate = (row(k) - row(k - stride)) / dt;
    acceleration = (row(k) - 2.0 * row(k - stride) + row(k - 2 * stride)) / (dt * dt);
  } else {
    rate = (row(k + stride) - row(k - stride)) / (2.0 * dt);
    acceleration = (row(k + stride) - 2.0 * row(k) + row(k - stride)) / (dt * dt);
  }
}

DifferenceKernels difference_kernels(Eigen::Index stride, DifferenceScheme scheme) {
  const Eigen::Index s = stride;
  const double sd = static_cast<double>(s);
  DifferenceKernels k;
  const Eigen::Index centre = scheme == DifferenceScheme::Central ? 0 : -s;
  for (Eigen::Index j = -(s - 1); j <= s - 1; ++j)
    k.acceleration.emplace_back(centre + j, (sd - static_cast<double>(std::abs(j))) / (sd * sd));
  // A velocity sample is the mean over the step before it, (q_j - q_{j-1}) / h.
  const Eigen::Index last = scheme == DifferenceScheme::Central ? s : 0;
  const double width = scheme == DifferenceScheme::Central ? 2.0 * sd : sd;
  for (Eigen::Index j = -s + 1; j <= last; ++j) k.rate.emplace_back(j, 1.0 / width);
  return k;
}

}  // namespace dynid
