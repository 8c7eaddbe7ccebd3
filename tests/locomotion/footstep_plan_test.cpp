// Footstep plan and ZMP reference: geometry and timing of a straight walk, level and on slopes.

#include "dynid/locomotion/footstep_plan.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "dynid/locomotion/zmp_reference.hpp"

namespace dynid {
namespace {

FootstepParams twelve_steps(double slope_rad = 0.0) {
  FootstepParams params;
  params.num_steps = 12;
  params.walking_speed_mps = 0.25;
  params.step_duration_s = 0.6;
  params.double_support_fraction = 0.2;
  params.step_width_m = 0.18;
  params.slope_rad = slope_rad;
  params.initial_double_support_s = 1.0;
  params.final_double_support_s = 1.0;
  return params;
}

TEST(FootstepPlan, StraightWalkFromStandingToStanding) {
  const FootstepPlan plan = plan_footsteps(twelve_steps());
  ASSERT_EQ(plan.steps.size(), 12u);
  const double L = 0.25 * 0.6;
  EXPECT_DOUBLE_EQ(plan.step_length_m(), L);
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    const Footstep& step = plan.steps[k];
    EXPECT_EQ(step.swing_foot, k % 2 == 0 ? Foot::Left : Foot::Right);
    const double expected_x = k + 1 < plan.steps.size() ? (k + 1) * L : k * L;  // the last step closes the feet
    EXPECT_NEAR(step.touchdown_sole_world.translation.x(), expected_x, 1e-12) << "step " << k;
    EXPECT_NEAR(step.touchdown_sole_world.translation.y(), step.swing_foot == Foot::Left ? 0.09 : -0.09, 1e-12);
    EXPECT_NEAR(step.touchdown_sole_world.translation.z(), 0.0, 1e-12);
    EXPECT_NEAR(step.touchdown_time_s - step.liftoff_time_s, 0.48, 1e-12);
    EXPECT_NEAR(step.liftoff_time_s, 1.0 + 0.6 * k, 1e-12);
    if (k > 0) {  // each foot lifts off where it last landed
      const Footstep* previous_same_foot = k > 1 ? &plan.steps[k - 2] : nullptr;
      const SE3 expected =
          previous_same_foot != nullptr ? previous_same_foot->touchdown_sole_world : plan.initial_right_sole_world;
      EXPECT_TRUE(step.liftoff_sole_world.is_approx(expected)) << "step " << k;
    }
  }
  // Ends standing with the feet side by side, the walk (N - 1) L long.
  const SE3 left = plan.planted_sole_world(Foot::Left, plan.duration_s);
  const SE3 right = plan.planted_sole_world(Foot::Right, plan.duration_s);
  EXPECT_NEAR(left.translation.x(), 11 * L, 1e-12);
  EXPECT_NEAR(right.translation.x(), 11 * L, 1e-12);
  EXPECT_NEAR(left.translation.y() - right.translation.y(), 0.18, 1e-12);
  EXPECT_NEAR(plan.duration_s, 1.0 + 11 * 0.6 + 0.48 + 1.0, 1e-12);

  EXPECT_EQ(plan.support_phase(0.5), SupportPhase::Double);
  EXPECT_EQ(plan.support_phase(1.2), SupportPhase::Right);  // left foot swinging
  EXPECT_EQ(plan.support_phase(1.5), SupportPhase::Double);
  EXPECT_EQ(plan.support_phase(1.7), SupportPhase::Left);
  EXPECT_EQ(plan.support_phase(plan.duration_s - 0.1), SupportPhase::Double);
}

TEST(FootstepPlan, SlopeFootholdsLieOnTheInclinedPlane) {
  for (const double slope : {0.12, -0.12}) {
    const FootstepPlan plan = plan_footsteps(twelve_steps(slope));
    const Vector3 normal = plan.ground_normal_world();
    EXPECT_NEAR(normal.dot(Vector3(-std::sin(slope), 0.0, std::cos(slope))), 1.0, 1e-12);
    for (const Footstep& step : plan.steps) {
      const Vector3 p = step.touchdown_sole_world.translation;
      EXPECT_NEAR(normal.dot(p), 0.0, 1e-12);              // on the plane through the origin
      EXPECT_NEAR(p.z(), std::tan(slope) * p.x(), 1e-12);  // uphill along +x for slope > 0
      EXPECT_TRUE(step.touchdown_sole_world.rotation.isApprox(plan.ground_world.rotation, 1e-12));
      EXPECT_NEAR(step.touchdown_sole_world.rotation.col(2).dot(normal), 1.0, 1e-12);  // sole flat on the ground
    }
    const Vector3 last = plan.steps.back().touchdown_sole_world.translation;
    EXPECT_NEAR(std::hypot(last.x(), last.z()), 11 * 0.15, 1e-12);  // step length measured along the slope
  }
}

TEST(ZmpReference, StanceFootInSingleSupportLinearInDoubleSupport) {
  const FootstepPlan plan = plan_footsteps(twelve_steps());
  const ZmpReference ref = make_zmp_reference(plan);
  EXPECT_LT((ref.at(0.2) - Vector3::Zero()).norm(), 1e-12);  // standing: between the feet
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    const Footstep& step = plan.steps[k];
    const Foot stance = step.swing_foot == Foot::Left ? Foot::Right : Foot::Left;
    const Vector3 stance_centre = plan.planted_sole_world(stance, step.liftoff_time_s).translation;
    for (const double s : {0.0, 0.3, 0.999}) {
      const double t = step.liftoff_time_s + s * (step.touchdown_time_s - step.liftoff_time_s);
      EXPECT_LT((ref.at(t) - stance_centre).norm(), 1e-12) << "step " << k << " s " << s;
    }
    if (k + 1 < plan.steps.size()) {  // double support: halfway in time is halfway in space
      const Footstep& next = plan.steps[k + 1];
      const Vector3 next_centre = plan.planted_sole_world(step.swing_foot, next.liftoff_time_s).translation;
      const double t_mid = 0.5 * (step.touchdown_time_s + next.liftoff_time_s);
      EXPECT_LT((ref.at(t_mid) - 0.5 * (stance_centre + next_centre)).norm(), 1e-12) << "step " << k;
    }
  }
  const Vector3 end_mid = 0.5 * (plan.planted_sole_world(Foot::Left, plan.duration_s).translation +
                                 plan.planted_sole_world(Foot::Right, plan.duration_s).translation);
  EXPECT_LT((ref.at(plan.duration_s - 0.1) - end_mid).norm(), 1e-12);
  EXPECT_LT((ref.at(plan.duration_s + 5.0) - end_mid).norm(), 1e-12);
}

TEST(FootstepPlan, RejectsBadParameters) {
  const auto with = [](auto change) {
    FootstepParams params;
    change(params);
    return params;
  };
  EXPECT_THROW(plan_footsteps(with([](FootstepParams& p) { p.num_steps = 0; })), std::invalid_argument);
  EXPECT_THROW(plan_footsteps(with([](FootstepParams& p) { p.double_support_fraction = 1.0; })), std::invalid_argument);
  EXPECT_THROW(plan_footsteps(with([](FootstepParams& p) { p.step_duration_s = 0.0; })), std::invalid_argument);
  EXPECT_THROW(plan_footsteps(with([](FootstepParams& p) { p.walking_speed_mps = -0.1; })), std::invalid_argument);
  EXPECT_THROW(plan_footsteps(with([](FootstepParams& p) { p.slope_rad = 1.2; })), std::invalid_argument);
}

}  // namespace
}  // namespace dynid
