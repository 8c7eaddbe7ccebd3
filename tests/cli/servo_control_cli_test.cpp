// `dynid simulate ... --servo-control` as a user runs it: the summary.json keys of paper 002's
// walking comparison, and bad requests (an unknown controller, a missing or unusable actuator
// model, the option on another scenario) as one line, the CLI's exit code and no output directory.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "run_dynid.hpp"

namespace {

namespace fs = std::filesystem;

std::string scratch(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("dynid_servo_control_cli_" + std::to_string(::getpid())) / name;
  fs::remove_all(p);
  return p.string();
}

std::string write(const std::string& name, const std::string& text) {
  const std::string path = scratch(name);
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
  return path;
}

void expect_error(const Result& r, int code, const std::string& needle, const std::string& out) {
  EXPECT_EQ(r.code, code) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_FALSE(fs::exists(out)) << out;
}

/// summary.json of a two-step servo-controlled walk with `options` (empty when the run fails).
nlohmann::json servo_walk_summary(const std::string& options, const std::string& name) {
  const Result r =
      run("simulate kid_humanoid --scenario walk --steps 2 --speed 0.1 --quiet " + options + " --out " + scratch(name));
  EXPECT_EQ(r.code, 0) << r.err;
  return r.code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
}

TEST(ServoControlCli, SummaryHasTheComparisonKeys) {
  const nlohmann::json s = servo_walk_summary("--servo-control low-gain", "walk");
  ASSERT_FALSE(s.empty());
  EXPECT_FALSE(s["fell"].get<bool>());
  EXPECT_EQ(s["steps"], 2);
  EXPECT_GT(s["knee_energy_j"]["left"].get<double>(), 0.0);
  EXPECT_GT(s["knee_energy_j"]["right"].get<double>(), 0.0);
  EXPECT_GT(s["tracking_rms_rad"].get<double>(), 0.0);
  EXPECT_EQ(s["servo_control"]["control"], "low-gain");
  EXPECT_EQ(s["servo_control"]["k_p"], 0.35);
  EXPECT_EQ(s["servo_control"]["feedforward_model"], "none");
  // The counting without regeneration can only be larger; the supply-side count U_bat |I| too
  // (|U| <= U_bat).
  for (const char* side : {"left", "right"}) {
    const double ui = s["knee_energy_j"][side].get<double>();
    EXPECT_GE(s["servo_control"]["knee_no_regeneration_energy_j"][side].get<double>(), ui) << side;
    EXPECT_GE(s["servo_control"]["knee_supply_energy_j"][side].get<double>(), ui) << side;
  }
  const double share = s["servo_control"]["swing_foot_load_share"].get<double>();
  EXPECT_GT(share, 0.0);
  EXPECT_LT(share, 1.0);
}

TEST(ServoControlCli, ServoKpSetsTheLegServosGain) {
  const nlohmann::json s = servo_walk_summary("--servo-control low-gain --servo-kp 0.5", "walk_kp");
  ASSERT_FALSE(s.empty());
  EXPECT_EQ(s["servo_control"]["k_p"], 0.5);
  EXPECT_EQ(s["servo_control"]["p_gain_register"], 64.0);
}

TEST(ServoControlCli, BadRequestsAreOneLineWithoutOutput) {
  const std::string out = scratch("bad");
  const std::string walk = "simulate kid_humanoid --scenario walk --steps 2 --out " + out;
  // Parse errors exit 2, the rest 1 (the CLI's convention, docs/cli.md).
  expect_error(run(walk + " --servo-control medium-gain"), 2, "medium-gain", out);
  expect_error(run(walk + " --servo-control feed-forward --actuator-model " + scratch("absent.yaml")), 1,
               "absent.yaml: cannot open the file", out);
  const std::string arms = write("arms.yaml",
                                 "actuators:\n"
                                 "  - {joint: l_elbow, gear_ratio: 225, torque_constant: 0.011318, resistance: 3.6,"
                                 " effort_limit: 10, p_gain: 32, supply_voltage: 14.8}\n"
                                 "  - {joint: r_elbow, gear_ratio: 225, torque_constant: 0.011318, resistance: 3.6,"
                                 " effort_limit: 10, p_gain: 32, supply_voltage: 14.8}\n");
  expect_error(run(walk + " --servo-control feed-forward --actuator-model " + arms), 1,
               "no actuators entry for leg joint 'l_hip_yaw'", out);
  expect_error(run(walk + " --servo-control feed-forward --actuator-model " + write("none.yaml", "robot: x\n")), 1,
               "no 'actuators' entries", out);
  expect_error(run(walk + " --servo-control high-gain --actuator-model " + arms), 1, "--servo-control feed-forward",
               out);
  expect_error(run(walk + " --servo-kp 0.5"), 1, "give --servo-control", out);
  expect_error(run(walk + " --servo-control high-gain --servo-kp 2.5"), 1, "--servo-kp 2.5 is outside (0, 1.98]", out);
  expect_error(run(walk + " --servo-control high-gain --servo-kp -1"), 1, "is outside", out);
  expect_error(run("simulate kid_humanoid --scenario squat --servo-control high-gain --out " + out), 1,
               "needs --scenario walk", out);
  expect_error(run("simulate adult_humanoid --scenario walk --servo-control high-gain --out " + out), 1,
               "for kid-size robots up to 10 kg", out);
}

}  // namespace
