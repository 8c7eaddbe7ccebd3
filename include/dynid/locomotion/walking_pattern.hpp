#pragma once
// Walking pattern generator: footstep plan -> ZMP reference -> COM by ZMP preview control
// (Kajita et al. 2003) -> swing feet, sampled at any rate. Offline and MuJoCo-free; the simulation
// testbed feeds the samples to its whole-body IK (COM, pelvis and foot targets). docs/walking.md.
//
// Frames and units: everything is in the world frame (z up, gravity (0, 0, -g)) in metres, seconds
// and radians. The walk starts with the soles side by side around the world origin, walking along
// +x. On a slope the ground plane through the origin is inclined about world y; the COM then moves
// on the plane parallel to it at com_height_m along its normal, and the cart-table runs in the
// ground frame with gravity's normal component g cos(slope): for a point mass at constant height h
// above the plane, the ZMP on the plane is
//     p_along   = c_along - h tan(slope) - h / (g cos(slope)) c''_along,
//     p_lateral = c_lateral - h / (g cos(slope)) c''_lateral,
// the cart-table of Kajita 2003 with g -> g cos(slope) and the COM shifted uphill by
// h tan(slope), which keeps it vertically above the ZMP while standing.

#include <vector>

#include "dynid/locomotion/foot_geometry.hpp"
#include "dynid/locomotion/footstep_plan.hpp"
#include "dynid/locomotion/swing_trajectory.hpp"
#include "dynid/locomotion/zmp_preview_control.hpp"
#include "dynid/locomotion/zmp_reference.hpp"

namespace dynid {

struct WalkingParams {
  FootstepParams footsteps;
  PreviewControlParams preview;  ///< com_height_m is the COM height above the ground (along its normal)
  SwingParams swing;
  double output_rate_hz = 1000.0;  ///< rate of WalkingPattern::samples
};

/// Parameters that suit a robot: step width = its foot separation, COM height 90 % of its standing
/// height (bent knees keep the legs away from the stretched-knee singularity), step height a quarter
/// of the sole length, step duration scaled from 0.8 s at a COM height of 0.8 m by the pendulum's
/// time constant sqrt(h / g). Speed and number of steps stay at the FootstepParams defaults.
WalkingParams walking_params_for(const FootGeometry& feet);

/// One instant of the pattern.
struct WalkingSample {
  double time_s = 0.0;
  SupportPhase support = SupportPhase::Double;
  Vector3 com_world = Vector3::Zero();               ///< [m]
  Vector3 com_velocity_world = Vector3::Zero();      ///< [m/s]
  Vector3 com_acceleration_world = Vector3::Zero();  ///< [m/s^2]
  Vector3 zmp_reference_world = Vector3::Zero();     ///< the reference the preview servo tracks, on the ground [m]
  Vector3 zmp_model_world = Vector3::Zero();         ///< ZMP of the cart-table at this COM motion, on the ground [m]
  FootState left_foot, right_foot;                   ///< sole frames
  double pelvis_yaw_rad = 0.0;  ///< heading of the pelvis about world z (mean of the sole yaws); pelvis upright
};

struct WalkingPattern {
  WalkingParams params;
  FootstepPlan plan;
  ZmpReference zmp_reference;
  PreviewGains gains;                  ///< cart-table with g cos(slope), same for both ground axes
  CartTableTrajectory along;           ///< cart along the ground x axis (COM shifted by -h tan(slope), see above)
  CartTableTrajectory lateral;         ///< cart along the ground y axis
  std::vector<WalkingSample> samples;  ///< at params.output_rate_hz, from 0 to plan.duration_s

  double duration_s() const { return plan.duration_s; }
  /// The pattern at any time t in [0, duration_s()], exact (no interpolation error: the COM is the
  /// cubic its constant jerk draws between controller samples, feet and reference are analytic).
  WalkingSample sample_at(double t) const;
  /// Samples at `rate_hz` from 0 to duration_s() (the last sample at or before the end).
  std::vector<WalkingSample> resample(double rate_hz) const;
};

/// Builds the pattern. Throws std::invalid_argument naming a bad parameter.
WalkingPattern generate_walking_pattern(const WalkingParams& params);

}  // namespace dynid
