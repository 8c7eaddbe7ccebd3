#pragma once
// Spatial motion vector (twist or spatial acceleration), Featherstone/Pinocchio convention:
// linear part first, both parts expressed in one frame, linear part is the velocity of the point at
// that frame's origin.

#include "dynid/spatial/skew.hpp"

namespace dynid {

struct Force;

struct Motion {
  Vector3 linear = Vector3::Zero();
  Vector3 angular = Vector3::Zero();

  Motion() = default;
  Motion(const Vector3& lin, const Vector3& ang) : linear(lin), angular(ang) {}
  static Motion Zero() { return {}; }
  static Motion from_vector(const Vector6& v) { return {v.head<3>(), v.tail<3>()}; }

  Vector6 to_vector() const {
    Vector6 v;
    v << linear, angular;
    return v;
  }

  Motion operator+(const Motion& o) const { return {linear + o.linear, angular + o.angular}; }
  Motion operator-(const Motion& o) const { return {linear - o.linear, angular - o.angular}; }
  Motion operator*(double s) const { return {linear * s, angular * s}; }
  Motion& operator+=(const Motion& o) {
    linear += o.linear;
    angular += o.angular;
    return *this;
  }

  /// Motion cross product (this x m), the derivative of m in a frame moving with this twist.
  Motion cross(const Motion& m) const {
    return {angular.cross(m.linear) + linear.cross(m.angular), angular.cross(m.angular)};
  }
  /// Force cross product (this x* f).
  inline Force cross(const Force& f) const;
};

}  // namespace dynid
