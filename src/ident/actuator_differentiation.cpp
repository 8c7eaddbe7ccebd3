#include "dynid/ident/actuator_differentiation.hpp"

#include <algorithm>
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

}  // namespace dynid
