#pragma once
// 3x3 matrix products written out, for the recursions' inner loops. At -O2 GCC calls Eigen's 3x3
// product out of line (about 110 instructions for a Matrix3 * Matrix3, callgrind, adult humanoid
// CRBA); these are always inlined. They add in Eigen's own order (its first two rows as one SSE2
// packet, (p0 + p1) + p2; the third row as a scalar sum, p0 + (p1 + p2)), so the results are the same bits
// as `A * B` and swapping one for the other moves no result (tests/spatial/inline_products_test.cpp).

#include "dynid/core/types.hpp"

namespace dynid {

/// A * b, the same bits as Eigen's `A * b`.
EIGEN_STRONG_INLINE Vector3 times(const Matrix3& A, const Vector3& b) {
  return {(A(0, 0) * b[0] + A(0, 1) * b[1]) + A(0, 2) * b[2], (A(1, 0) * b[0] + A(1, 1) * b[1]) + A(1, 2) * b[2],
          A(2, 0) * b[0] + (A(2, 1) * b[1] + A(2, 2) * b[2])};
}

/// A * B, the same bits as Eigen's `A * B`.
EIGEN_STRONG_INLINE Matrix3 times(const Matrix3& A, const Matrix3& B) {
  Matrix3 C;
  for (int j = 0; j < 3; ++j) {
    const double b0 = B(0, j), b1 = B(1, j), b2 = B(2, j);
    C(0, j) = (A(0, 0) * b0 + A(0, 1) * b1) + A(0, 2) * b2;
    C(1, j) = (A(1, 0) * b0 + A(1, 1) * b1) + A(1, 2) * b2;
    C(2, j) = A(2, 0) * b0 + (A(2, 1) * b1 + A(2, 2) * b2);
  }
  return C;
}

}  // namespace dynid
