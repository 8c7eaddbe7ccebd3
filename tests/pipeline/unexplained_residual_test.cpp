// The unexplained-residual verdict: the ratio from the CAD prior's c (its square root), from
// residual weighting's groups (RMS over rows), or from the weighted residual, and the three levels
// at their documented bounds.

#include "dynid/pipeline/unexplained_residual.hpp"

#include <gtest/gtest.h>

namespace dynid {
namespace {

TEST(UnexplainedResidual, RatioFromEachBasisAndTheLevels) {
  EXPECT_DOUBLE_EQ(assess_unexplained_residual(4.0, {}, 7.0).noise_ratio, 2.0);
  EquationGroupScale a, b;
  a.rows = 100;
  a.scale = 1.0;
  b.rows = 300;
  b.scale = 3.0;
  // sqrt((100 * 1 + 300 * 9) / 400) = sqrt(7)
  EXPECT_DOUBLE_EQ(assess_unexplained_residual(std::nullopt, {a, b}, 7.0).noise_ratio, std::sqrt(7.0));
  EXPECT_DOUBLE_EQ(assess_unexplained_residual(std::nullopt, {}, 1.2).noise_ratio, 1.2);

  EXPECT_EQ(assess_unexplained_residual(kResidualAtNoise * kResidualAtNoise, {}, 0).level, "at-sensor-noise");
  EXPECT_EQ(assess_unexplained_residual(1.01 * kResidualAtNoise * kResidualAtNoise, {}, 0).level, "above-sensor-noise");
  EXPECT_EQ(assess_unexplained_residual(kResidualFarAbove * kResidualFarAbove, {}, 0).level, "above-sensor-noise");
  const UnexplainedResidual far = assess_unexplained_residual(680.0, {}, 0);
  EXPECT_EQ(far.level, "far-above-sensor-noise");
  EXPECT_NE(far.explanation.find("26.08 times"), std::string::npos) << far.explanation;
  EXPECT_NE(far.explanation.find("--align-time"), std::string::npos);
}

// The IZMP's: the error against the root sum of squares of the sensors' part and the method's floor
// (3 mm and 4 mm make 5 mm); without a truth.urdf the sensors' part alone; no noise at all: infinite.
TEST(UnexplainedResidual, IzmpAgainstTheSensorsAndTheMethodsFloor) {
  EXPECT_DOUBLE_EQ(assess_izmp_residual(10.0, 3.0, 4.0).noise_ratio, 2.0);
  EXPECT_EQ(assess_izmp_residual(10.0, 3.0, 4.0).level, "above-sensor-noise");
  EXPECT_DOUBLE_EQ(assess_izmp_residual(6.0, 3.0, std::nullopt).noise_ratio, 2.0);
  EXPECT_NE(assess_izmp_residual(6.0, 3.0, std::nullopt).basis.find("no truth.urdf"), std::string::npos);
  EXPECT_EQ(assess_izmp_residual(5.0, 3.0, 4.0).level, "at-sensor-noise");
  const UnexplainedResidual far = assess_izmp_residual(60.0, 3.0, 4.0);
  EXPECT_EQ(far.level, "far-above-sensor-noise");
  EXPECT_NE(far.explanation.find("12.00 times"), std::string::npos) << far.explanation;
  EXPECT_TRUE(std::isinf(assess_izmp_residual(0.1, 0.0, 0.0).noise_ratio));
}

}  // namespace
}  // namespace dynid
