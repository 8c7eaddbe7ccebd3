// The walk scenario: the true robot, heavier than the nominal model its walk was planned on,
// walks its steps on level ground and up a slope with the stabilizer reading its own (noisy)
// sensors over the field bus; the recorded physics agrees with dynid through every touch-down;
// bad requests fail before anything runs; the same seed gives the same files.

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "dynid/io/csv_stream.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using test::read_file;

std::string fresh_dir(const std::string& name) { return test::fresh_dir("walk_test", name); }

ScenarioOptions walk_options(const std::string& dir, int steps, double slope_deg = 0.0, unsigned seed = 1) {
  ScenarioOptions o;
  o.scenario = "walk";
  o.out_dir = dir;
  o.noise = NoiseLevel::Realistic;
  o.seed = seed;
  o.walk_steps = steps;
  o.slope_deg = slope_deg;
  return o;
}

/// A finished walk: on its feet, every step landed, dynid's physics agrees with MuJoCo's through
/// the impacts, the base moved the planned distance, and the data set has what identification
/// needs (support-phase segments, sole wrenches in the truth, foot F/T stream).
void expect_walked(const ScenarioSummary& s, const std::string& dir, int steps) {
  EXPECT_FALSE(s.fell);
  EXPECT_EQ(s.steps, steps);
  EXPECT_LT(s.consistency_max_rel_error, 1e-6);
  const json summary = json::parse(read_file(dir + "/summary.json"));
  EXPECT_EQ(summary["steps"], steps);
  const double planned = summary["planned_distance_m"].get<double>();
  EXPECT_NEAR(summary["walked_distance_m"].get<double>(), planned, 0.15 * planned);
  EXPECT_LT(summary["max_base_tilt_deg"].get<double>(), 10.0);
  const json dataset = json::parse(read_file(dir + "/dataset.json"));
  const json& segments = dataset["segments"];
  ASSERT_EQ(segments.size(), static_cast<std::size_t>(2 * steps + 1));
  int single = 0;
  for (const json& seg : segments) {
    if (seg["category"] == "single-support") {
      ++single;
      EXPECT_TRUE(seg["support"] == "left" || seg["support"] == "right");
    } else {
      EXPECT_EQ(seg["support"], "both");
    }
  }
  EXPECT_EQ(single, steps);
  const CsvStream truth = read_csv_stream(dir + "/truth.csv");
  EXPECT_GE(truth.column("wrench.l_sole.fz"), 0);
  // While the left foot swings, the left sole carries nothing.
  const json& first_swing = segments[1];
  const double mid = 0.5 * (first_swing["start"].get<double>() + first_swing["end"].get<double>());
  Eigen::Index row = 0;
  while (truth.values(row, 0) < mid) ++row;
  const std::string swinging = first_swing["support"] == "right" ? "l_sole" : "r_sole";
  EXPECT_EQ(truth.values(row, truth.column("wrench." + swinging + ".fz")), 0.0);
  EXPECT_TRUE(fs::exists(dir + "/ft.csv"));
}

TEST(Walk, IsOffered) {
  const std::vector<std::string> names = scenario_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "walk"), names.end());
}

TEST(Walk, KidHumanoidWalksTenStepsOnLevelGround) {
  const std::string dir = fresh_dir("level");
  expect_walked(run_scenario(test::bundled_robot("kid_humanoid"), walk_options(dir, 10)), dir, 10);
}

TEST(Walk, KidHumanoidWalksTenStepsUpATenDegreeSlope) {
  const std::string dir = fresh_dir("slope");
  expect_walked(run_scenario(test::bundled_robot("kid_humanoid"), walk_options(dir, 10, 10.0)), dir, 10);
}

TEST(Walk, AdultHumanoidWalksTenStepsOnLevelGround) {
  const std::string dir = fresh_dir("adult");
  ScenarioOptions o = walk_options(dir, 10);
  o.noise = NoiseLevel::None;
  expect_walked(run_scenario(test::bundled_robot("adult_humanoid"), o), dir, 10);
}

TEST(Walk, LockedUpperBodyIsWeldedAtItsNeutralValues) {
  // What identification with locked joints relies on: every joint off the legs is welded at the
  // nominal neutral value identification locks it at (inertial_identification.hpp), exactly, in the
  // truth and in the noise-free encoders, and the walk still makes its 10 steps.
  const std::string dir = fresh_dir("locked");
  ScenarioOptions o = walk_options(dir, 10);
  o.noise = NoiseLevel::None;
  o.lock_upper_body = true;
  const Robot kid = test::bundled_robot("kid_humanoid");
  expect_walked(run_scenario(kid, o), dir, 10);
  const VectorX neutral = kid.model.neutral_configuration();
  const CsvStream truth = read_csv_stream(dir + "/truth.csv");
  const CsvStream encoders = read_csv_stream(dir + "/encoders.csv");
  ASSERT_GT(truth.values.rows(), 1000);
  for (const char* joint : {"l_shoulder_pitch", "l_shoulder_roll", "l_shoulder_yaw", "l_elbow", "r_shoulder_pitch",
                            "r_shoulder_roll", "r_shoulder_yaw", "r_elbow"}) {
    const double lock = neutral[kid.model.bodies[static_cast<std::size_t>(*kid.model.find_joint(joint))].idx_q];
    const std::string j = joint;
    EXPECT_TRUE((truth.values.col(truth.column("q." + j)).array() == lock).all()) << joint;
    EXPECT_TRUE((truth.values.col(truth.column("v." + j)).array() == 0.0).all()) << joint;
    EXPECT_TRUE((truth.values.col(truth.column("a." + j)).array() == 0.0).all()) << joint;
    EXPECT_TRUE((encoders.values.col(encoders.column("q." + j)).array() == lock).all()) << joint;
    // The weld carries the arm: its torque is recorded, not zero.
    EXPECT_GT(truth.values.col(truth.column("tau." + j)).cwiseAbs().maxCoeff(), 1e-3) << joint;
  }
  const json welded = json::parse(read_file(dir + "/dataset.json"))["welded_joints"];
  ASSERT_EQ(welded.size(), 8u);
  EXPECT_EQ(
      welded[0]["position"].get<double>(),
      neutral[kid.model.bodies[static_cast<std::size_t>(*kid.model.find_joint(welded[0]["joint"].get<std::string>()))]
                  .idx_q]);
  // A leg joint still moves.
  EXPECT_GT(
      truth.values.col(truth.column("q.l_knee")).maxCoeff() - truth.values.col(truth.column("q.l_knee")).minCoeff(),
      0.1);
}

TEST(Walk, WeldedJointsKeepTheirEncoderNoise) {
  // Realistic noise: the welded joint's truth stays at its lock, its encoder reads it through the
  // encoder's backlash and resolution like any other joint.
  const std::string dir = fresh_dir("locked_noisy");
  ScenarioOptions o = walk_options(dir, 2);
  o.lock_upper_body = true;
  const ScenarioSummary s = run_scenario(test::bundled_robot("kid_humanoid"), o);
  EXPECT_FALSE(s.fell);
  EXPECT_LT(s.consistency_max_rel_error, 1e-6);
  const CsvStream truth = read_csv_stream(dir + "/truth.csv");
  const CsvStream encoders = read_csv_stream(dir + "/encoders.csv");
  const auto q_truth = truth.values.col(truth.column("q.l_elbow")).array();
  const auto q_encoder = encoders.values.col(encoders.column("q.l_elbow")).array();
  EXPECT_EQ(q_truth.maxCoeff(), q_truth.minCoeff());
  const double error = (q_encoder - q_truth(0)).abs().maxCoeff();
  EXPECT_GT(error, 1e-5);  // not the exact lock value
  EXPECT_LT(error, 2e-3);  // half the 1.7 mrad backlash plus the resolution
}

TEST(Walk, BadRequestsFailBeforeRunning) {
  const Robot kid = test::bundled_robot("kid_humanoid");
  ScenarioOptions o = walk_options(fresh_dir("bad"), 10);
  o.walk_speed_mps = -0.1;
  EXPECT_THROW(check_scenario(kid, o), std::invalid_argument);
  o.walk_speed_mps = 0.2;
  o.slope_deg = 30.0;
  EXPECT_THROW(check_scenario(kid, o), std::invalid_argument);
  o.slope_deg = 0.0;
  o.walk_steps = 0;
  EXPECT_THROW(check_scenario(kid, o), std::invalid_argument);
  o.walk_steps = 10;
  o.bus_rate_hz = 300.0;  // does not divide the 1 kHz servo rate
  EXPECT_THROW(check_scenario(kid, o), std::invalid_argument);
  o.bus_rate_hz = 125.0;
  Robot no_soles = kid;
  for (ContactSurface& c : no_soles.sidecar->contacts) {
    c.polygon.clear();
    c.points.clear();
  }
  EXPECT_THROW(check_scenario(no_soles, o), std::invalid_argument);
  EXPECT_NO_THROW(check_scenario(kid, o));
  EXPECT_FALSE(fs::exists(o.out_dir));
}

TEST(Walk, SameSeedGivesIdenticalFiles) {
  const Robot kid = test::bundled_robot("kid_humanoid");
  const std::string a = fresh_dir("repeat_a"), b = fresh_dir("repeat_b");
  run_scenario(kid, walk_options(a, 2));
  run_scenario(kid, walk_options(b, 2));
  int compared = 0;
  EXPECT_EQ(test::differing_files(a, b, compared), std::vector<std::string>{});
  EXPECT_GE(compared, 6);
}

}  // namespace
}  // namespace dynid
