#include "dynid/spatial/explog.hpp"

#include <Eigen/Geometry>

namespace dynid {

Matrix3 exp3(const Vector3& w) {
  const double angle = w.norm();
  if (angle < 1e-12) return Matrix3::Identity();
  return Eigen::AngleAxisd(angle, w / angle).toRotationMatrix();
}

Vector3 log3(const Matrix3& R) {
  const Eigen::AngleAxisd aa(R);
  return aa.axis() * aa.angle();
}

}  // namespace dynid
