#pragma once
// The root body's angular acceleration measured algebraically (paper 001, eqs. 23-29): an IMU
// (gyro + accelerometer) and further accelerometers on the same rigid body. Every accelerometer j
// at offset r_j from the IMU's reads a_j = a_0 + omega_dot x r_j + omega x (omega x r_j) (minus g,
// the same for all); with omega from the gyro that is linear in omega_dot. The paper picks one
// component per uniaxial sensor; with three-axis sensors dynid solves all 3 k equations in least
// squares, which needs only two offsets that are not parallel. Sensor frames and misalignment come
// from the model's frames (the sidecar's `imu:` and `accelerometers:`).
//
// Also the alternative the paper compares against: the backward difference quotient of the gyro.
// Real-time safe after construction: no allocation.

#include <string>
#include <vector>

#include "dynid/model/model.hpp"

namespace dynid {

/// An accelerometer on the root body: its name, position [m] and orientation (sensor axes -> root
/// axes) in the root body's frame.
struct AccelerometerMount {
  std::string name;
  Vector3 position = Vector3::Zero();
  Matrix3 rotation = Matrix3::Identity();
};

class AccelerometerArray {
 public:
  /// `reference`: the IMU's accelerometer (the one the gyro sits with); `others`: at least one more.
  /// Throws std::invalid_argument naming the sensors when their offsets from the reference cannot
  /// determine omega_dot (all on one line through it, or at it).
  AccelerometerArray(AccelerometerMount reference, std::vector<AccelerometerMount> others);

  /// From the model's frames: the IMU frame and the accelerometer frames, all on the root body
  /// (body 1 of a floating base). Throws naming a frame that is missing or on another body.
  static AccelerometerArray from_model(const Model& model, const std::string& imu_frame,
                                       const std::vector<std::string>& accelerometer_frames);

  /// omega_dot [rad/s^2], root axes. omega: gyro [rad/s], root axes; reference_reading: the IMU's
  /// specific force in its axes; readings: column j = accelerometer j's specific force in its own
  /// axes [m/s^2], in the order of `others`.
  Vector3 angular_acceleration(const Vector3& omega, const Vector3& reference_reading,
                               const Eigen::Ref<const Eigen::Matrix3Xd>& readings) const;

  /// Specific force at a point of the root body [m/s^2], root axes, moved from the reference
  /// accelerometer's reading by rigid-body kinematics (eq. 23). point: root-frame coordinates [m].
  Vector3 specific_force_at(const Vector3& point, const Vector3& omega, const Vector3& omega_dot,
                            const Vector3& reference_reading) const;

  /// omega_dot's noise amplification: the covariance of omega_dot for white accelerometer noise of
  /// unit variance per axis on every sensor (reference included) [1/m^2].
  Matrix3 noise_covariance_per_unit_variance() const;

  const AccelerometerMount& reference() const { return reference_; }
  const std::vector<AccelerometerMount>& others() const { return others_; }

 private:
  AccelerometerMount reference_;
  std::vector<AccelerometerMount> others_;
  std::vector<Vector3> offsets_;     ///< r_j = others_[j].position - reference_.position, root axes
  Eigen::Matrix3Xd pseudo_inverse_;  ///< 3 x 3k least-squares solution of omega_dot
};

/// Backward difference quotient of the gyro, (omega_now - omega_before) / dt [rad/s^2].
inline Vector3 angular_acceleration_from_gyro(const Vector3& omega_before, const Vector3& omega_now, double dt) {
  return (omega_now - omega_before) / dt;
}

}  // namespace dynid
