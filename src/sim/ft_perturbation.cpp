#include "dynid/sim/ft_perturbation.hpp"

#include <Eigen/Geometry>

#include "dynid/core/random_draws.hpp"

namespace dynid {
namespace {

/// 1 + gain error on the diagonal, crosstalk elsewhere.
Matrix3 calibration_matrix(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Matrix3 m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m(i, j) = i == j ? 1.0 + kFtGainTolerance * u(rng) : kFtCrosstalk * u(rng);
  return m;
}

}  // namespace

std::vector<FtError> perturb_ft_sensors(std::size_t sensors, unsigned seed) {
  std::mt19937 rng(seed * 2246822519u + 29u);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<FtError> out(sensors);
  for (FtError& e : out) {
    e.force_matrix = calibration_matrix(rng);
    e.moment_matrix = calibration_matrix(rng);
    e.origin_error = kFtOriginErrorM * draw_vector3(u, rng);
    for (int k = 0; k < 6; ++k) e.drift_per_s[k] = (k < 3 ? kFtForceDriftNPerS : kFtMomentDriftNmPerS) * u(rng);
  }
  return out;
}

Vector6 ft_reading(const FtError& e, const Vector6& x, double time_s) {
  const Vector3 f = x.head<3>();
  // The moment about the calibrated origin r: m_r = m - r x f.
  const Vector3 m = x.tail<3>() - e.origin_error.cross(f);
  Vector6 out;
  out << e.force_matrix * f, e.moment_matrix * m;
  return out + e.drift_per_s * time_s;
}

}  // namespace dynid
