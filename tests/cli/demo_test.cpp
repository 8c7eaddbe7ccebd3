// `dynid demo`, the README's main job: it runs end to end, prints its table and leaves the reports
// it points to. The numbers in the table are checked against the simulation's own truth (the true
// mass the data set's summary.json reports), not against a copy of the output.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "run_dynid.hpp"

namespace {

TEST(CliDemo, InertialStageIdentifiesTheKidHumanoid) {
  const std::string out = std::filesystem::temp_directory_path() / ("dynid_demo_" + std::to_string(::getpid()));
  std::filesystem::remove_all(out);
  const Result r = run("demo --stage inertial --quiet --out " + out);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;  // --quiet
  EXPECT_TRUE(std::filesystem::exists(out + "/kid_inertial/report.html"));
  EXPECT_NE(r.out.find(out + "/kid_inertial/report.html"), std::string::npos) << r.out;

  // "total mass [kg]  nominal identified true": identified within 1 % of the simulated truth.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"(total mass \[kg\]\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+))")))
      << r.out;
  std::ifstream summary_file(out + "/kid_walk/summary.json");
  const nlohmann::json sim = nlohmann::json::parse(summary_file);
  const double truth = sim["true_total_mass"].get<double>();
  EXPECT_NEAR(std::stod(m[3]), truth, 5e-4);
  EXPECT_NEAR(std::stod(m[2]), truth, 0.005 * truth);
  EXPECT_NEAR(std::stod(m[1]), sim["nominal_total_mass"].get<double>(), 5e-4);

  // Held-out base force RMS, on the trunk bending (paper 003's validation motion, OUT/kid_trunk_bend):
  // the model identified from the walk explains it far better than the nominal one, at the
  // force-plate class (0.7 N quantization) and below (0.09 N measured).
  EXPECT_TRUE(std::filesystem::exists(out + "/kid_trunk_bend/dataset.json"));
  EXPECT_NE(r.out.find("held out: trunk bending"), std::string::npos) << r.out;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"(base force RMS \[N\]\s+([0-9.]+)\s+([0-9.]+))"))) << r.out;
  EXPECT_LT(std::stod(m[2]), 0.25 * std::stod(m[1]));
  EXPECT_LT(std::stod(m[2]), 0.4);
  std::filesystem::remove_all(out);
}

TEST(CliDemo, UnknownStageIsRefused) {
  const Result r = run("demo --stage everything --out /nonexistent/never-created");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("stage"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists("/nonexistent/never-created"));
}

}  // namespace
