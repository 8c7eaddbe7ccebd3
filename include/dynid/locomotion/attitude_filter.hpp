#pragma once
// Orientation of an IMU from its own gyro and accelerometer, as the robot's controller estimates
// it: a complementary filter. The gyro is integrated on SO(3); the accelerometer's specific force,
// which points up (world +z) when the IMU does not accelerate, pulls the estimate's tilt toward it
// with a time constant long against a walking step, so the steps' accelerations average out and
// the gyro bias does not drift the tilt. Yaw is the integrated gyro only (nothing observes it).

#include "dynid/spatial/se3.hpp"

namespace dynid {

class AttitudeFilter {
 public:
  /// `world_from_imu`: the orientation at start (robot standing still, e.g. from a long average);
  /// `time_constant_s`: how slowly the accelerometer corrects the tilt.
  explicit AttitudeFilter(const Matrix3& world_from_imu, double time_constant_s = 1.0);

  /// One update with the gyro [rad/s] and specific force [m/s^2] in IMU axes over `dt` [s].
  /// Returns the estimated world <- IMU rotation.
  const Matrix3& update(const Vector3& gyro, const Vector3& specific_force, double dt);

  const Matrix3& world_from_imu() const { return rotation_; }

 private:
  Matrix3 rotation_;
  double time_constant_;
};

}  // namespace dynid
