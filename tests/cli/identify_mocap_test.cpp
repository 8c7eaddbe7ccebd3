// dynid identify inertial --source mocap as users see it: markers and force plates of a simulated
// squat identify the robot; a data set without markers, or with a foot off the plates, gets one
// line naming what is missing.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "run_dynid.hpp"

namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

std::string scratch(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("dynid_identify_mocap_" + std::to_string(::getpid())) / name;
  fs::remove_all(p);
  return p.string();
}

/// A copy of data set `from` (stream files linked) with dataset.json changed by `edit`.
std::string edited_copy(const std::string& from, const std::string& name, void (*edit)(json&)) {
  const std::string dir = scratch(name);
  fs::create_directories(dir);
  for (const auto& e : fs::directory_iterator(from))
    if (e.path().filename() != "dataset.json")
      fs::create_symlink(fs::absolute(e.path()), dir + "/" + e.path().filename().string());
  json j = json::parse(std::ifstream(from + "/dataset.json"));
  edit(j);
  std::ofstream(dir + "/dataset.json") << j.dump(2);
  return dir;
}

TEST(CliIdentifyMocap, MarkersAndPlatesIdentifyTheRobot) {
  const std::string data = scratch("squat");
  ASSERT_EQ(run("simulate kid_humanoid --scenario squat --noise none --quiet --out " + data).code, 0);
  const Result r = run("identify inertial kid_humanoid " + data + " --source mocap --sensors contact --quiet --out " +
                       scratch("out") + " --truth " + data + "/truth.urdf");
  ASSERT_EQ(r.code, 0) << r.err;
  const json s = json::parse(r.out);
  const double truth_mass = s["truth_total_mass"].get<double>();
  EXPECT_NEAR(s["total_mass"].get<double>(), truth_mass, 0.01 * truth_mass) << r.out;
  EXPECT_LT(s["validation"]["wrench_rms"]["identified"].get<double>(),
            0.2 * s["validation"]["wrench_rms"]["nominal"].get<double>())
      << r.out;
  // The mocap path keeps what the squat does not determine at the nominal (CAD) model by default, with
  // the data's weight from their own spread; `--prior W` overrides.
  EXPECT_EQ(s["prior"].get<std::string>(), "cad") << r.out;
  EXPECT_GT(s["cad_prior"]["kept_at_cad"].get<int>(), 0) << r.out;
  // No row validates worse than the nominal model (a fit that beats the true model is warned about:
  // the noise-free squat's held-out moment is below the true model's, the markers' filtering absorbed).
  for (const auto& w : s["warnings"]) EXPECT_EQ(w.get<std::string>().find("> nominal"), std::string::npos) << w;
  const Result plain = run("identify inertial kid_humanoid " + data +
                           " --source mocap --sensors contact --quiet --prior 0 --out " + scratch("plain"));
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_EQ(json::parse(plain.out)["prior"].get<double>(), 0.0) << plain.out;

  const auto refused = [&](const std::string& dir, const std::string& fragment) {
    const Result bad = run("identify inertial kid_humanoid " + dir +
                           " --source mocap --sensors contact --quiet --out " + scratch("bad"));
    EXPECT_EQ(bad.code, 1) << dir;
    EXPECT_NE(bad.err.find(fragment), std::string::npos) << bad.err;
    EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  };
  refused(edited_copy(data, "no_markers", [](json& j) { j["streams"].erase("markers"); }), "no 'markers' stream");
  refused(edited_copy(data, "no_plates",
                      [](json& j) {
                        j["streams"].erase("plates");
                        j.erase("force_plates");
                      }),
          "no force plates");
  refused(edited_copy(data, "one_plate", [](json& j) { j["force_plates"].erase(1); }), "off the force plates");
}

}  // namespace
