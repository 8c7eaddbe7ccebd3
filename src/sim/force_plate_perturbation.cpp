#include "dynid/sim/force_plate_perturbation.hpp"

#include <Eigen/Geometry>
#include <cmath>

#include "dynid/core/random_draws.hpp"

namespace dynid {

std::vector<PlateError> perturb_force_plates(std::size_t plates, unsigned seed) {
  std::mt19937 rng(seed * 1597334677u + 41u);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<PlateError> out(plates);
  for (PlateError& e : out) {
    e.gain = Vector3::Ones() + kPlateGainTolerance * draw_vector3(u, rng);
    e.crosstalk_x = kPlateCrosstalk * u(rng);
    e.crosstalk_y = kPlateCrosstalk * u(rng);
    e.cop_bias_x = kPlateCopBiasM * u(rng);
    e.cop_bias_y = kPlateCopBiasM * u(rng);
    e.cop_scale_x = kPlateCopScale * u(rng);
    e.cop_scale_y = kPlateCopScale * u(rng);
    for (int k = 0; k < 6; ++k) e.drift_per_s[k] = (k < 3 ? kPlateForceDriftNPerS : kPlateMomentDriftNmPerS) * u(rng);
  }
  return out;
}

Vector6 plate_reading(const PlateError& e, const Vector6& x, double time_s) {
  const Vector3 f = x.head<3>(), m = x.tail<3>();
  // The true COP on the top surface (plate z = 0): where the moment has no horizontal part; the
  // robot pushes down, fz < 0 (as the recorder's COP).
  Vector3 m_read = m;
  if (std::abs(f.z()) > 1e-9) {
    const double cop_x = -m.y() / f.z(), cop_y = m.x() / f.z();
    const Vector3 shift(e.cop_bias_x + e.cop_scale_x * cop_x, e.cop_bias_y + e.cop_scale_y * cop_y, 0.0);
    m_read += shift.cross(f);  // the same force applied at COP + shift
  }
  Vector3 f_read = e.gain.cwiseProduct(f);
  f_read.x() += e.crosstalk_x * f.z();
  f_read.y() += e.crosstalk_y * f.z();
  Vector6 out;
  out << f_read, m_read;
  return out + e.drift_per_s * time_s;
}

}  // namespace dynid
