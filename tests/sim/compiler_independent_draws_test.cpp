// A seed draws the same simulated lab whichever compiler built dynid. The order in which a call's
// arguments are evaluated is unspecified, and clang drew `Vector3(u(rng), u(rng), u(rng))` the
// other way round from GCC, so the sanitizer (clang) build simulated other robots and labs than
// the Release (GCC) build (issue 15). The figures below were printed by dynid's GCC 12 Release build
// of main at 83a7dcd, before the draws were sequenced (core/random_draws.hpp), for any build to match.

#include <gtest/gtest.h>

#include <random>

#include "dynid/core/random_draws.hpp"
#include "dynid/sim/force_plate_perturbation.hpp"

namespace dynid {
namespace {

TEST(CompilerIndependentDraws, ForcePlateGainsAreTheGccBuildsOnes) {
  const std::vector<PlateError> plates = perturb_force_plates(2, 3);
  ASSERT_EQ(plates.size(), 2u);
  EXPECT_DOUBLE_EQ(plates[0].gain.x(), 1.0029211769364308);
  EXPECT_DOUBLE_EQ(plates[0].gain.y(), 0.99867940720690507);
  EXPECT_DOUBLE_EQ(plates[0].gain.z(), 0.99733412339544725);
  EXPECT_DOUBLE_EQ(plates[0].crosstalk_x, -0.0015938419487414601);
  EXPECT_DOUBLE_EQ(plates[1].gain.x(), 1.0025543692222603);
  EXPECT_DOUBLE_EQ(plates[1].gain.y(), 0.99992496163987798);
  EXPECT_DOUBLE_EQ(plates[1].gain.z(), 1.0011549546127405);
}

TEST(CompilerIndependentDraws, VectorsDrawTheirLastComponentFirst) {
  std::mt19937 a(42), b(42);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Vector3 v = draw_vector3(u, a);
  const Eigen::Vector4d w = draw_vector4(u, a);
  const double v2 = u(b), v1 = u(b), v0 = u(b);
  const double w3 = u(b), w2 = u(b), w1 = u(b), w0 = u(b);
  EXPECT_EQ(v, Vector3(v0, v1, v2));
  EXPECT_EQ(w, Eigen::Vector4d(w0, w1, w2, w3));
}

}  // namespace
}  // namespace dynid
