#pragma once
// Footstep plan of a straight walk: where each foot lands and when, from standing with the feet
// side by side to standing with the feet side by side again, on level ground or on a plane
// inclined about the world y axis (walking up or down the slope).
//
// Frames and units (docs/walking.md): world z up; the ground frame G has its origin at the initial
// midpoint between the soles (the world origin), x_G along the walking direction in the ground
// plane, z_G the ground normal; on level ground G = world. A sole pose is the pose of the sole
// frame in world: origin at the sole centre on the sole surface, z along the ground normal
// (docs/robot-sidecar.md). Metres, seconds, radians.
//
// Timing of a plan with N steps, T = step_duration_s, T_ds = double_support_fraction * T,
// T_ss = T - T_ds:
//   [0, T_init)                         initial double support (standing, then shifting the weight)
//   step k = 0..N-1: lift-off at T_init + k T, touch-down T_ss later, then T_ds of double support
//   after the last touch-down           final double support of T_final (the last step closes the
//                                       feet side by side, so the walk ends standing).
// Step k < N-1 puts the swing foot (k + 1) L ahead of the start, L = walking_speed * T; the last
// step puts it beside the other foot, (N - 1) L ahead.

#include <vector>

#include "dynid/spatial/se3.hpp"

namespace dynid {

enum class Foot { Left, Right };
/// Which feet carry the robot: both, or only the left / only the right one.
enum class SupportPhase { Double, Left, Right };

const char* to_string(Foot foot);
const char* to_string(SupportPhase phase);

struct FootstepParams {
  int num_steps = 10;                     ///< swing phases, the closing step included (>= 1)
  double walking_speed_mps = 0.2;         ///< mean forward speed while walking; step length = speed * step duration
  double step_duration_s = 0.6;           ///< one step: single support plus the double support after it
  double double_support_fraction = 0.2;   ///< share of a step with both feet on the ground, in (0, 1)
  double step_width_m = 0.1;              ///< lateral distance between the sole centres (nominal foot separation)
  double initial_double_support_s = 2.0;  ///< standing, then shifting the weight, before the first lift-off
  double final_double_support_s = 2.0;    ///< shifting the weight back, then standing, after the last touch-down
  double slope_rad = 0.0;                 ///< ground inclination about world y; > 0 walks uphill along +x
  Foot first_swing_foot = Foot::Left;
};

/// One swing of one foot.
struct Footstep {
  Foot swing_foot = Foot::Left;
  SE3 liftoff_sole_world;    ///< where the swing foot leaves the ground
  SE3 touchdown_sole_world;  ///< where it lands
  double liftoff_time_s = 0.0;
  double touchdown_time_s = 0.0;
};

struct FootstepPlan {
  FootstepParams params;
  SE3 ground_world;  ///< ground frame G in world (see the top of this file)
  SE3 initial_left_sole_world, initial_right_sole_world;
  std::vector<Footstep> steps;  ///< in time order, alternating feet
  double duration_s = 0.0;      ///< end of the final double support

  double single_support_s() const { return (1.0 - params.double_support_fraction) * params.step_duration_s; }
  double double_support_s() const { return params.double_support_fraction * params.step_duration_s; }
  double step_length_m() const { return params.walking_speed_mps * params.step_duration_s; }

  /// Support phase at time t [s]; Double before the first lift-off and after the last touch-down.
  SupportPhase support_phase(double t) const;
  /// The step swinging at time t (lift-off <= t < touch-down), or nullptr in double support.
  const Footstep* swing_at(double t) const;
  /// Sole pose of a foot while it is on the ground at time t: where it last landed (its initial pose
  /// before its first step). During that foot's swing this is its lift-off pose.
  SE3 planted_sole_world(Foot foot, double t) const;
  /// Upward ground normal in world.
  Vector3 ground_normal_world() const { return ground_world.rotation.col(2); }
};

/// Plans the footsteps. Throws std::invalid_argument naming the parameter when one is out of range
/// (non-positive durations or width, a negative speed, a double-support fraction outside (0, 1), a slope of
/// 60 degrees or more).
FootstepPlan plan_footsteps(const FootstepParams& params);

}  // namespace dynid
