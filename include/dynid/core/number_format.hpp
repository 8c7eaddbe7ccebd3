#pragma once
// Numbers as text: in model files 17 significant digits, so that reading them back gives the same
// double (files dynid writes round-trip exactly); in printed summaries a fixed number of decimals.

#include <string>

#include "dynid/core/types.hpp"

namespace dynid {

/// Shortest text that still round-trips (17 significant digits at most).
std::string format_exact(double x);

/// "x y z" with format_exact, as URDF and MJCF attributes want them.
std::string format_exact(const Vector3& v);

/// `digits` decimals (std::fixed), for measured values printed to a user.
std::string format_fixed(double x, int digits);

}  // namespace dynid
