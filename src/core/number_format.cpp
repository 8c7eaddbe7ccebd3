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

}  // namespace dynid
