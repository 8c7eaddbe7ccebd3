#pragma once
// Spatial force vector (wrench) [force; torque]: both parts in one frame, torque about that frame's
// origin.

#include "dynid/spatial/motion.hpp"

namespace dynid {

struct Force {
  Vector3 linear = Vector3::Zero();   ///< force [N]
  Vector3 angular = Vector3::Zero();  ///< torque about the frame origin [N m]

  Force() = default;
  Force(const Vector3& f, const Vector3& n) : linear(f), angular(n) {}
  static Force Zero() { return {}; }
  static Force from_vector(const Vector6& v) { return {v.head<3>(), v.tail<3>()}; }

  Vector6 to_vector() const {
    Vector6 v;
    v << linear, angular;
    return v;
  }

  Force operator+(const Force& o) const { return {linear + o.linear, angular + o.angular}; }
  Force operator-(const Force& o) const { return {linear - o.linear, angular - o.angular}; }
  Force operator-() const { return {-linear, -angular}; }
  Force operator*(double s) const { return {linear * s, angular * s}; }
  Force& operator+=(const Force& o) {
    linear += o.linear;
    angular += o.angular;
    return *this;
  }
  Force& operator-=(const Force& o) {
    linear -= o.linear;
    angular -= o.angular;
    return *this;
  }

  /// Power of this wrench on a twist expressed in the same frame [W].
  double dot(const Motion& m) const { return linear.dot(m.linear) + angular.dot(m.angular); }
};

inline Force Motion::cross(const Force& f) const {
  return {angular.cross(f.linear), angular.cross(f.angular) + linear.cross(f.linear)};
}

}  // namespace dynid
