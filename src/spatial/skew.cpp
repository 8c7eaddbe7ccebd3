#include "dynid/spatial/skew.hpp"

#include <Eigen/Geometry>

namespace dynid {

Matrix3 rotation_from_rpy(const Vector3& rpy) {
  return (Eigen::AngleAxisd(rpy.z(), Vector3::UnitZ()) * Eigen::AngleAxisd(rpy.y(), Vector3::UnitY()) *
          Eigen::AngleAxisd(rpy.x(), Vector3::UnitX()))
      .toRotationMatrix();
}

Vector3 rpy_from_rotation(const Matrix3& R) {
  const double pitch = std::atan2(-R(2, 0), std::hypot(R(0, 0), R(1, 0)));
  const double yaw = std::atan2(R(1, 0), R(0, 0));
  const double roll = std::atan2(R(2, 1), R(2, 2));
  return {roll, pitch, yaw};
}

}  // namespace dynid
