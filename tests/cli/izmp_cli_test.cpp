// dynid izmp refuses, in one line naming what is missing, robots and data sets without the sensors
// paper 001's methods need.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

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

// A real robot has no truth stream; its soles' F/T sensors measure the ZMP the IZMP should match.
// On the kid humanoid's noise-free walk (F/T sensors under both soles, no accelerometers: the gyro's
// difference quotient) the F/T sensors' ZMP, carried through the joint kinematics to the NIF, is the
// simulator's contact ZMP (an independent path: MuJoCo's contact forces against the sensors'
// frames), and the IZMP's distance to it is its distance to the physical ZMP.
TEST(IzmpCli, TheSolesFtSensorsGiveTheMeasuredZmp) {
  const auto dir = std::filesystem::temp_directory_path() / ("dynid_izmp_ft_" + std::to_string(::getpid()));
  const std::string walk = (dir / "walk").string(), out = (dir / "izmp").string();
  ASSERT_EQ(run("simulate kid_humanoid --scenario walk --steps 4 --noise none --seed 2 --quiet --out " + walk).code, 0);
  const Result r = run("izmp kid_humanoid " + walk + " --angular-acceleration gyro --inertia-from " + walk +
                       "/truth.urdf --quiet --out " + out);
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream summary_file(out + "/summary.json");
  const nlohmann::json s = nlohmann::json::parse(summary_file);
  ASSERT_TRUE(s["ft_zmp_rms_mm"].is_number()) << s.dump();
  EXPECT_LT(s["ft_zmp_physical_rms_mm"].get<double>(), 0.01) << s.dump();
  EXPECT_NEAR(s["ft_zmp_rms_mm"].get<double>(), s["physical_zmp_rms_mm"].get<double>(), 0.01) << s.dump();
  EXPECT_LT(s["ft_zmp_rms_mm"].get<double>(), 1.0) << s.dump();
  std::ifstream csv(out + "/izmp.csv");
  std::string header;
  std::getline(csv, header);
  EXPECT_NE(header.find(",ft_zmp_nif_x,ft_zmp_nif_y"), std::string::npos) << header;
  // The CAD model's inertias: the F/T sensors show its error as the physical ZMP does.
  const Result cad = run("izmp kid_humanoid " + walk + " --angular-acceleration gyro --quiet --out " + out + "_cad");
  ASSERT_EQ(cad.code, 0) << cad.err;
  std::ifstream cad_file(out + "_cad/summary.json");
  const nlohmann::json c = nlohmann::json::parse(cad_file);
  EXPECT_GT(c["ft_zmp_rms_mm"].get<double>(), 10.0 * s["ft_zmp_rms_mm"].get<double>()) << c.dump();
  // Without an ft stream the summary says why there is no F/T ZMP.
  std::filesystem::remove(walk + "/ft.csv");
  {
    std::ifstream in(walk + "/dataset.json");
    nlohmann::json d = nlohmann::json::parse(in);
    d["streams"].erase("ft");
    std::ofstream(walk + "/dataset.json") << d.dump(2);
  }
  const Result none = run("izmp kid_humanoid " + walk + " --angular-acceleration gyro --quiet --out " + out + "_none");
  ASSERT_EQ(none.code, 0) << none.err;
  std::ifstream none_file(out + "_none/summary.json");
  const nlohmann::json n = nlohmann::json::parse(none_file);
  EXPECT_TRUE(n["ft_zmp_rms_mm"].is_null());
  EXPECT_EQ(n["ft_zmp_note"], "the data set has no ft stream");
  std::filesystem::remove_all(dir);
}

}  // namespace
