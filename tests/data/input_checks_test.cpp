// data/input_checks: the named warnings of docs/cli.md's catalogue on data sets written here row by
// row, each case next to a near miss the check must not report (so each check can fail both ways).

#include "dynid/data/input_checks.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "dynid/model/urdf_reader.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

namespace fs = std::filesystem;

/// A data set `name` with one stream `encoders` at `rate` Hz: `rows` rows of (time, q.JOINT...) from
/// `row(i)`; `segments` as dataset.json text ("" for none).
std::string write_dataset(const std::string& name, const std::vector<std::string>& joints, double rate,
                          const std::function<std::vector<double>(int)>& row, int rows,
                          const std::string& segments = "", const std::string& robot = "kid_humanoid") {
  const std::string dir = test::fresh_dir("input_checks", name);
  fs::create_directories(dir);
  std::ofstream csv(dir + "/encoders.csv");
  csv << "time";
  for (const std::string& j : joints) csv << ",q." << j;
  csv << "\n";
  csv.precision(12);
  for (int i = 0; i < rows; ++i) {
    const std::vector<double> r = row(i);
    for (std::size_t k = 0; k < r.size(); ++k) csv << (k ? "," : "") << r[k];
    csv << "\n";
  }
  std::ofstream(dir + "/dataset.json") << R"({"format": "dynid-dataset", "version": 1, "robot": ")" << robot
                                       << R"(", "streams": {"encoders": {"file": "encoders.csv", "rate_hz": )" << rate
                                       << "}}" << (segments.empty() ? "" : ", \"segments\": " + segments) << "}";
  return dir;
}

std::vector<std::string> with(const std::vector<std::string>& warnings, const std::string& fragment) {
  std::vector<std::string> out;
  for (const std::string& w : warnings)
    if (w.find(fragment) != std::string::npos) out.push_back(w);
  return out;
}

TEST(InputChecks, TimeGapIsNamedWithItsLengthAndPlaceAndJitterIsNot) {
  // 100 Hz; samples 300..339 missing (a 0.41 s gap after t = 2.99 s); elsewhere half a period of
  // jitter, which is not a gap at 5 periods.
  auto row = [](int i) {
    const int n = i < 300 ? i : i + 40;
    const double jitter = (n % 7 == 3) ? 0.005 : 0.0;  // late samples: 1.5 periods after the previous
    return std::vector<double>{0.01 * n + jitter, 0.1 * std::sin(0.01 * n)};
  };
  const DatasetInfo data = read_dataset_info(write_dataset("gap", {"l_knee"}, 100.0, row, 1000));
  const std::vector<std::string> w = time_gap_warnings(data);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].rfind("time gap: ", 0), 0u) << w[0];
  EXPECT_NE(w[0].find("encoders.csv has 1 gap longer than 5 sample periods (0.0500 s at its 100.0 Hz)"),
            std::string::npos)
      << w[0];
  EXPECT_NE(w[0].find("the longest 0.4100 s after t = 2.9900 s"), std::string::npos) << w[0];

  // Without the gap: nothing.
  const DatasetInfo even = read_dataset_info(write_dataset(
      "even", {"l_knee"}, 100.0,
      [&](int i) {
        return std::vector<double>{0.01 * i, 0.0};
      },
      1000));
  EXPECT_TRUE(time_gap_warnings(even).empty());
}

TEST(InputChecks, AGapBetweenSegmentsIsTheLayoutNotAWarning) {
  // Two trials laid end to end with 2 s between them, each a segment (as `dynid import c3d` writes).
  auto row = [](int i) { return std::vector<double>{i < 100 ? 0.01 * i : 3.0 + 0.01 * (i - 100), 0.0}; };
  const std::string two = R"([{"label": "a", "start": 0.0, "end": 0.99}, {"label": "b", "start": 3.0, "end": 3.99}])";
  EXPECT_TRUE(time_gap_warnings(read_dataset_info(write_dataset("trials", {"l_knee"}, 100.0, row, 200, two))).empty());
  // Segments whose end is exclusive, one period after their last sample (`dynid simulate --scenario
  // static-poses` writes its poses so): still the layout.
  const std::string exclusive =
      R"([{"label": "a", "start": 0.0, "end": 1.0}, {"label": "b", "start": 3.0, "end": 4.0}])";
  EXPECT_TRUE(
      time_gap_warnings(read_dataset_info(write_dataset("exclusive", {"l_knee"}, 100.0, row, 200, exclusive))).empty());
  // The same gap inside one segment is reported, and so is one before the only segment starts.
  const std::string one = R"([{"label": "a", "start": 0.0, "end": 3.99}])";
  EXPECT_EQ(time_gap_warnings(read_dataset_info(write_dataset("inside", {"l_knee"}, 100.0, row, 200, one))).size(), 1u);
  const std::string late = R"([{"label": "b", "start": 3.0, "end": 3.99}])";
  EXPECT_EQ(time_gap_warnings(read_dataset_info(write_dataset("before", {"l_knee"}, 100.0, row, 200, late))).size(),
            1u);
}

TEST(InputChecks, AJointThatNeverMovesIsNamedAndOneThatMovesALittleIsNot) {
  const Robot robot = test::bundled_robot("kid_humanoid");
  // l_knee held (0.5 mrad of encoder jitter), l_hip_pitch moves 0.2 degrees, r_knee 30 degrees.
  auto row = [](int i) {
    const double s = std::sin(0.01 * i);
    return std::vector<double>{0.001 * i, 0.3 + 0.00025 * ((i % 3) - 1), 0.0017453 * s, 0.26 * s};
  };
  const DatasetInfo data =
      read_dataset_info(write_dataset("still", {"l_knee", "l_hip_pitch", "r_knee"}, 1000.0, row, 2000));
  const std::vector<std::string> w = still_joint_warnings(robot.model, data, "encoders");
  ASSERT_EQ(w.size(), 1u) << (w.empty() ? "" : w[0]);
  EXPECT_EQ(w[0].rfind("joint never moves: 'l_knee' spans 0.000500 rad", 0), 0u) << w[0];
  EXPECT_NE(w[0].find("--lock l_knee=0.3000"), std::string::npos) << w[0];
  // A stream the data set does not have: nothing to say.
  EXPECT_TRUE(still_joint_warnings(robot.model, data, "truth").empty());
}

TEST(InputChecks, AnotherRobotAndAnInconsistentModelAreNamed) {
  auto row = [](int i) { return std::vector<double>{0.01 * i, std::sin(0.01 * i)}; };
  const DatasetInfo biped = read_dataset_info(write_dataset("biped", {"l_knee"}, 100.0, row, 100, "", "biped16"));
  Robot robot = test::bundled_robot("kid_humanoid");
  std::vector<std::string> w = input_warnings(robot.model, biped);
  ASSERT_EQ(with(w, "another robot: ").size(), 1u);
  EXPECT_NE(with(w, "another robot: ")[0].find("recorded for robot 'biped16', the model is 'kid_humanoid'"),
            std::string::npos);
  const DatasetInfo kid = read_dataset_info(write_dataset("kid", {"l_knee"}, 100.0, row, 100));
  EXPECT_TRUE(input_warnings(robot.model, kid).empty());

  // A link whose inertia breaks the triangle inequality (Ixx > Iyy + Izz), read from a URDF.
  std::string urdf = test::read_file(std::string(DYNID_MODELS_DIR) + "/kid_humanoid.urdf");
  const std::size_t link = urdf.find("<link name=\"l_forearm\"");
  const std::size_t ixx = urdf.find("ixx=\"", link) + 5;
  urdf.replace(ixx, urdf.find('"', ixx) - ixx, "1.0");
  const Model broken = read_urdf_string(urdf, "broken.urdf");
  w = input_warnings(broken, kid);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].rfind("model: link 'l_forearm' is not physically consistent", 0), 0u) << w[0];
}

}  // namespace
}  // namespace dynid
