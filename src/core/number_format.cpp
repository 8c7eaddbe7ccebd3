#include "dynid/core/number_format.hpp"

#include <array>
#include <charconv>
#include <iomanip>
#include <sstream>

namespace dynid {

std::string format_exact(double x) {
  // std::to_chars without a format: the shortest text that reads back as x (0.3, not
  // 0.29999999999999999), fixed or scientific, whichever is shorter.
  std::array<char, 32> text{};
  const auto [end, error] = std::to_chars(text.data(), text.data() + text.size(), x);
  return error == std::errc() ? std::string(text.data(), end) : std::string("nan");
}

std::string format_exact(const Vector3& v) {
  return format_exact(v.x()) + " " + format_exact(v.y()) + " " + format_exact(v.z());
}

std::string format_fixed(double x, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << x;
  return s.str();
}

}  // namespace dynid
