// `dynid identify actuator` as a user runs it: the summary.json keys outside checks rely on, and bad
// input (a diverging ILC, a log without the supply voltage) as one line with no output directory.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "run_dynid.hpp"

namespace {

namespace fs = std::filesystem;

std::string scratch(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("dynid_actuator_cli_" + std::to_string(::getpid())) / name;
  fs::remove_all(p);
  return p.string();
}

void expect_one_line_error_and_no_output(const Result& r, const std::string& needle, const std::string& out) {
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("dynid: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
  // The progress lines come first; the reason is the last line and only one.
  const std::string last = r.err.substr(r.err.rfind("dynid: "));
  EXPECT_EQ(std::count(last.begin(), last.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(out)) << out;
}

TEST(ActuatorCli, SummaryHasTheContractKeys) {
  const std::string out = scratch("run");
  const Result r = run("identify actuator servo_bench --joint l_hip_pitch --out " + out);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto s = nlohmann::json::parse(std::ifstream(out + "/summary.json"));
  EXPECT_GE(s["ilc"]["iterations"].get<int>(), 1);
  EXPECT_TRUE(s["ilc"]["max_windowed_error_rad"].is_number());
  EXPECT_EQ(s["fit"]["alpha"].size(), 5u);
  EXPECT_EQ(s["truth"]["alpha"].size(), 5u);
  EXPECT_TRUE(s["validation"]["heldout_max_windowed_error_rad"]["identified"].is_number());
  EXPECT_TRUE(s["validation"]["heldout_max_windowed_error_rad"]["datasheet"].is_number());
  for (const char* f : {"actuator.yaml", "report.html", "ilc_trial/servo.csv", "truth.urdf"})
    EXPECT_TRUE(fs::is_regular_file(out + "/" + f)) << f;
  // The fitted entry is a sidecar `actuators:` entry dynid reads back.
  std::ifstream yaml(out + "/actuator.yaml");
  const std::string text((std::istreambuf_iterator<char>(yaml)), {});
  EXPECT_NE(text.find("  - joint: l_hip_pitch"), std::string::npos);
}

TEST(ActuatorCli, BadInputIsOneLineAndLeavesNoOutput) {
  const std::string out = scratch("bad");
  expect_one_line_error_and_no_output(run("identify actuator servo_bench --joint l_hip_pitch --lambda 5 --out " + out),
                                      "ILC diverges", out);
  const std::string logs = scratch("logs");
  fs::create_directories(logs);
  {
    std::ofstream f(logs + "/servo.csv");
    f << "time,l_hip_pitch.q_cmd,l_hip_pitch.supply_voltage\n";
    for (int i = 0; i < 200; ++i) f << i * 1e-3 << ",0.1,14.8\n";
  }
  expect_one_line_error_and_no_output(
      run("identify actuator servo_bench --joint l_hip_pitch --logs " + logs + " --out " + out), "l_hip_pitch.q'", out);
  expect_one_line_error_and_no_output(run("identify actuator servo_bench --joint knee --out " + out), "unknown joint",
                                      out);
}

}  // namespace

namespace {

TEST(ActuatorCli, DemoStagePrintsTheCoefficientTable) {
  const std::string out = scratch("demo");
  const Result r = run("demo --stage actuator --quiet --out " + out);
  ASSERT_EQ(r.code, 0) << r.err;
  // The demo's default is the realistic testbed (which the servo bench does not use).
  EXPECT_NE(r.out.find("Testbed: the true robots and lab with inertia, geometry"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--perturb does not apply to the servo bench"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Actuator identification, servo_bench l_hip_pitch"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("identified"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(out + "/servo_actuator/report.html"));
  EXPECT_NE(r.out.find(out + "/servo_actuator/report.html"), std::string::npos) << r.out;
  // What the fit leaves: the simulated true servo has a gear backlash and a dead time the model's
  // grid only approximates, so the residual stays above the applied voltage's own quantization
  // noise (measured 8.1 times its 20 mV).
  std::ifstream summary_file(out + "/servo_actuator/summary.json");
  const nlohmann::json summary = nlohmann::json::parse(summary_file);
  const nlohmann::json& u = summary["unexplained_residual"];
  ASSERT_TRUE(u.is_object()) << summary.dump();
  EXPECT_GT(u["noise_ratio"].get<double>(), 1.5) << u.dump();  // above "at the noise"
  EXPECT_NE(u["explanation"].get<std::string>().find(" V RMS) is "), std::string::npos) << u.dump();
}

}  // namespace
