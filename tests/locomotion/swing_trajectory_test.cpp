// Swing feet: exact poses and zero velocity/acceleration at lift-off and touch-down, derivatives
// consistent with the positions, planted feet that do not move.

#include "dynid/locomotion/swing_trajectory.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace dynid {
namespace {

TEST(SwingTrajectory, BoundaryConditionsAtLiftoffAndTouchdown) {
  const SE3 liftoff(rotation_from_rpy(Vector3(0.0, -0.1, 0.2)), Vector3(0.1, 0.09, 0.02));
  const SE3 touchdown(rotation_from_rpy(Vector3(0.05, -0.1, 0.5)), Vector3(0.4, 0.11, 0.08));
  const Vector3 up = Vector3(-0.1, 0.0, 1.0).normalized();
  const double T = 0.48, height = 0.05;

  const FootState start = swing_foot_state(liftoff, touchdown, up, height, T, 0.0);
  const FootState end = swing_foot_state(liftoff, touchdown, up, height, T, T);
  EXPECT_TRUE(start.sole_world.is_approx(liftoff, 1e-14));
  EXPECT_TRUE(end.sole_world.is_approx(touchdown, 1e-14));
  for (const FootState* s : {&start, &end}) {
    EXPECT_EQ(s->linear_velocity_world.norm(), 0.0);
    EXPECT_EQ(s->angular_velocity_world.norm(), 0.0);
    EXPECT_EQ(s->linear_acceleration_world.norm(), 0.0);
    EXPECT_EQ(s->angular_acceleration_world.norm(), 0.0);
  }
  // Peak clearance at mid-swing, along `up`, above the straight line between the footholds.
  const FootState mid = swing_foot_state(liftoff, touchdown, up, height, T, 0.5 * T);
  const Vector3 chord_mid = 0.5 * (liftoff.translation + touchdown.translation);
  EXPECT_NEAR((mid.sole_world.translation - chord_mid).dot(up), height, 1e-12);

  // Velocities and accelerations are the derivatives of the pose (central differences).
  const double h = 1e-5;
  for (const double t : {0.03, 0.17, 0.3, 0.45}) {
    const FootState s = swing_foot_state(liftoff, touchdown, up, height, T, t);
    const FootState a = swing_foot_state(liftoff, touchdown, up, height, T, t - h);
    const FootState b = swing_foot_state(liftoff, touchdown, up, height, T, t + h);
    const Vector3 v_fd = (b.sole_world.translation - a.sole_world.translation) / (2 * h);
    EXPECT_LT((v_fd - s.linear_velocity_world).norm(), 1e-7) << "t " << t;
    const Vector3 acc_fd = (b.linear_velocity_world - a.linear_velocity_world) / (2 * h);
    EXPECT_LT((acc_fd - s.linear_acceleration_world).norm(), 1e-6) << "t " << t;
    // dR/dt = [w]x R
    const Matrix3 dR = (b.sole_world.rotation - a.sole_world.rotation) / (2 * h);
    EXPECT_LT((dR - skew(s.angular_velocity_world) * s.sole_world.rotation).norm(), 1e-7) << "t " << t;
    const Vector3 alpha_fd = (b.angular_velocity_world - a.angular_velocity_world) / (2 * h);
    EXPECT_LT((alpha_fd - s.angular_acceleration_world).norm(), 1e-6) << "t " << t;
    EXPECT_GT((s.sole_world.translation - liftoff.translation).dot(up), 0.0) << "below the lift-off plane";
  }
}

TEST(SwingTrajectory, PlanFeetSwingThenStayPlanted) {
  FootstepParams params;
  params.num_steps = 10;
  const FootstepPlan plan = plan_footsteps(params);
  const SwingParams swing{0.03};
  for (const Footstep& step : plan.steps) {
    const Foot stance = step.swing_foot == Foot::Left ? Foot::Right : Foot::Left;
    const FootState at_liftoff = foot_state(plan, step.swing_foot, step.liftoff_time_s, swing);
    EXPECT_TRUE(at_liftoff.sole_world.is_approx(step.liftoff_sole_world, 1e-14));
    EXPECT_EQ(at_liftoff.linear_velocity_world.norm(), 0.0);
    const FootState at_touchdown = foot_state(plan, step.swing_foot, step.touchdown_time_s, swing);
    EXPECT_TRUE(at_touchdown.sole_world.is_approx(step.touchdown_sole_world, 1e-14));
    EXPECT_EQ(at_touchdown.linear_velocity_world.norm(), 0.0);
    EXPECT_TRUE(at_touchdown.in_contact);
    // Just before touch-down the swing is continuous with the landing.
    const FootState before = foot_state(plan, step.swing_foot, step.touchdown_time_s - 1e-6, swing);
    EXPECT_FALSE(before.in_contact);
    EXPECT_LT((before.sole_world.translation - step.touchdown_sole_world.translation).norm(), 1e-9);
    for (const double s : {0.0, 0.25, 0.5, 0.75, 0.999}) {  // the stance foot does not move
      const double t = step.liftoff_time_s + s * (step.touchdown_time_s - step.liftoff_time_s);
      const FootState planted = foot_state(plan, stance, t, swing);
      EXPECT_TRUE(planted.in_contact);
      EXPECT_TRUE(planted.sole_world.is_approx(plan.planted_sole_world(stance, step.liftoff_time_s), 0.0));
      EXPECT_EQ(planted.linear_velocity_world.norm(), 0.0);
    }
  }
}

}  // namespace
}  // namespace dynid
