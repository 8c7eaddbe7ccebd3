#pragma once
// Foot trajectories of a footstep plan: a planted foot stays where it landed; a swinging foot moves
// from its lift-off to its touch-down sole pose along a quintic minimum-jerk profile
//     s(tau) = 10 tau^3 - 15 tau^4 + 6 tau^5,  tau = (t - t_liftoff) / T_swing in [0, 1],
// (s, s', s'' = 0, 0, 0 at lift-off and 1, 0, 0 at touch-down) and is lifted along the ground
// normal by
//     h(tau) = step_height * 64 tau^3 (1 - tau)^3,
// which peaks at step_height at mid-swing and whose value, slope and curvature vanish at both ends.
// So position, velocity and acceleration are continuous through lift-off and touch-down: the foot
// leaves and meets the ground without impact in the pattern. The sole orientation turns about one
// fixed axis by s(tau) of the lift-off-to-touch-down rotation (constant on a straight walk).
//
// World frame, z up; metres, seconds, radians.

#include "dynid/locomotion/footstep_plan.hpp"

namespace dynid {

struct SwingParams {
  double step_height_m = 0.04;  ///< peak sole clearance along the ground normal
};

/// Pose and motion of a sole frame, all in world axes.
struct FootState {
  SE3 sole_world;                                        ///< pose of the sole frame in world
  Vector3 linear_velocity_world = Vector3::Zero();       ///< of the sole origin [m/s]
  Vector3 angular_velocity_world = Vector3::Zero();      ///< [rad/s]
  Vector3 linear_acceleration_world = Vector3::Zero();   ///< of the sole origin [m/s^2]
  Vector3 angular_acceleration_world = Vector3::Zero();  ///< [rad/s^2]
  bool in_contact = true;                                ///< on the ground (not swinging)
};

/// Swing state at `time_since_liftoff_s` in [0, duration_s] (clamped) of a swing from `liftoff`
/// to `touchdown` that lifts along `up_world` (unit) by `step_height_m`.
FootState swing_foot_state(const SE3& liftoff_sole_world, const SE3& touchdown_sole_world, const Vector3& up_world,
                           double step_height_m, double duration_s, double time_since_liftoff_s);

/// State of one foot of the plan at time t [s].
FootState foot_state(const FootstepPlan& plan, Foot foot, double t, const SwingParams& params);

}  // namespace dynid
