#pragma once
// Small 3-D helpers shared by the spatial algebra.

#include <cmath>

#include "dynid/core/types.hpp"

namespace dynid {

/// Cross-product matrix: skew(a) * b == a.cross(b).
inline Matrix3 skew(const Vector3& a) {
  Matrix3 s;
  s << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
  return s;
}

/// Rotation by `angle` radians about the unit vector `axis` (Rodrigues' formula).
inline Matrix3 rotation_about_axis(const Vector3& axis, double angle) {
  const double s = std::sin(angle);
  const double c = std::cos(angle);
  Matrix3 R = (1.0 - c) * axis * axis.transpose();
  R.diagonal().array() += c;
  R(0, 1) -= s * axis.z();
  R(1, 0) += s * axis.z();
  R(0, 2) += s * axis.y();
  R(2, 0) -= s * axis.y();
  R(1, 2) -= s * axis.x();
  R(2, 1) += s * axis.x();
  return R;
}

/// Rotation matrix from URDF roll-pitch-yaw (fixed axes X, then Y, then Z): R = Rz(yaw) Ry(pitch) Rx(roll).
Matrix3 rotation_from_rpy(const Vector3& rpy);

/// Inverse of rotation_from_rpy, pitch in [-pi/2, pi/2].
Vector3 rpy_from_rotation(const Matrix3& R);

}  // namespace dynid
