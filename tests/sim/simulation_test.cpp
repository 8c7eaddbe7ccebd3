// The simulation testbed: MuJoCo's physics agrees with dynid's equations of motion, static poses
// settle with the plate COP on the true ground-projected COM, noise has the configured statistics,
// runs are reproducible, bad requests fail before anything runs.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "dynid/io/csv_stream.hpp"
#include "dynid/model/urdf_reader.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "dynid/sim/true_model.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::string fresh_dir(const std::string& name) { return test::fresh_dir("sim_test", name); }

ScenarioOptions static_options(const std::string& dir, NoiseLevel noise, int poses = 7, unsigned seed = 3) {
  ScenarioOptions o;
  o.scenario = "static-poses";
  o.out_dir = dir;
  o.noise = noise;
  o.seed = seed;
  o.static_pose_count = poses;
  return o;
}

using test::read_file;

TEST(TrueModel, AddsTheDocumentedMassAndStaysPhysical) {
  for (const char* stem : {"adult_humanoid", "kid_humanoid", "walker"}) {
    const Model nominal = test::bundled_robot(stem).model;
    const double target = true_total_mass(nominal.name, nominal.total_mass());
    const TrueModel truth = make_true_model(nominal, target, 5);
    EXPECT_NEAR(truth.model.total_mass(), target, 1e-9) << stem;
    for (std::size_t i = 1; i < truth.model.bodies.size(); ++i)
      EXPECT_TRUE(check_physical_consistency(truth.model.bodies[i].inertia).consistent) << truth.model.bodies[i].name;
    double added = 0.0;
    for (const TruePerturbation& p : truth.perturbations) added += p.mass;
    EXPECT_NEAR(added, target - nominal.total_mass(), 1e-9);
  }
  EXPECT_DOUBLE_EQ(true_total_mass("adult_humanoid", 67.55), 77.6);
  EXPECT_DOUBLE_EQ(true_total_mass("kid_humanoid", 6.7), 8.0);
}

TEST(TrueModel, FixedBaseBenchPerturbsOnlyTheMovingLeg) {
  const Model nominal = test::bundled_robot("servo_bench").model;
  ASSERT_FALSE(nominal.floating_base);
  const double welded = nominal.bodies.front().inertia.mass;
  const double moving = nominal.total_mass() - welded;
  const double target = true_total_mass(nominal);
  EXPECT_NEAR(target - nominal.total_mass(), 0.10 * moving, 1e-12);
  const TrueModel truth = make_true_model(nominal, target, 5);
  EXPECT_NEAR(truth.model.total_mass(), target, 1e-9);
  EXPECT_DOUBLE_EQ(truth.model.bodies.front().inertia.mass, welded);
  double added = 0.0;
  for (const TruePerturbation& p : truth.perturbations) {
    EXPECT_NE(p.body, nominal.bodies.front().name);
    EXPECT_NE(p.cause, "battery") << "a bench leg carries no battery";
    added += p.mass;
  }
  EXPECT_NEAR(added, 0.10 * moving, 1e-9);
  EXPECT_TRUE(check_physical_consistency(truth.model.bodies[1].inertia).consistent);
  EXPECT_GT((truth.model.bodies[1].inertia.com() - nominal.bodies[1].inertia.com()).norm(), 1e-4);
}

TEST(Simulate, StaticPosesAgreeWithDynidAndSettleOnTheTrueGcom) {
  const Robot robot = test::bundled_robot("kid_humanoid");
  const std::string dir = fresh_dir("static_none");
  const ScenarioSummary s = run_scenario(robot, static_options(dir, NoiseLevel::None));
  const json summary = json::parse(read_file(dir + "/summary.json"));
  for (const char* key : {"scenario", "robot", "duration_s", "samples", "fell", "steps", "realtime_factor",
                          "nominal_total_mass", "true_total_mass", "consistency_max_rel_error"})
    EXPECT_TRUE(summary.contains(key)) << key;
  EXPECT_FALSE(s.fell);
  // Physics agreement: rnea(truth, q, v, a, contact wrenches) = joint torques, per recorded sample.
  EXPECT_LT(s.consistency_max_rel_error, 1e-6);
  EXPECT_EQ(summary["poses"], 7);
  EXPECT_LT(summary["max_joint_speed_in_windows"].get<double>(), 1e-4);
  EXPECT_LT(summary["max_cop_gcom_error_mm"].get<double>(), 0.1);
  EXPECT_NEAR(s.true_total_mass, 8.0, 1e-9);
  // truth.urdf is the model that generated the data: same masses as the summary says.
  const Model truth = read_urdf_file(dir + "/truth.urdf");
  EXPECT_NEAR(truth.total_mass(), 8.0, 1e-9);
  // The plates' COP stream, read back, sits on the recorded true COM in the settled windows.
  const CsvStream plates = read_csv_stream(dir + "/plates.csv");
  const CsvStream truth_stream = read_csv_stream(dir + "/truth.csv");
  EXPECT_GT(plates.values.rows(), 7 * 800);
  EXPECT_EQ(truth_stream.values.rows(), s.samples);
}

TEST(Simulate, SameSeedGivesIdenticalFiles) {
  const Robot robot = test::bundled_robot("kid_humanoid");
  const std::string a = fresh_dir("repeat_a"), b = fresh_dir("repeat_b");
  run_scenario(robot, static_options(a, NoiseLevel::Realistic));
  run_scenario(robot, static_options(b, NoiseLevel::Realistic));
  int compared = 0;
  EXPECT_EQ(test::differing_files(a, b, compared), std::vector<std::string>{});
  EXPECT_GE(compared, 8);
  json sa = json::parse(read_file(a + "/summary.json")), sb = json::parse(read_file(b + "/summary.json"));
  sa.erase("realtime_factor");
  sb.erase("realtime_factor");
  EXPECT_EQ(sa, sb);
  // A different seed changes the data.
  const std::string c = fresh_dir("repeat_c");
  run_scenario(robot, static_options(c, NoiseLevel::Realistic, 7, 4));
  EXPECT_NE(read_file(a + "/encoders.csv"), read_file(c + "/encoders.csv"));
}

/// Standard deviation of a column around its per-window means (windows: rows between time gaps).
double windowed_sigma(const CsvStream& s, Eigen::Index col, const MatrixX* reference = nullptr,
                      Eigen::Index ref_col = 0) {
  double sum2 = 0.0;
  long n = 0;
  Eigen::Index start = 0;
  for (Eigen::Index r = 1; r <= s.values.rows(); ++r) {
    const bool end = r == s.values.rows() || s.values(r, 0) - s.values(r - 1, 0) > 0.1;
    if (!end) continue;
    double mean = 0.0;
    long m = 0;
    for (Eigen::Index k = start; k < r; ++k) {
      const double x = s.values(k, col) - (reference ? (*reference)(k, ref_col) : 0.0);
      if (std::isnan(x)) continue;
      mean += x;
      ++m;
    }
    mean /= std::max(1L, m);
    for (Eigen::Index k = start; k < r; ++k) {
      const double x = s.values(k, col) - (reference ? (*reference)(k, ref_col) : 0.0);
      if (std::isnan(x)) continue;
      sum2 += (x - mean) * (x - mean);
      ++n;
    }
    start = r;
  }
  return std::sqrt(sum2 / std::max(1L, n - 1));
}

TEST(Simulate, NoiseHasTheConfiguredStatistics) {
  const Robot robot = test::bundled_robot("kid_humanoid");
  const std::string dir = fresh_dir("noise");
  ScenarioOptions o = static_options(dir, NoiseLevel::Realistic, 21);
  run_scenario(robot, o);
  const SensorNoise n = sensor_noise(NoiseLevel::Realistic);
  // Settled windows: the true signals are constant to < 1e-4, far below the noise.
  const CsvStream imu = read_csv_stream(dir + "/imu.csv");
  const double rate = 100.0;
  for (const char* axis : {"x", "y", "z"}) {
    const double gyro = windowed_sigma(imu, imu.column(std::string("imu.gyro.") + axis));
    EXPECT_NEAR(gyro / (n.gyro_density * std::sqrt(rate)), 1.0, 0.05) << axis;
    const double acc = windowed_sigma(imu, imu.column(std::string("imu.acc.") + axis));
    EXPECT_NEAR(acc / (n.accel_density * std::sqrt(rate)), 1.0, 0.05) << axis;
  }
  const CsvStream markers = read_csv_stream(dir + "/markers.csv");
  double sigma = 0.0;
  for (Eigen::Index c = 1; c < markers.values.cols(); ++c) sigma += windowed_sigma(markers, c);
  EXPECT_NEAR(sigma / double(markers.values.cols() - 1) / n.marker_sigma, 1.0, 0.05);
  const CsvStream ft = read_csv_stream(dir + "/ft.csv");
  EXPECT_NEAR(windowed_sigma(ft, ft.column("l_foot_ft.tx")) / n.ft_torque_sigma, 1.0, 0.05);
}

TEST(Simulate, BadRequestsFailBeforeRunning) {
  const Robot kid = test::bundled_robot("kid_humanoid");
  ScenarioOptions o = static_options(fresh_dir("bad"), NoiseLevel::None);
  o.scenario = "moonwalk";
  EXPECT_THROW(check_scenario(kid, o), std::invalid_argument);
  EXPECT_FALSE(fs::exists(o.out_dir));
  o.scenario = "static-poses";
  EXPECT_THROW(check_scenario(test::bundled_robot("servo_bench"), o), std::invalid_argument);
  Robot no_sidecar = kid;
  no_sidecar.sidecar.reset();
  EXPECT_THROW(check_scenario(no_sidecar, o), std::invalid_argument);
  EXPECT_THROW(parse_noise_level("loud"), std::invalid_argument);
}

}  // namespace
}  // namespace dynid
