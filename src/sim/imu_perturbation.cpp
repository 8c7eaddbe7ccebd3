#include "dynid/sim/imu_perturbation.hpp"

#include <Eigen/Geometry>
#include <cmath>
#include <numbers>

#include "dynid/core/random_draws.hpp"

namespace dynid {

ImuError perturb_imu(unsigned seed) {
  std::mt19937 rng(seed * 2654435769u + 53u);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  ImuError e;
  const Vector3 axis = draw_vector3(u, rng).normalized();
  e.misalignment_rad = kImuMisalignmentDeg * std::numbers::pi / 180.0 * 0.5 * (1.0 + u(rng));
  e.sensor_in_frame = Eigen::AngleAxisd(e.misalignment_rad, axis).toRotationMatrix();
  e.accel_scale = Vector3::Ones() + kImuAccelScaleTolerance * draw_vector3(u, rng);
  e.walk_seed = static_cast<unsigned>(rng());
  return e;
}

void ImuReading::apply(Vector3& gyro, Vector3& accelerometer, double dt) {
  std::normal_distribution<double> gauss(0.0, 1.0);
  if (dt > 0.0) walk_ += kImuGyroBiasWalk * std::sqrt(dt) * Vector3(gauss(rng_), gauss(rng_), gauss(rng_));
  const Matrix3 to_sensor = e_.sensor_in_frame.transpose();
  gyro = to_sensor * gyro + walk_;
  accelerometer = e_.accel_scale.cwiseProduct(to_sensor * accelerometer);
}

}  // namespace dynid
