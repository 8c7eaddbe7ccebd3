#include "dynid/locomotion/footstep_plan.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace dynid {

const char* to_string(Foot foot) { return foot == Foot::Left ? "left" : "right"; }

const char* to_string(SupportPhase phase) {
  switch (phase) {
    case SupportPhase::Double:
      return "double";
    case SupportPhase::Left:
      return "left";
    case SupportPhase::Right:
      return "right";
  }
  return "?";
}

namespace {

void require(bool ok, const char* name, double value, const char* what) {
  if (!ok)
    throw std::invalid_argument(std::string("footstep plan: ") + name + " = " + std::to_string(value) + " " + what);
}

Foot other(Foot foot) { return foot == Foot::Left ? Foot::Right : Foot::Left; }

}  // namespace

FootstepPlan plan_footsteps(const FootstepParams& params) {
  require(params.num_steps >= 1, "num_steps", params.num_steps, "must be at least 1");
  require(params.walking_speed_mps >= 0.0 && std::isfinite(params.walking_speed_mps), "walking_speed_mps",
          params.walking_speed_mps, "must be finite and >= 0");
  require(params.step_duration_s > 0.0, "step_duration_s", params.step_duration_s, "must be > 0");
  require(params.double_support_fraction > 0.0 && params.double_support_fraction < 1.0, "double_support_fraction",
          params.double_support_fraction, "must be in (0, 1)");
  require(params.step_width_m > 0.0, "step_width_m", params.step_width_m, "must be > 0");
  require(params.initial_double_support_s > 0.0, "initial_double_support_s", params.initial_double_support_s,
          "must be > 0");
  require(params.final_double_support_s > 0.0, "final_double_support_s", params.final_double_support_s, "must be > 0");
  require(std::abs(params.slope_rad) < std::numbers::pi / 3.0, "slope_rad", params.slope_rad,
          "must be below 60 degrees");

  FootstepPlan plan;
  plan.params = params;
  // Uphill along +x means the ground's x axis rises: G = Ry(-slope) (x_G = (cos s, 0, sin s)).
  plan.ground_world = SE3(rotation_about_axis(Vector3::UnitY(), -params.slope_rad), Vector3::Zero());
  const auto sole_on_ground = [&](double forward_m, double left_m) {
    return SE3(plan.ground_world.rotation, plan.ground_world.act(Vector3(forward_m, left_m, 0.0)));
  };
  const double half_width = 0.5 * params.step_width_m;
  plan.initial_left_sole_world = sole_on_ground(0.0, half_width);
  plan.initial_right_sole_world = sole_on_ground(0.0, -half_width);

  SE3 left = plan.initial_left_sole_world, right = plan.initial_right_sole_world;
  Foot swing = params.first_swing_foot;
  const double step_length = plan.step_length_m();
  for (int k = 0; k < params.num_steps; ++k) {
    Footstep step;
    step.swing_foot = swing;
    step.liftoff_time_s = params.initial_double_support_s + k * params.step_duration_s;
    step.touchdown_time_s = step.liftoff_time_s + plan.single_support_s();
    // The last step closes the feet side by side: it lands beside the stance foot.
    const int stride_index = k + 1 < params.num_steps ? k + 1 : k;
    SE3& swing_sole = swing == Foot::Left ? left : right;
    step.liftoff_sole_world = swing_sole;
    step.touchdown_sole_world =
        sole_on_ground(stride_index * step_length, swing == Foot::Left ? half_width : -half_width);
    swing_sole = step.touchdown_sole_world;
    plan.steps.push_back(step);
    swing = other(swing);
  }
  plan.duration_s = plan.steps.back().touchdown_time_s + params.final_double_support_s;
  return plan;
}

const Footstep* FootstepPlan::swing_at(double t) const {
  for (const Footstep& step : steps) {
    if (t >= step.liftoff_time_s && t < step.touchdown_time_s) return &step;
  }
  return nullptr;
}

SupportPhase FootstepPlan::support_phase(double t) const {
  const Footstep* step = swing_at(t);
  if (step == nullptr) return SupportPhase::Double;
  return step->swing_foot == Foot::Left ? SupportPhase::Right : SupportPhase::Left;
}

SE3 FootstepPlan::planted_sole_world(Foot foot, double t) const {
  SE3 sole = foot == Foot::Left ? initial_left_sole_world : initial_right_sole_world;
  for (const Footstep& step : steps) {
    if (step.swing_foot == foot && step.touchdown_time_s <= t) sole = step.touchdown_sole_world;
  }
  return sole;
}

}  // namespace dynid
