#include "dynid/locomotion/swing_trajectory.hpp"

#include <Eigen/Geometry>
#include <algorithm>

namespace dynid {

FootState swing_foot_state(const SE3& liftoff_sole_world, const SE3& touchdown_sole_world, const Vector3& up_world,
                           double step_height_m, double duration_s, double time_since_liftoff_s) {
  const double tau = std::clamp(time_since_liftoff_s / duration_s, 0.0, 1.0);
  const double a = tau * (1.0 - tau);
  // Quintic phase and its tau-derivatives.
  const double s = tau * tau * tau * (10.0 - 15.0 * tau + 6.0 * tau * tau);
  const double ds = 30.0 * a * a;
  const double dds = 60.0 * a * (1.0 - 2.0 * tau);
  // Lift h = 64 H a^3 and its tau-derivatives (a' = 1 - 2 tau, a'' = -2).
  const double b = 1.0 - 2.0 * tau;
  const double h = 64.0 * step_height_m * a * a * a;
  const double dh = 64.0 * step_height_m * 3.0 * a * a * b;
  const double ddh = 64.0 * step_height_m * (6.0 * a * b * b - 6.0 * a * a);
  const double rate = 1.0 / duration_s;  // d tau / dt

  const Vector3 p0 = liftoff_sole_world.translation;
  const Vector3 delta = touchdown_sole_world.translation - p0;
  const Eigen::AngleAxisd turn(liftoff_sole_world.rotation.transpose() * touchdown_sole_world.rotation);
  const Vector3 turn_world = liftoff_sole_world.rotation * (turn.angle() * turn.axis());  // fixed axis

  FootState state;
  state.sole_world =
      SE3(liftoff_sole_world.rotation * Eigen::AngleAxisd(s * turn.angle(), turn.axis()).toRotationMatrix(),
          p0 + s * delta + h * up_world);
  state.linear_velocity_world = rate * (ds * delta + dh * up_world);
  state.linear_acceleration_world = rate * rate * (dds * delta + ddh * up_world);
  state.angular_velocity_world = rate * ds * turn_world;
  state.angular_acceleration_world = rate * rate * dds * turn_world;
  state.in_contact = false;
  return state;
}

FootState foot_state(const FootstepPlan& plan, Foot foot, double t, const SwingParams& params) {
  const Footstep* step = plan.swing_at(t);
  if (step != nullptr && step->swing_foot == foot) {
    return swing_foot_state(step->liftoff_sole_world, step->touchdown_sole_world, plan.ground_normal_world(),
                            params.step_height_m, step->touchdown_time_s - step->liftoff_time_s,
                            t - step->liftoff_time_s);
  }
  FootState planted;
  planted.sole_world = plan.planted_sole_world(foot, t);
  return planted;
}

}  // namespace dynid
