// `dynid simulate --perturb` as a user types it: a misspelt or repeated name is one
// line, exit 1, and no output directory; `--perturb geometry` lists the perturbation in dataset.json.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "run_dynid.hpp"

namespace {

namespace fs = std::filesystem;

std::string scratch(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("dynid_perturb_cli_" + std::to_string(::getpid())) / name;
  fs::remove_all(p);
  return p.string();
}

TEST(PerturbCli, UnknownOrRepeatedPerturbationsAreOneLineWithoutOutput) {
  const std::string out = scratch("bad");
  for (const auto& [value, needle] :
       {std::pair<std::string, std::string>{"sensor-buss", "unknown --perturb 'sensor-buss'"},
        {"geometry,plates", "unknown --perturb 'plates'"},
        {"geometry,geometry", "lists 'geometry' twice"}}) {
    const Result r = run("simulate kid_humanoid --scenario walk --steps 2 --perturb " + value + " --out " + out);
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_FALSE(fs::exists(out)) << out;
  }
}

TEST(PerturbCli, GeometryIsListedInTheDataSet) {
  const std::string out = scratch("geometry");
  const Result r =
      run("simulate kid_humanoid --scenario walk --steps 1 --speed 0.1 --noise none --perturb all "
          "--quiet --out " +
          out);
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream in(out + "/dataset.json");
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json perturbations = nlohmann::json::parse(text.str())["perturbations"];
  ASSERT_TRUE(perturbations.contains("geometry")) << perturbations.dump();
  EXPECT_TRUE(perturbations["geometry"]["joints"].contains("l_knee"));
  ASSERT_TRUE(perturbations.contains("time_offset_s")) << perturbations.dump();
  EXPECT_TRUE(perturbations["time"]["time_offset_s"].contains("ft"));
  EXPECT_EQ(nlohmann::json::parse(r.out)["perturbations"],
            nlohmann::json::array({"inertia", "geometry", "joint-elasticity", "time", "markers", "force-plates", "imu",
                                   "ft", "sensor-bus"}));
  ASSERT_TRUE(perturbations.contains("sensor-bus")) << perturbations.dump();
  const int latency = perturbations["sensor-bus"]["latency_bus_periods"];
  EXPECT_GE(latency, 1);
  EXPECT_LE(latency, 2);
  EXPECT_DOUBLE_EQ(perturbations["sensor-bus"]["latency_s"].get<double>(), latency / 125.0);
}

TEST(PerturbCli, RealisticSensorsComeWithEveryPerturbationUnlessSaidOtherwise) {
  // A user's first `simulate` is a lab and a robot as imperfect as theirs; the idealised testbed
  // is asked for, with --perturb none or noise-free sensors.
  const auto perturbations_of = [](const std::string& options) {
    const std::string out = scratch("default");
    const Result r =
        run("simulate kid_humanoid --scenario static-poses --poses 7 --quiet " + options + " --out " + out);
    EXPECT_EQ(r.code, 0) << r.err;
    return r.code == 0 ? nlohmann::json::parse(r.out)["perturbations"] : nlohmann::json();
  };
  const nlohmann::json all = nlohmann::json::array(
      {"inertia", "geometry", "joint-elasticity", "time", "markers", "force-plates", "imu", "ft", "sensor-bus"});
  EXPECT_EQ(perturbations_of(""), all);
  EXPECT_EQ(perturbations_of("--noise realistic"), all);
  EXPECT_EQ(perturbations_of("--noise none"), nlohmann::json::array());
  EXPECT_EQ(perturbations_of("--perturb none"), nlohmann::json::array());
  EXPECT_EQ(perturbations_of("--noise none --perturb geometry"), nlohmann::json::array({"geometry"}));
}

}  // namespace
