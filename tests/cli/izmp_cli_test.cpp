// dynid izmp refuses, in one line naming what is missing, robots and data sets without the sensors
// paper 001's methods need.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "run_dynid.hpp"

namespace {

void expect_one_line_error(const Result& r, const std::string& fragment) {
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find(fragment), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.find("terminate"), std::string::npos) << r.err;
}

TEST(IzmpCli, WrongRobotsAndMissingDataAreOneLineErrors) {
  const auto dir = std::filesystem::temp_directory_path() / ("dynid_izmp_cli_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  // servo_bench is bolted to the world: no floating base, nothing to balance.
  expect_one_line_error(run("izmp servo_bench " + dir.string() + " --out " + (dir / "o").string()), "floating-base");
  // kid_humanoid has an IMU but no extra accelerometers.
  expect_one_line_error(run("izmp kid_humanoid " + dir.string() + " --out " + (dir / "o").string()), "accelerometers");
  // The walker has them, but the directory is no data set.
  expect_one_line_error(run("izmp walker " + dir.string() + " --out " + (dir / "o").string()), "dataset.json");
  expect_one_line_error(run("izmp walker " + dir.string() + " --method nope --out " + (dir / "o").string()), "nope");
  expect_one_line_error(run("izmp walker " + dir.string()), "--out");
  std::filesystem::remove_all(dir);
}

}  // namespace
