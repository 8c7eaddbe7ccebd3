#pragma once
// The exponential and logarithm maps of SO(3): rotation vectors (axis * angle [rad]) to rotation
// matrices and back. Used wherever an orientation error or an angular rate comes from two rotations.

#include "dynid/core/types.hpp"

namespace dynid {

/// Rotation matrix exp(w) of the rotation vector w (axis * angle); identity for |w| < 1e-12.
Matrix3 exp3(const Vector3& w);

/// Rotation vector log(R) (axis * angle, angle in [0, pi]) of a rotation matrix.
Vector3 log3(const Matrix3& R);

}  // namespace dynid
