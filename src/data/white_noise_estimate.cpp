#include "dynid/data/white_noise_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace dynid {
namespace {

double median(std::vector<double>& v) {
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

}  // namespace

double white_noise_sigma(const Eigen::VectorXd& x) {
  std::vector<double> d;
  d.reserve(static_cast<std::size_t>(std::max<Eigen::Index>(0, x.size() - 2)));
  for (Eigen::Index k = 1; k + 1 < x.size(); ++k) {
    const double v = x[k + 1] - 2.0 * x[k] + x[k - 1];
    if (std::isfinite(v)) d.push_back(v);
  }
  if (d.size() < 50) return std::numeric_limits<double>::quiet_NaN();
  std::vector<double> spread = d;
  const double centre = median(spread);
  for (double& v : d) v = std::abs(v - centre);
  return 1.4826 * median(d) / std::sqrt(6.0);
}

}  // namespace dynid
