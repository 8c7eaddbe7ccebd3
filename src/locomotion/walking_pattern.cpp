#include "dynid/locomotion/walking_pattern.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace dynid {

WalkingParams walking_params_for(const FootGeometry& feet) {
  WalkingParams params;
  params.footsteps.step_width_m = feet.foot_separation_m;
  params.preview.com_height_m = 0.9 * feet.standing_com_height_m;
  params.swing.step_height_m = 0.25 * feet.sole_length_m;
  params.footsteps.step_duration_s = 0.8 * std::sqrt(params.preview.com_height_m / 0.8);
  return params;
}

namespace {

double yaw_of(const Matrix3& R) { return std::atan2(R(1, 0), R(0, 0)); }

}  // namespace

WalkingPattern generate_walking_pattern(const WalkingParams& params) {
  if (!(params.swing.step_height_m >= 0.0)) {
    throw std::invalid_argument("walking pattern: step_height_m = " + std::to_string(params.swing.step_height_m) +
                                " must be >= 0");
  }
  WalkingPattern pattern;
  pattern.params = params;
  pattern.plan = plan_footsteps(params.footsteps);
  pattern.zmp_reference = make_zmp_reference(pattern.plan);

  PreviewControlParams preview = params.preview;
  preview.gravity_mps2 = params.preview.gravity_mps2 * std::cos(params.footsteps.slope_rad);
  pattern.gains = compute_preview_gains(preview);

  // Reference in ground coordinates at the controller's samples, up to the first sample at or after
  // the end (the servo previews past it with the final, standing value).
  const double T = preview.sample_time_s;
  const auto n = static_cast<std::size_t>(std::ceil(pattern.plan.duration_s / T - 1e-9)) + 1;
  std::vector<double> along_ref(n), lateral_ref(n);
  for (std::size_t k = 0; k < n; ++k) {
    const Vector3 p_ground = pattern.plan.ground_world.act_inv(pattern.zmp_reference.at(static_cast<double>(k) * T));
    along_ref[k] = p_ground.x();
    lateral_ref[k] = p_ground.y();
  }
  pattern.along = run_preview_control(pattern.gains, along_ref);
  pattern.lateral = run_preview_control(pattern.gains, lateral_ref);
  pattern.samples = pattern.resample(params.output_rate_hz);
  return pattern;
}

WalkingSample WalkingPattern::sample_at(double t) const {
  const double h = params.preview.com_height_m;
  const double uphill_shift = h * std::tan(params.footsteps.slope_rad);
  const Vector3 a = along.state_at(t), l = lateral.state_at(t);
  const SE3& G = plan.ground_world;

  WalkingSample s;
  s.time_s = t;
  s.support = plan.support_phase(t);
  s.com_world = G.act(Vector3(a[0] + uphill_shift, l[0], h));
  s.com_velocity_world = G.rotation * Vector3(a[1], l[1], 0.0);
  s.com_acceleration_world = G.rotation * Vector3(a[2], l[2], 0.0);
  s.zmp_reference_world = zmp_reference.at(t);
  s.zmp_model_world = G.act(Vector3(gains.model.zmp(a), gains.model.zmp(l), 0.0));
  s.left_foot = foot_state(plan, Foot::Left, t, params.swing);
  s.right_foot = foot_state(plan, Foot::Right, t, params.swing);
  const double yaw_l = yaw_of(s.left_foot.sole_world.rotation), yaw_r = yaw_of(s.right_foot.sole_world.rotation);
  s.pelvis_yaw_rad = std::atan2(std::sin(yaw_l) + std::sin(yaw_r), std::cos(yaw_l) + std::cos(yaw_r));
  return s;
}

std::vector<WalkingSample> WalkingPattern::resample(double rate_hz) const {
  if (!(rate_hz > 0.0) || !std::isfinite(rate_hz)) {
    throw std::invalid_argument("walking pattern: sample rate " + std::to_string(rate_hz) + " Hz must be positive");
  }
  const auto n = static_cast<std::size_t>(std::floor(duration_s() * rate_hz + 1e-9)) + 1;
  std::vector<WalkingSample> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back(sample_at(static_cast<double>(i) / rate_hz));
  return out;
}

}  // namespace dynid
