// `dynid import log` as a user runs it: a small controller log (its own column names, degrees, a
// flipped joint) becomes a data set `identify inertial` reads; a map that names a column the log
// lacks is one line on stderr, exit 1, and no output directory.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "run_dynid.hpp"

namespace {

namespace fs = std::filesystem;

std::string scratch(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("dynid_import_cli_" + std::to_string(::getpid())) / name;
  fs::remove_all(p);
  fs::create_directories(p.parent_path());
  return p.string();
}

TEST(ImportCli, LogBecomesADataSetAndABadMapIsOneLine) {
  const std::string log = scratch("log.csv"), map = scratch("map.yaml"), out = scratch("data");
  {
    std::ofstream l(log);
    l << "stamp_ms;J1;J2;T1;T2\n";
    for (int k = 0; k < 20; ++k)
      l << 2.0 * k + (k % 3 == 1 ? 0.3 : 0.0) << ";" << 0.5 * k << ";" << -k << ";" << 1.0 << ";" << 2.0 << "\n";
  }
  std::ofstream(map) << "time: {column: stamp_ms, unit: ms}\nrate_hz: 500\njoints:\n"
                        "  a1: {q: J1, tau: T1, q_unit: deg}\n  a2: {q: J2, tau: T2, q_unit: deg, sign: -1}\n";
  const Result ok = run("import log " + log + " --map " + map + " --model arm7 --out " + out);
  ASSERT_EQ(ok.code, 0) << ok.err;
  const nlohmann::json summary = nlohmann::json::parse(ok.out);
  EXPECT_DOUBLE_EQ(summary["rate_hz"].get<double>(), 500.0);
  EXPECT_EQ(summary["samples"].get<int>(), 20);
  EXPECT_NEAR(summary["jitter_max_s"].get<double>(), 3e-4, 1e-12);
  EXPECT_TRUE(fs::exists(out + "/dataset.json"));
  EXPECT_TRUE(fs::exists(out + "/torques.csv"));

  std::ofstream(map) << "time: {column: stamp_ms, unit: ms}\njoints:\n  a1: {q: J1, tau: T9}\n";
  const std::string bad_out = scratch("bad");
  const Result bad = run("import log " + log + " --map " + map + " --model arm7 --out " + bad_out);
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.err.find("no column 'T9'"), std::string::npos) << bad.err;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  EXPECT_FALSE(fs::exists(bad_out));
}

}  // namespace
