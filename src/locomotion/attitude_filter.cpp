#include "dynid/locomotion/attitude_filter.hpp"

#include <cmath>
#include <stdexcept>

#include "dynid/spatial/explog.hpp"

namespace dynid {

AttitudeFilter::AttitudeFilter(const Matrix3& world_from_imu, double time_constant_s)
    : rotation_(world_from_imu), time_constant_(time_constant_s) {
  if (!(time_constant_s > 0.0)) throw std::invalid_argument("attitude filter: time constant must be positive");
}

const Matrix3& AttitudeFilter::update(const Vector3& gyro, const Vector3& specific_force, double dt) {
  rotation_ = rotation_ * exp3(gyro * dt);
  // Trust the accelerometer's direction only near 1 g: far from it, the IMU is accelerating.
  const double norm = specific_force.norm();
  if (norm > 0.8 * 9.81 && norm < 1.2 * 9.81) {
    const Vector3 up = rotation_ * specific_force / norm;
    // Small rotation (world axes) that turns the measured up toward +z; its z part is zero.
    const Vector3 error = up.cross(Vector3::UnitZ());
    rotation_ = exp3(std::min(1.0, dt / time_constant_) * error) * rotation_;
  }
  // Keep it a rotation despite rounding.
  const Eigen::Quaterniond q(rotation_);
  rotation_ = q.normalized().toRotationMatrix();
  return rotation_;
}

}  // namespace dynid
