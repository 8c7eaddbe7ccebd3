#pragma once
// The robot's IMU is not what its sidecar says (issue 19, `--perturb imu`, docs/scenarios.md),
// seeded:
//   - mounting: the sensor's axes are the sidecar frame's turned by an angle uniform within
//     kImuMisalignmentDeg about a random axis (a board on standoffs, a housing screwed to a frame:
//     about a degree);
//   - accelerometer scale: each axis's sensitivity off by a factor uniform within
//     ±kImuAccelScaleTolerance (MEMS sensitivity tolerance, BMI088 class);
//   - gyro bias drift: on top of the constant bias of `--noise realistic`, a random walk of
//     kImuGyroBiasWalk rad/s per √s (bias instability of a consumer MEMS gyro over minutes).
// The recorded stream reads the perturbed sensor (the noise and constant biases of `--noise
// realistic` are turned with it); the simulated controllers still read the IMU as the sidecar says.

#include <random>

#include "dynid/core/types.hpp"

namespace dynid {

inline constexpr double kImuMisalignmentDeg = 1.0;
inline constexpr double kImuAccelScaleTolerance = 0.01;
inline constexpr double kImuGyroBiasWalk = 2e-4;  ///< [rad/s/√s]

struct ImuError {
  Matrix3 sensor_in_frame = Matrix3::Identity();  ///< the sensor's axes in the sidecar IMU frame
  double misalignment_rad = 0.0;
  Vector3 accel_scale = Vector3::Ones();
  unsigned walk_seed = 0;
};

ImuError perturb_imu(unsigned seed);

/// The perturbed reading, sample by sample (the gyro bias walks).
class ImuReading {
 public:
  explicit ImuReading(const ImuError& e) : e_(e), rng_(e.walk_seed) {}
  /// gyro [rad/s] and specific force [m/s^2] as an IMU on the sidecar frame reads them -> what the
  /// mounted, miscalibrated sensor reports;
  /// `dt` [s] since the previous sample.
  void apply(Vector3& gyro, Vector3& accelerometer, double dt);
  const Vector3& gyro_bias_walk() const { return walk_; }
  const ImuError& error() const { return e_; }

 private:
  ImuError e_;
  std::mt19937 rng_;
  Vector3 walk_ = Vector3::Zero();
};

}  // namespace dynid
