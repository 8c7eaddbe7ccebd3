// The controller's IMU orientation estimate: exact gyro integration, tilt pulled to the
// accelerometer, yaw left to the gyro.

#include "dynid/locomotion/attitude_filter.hpp"

#include <gtest/gtest.h>

namespace dynid {
namespace {

Matrix3 rot(double angle, const Vector3& axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

TEST(AttitudeFilter, IntegratesAConstantRateExactly) {
  // A body turning at a constant rate about a fixed body axis, specific force away from 1 g so
  // only the gyro acts: after N steps it has turned N w dt (closed form).
  const Vector3 w(0.3, -0.2, 0.5);
  AttitudeFilter f(Matrix3::Identity());
  for (int k = 0; k < 1000; ++k) f.update(w, Vector3::Zero(), 0.008);
  EXPECT_LT((f.world_from_imu() - rot(8.0 * w.norm(), w)).norm(), 1e-9);
}

TEST(AttitudeFilter, AccelerometerCorrectsTheTiltNotTheYaw) {
  // True IMU: yawed 0.4 rad, pitched 0.1 rad, at rest. The estimate starts 0.1 rad off in roll and
  // with the right yaw; after several time constants the tilt matches, the yaw is kept.
  const Matrix3 truth = rot(0.4, Vector3::UnitZ()) * rot(0.1, Vector3::UnitY());
  const Vector3 specific_force = truth.transpose() * Vector3(0.0, 0.0, 9.81);  // IMU axes
  AttitudeFilter f(rot(0.4, Vector3::UnitZ()) * rot(0.1, Vector3::UnitY()) * rot(0.1, Vector3::UnitX()), 0.5);
  for (int k = 0; k < 1000; ++k) f.update(Vector3::Zero(), specific_force, 0.008);  // 8 s = 16 time constants
  const Vector3 up_est = f.world_from_imu().transpose() * Vector3::UnitZ();
  EXPECT_LT((up_est - truth.transpose() * Vector3::UnitZ()).norm(), 1e-6);
  const Matrix3& R = f.world_from_imu();
  EXPECT_NEAR(std::atan2(R(1, 0), R(0, 0)), std::atan2(truth(1, 0), truth(0, 0)), 0.02);
}

TEST(AttitudeFilter, RejectsANonPositiveTimeConstant) {
  EXPECT_THROW(AttitudeFilter(Matrix3::Identity(), 0.0), std::invalid_argument);
}

}  // namespace
}  // namespace dynid
