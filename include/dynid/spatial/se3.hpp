#pragma once
// Rigid transform aMb: pose of frame b in frame a. A point with coordinates x_b in b has coordinates
// x_a = rotation * x_b + translation in a. act() maps vectors expressed in b to a; act_inv() the
// reverse.

#include <Eigen/Geometry>

#include "dynid/spatial/force.hpp"
#include "dynid/spatial/inline_products.hpp"

namespace dynid {

struct SE3 {
  Matrix3 rotation = Matrix3::Identity();
  Vector3 translation = Vector3::Zero();

  SE3() = default;
  SE3(const Matrix3& R, const Vector3& p) : rotation(R), translation(p) {}
  static SE3 Identity() { return {}; }

  /// aMb * bMc = aMc
  SE3 operator*(const SE3& m) const {
    return {times(rotation, m.rotation), times(rotation, m.translation) + translation};
  }
  SE3 inverse() const { return {rotation.transpose(), -(rotation.transpose() * translation)}; }

  Vector3 act(const Vector3& point_b) const { return rotation * point_b + translation; }
  Vector3 act_inv(const Vector3& point_a) const { return rotation.transpose() * (point_a - translation); }

  Motion act(const Motion& m) const {
    const Vector3 ang = rotation * m.angular;
    return {rotation * m.linear + translation.cross(ang), ang};
  }
  Motion act_inv(const Motion& m) const {
    return {rotation.transpose() * (m.linear - translation.cross(m.angular)), rotation.transpose() * m.angular};
  }
  Force act(const Force& f) const {
    const Vector3 lin = rotation * f.linear;
    return {lin, rotation * f.angular + translation.cross(lin)};
  }
  Force act_inv(const Force& f) const {
    return {rotation.transpose() * f.linear, rotation.transpose() * (f.angular - translation.cross(f.linear))};
  }

  /// 6x6 matrix acting on motion vectors [linear; angular] expressed in b, giving them in a.
  Matrix6 motion_matrix() const {
    Matrix6 X;
    X.topLeftCorner<3, 3>() = rotation;
    X.topRightCorner<3, 3>() = skew(translation) * rotation;
    X.bottomLeftCorner<3, 3>().setZero();
    X.bottomRightCorner<3, 3>() = rotation;
    return X;
  }
  /// 6x6 matrix acting on force vectors [force; torque] expressed in b, giving them in a.
  Matrix6 force_matrix() const {
    Matrix6 X;
    X.topLeftCorner<3, 3>() = rotation;
    X.topRightCorner<3, 3>().setZero();
    X.bottomLeftCorner<3, 3>() = skew(translation) * rotation;
    X.bottomRightCorner<3, 3>() = rotation;
    return X;
  }

  bool is_approx(const SE3& o, double tol = 1e-12) const {
    return rotation.isApprox(o.rotation, tol) &&
           (translation - o.translation).norm() <= tol * (1.0 + translation.norm());
  }
};

}  // namespace dynid

namespace dynid {

/// exp of a twist: the pose reached after moving for unit time with constant body twist `nu`
/// (linear part first). Used to integrate a floating base on its manifold.
inline SE3 exp6(const Motion& nu) {
  const Vector3& w = nu.angular;
  const double theta = w.norm();
  const Matrix3 W = skew(w);
  double a, b, c;  // R = 1 + a W + b W^2, V = 1 + b W + c W^2
  if (theta < 1e-6) {
    const double t2 = theta * theta;
    a = 1.0 - t2 / 6.0;
    b = 0.5 - t2 / 24.0;
    c = 1.0 / 6.0 - t2 / 120.0;
  } else {
    a = std::sin(theta) / theta;
    b = (1.0 - std::cos(theta)) / (theta * theta);
    c = (theta - std::sin(theta)) / (theta * theta * theta);
  }
  const Matrix3 W2 = W * W;
  const Matrix3 R = Matrix3::Identity() + a * W + b * W2;
  const Matrix3 V = Matrix3::Identity() + b * W + c * W2;
  return {R, V * nu.linear};
}

}  // namespace dynid
