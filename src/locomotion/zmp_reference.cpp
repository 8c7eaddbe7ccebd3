#include "dynid/locomotion/zmp_reference.hpp"

#include <algorithm>

namespace dynid {

Vector3 ZmpReference::at(double t) const {
  if (t <= knot_times_s.front()) return knot_points_world.front();
  if (t >= knot_times_s.back()) return knot_points_world.back();
  // First knot after t; knots sharing a time make a jump, and the later one holds from then on.
  const auto after = std::upper_bound(knot_times_s.begin(), knot_times_s.end(), t);
  const auto i = static_cast<std::size_t>(after - knot_times_s.begin());
  const double t0 = knot_times_s[i - 1], t1 = knot_times_s[i];
  const double s = (t - t0) / (t1 - t0);
  return (1.0 - s) * knot_points_world[i - 1] + s * knot_points_world[i];
}

ZmpReference make_zmp_reference(const FootstepPlan& plan) {
  ZmpReference ref;
  const auto add = [&ref](double t, const Vector3& p) {
    ref.knot_times_s.push_back(t);
    ref.knot_points_world.push_back(p);
  };
  const double t_initial = plan.params.initial_double_support_s;
  const double initial_shift = std::min(plan.params.step_duration_s, 0.5 * t_initial);
  const Vector3 start_mid =
      0.5 * (plan.initial_left_sole_world.translation + plan.initial_right_sole_world.translation);
  add(0.0, start_mid);
  add(t_initial - initial_shift, start_mid);
  for (const Footstep& step : plan.steps) {
    const Foot stance = step.swing_foot == Foot::Left ? Foot::Right : Foot::Left;
    const Vector3 stance_centre = plan.planted_sole_world(stance, step.liftoff_time_s).translation;
    add(step.liftoff_time_s, stance_centre);
    add(step.touchdown_time_s, stance_centre);
  }
  const double t_end = plan.steps.back().touchdown_time_s;
  const Vector3 end_mid = 0.5 * (plan.planted_sole_world(Foot::Left, t_end).translation +
                                 plan.planted_sole_world(Foot::Right, t_end).translation);
  add(t_end + std::min(plan.params.step_duration_s, 0.5 * plan.params.final_double_support_s), end_mid);
  add(plan.duration_s, end_mid);
  return ref;
}

}  // namespace dynid
