// Numbers written into model files read back as the same double, in the shortest text that does.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "dynid/core/number_format.hpp"

namespace dynid {
namespace {

TEST(NumberFormat, ExactTextIsTheShortestThatReadsBackAsTheSameDouble) {
  EXPECT_EQ(format_exact(0.3), "0.3");
  EXPECT_EQ(format_exact(4.0), "4");
  EXPECT_EQ(format_exact(-1.25e-17), "-1.25e-17");
  EXPECT_EQ(format_exact(0.1 + 0.2), "0.30000000000000004");  // not 0.3: that is another double
  EXPECT_EQ(format_exact(Vector3(1.0, -0.5, 2e-3)), "1 -0.5 0.002");
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<std::uint64_t> bits;
  int checked = 0;
  for (int k = 0; k < 200000; ++k) {  // random bit patterns: every exponent, subnormals included
    const std::uint64_t b = bits(rng);
    double x;
    std::memcpy(&x, &b, sizeof x);
    if (!std::isfinite(x)) continue;
    const std::string text = format_exact(x);
    ASSERT_EQ(std::strtod(text.c_str(), nullptr), x) << text;
    // never longer than the 17 significant digits that always read back
    char seventeen[400];
    std::snprintf(seventeen, sizeof seventeen, "%.17g", x);
    EXPECT_LE(text.size(), std::string(seventeen).size()) << text;
    ++checked;
  }
  EXPECT_GT(checked, 190000);
  EXPECT_EQ(format_exact(std::numeric_limits<double>::quiet_NaN()), "nan");
}

}  // namespace
}  // namespace dynid
