#include "dynid/mocap/vax_float.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace dynid {

double vax_f_to_double(const std::array<std::uint8_t, 4>& b) {
  const std::uint32_t high = b[0] | (static_cast<std::uint32_t>(b[1]) << 8);
  const std::uint32_t low = b[2] | (static_cast<std::uint32_t>(b[3]) << 8);
  const bool negative = (high & 0x8000u) != 0;
  const int exponent = static_cast<int>((high >> 7) & 0xFFu);
  const std::uint32_t fraction = ((high & 0x7Fu) << 16) | low;
  if (exponent == 0) return negative ? std::numeric_limits<double>::quiet_NaN() : 0.0;
  const double magnitude = std::ldexp(1.0 + fraction / 8388608.0, exponent - 129);  // 8388608 = 2^23
  return negative ? -magnitude : magnitude;
}

std::array<std::uint8_t, 4> double_to_vax_f(double value) {
  if (!std::isfinite(value) || std::fabs(value) >= 0x1p127)
    throw std::range_error("DEC float: cannot store " + std::to_string(value));
  const double x = static_cast<float>(value);
  if (x == 0.0) return {0, 0, 0, 0};
  int e2 = 0;
  const double m = std::frexp(std::fabs(x), &e2);  // |x| = m 2^e2, m in [0.5, 1): VAX's 0.1f form
  const int exponent = e2 + 128;
  if (exponent > 255) throw std::range_error("DEC float: " + std::to_string(value) + " is too large");
  if (exponent < 1) return {0, 0, 0, 0};
  const auto fraction = static_cast<std::uint32_t>(std::ldexp(2.0 * m - 1.0, 23));  // exact: x is a float
  const std::uint32_t high = (x < 0 ? 0x8000u : 0u) | (static_cast<std::uint32_t>(exponent) << 7) | (fraction >> 16);
  const std::uint32_t low = fraction & 0xFFFFu;
  return {static_cast<std::uint8_t>(high & 0xFF), static_cast<std::uint8_t>(high >> 8),
          static_cast<std::uint8_t>(low & 0xFF), static_cast<std::uint8_t>(low >> 8)};
}

}  // namespace dynid
