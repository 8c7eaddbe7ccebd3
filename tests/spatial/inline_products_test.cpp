// The written-out 3x3 products of the recursions' inner loops against Eigen's own: the same bits,
// so that using them moved no result anywhere (spatial/inline_products.hpp).

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "dynid/spatial/inline_products.hpp"

namespace dynid {
namespace {

// Out of line, as the recursions saw Eigen's product before: the same code path for every call.
__attribute__((noinline)) Matrix3 eigen_product(const Matrix3& A, const Matrix3& B) { return A * B; }
__attribute__((noinline)) Vector3 eigen_product(const Matrix3& A, const Vector3& b) { return A * b; }
__attribute__((noinline)) Vector3 eigen_product_plus(const Matrix3& A, const Vector3& b, const Vector3& c) {
  return A * b + c;
}

/// Bit patterns compared, so that a different rounding anywhere fails (and NaN payloads compare).
bool same_bits(double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }

TEST(InlineProducts, SameBitsAsEigenAtRandomMatricesOfMixedScales) {
  std::mt19937 rng(16);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int differing = 0;
  for (int n = 0; n < 200000; ++n) {
    Matrix3 A, B;
    Vector3 b, c;
    // Entries spread over six decades, where the order of the additions decides the last bits.
    for (int i = 0; i < 9; ++i) {
      A(i) = u(rng) * std::exp(7.0 * u(rng));
      B(i) = u(rng) * std::exp(7.0 * u(rng));
    }
    for (int i = 0; i < 3; ++i) {
      b[i] = u(rng) * std::exp(7.0 * u(rng));
      c[i] = u(rng);
    }
    const Matrix3 C = times(A, B), E = eigen_product(A, B);
    for (int i = 0; i < 9; ++i) differing += !same_bits(C(i), E(i));
    const Vector3 r = times(A, b), e = eigen_product(A, b);
    const Vector3 rc = times(A, b) + c, ec = eigen_product_plus(A, b, c);
    for (int i = 0; i < 3; ++i) differing += !same_bits(r[i], e[i]) + !same_bits(rc[i], ec[i]);
  }
  EXPECT_EQ(differing, 0);
}

TEST(InlineProducts, ProductOfKnownMatrices) {
  Matrix3 A, B;
  A << 1, 2, 3, 4, 5, 6, 7, 8, 10;
  B << -1, 0, 2, 3, 1, 0, 0.5, -2, 1;
  Matrix3 expected;  // by hand
  expected << 6.5, -4, 5, 14, -7, 14, 22, -12, 24;
  EXPECT_EQ(times(A, B), expected);
  EXPECT_EQ(times(A, Vector3(1, -1, 2)), Vector3(5, 11, 19));
  EXPECT_TRUE(std::isnan(times(A, Vector3(std::numeric_limits<double>::quiet_NaN(), 0, 0))[2]));
}

}  // namespace
}  // namespace dynid
