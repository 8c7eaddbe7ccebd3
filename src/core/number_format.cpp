#include "dynid/core/number_format.hpp"

#include <iomanip>
#include <sstream>

namespace dynid {

std::string format_exact(double x) {
  std::ostringstream s;
  s << std::setprecision(17) << x;
  return s.str();
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
