// DEC (VAX F) floats: known bit patterns and a round trip over the float range.

#include "dynid/mocap/vax_float.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace dynid {
namespace {

TEST(VaxFloat, KnownPatterns) {
  // 1.0 = 0.5 x 2^1: exponent 129, word 0x4080 stored low byte first.
  EXPECT_EQ(vax_f_to_double({0x80, 0x40, 0x00, 0x00}), 1.0);
  EXPECT_EQ(vax_f_to_double({0x80, 0xC0, 0x00, 0x00}), -1.0);
  // 0.75 = 0.11b x 2^0: exponent 128, fraction bit 22 set.
  EXPECT_EQ(vax_f_to_double({0x40, 0x40, 0x00, 0x00}), 0.75);
  EXPECT_EQ(vax_f_to_double({0x00, 0x00, 0x12, 0x34}), 0.0) << "exponent 0 is zero";
  EXPECT_TRUE(std::isnan(vax_f_to_double({0x00, 0x80, 0x00, 0x00}))) << "reserved operand";
  const auto one = double_to_vax_f(1.0);
  EXPECT_EQ(one, (std::array<std::uint8_t, 4>{0x80, 0x40, 0x00, 0x00}));
}

TEST(VaxFloat, RoundTripsEveryFloatItCanHold) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-120, 120);
  for (int i = 0; i < 20000; ++i) {
    const double x = static_cast<float>(std::ldexp(mantissa(rng), exponent(rng)));
    // Below 2^-128 F_floating has no numbers: those become 0.
    EXPECT_EQ(vax_f_to_double(double_to_vax_f(x)), std::fabs(x) < 0x1p-128 ? 0.0 : x) << x;
  }
  EXPECT_EQ(vax_f_to_double(double_to_vax_f(0.0)), 0.0);
  EXPECT_THROW(double_to_vax_f(std::nan("")), std::range_error);
  EXPECT_THROW(double_to_vax_f(3e38), std::range_error);
}

}  // namespace
}  // namespace dynid
