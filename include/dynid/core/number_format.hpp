#pragma once
// Numbers written to model files: 17 significant digits, so that reading them back gives the same
// double (files dynid writes round-trip exactly).

#include <string>

#include "dynid/spatial/skew.hpp"

namespace dynid {

/// Shortest text that still round-trips (17 significant digits at most).
std::string format_exact(double x);

/// "x y z" with format_exact, as URDF and MJCF attributes want them.
std::string format_exact(const Vector3& v);

}  // namespace dynid
