#pragma once
// Joint kinds of a dynid kinematic tree. Fixed URDF joints do not appear: their child links are
// merged into the parent body (see model.hpp).

#include <limits>
#include <string>

#include "dynid/spatial/se3.hpp"

namespace dynid {

enum class JointType {
  Revolute,   ///< one rotation about `axis` (URDF revolute and continuous); q in rad
  Prismatic,  ///< one translation along `axis`; q in m
  FreeFlyer,  ///< floating base: q = [position in parent (3), quaternion x y z w (4)], v = body twist (6)
};

const char* to_string(JointType type);

struct JointLimits {
  double lower = -std::numeric_limits<double>::infinity();  ///< [rad] or [m]
  double upper = std::numeric_limits<double>::infinity();
  double velocity = std::numeric_limits<double>::infinity();  ///< [rad/s] or [m/s]
  double effort = std::numeric_limits<double>::infinity();    ///< [N m] or [N]
};

}  // namespace dynid
