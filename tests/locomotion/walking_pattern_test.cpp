// The walking pattern of the bundled humanoids: the cart-table ZMP of the generated COM follows the
// reference and stays inside the support polygon, the outputs are consistent with each other
// (velocities and accelerations are derivatives of positions, the model ZMP is p = x - zc/g xdd of
// the COM), and slopes keep everything on the inclined plane.

#include "dynid/locomotion/walking_pattern.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

#include "support/test_models.hpp"

namespace dynid {
namespace {

using Vector2 = Eigen::Vector2d;

/// Signed distance of `p` to the boundary of the convex hull of `points`, positive inside [m].
double margin_in_convex_hull(std::vector<Vector2> points, const Vector2& p) {
  std::sort(points.begin(), points.end(),
            [](const Vector2& a, const Vector2& b) { return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y()); });
  const auto cross = [](const Vector2& o, const Vector2& a, const Vector2& b) {
    return (a - o).x() * (b - o).y() - (a - o).y() * (b - o).x();
  };
  std::vector<Vector2> hull(2 * points.size());  // Andrew's monotone chain, counter-clockwise
  std::size_t k = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], points[i]) <= 0) --k;
    hull[k++] = points[i];
  }
  for (std::size_t i = points.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && cross(hull[k - 2], hull[k - 1], points[i]) <= 0) --k;
    hull[k++] = points[i];
  }
  hull.resize(k - 1);
  double margin = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < hull.size(); ++i) {
    const Vector2& a = hull[i];
    const Vector2& b = hull[(i + 1) % hull.size()];
    margin = std::min(margin, cross(a, b, p) / (b - a).norm());
  }
  return margin;
}

/// Distance of the model ZMP inside the support polygon: the convex hull of the soles in contact,
/// each a sole_length x sole_width rectangle centred on its sole frame, in ground coordinates.
double support_margin(const WalkingPattern& pattern, const WalkingSample& s, double sole_length, double sole_width) {
  std::vector<Vector2> corners;
  for (const FootState* foot : {&s.left_foot, &s.right_foot}) {
    if (!foot->in_contact) continue;
    for (const double cx : {-0.5, 0.5}) {
      for (const double cy : {-0.5, 0.5}) {
        const Vector3 corner = foot->sole_world.act(Vector3(cx * sole_length, cy * sole_width, 0.0));
        corners.push_back(pattern.plan.ground_world.act_inv(corner).head<2>());
      }
    }
  }
  return margin_in_convex_hull(corners, pattern.plan.ground_world.act_inv(s.zmp_model_world).head<2>());
}

struct TrackingStats {
  double rms_m = 0.0;
  double max_m = 0.0;
  double max_away_from_corners_m = 0.0;  ///< max more than 0.1 s from any corner of the reference
  double min_support_margin_m = 0.0;
};

TrackingStats tracking_stats(const WalkingPattern& pattern, double sole_length, double sole_width) {
  TrackingStats stats;
  stats.min_support_margin_m = std::numeric_limits<double>::infinity();
  double sum_sq = 0.0;
  for (const WalkingSample& s : pattern.samples) {
    const double error = (s.zmp_model_world - s.zmp_reference_world).norm();
    sum_sq += error * error;
    stats.max_m = std::max(stats.max_m, error);
    double to_corner = std::numeric_limits<double>::infinity();
    for (const double t_knot : pattern.zmp_reference.knot_times_s) {
      to_corner = std::min(to_corner, std::abs(s.time_s - t_knot));
    }
    if (to_corner > 0.1) stats.max_away_from_corners_m = std::max(stats.max_away_from_corners_m, error);
    stats.min_support_margin_m =
        std::min(stats.min_support_margin_m, support_margin(pattern, s, sole_length, sole_width));
  }
  stats.rms_m = std::sqrt(sum_sq / static_cast<double>(pattern.samples.size()));
  return stats;
}

WalkingParams robot_params(const FootGeometry& feet, double speed_mps, double slope_rad = 0.0) {
  WalkingParams params = walking_params_for(feet);
  params.footsteps.num_steps = 12;
  params.footsteps.walking_speed_mps = speed_mps;
  params.footsteps.slope_rad = slope_rad;
  return params;
}

TEST(WalkingPattern, ZmpTracksReferenceInsideSupportPolygon) {
  // Bounds, about 1.5x what the bundled robots give (rms 0.6-1.3 mm, max 4.9-8.9 mm, max away from
  // corners 1.4 mm, at 0.15 and 0.3 m/s): the reference is piecewise linear and its velocity jumps
  // by up to ~2 m/s at the corners between single and double support, which the ZMP of a COM with
  // continuous acceleration cannot follow. The jerk weight R rounds each corner, and the error stays
  // within ~0.1 s of it; elsewhere the cart-table ZMP sits on the reference to about a millimetre.
  // Inside the support polygon with a margin: the soles are 60-140 mm wide.
  for (const std::string robot : {"kid_humanoid", "adult_humanoid", "walker"}) {
    const FootGeometry feet = foot_geometry(test::bundled_robot(robot));
    for (const double speed : {0.15, 0.3}) {
      const WalkingPattern pattern = generate_walking_pattern(robot_params(feet, speed));
      ASSERT_EQ(pattern.plan.steps.size(), 12u);
      const TrackingStats stats = tracking_stats(pattern, feet.sole_length_m, feet.sole_width_m);
      std::printf(
          "%-15s %.2f m/s, step %.3f m / %.3f s, COM height %.3f m: ZMP error rms %.2f mm, max %.2f mm, "
          "max away from corners %.2f mm, min support margin %.1f mm\n",
          robot.c_str(), speed, pattern.plan.step_length_m(), pattern.params.footsteps.step_duration_s,
          pattern.params.preview.com_height_m, 1e3 * stats.rms_m, 1e3 * stats.max_m,
          1e3 * stats.max_away_from_corners_m, 1e3 * stats.min_support_margin_m);
      const std::string where = robot + " at " + std::to_string(speed) + " m/s";
      EXPECT_LT(stats.rms_m, 2e-3) << where;
      EXPECT_LT(stats.max_m, 12e-3) << where;
      EXPECT_LT(stats.max_away_from_corners_m, 2e-3) << where;
      EXPECT_GT(stats.min_support_margin_m, 0.3 * 0.5 * feet.sole_width_m) << where;
    }
  }
}

TEST(WalkingPattern, OutputsAreDerivativesAndCartTableOfEachOther) {
  // Velocities and accelerations against finite differences of the 1 kHz samples, and the model ZMP
  // against the cart-table relation evaluated on finite differences of the COM positions alone.
  const FootGeometry feet = foot_geometry(test::bundled_robot("walker"));
  for (const double slope : {0.0, 0.1, -0.1}) {
    const WalkingPattern pattern = generate_walking_pattern(robot_params(feet, 0.25, slope));
    const double h = pattern.params.preview.com_height_m, g = pattern.params.preview.gravity_mps2;
    const double dt = 1e-3;
    const auto& S = pattern.samples;
    const SE3& G = pattern.plan.ground_world;
    ASSERT_EQ(S.size(), static_cast<std::size_t>(std::floor(pattern.duration_s() * 1000.0 + 1e-9)) + 1);
    double max_v = 0, max_a = 0, max_zmp = 0, max_foot_v = 0;
    for (std::size_t i = 1; i + 1 < S.size(); ++i) {
      const Vector3 v_fd = (S[i + 1].com_world - S[i - 1].com_world) / (2 * dt);
      const Vector3 a_fd = (S[i + 1].com_world - 2 * S[i].com_world + S[i - 1].com_world) / (dt * dt);
      max_v = std::max(max_v, (v_fd - S[i].com_velocity_world).norm());
      max_a = std::max(max_a, (a_fd - S[i].com_acceleration_world).norm());
      // p = c - h tan(slope) x_G - h / (g cos(slope)) c'' in ground axes (walking_pattern.hpp).
      const Vector3 c = G.act_inv(S[i].com_world), acc = G.rotation.transpose() * a_fd;
      const double zc_over_g = h / (g * std::cos(slope));
      const Vector3 p_ground(c.x() - h * std::tan(slope) - zc_over_g * acc.x(), c.y() - zc_over_g * acc.y(), 0.0);
      max_zmp = std::max(max_zmp, (G.act(p_ground) - S[i].zmp_model_world).norm());
      for (const auto foot : {&WalkingSample::left_foot, &WalkingSample::right_foot}) {
        const Vector3 foot_v_fd =
            ((S[i + 1].*foot).sole_world.translation - (S[i - 1].*foot).sole_world.translation) / (2 * dt);
        max_foot_v = std::max(max_foot_v, (foot_v_fd - (S[i].*foot).linear_velocity_world).norm());
      }
      ASSERT_NEAR(c.z(), h, 1e-12) << "COM at constant height above the (inclined) ground";
      ASSERT_NEAR(G.act_inv(S[i].zmp_reference_world).z(), 0.0, 1e-12) << "reference ZMP on the ground";
      ASSERT_NEAR(S[i].pelvis_yaw_rad, 0.0, 1e-15);
    }
    // Central differences: O(dt^2) smooth parts, plus O(dt) where the jerk steps at the 5 ms knots
    // of the controller (acceleration, and through h/g the ZMP).
    EXPECT_LT(max_v, 1e-5) << "slope " << slope;
    EXPECT_LT(max_a, 1e-3) << "slope " << slope;
    EXPECT_LT(max_zmp, 1e-4) << "slope " << slope;
    EXPECT_LT(max_foot_v, 1e-4) << "slope " << slope;
  }
}

TEST(WalkingPattern, SlopeFootholdsOnThePlaneAndZmpInsideTheSoles) {
  const FootGeometry feet = foot_geometry(test::bundled_robot("walker"));
  for (const double slope : {0.1, -0.1}) {  // about 5.7 degrees up and down
    const WalkingPattern pattern = generate_walking_pattern(robot_params(feet, 0.2, slope));
    const Vector3 normal = pattern.plan.ground_normal_world();
    for (const Footstep& step : pattern.plan.steps) {
      EXPECT_NEAR(normal.dot(step.touchdown_sole_world.translation), 0.0, 1e-12);
      EXPECT_TRUE(step.touchdown_sole_world.rotation.isApprox(pattern.plan.ground_world.rotation, 1e-12));
    }
    EXPECT_GT(slope * pattern.plan.steps.back().touchdown_sole_world.translation.z(), 0.0) << "up or down";
    for (const WalkingSample& s : pattern.samples) {  // planted soles on the plane, swinging ones above
      for (const FootState* foot : {&s.left_foot, &s.right_foot}) {
        const double height = normal.dot(foot->sole_world.translation);
        if (foot->in_contact) {
          ASSERT_NEAR(height, 0.0, 1e-12) << "t " << s.time_s;
        } else {
          ASSERT_GE(height, -1e-12) << "t " << s.time_s;
        }
      }
    }
    const TrackingStats stats = tracking_stats(pattern, feet.sole_length_m, feet.sole_width_m);
    std::printf("walker on slope %+.2f rad: ZMP error rms %.2f mm, max %.2f mm, min support margin %.1f mm\n", slope,
                1e3 * stats.rms_m, 1e3 * stats.max_m, 1e3 * stats.min_support_margin_m);
    EXPECT_LT(stats.rms_m, 2e-3);
    EXPECT_LT(stats.max_m, 12e-3);
    EXPECT_GT(stats.min_support_margin_m, 0.3 * 0.5 * feet.sole_width_m);
    // Standing on the slope, the COM is vertically above the ZMP (gravity has no moment about it).
    const WalkingSample& first = pattern.samples.front();
    EXPECT_LT((first.com_world - first.zmp_model_world).head<2>().norm(), 1e-12);
  }
}

TEST(WalkingPattern, StartsAndEndsStanding) {
  const FootGeometry feet = foot_geometry(test::bundled_robot("kid_humanoid"));
  const WalkingPattern pattern = generate_walking_pattern(robot_params(feet, 0.3));
  for (const WalkingSample* s : {&pattern.samples.front(), &pattern.samples.back()}) {
    EXPECT_EQ(s->support, SupportPhase::Double);
    EXPECT_TRUE(s->left_foot.in_contact && s->right_foot.in_contact);
    const Vector3 mid = 0.5 * (s->left_foot.sole_world.translation + s->right_foot.sole_world.translation);
    EXPECT_NEAR(s->left_foot.sole_world.translation.x(), s->right_foot.sole_world.translation.x(), 1e-12);
    EXPECT_NEAR(s->left_foot.sole_world.translation.y() - s->right_foot.sole_world.translation.y(),
                feet.foot_separation_m, 1e-12);
    EXPECT_LT((s->com_world.head<2>() - mid.head<2>()).norm(), 1e-3) << "t " << s->time_s;
    EXPECT_LT(s->com_velocity_world.norm(), 2e-3) << "t " << s->time_s;
  }
  EXPECT_NEAR(pattern.samples.back().com_world.x(), 11 * pattern.plan.step_length_m(), 1e-3);
  EXPECT_LT(pattern.samples.front().com_velocity_world.norm(), 1e-12);  // at rest at the start
}

TEST(WalkingPattern, ResamplesAtAnyRate) {
  const FootGeometry feet = foot_geometry(test::bundled_robot("kid_humanoid"));
  WalkingParams params = robot_params(feet, 0.2);
  params.output_rate_hz = 200.0;
  const WalkingPattern pattern = generate_walking_pattern(params);
  EXPECT_EQ(pattern.samples.size(), static_cast<std::size_t>(std::floor(pattern.duration_s() * 200.0 + 1e-9)) + 1);
  const std::vector<WalkingSample> fine = pattern.resample(1000.0);
  for (std::size_t i = 0; i < pattern.samples.size(); ++i) {
    const WalkingSample& a = pattern.samples[i];
    const WalkingSample& b = fine[5 * i];
    EXPECT_NEAR(a.time_s, b.time_s, 1e-12);
    EXPECT_LT((a.com_world - b.com_world).norm(), 1e-12);
    EXPECT_LT((a.zmp_model_world - b.zmp_model_world).norm(), 1e-12);
    EXPECT_TRUE(a.left_foot.sole_world.is_approx(b.left_foot.sole_world, 1e-12));
  }
  EXPECT_THROW(pattern.resample(0.0), std::invalid_argument);
}

}  // namespace
}  // namespace dynid
