// The squat scenario (paper 000's validation motion): the true robot, heavier than the nominal
// model its motion was planned on, stays on its feet with the robot-side balance stabilizer, the
// recorded physics agrees with dynid, and the pelvis really goes down and up.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "dynid/io/csv_stream.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::string fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("dynid_squat_test_" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  return dir.string();
}

ScenarioSummary squat(const char* robot, const std::string& dir, NoiseLevel noise, unsigned seed) {
  ScenarioOptions o;
  o.scenario = "squat";
  o.out_dir = dir;
  o.noise = noise;
  o.seed = seed;
  return run_scenario(test::bundled_robot(robot), o);
}

/// Checks a finished squat data set: standing, physics agreement, and a COM that moved down and up
/// by at least 5 % of its standing height over the 5 s.
void expect_squat_done(const ScenarioSummary& s, const std::string& dir) {
  EXPECT_FALSE(s.fell);
  EXPECT_LT(s.consistency_max_rel_error, 1e-6);
  EXPECT_NEAR(s.duration_s, 6.0, 1e-6);  // 1 s settling + 5 s squat
  const CsvStream truth = read_csv_stream(dir + "/truth.csv");
  const Eigen::Index z = truth.column("com.z");
  const double top = truth.values(0, z);
  EXPECT_NEAR(truth.values(truth.values.rows() - 1, 0) - truth.values(0, 0), 5.0, 0.01);
  EXPECT_GT(truth.values.col(z).maxCoeff() - truth.values.col(z).minCoeff(), 0.05 * top);
  std::ifstream in(dir + "/summary.json");
  std::stringstream text;
  text << in.rdbuf();
  const json summary = json::parse(text.str());
  EXPECT_EQ(summary["scenario"], "squat");
  EXPECT_LT(summary["max_base_tilt_deg"].get<double>(), 5.0);
  EXPECT_GT(summary["com_height_range_m"].get<double>(), 0.05 * top);
}

TEST(Squat, IsOffered) {
  const std::vector<std::string> names = scenario_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "squat"), names.end());
}

TEST(Squat, KidHumanoidStaysUpWithRealisticSensors) {
  const std::string dir = fresh_dir("kid");
  expect_squat_done(squat("kid_humanoid", dir, NoiseLevel::Realistic, 2), dir);
}

TEST(Squat, AdultHumanoidStaysUp) {
  const std::string dir = fresh_dir("adult");
  expect_squat_done(squat("adult_humanoid", dir, NoiseLevel::None, 3), dir);
}

}  // namespace
}  // namespace dynid
