// Foot geometry read from the bundled robots' sidecars and models.

#include "dynid/locomotion/foot_geometry.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "support/test_models.hpp"

namespace dynid {
namespace {

TEST(FootGeometry, BundledRobots) {
  const FootGeometry kid = foot_geometry(test::bundled_robot("kid_humanoid"));
  EXPECT_NEAR(kid.sole_length_m, 0.10, 1e-12);
  EXPECT_NEAR(kid.sole_width_m, 0.06, 1e-12);
  EXPECT_GT(kid.foot_separation_m, kid.sole_width_m);  // the soles do not overlap
  EXPECT_GT(kid.standing_com_height_m, 0.15);
  EXPECT_LT(kid.standing_com_height_m, 0.54);
  const FootGeometry biped = foot_geometry(test::bundled_robot("biped16"), "l_foot_points", "r_foot_points");
  EXPECT_NEAR(biped.sole_length_m, 0.22, 1e-12);  // 4 points at (+-0.11, +-0.055)
  EXPECT_NEAR(biped.sole_width_m, 0.11, 1e-12);
  EXPECT_THROW(foot_geometry(test::bundled_robot("biped16")), std::invalid_argument);  // no "l_sole"
}

}  // namespace
}  // namespace dynid
