#pragma once
// Random vectors drawn one component per statement. C++ leaves the order in which a call's
// arguments are evaluated unspecified: `Vector3(u(rng), u(rng), u(rng))` draws z first under GCC
// and x first under clang, so a seed gave another true robot, lab and noise depending on the
// compiler that built dynid. These draw in GCC's order (last component first), so every build
// draws what the GCC builds always have.

#include <Eigen/Core>

#include "dynid/core/types.hpp"

namespace dynid {

/// (x, y, z), each from `distribution`; z is drawn first, x last.
template <class Distribution, class Engine>
Vector3 draw_vector3(Distribution& distribution, Engine& engine) {
  const double z = distribution(engine);
  const double y = distribution(engine);
  const double x = distribution(engine);
  return Vector3(x, y, z);
}

/// (x, y, z, w), each from `distribution`; w is drawn first, x last.
template <class Distribution, class Engine>
Eigen::Vector4d draw_vector4(Distribution& distribution, Engine& engine) {
  const double w = distribution(engine);
  const double z = distribution(engine);
  const double y = distribution(engine);
  const double x = distribution(engine);
  return Eigen::Vector4d(x, y, z, w);
}

}  // namespace dynid
