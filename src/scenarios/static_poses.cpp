#include "dynid/scenarios/static_poses.hpp"

#include <Eigen/Geometry>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "dynid/dynamics/center_of_mass.hpp"
#include "dynid/dynamics/kinematics.hpp"
#include "dynid/dynamics/sole_contacts.hpp"
#include "dynid/dynamics/whole_body_ik.hpp"

namespace dynid {
namespace {

bool name_has(const std::string& name, std::initializer_list<const char*> parts) {
  for (const char* p : parts)
    if (name.find(p) != std::string::npos) return true;
  return false;
}

bool is_arm(const std::string& joint) { return name_has(joint, {"shoulder", "elbow", "wrist"}); }
bool is_torso(const std::string& joint) { return name_has(joint, {"waist", "torso", "chest"}); }
bool is_head(const std::string& joint) { return name_has(joint, {"head", "neck"}); }

/// A value near one end of the joint range (paper 000: < 10 % or > 90 %), or uniformly inside.
double extreme_or_random(const JointLimits& lim, std::mt19937& rng, double extreme_probability) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const double lo = std::isfinite(lim.lower) ? lim.lower : -1.0;
  const double hi = std::isfinite(lim.upper) ? lim.upper : 1.0;
  const double r = u(rng);
  double fraction;
  if (r < 0.5 * extreme_probability)
    fraction = 0.02 + 0.08 * u(rng);
  else if (r < extreme_probability)
    fraction = 0.90 + 0.08 * u(rng);
  else
    fraction = 0.1 + 0.8 * u(rng);
  return lo + fraction * (hi - lo);
}

/// Sole pose in world for a foot centred at (x, y) on the floor: sole frame z up, yaw 0.
SE3 sole_on_floor(double x, double y) { return SE3(Matrix3::Identity(), Vector3(x, y, 0.0)); }

}  // namespace

std::vector<StaticPose> generate_static_poses(const Model& nominal, const RobotSidecar& sidecar,
                                              const std::vector<ForcePlateSpec>& plates, int count, unsigned seed,
                                              double base_tilt_deg) {
  const auto [left, right] = left_right_soles(nominal, sidecar);
  const int left_frame = nominal.frame_index(sidecar.contacts[static_cast<std::size_t>(left)].name);
  const int right_frame = nominal.frame_index(sidecar.contacts[static_cast<std::size_t>(right)].name);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::mt19937 tilt_rng(seed * 2246822519u + 7u);
  std::uniform_real_distribution<double> u_tilt(-1.0, 1.0);

  // Standing reference: knees slightly bent so the IK is away from the straight-knee singularity.
  VectorX stand = nominal.neutral_configuration();
  for (std::size_t i = 1; i < nominal.bodies.size(); ++i) {
    const Body& b = nominal.bodies[i];
    if (b.joint_type == JointType::FreeFlyer) continue;
    if (name_has(b.joint_name, {"knee"})) stand[b.idx_q] = std::clamp(0.35, b.limits.lower, b.limits.upper);
  }
  Data data(nominal);
  forward_kinematics(nominal, data, stand);
  const double half_width = std::max(0.5 * std::abs(frame_placement(nominal, data, left_frame).translation.y() -
                                                    frame_placement(nominal, data, right_frame).translation.y()),
                                     0.02);
  const double plate_y = plates.size() >= 2 ? std::abs(plates[0].top_center_world.y()) : 0.0;
  const double sole_half_y = [&, left_sole = left] {
    double h = 0.0;
    for (const auto& p : sidecar.contacts[static_cast<std::size_t>(left_sole)].polygon)
      h = std::max(h, std::abs(p.y()));
    return h;
  }();
  // Each foot well inside its own plate in normal stance.
  const double stance_y =
      std::max(half_width, plates.size() >= 2 ? plate_y - 0.5 * plates[0].size_y + sole_half_y + 0.02 : half_width);

  // Sizes scale with the robot: its standing COM height against an adult's 0.9 m.
  center_of_mass(nominal, data, stand);
  const double stand_com_height = data.com.z() - std::min(frame_placement(nominal, data, left_frame).translation.z(),
                                                          frame_placement(nominal, data, right_frame).translation.z());
  const double scale = stand_com_height / 0.9;

  struct Category {
    const char* name;
    int share;
  };
  const Category categories[] = {
      {"double_support_arms", 40}, {"single_support_left", 25},   {"single_support_right", 25},  {"torso", 30},
      {"crouching", 26},           {"wide_stance_one_plate", 13}, {"wide_stance_two_plates", 13}};
  int total_share = 0;
  for (const Category& c : categories) total_share += c.share;

  std::vector<StaticPose> poses;
  int made = 0;
  for (std::size_t ci = 0; ci < std::size(categories); ++ci) {
    const Category& cat = categories[ci];
    const int n = ci + 1 == std::size(categories)
                      ? count - made
                      : static_cast<int>(std::lround(double(count) * cat.share / total_share));
    for (int k = 0; k < n; ++k) {
      bool placed = false;
      for (int attempt = 0; attempt < 25 && !placed; ++attempt) {
        const std::string name = cat.name;
        IkProblem problem;
        problem.posture = stand;
        problem.posture_weight = 1e-3;
        VectorX q0 = stand;
        std::vector<int> locked;
        // Joints the category sets: near their range ends (paper 000) or random, then held.
        for (std::size_t i = 1; i < nominal.bodies.size(); ++i) {
          const Body& b = nominal.bodies[i];
          if (b.joint_type == JointType::FreeFlyer) continue;
          const bool arm = is_arm(b.joint_name), torso = is_torso(b.joint_name), head = is_head(b.joint_name);
          if (!(arm || torso || head)) continue;
          double value;
          if (name == "double_support_arms" && arm)
            value = extreme_or_random(b.limits, rng, 0.7);
          else if (name == "torso" && torso)
            value = extreme_or_random(b.limits, rng, 0.8);
          else
            value = 0.5 * (std::clamp(0.0, b.limits.lower, b.limits.upper)) +
                    0.5 * extreme_or_random(b.limits, rng, 0.0) * 0.3;
          q0[b.idx_q] = std::clamp(value, b.limits.lower, b.limits.upper);
          locked.push_back(static_cast<int>(i));
        }
        problem.locked_joints = locked;

        Vector3 lf(0.0, stance_y, 0.0), rf(0.0, -stance_y, 0.0);
        std::vector<int> support = {left, right};
        double com_height_drop = 0.0;
        Vector3 com_xy;
        if (name == "wide_stance_one_plate" && plates.size() >= 1) {
          const Vector3 c = plates[0].top_center_world;
          // As wide as the legs comfortably reach, and within the plate.
          const double spread = std::min(0.5 * plates[0].size_y - sole_half_y - 0.02,
                                         half_width + (0.08 + 0.08 * std::abs(u(rng))) * scale);
          lf = Vector3(c.x(), c.y() + spread, 0.0);
          rf = Vector3(c.x(), c.y() - spread, 0.0);
        } else if (name == "wide_stance_two_plates") {
          const double w = std::max(stance_y, half_width + (0.08 + 0.08 * std::abs(u(rng))) * scale);
          lf.y() = w;
          rf.y() = -w;
        } else if (name == "crouching") {
          com_height_drop = (0.08 + 0.14 * std::abs(u(rng))) * stand_com_height;
        }
        lf.x() += 0.03 * scale * u(rng);
        rf.x() += 0.03 * scale * u(rng);
        // One draw per statement, y first: the order GCC evaluated them in as arguments (random_draws.hpp).
        const double com_dy = u(rng), com_dx = u(rng);
        com_xy = 0.5 * (lf + rf) + Vector3(0.01 * scale * com_dx, 0.01 * scale * com_dy, 0.0);
        SE3 lpose = sole_on_floor(lf.x(), lf.y()), rpose = sole_on_floor(rf.x(), rf.y());
        if (name == "single_support_left" || name == "single_support_right") {
          const bool left_stance = name == "single_support_left";
          SE3& swing = left_stance ? rpose : lpose;
          swing.translation.z() = (0.05 + 0.05 * std::abs(u(rng))) * scale;
          swing.translation.x() += 0.05 * scale * u(rng);
          const SE3& stance = left_stance ? lpose : rpose;
          const double stance_dy = u(rng), stance_dx = u(rng);
          com_xy = stance.translation + Vector3(0.01 * scale * stance_dx, 0.005 * scale * stance_dy, 0.0);
          support = {left_stance ? left : right};
        }
        problem.frames.push_back({left_frame, lpose, 100.0, true});
        problem.frames.push_back({right_frame, rpose, 100.0, true});
        problem.com_target_enabled = true;
        // The standing COM height is kept, minus the crouch.
        problem.com_world = Vector3(com_xy.x(), com_xy.y(), stand_com_height - com_height_drop);
        problem.com_axes_weight = Vector3(10.0, 10.0, com_height_drop > 0.0 ? 1.0 : 0.0);
        if (base_tilt_deg > 0.0) {
          const double heading = std::numbers::pi * u_tilt(tilt_rng), angle = base_tilt_deg * u_tilt(tilt_rng);
          problem.base_orientation_world =
              Eigen::AngleAxisd(angle * std::numbers::pi / 180.0, Vector3(std::cos(heading), std::sin(heading), 0.0))
                  .toRotationMatrix();
        }
        // Start from the standing pose moved so its feet are near the targets.
        q0.segment<3>(nominal.bodies[1].idx_q) = Vector3(com_xy.x(), com_xy.y(), stand_com_height);
        const IkResult ik = solve_whole_body_ik(nominal, problem, q0);
        if (ik.task_error > 1e-4) continue;  // unreachable with these joint values: draw again
        poses.push_back({name, ik.q, support});
        placed = true;
      }
      if (!placed)
        throw std::runtime_error(std::string("could not find a reachable '") + cat.name + "' pose for " + nominal.name);
    }
    made += n;
  }
  return poses;
}

}  // namespace dynid
