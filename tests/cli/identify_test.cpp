// dynid identify inertial as users and scripts see it: simulate -> identify, the files and summary
// keys the docs promise, progress on stderr, one-line errors.

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "run_dynid.hpp"

namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

std::string scratch(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("dynid_identify_" + std::to_string(::getpid())) / name;
  fs::remove_all(p);
  return p.string();
}

TEST(CliIdentify, SimulateThenIdentifyWritesTheDocumentedOutputs) {
  const std::string data = scratch("squat");
  const std::string out = scratch("out");
  ASSERT_EQ(run("simulate kid_humanoid --scenario squat --noise none --quiet --out " + data).code, 0);
  const auto started = std::chrono::steady_clock::now();
  const Result r = run("identify inertial kid_humanoid " + data + " --sensors contact --source truth --out " + out +
                       " --truth " + data + "/truth.urdf");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_EQ(r.code, 0) << r.err;
  const json s = json::parse(r.out);
  for (const char* key : {"sensors", "samples", "base_parameters", "condition_number", "total_mass",
                          "physically_consistent", "validation", "base_param_max_rel_error", "total_mass_error"})
    EXPECT_TRUE(s.contains(key)) << key;
  for (const char* key : {"wrench_rms", "torque_rms"}) {
    EXPECT_TRUE(s["validation"][key].contains("nominal")) << key;
    EXPECT_TRUE(s["validation"][key].contains("identified")) << key;
  }
  EXPECT_EQ(s["sensors"], "contact");
  EXPECT_LT(s["validation"]["wrench_rms"]["identified"].get<double>(),
            0.01 * s["validation"]["wrench_rms"]["nominal"].get<double>());
  EXPECT_EQ(json::parse(std::ifstream(out + "/summary.json")), s);
  for (const char* f : {"base_parameters.json", "base_parameters.txt", "report.html", "kid_humanoid_identified.urdf"})
    EXPECT_TRUE(fs::exists(out + "/" + f)) << f;
  // Not a terminal: progress as whole lines, one per 10 % and one more at most every 5 s (besides the
  // named warnings: the squat hardly turns the hip yaw joints, docs/cli.md).
  EXPECT_NE(r.err.find("[100 %]"), std::string::npos) << r.err;
  std::istringstream lines(r.err);
  int progress = 0;
  for (std::string line; std::getline(lines, line);) progress += line.rfind("warning: ", 0) != 0;
  EXPECT_LE(progress, 12 + static_cast<int>(seconds / 5.0)) << r.err;

  // Bad inputs: one line naming the problem.
  for (const auto& [args, fragment] : std::vector<std::pair<std::string, std::string>>{
           {"--sensors l_sole,bogus", "bogus"},
           {"--sensors l_sole", "rank"},
           {"--sensors contact --lock l_knee=abc", "not a number"},
           {"--sensors contact --source sensors --parallel-filter 600", "half the sample rate"},
           {"--sensors contact --source mocap --parallel-filter 3",
            "--parallel-filter works on --source sensors or truth"},
           {"--sensors contact --time-offset ft", "expected STREAM=SECONDS"},
           {"--sensors contact --time-offset ft=40ms", "expected STREAM=SECONDS"},
           {"--sensors contact --time-offset vicon=0.1", "has no stream 'vicon'"},
           {"--sensors contact --time-offset encoders=0.1", "the encoders are the time reference"},
           {"--sensors contact --align-drift", "--align-drift goes with --align-time"},
           {"--sensors contact --align-kinematics-only", "--align-kinematics-only goes with --align-time"},
           {"--sensors contact --validate-clocks training", "--validate-clocks training goes with --validate"},
           {"--sensors contact --friction-joint l_knee", "expected JOINT=TERMS"},
           {"--sensors contact --friction-joint elbow=viscous", "has no joint 'elbow'"},
           {"--sensors contact --source truth --time-offset ft=0.1", "--time-offset applies to the sensor path"},
           {"--sensors contact --ft-calibration --prior 0", "--ft-calibration needs the CAD prior"},
           {"--sensors contact --source truth --imu-calibration", "--imu-calibration applies to the sensor path"},
           {"--sensors contact --keep-at-cad --prior 0", "--keep-at-cad needs the CAD prior"},
           {"--sensors contact --keep-below 0.5", "--keep-below goes with --keep-at-cad"},
           {"--sensors contact --total-mass 8 --weighting residual", "--total-mass with --weighting residual"},
           {"--sensors contact --gear-stiffness l_knee", "expected JOINT=N_M_PER_RAD"},
           {"--sensors contact --gear-stiffness l_knee=1500 --gear-stiffness l_knee=900", "'l_knee' given twice"},
           {"--sensors contact --gear-stiffness knee=1500", "'knee' is not a moving joint"},
           {"--sensors contact --source truth --gear-windup 0.2", "--source sensors only"}}) {
    const Result bad = run("identify inertial kid_humanoid " + data + " --quiet --out " + scratch("bad") + " " + args);
    EXPECT_EQ(bad.code, 1) << args;
    EXPECT_NE(bad.err.find(fragment), std::string::npos) << args << ": " << bad.err;
    EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  }
  // A flag's value out of range is a usage error (exit 2), named as such.
  const Result zero = run("identify inertial kid_humanoid " + data + " --sensors contact --cutoff 0 --out " + out);
  EXPECT_EQ(zero.code, 2);
  const Result wall =
      run("identify inertial kid_humanoid " + data + " --sensors contact --validate-clocks wall --out " + out);
  EXPECT_EQ(wall.code, 2);
  EXPECT_NE(wall.err.find("--validate-clocks: wall not in {estimate,training}"), std::string::npos) << wall.err;
  EXPECT_NE(zero.err.find("'0' is not a positive frequency in Hz (--no-lowpass: no filter)"), std::string::npos)
      << zero.err;
  const Result negative =
      run("identify inertial kid_humanoid " + data + " --sensors contact --total-mass -8 --out " + out);
  EXPECT_EQ(negative.code, 2);
  EXPECT_NE(negative.err.find("--total-mass"), std::string::npos) << negative.err;
  const Result missing = run("identify inertial kid_humanoid " + scratch("none") + " --sensors contact --out " + out);
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.err.find("no such data set"), std::string::npos) << missing.err;

  // The default source is the robot's own sensors: a data set holding only the simulator's truth
  // stream is refused in one line that names the oracle option instead of read silently.
  const std::string truth_only = scratch("truth_only");
  fs::create_directories(truth_only);
  fs::copy_file(data + "/truth.csv", truth_only + "/truth.csv");
  json dataset = json::parse(std::ifstream(data + "/dataset.json"));
  const json truth_stream = dataset["streams"]["truth"];
  dataset["streams"] = json::object({{"truth", truth_stream}});
  std::ofstream(truth_only + "/dataset.json") << dataset.dump(2);
  const Result oracle_only = run("identify inertial kid_humanoid " + truth_only + " --sensors contact --out " + out);
  EXPECT_EQ(oracle_only.code, 1);
  EXPECT_NE(oracle_only.err.find("--source truth reads it as an oracle"), std::string::npos) << oracle_only.err;
  EXPECT_EQ(std::count(oracle_only.err.begin(), oracle_only.err.end(), '\n'), 1) << oracle_only.err;
  const Result help = run("identify inertial --help");
  EXPECT_NE(help.out.find("sensors (default"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("truth (oracle: the simulator's noise-free stream)"), std::string::npos) << help.out;
}

}  // namespace
