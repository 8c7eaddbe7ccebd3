// docs/cli.md "What dynid says when the input is wrong": one test per entry of the catalogue, each a
// data set edited the way the field's files go wrong, run through `dynid identify inertial` as a user
// would; every one is a one-line error naming the file and line (exit 1), never a silent answer.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "run_dynid.hpp"

namespace {

namespace fs = std::filesystem;

std::string scratch(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("dynid_bad_inputs_" + std::to_string(::getpid())) / name;
  fs::remove_all(p);
  return p.string();
}

class BadInputCatalogue : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    data_ = scratch("squat");
    ASSERT_EQ(run("simulate kid_humanoid --scenario squat --noise none --quiet --out " + data_).code, 0);
  }

  /// A copy of the squat whose encoders.csv has its lines edited by `edit` (line 0: the header).
  static std::string with_encoders(const std::string& name,
                                   const std::function<void(std::vector<std::string>&)>& edit) {
    const std::string dir = scratch(name);
    fs::copy(data_, dir, fs::copy_options::recursive);
    std::vector<std::string> lines;
    {
      std::ifstream in(dir + "/encoders.csv");
      for (std::string l; std::getline(in, l);) lines.push_back(l);
    }
    edit(lines);
    std::ofstream out(dir + "/encoders.csv", std::ios::trunc);
    for (const std::string& l : lines) out << l << "\n";
    return dir;
  }

  /// The one-line error of `identify inertial kid_humanoid DIR --sensors contact` (the default source:
  /// the robot's sensors).
  static void expect_error(const std::string& model, const std::string& dir, const std::string& fragment) {
    const Result r =
        run("identify inertial " + model + " " + dir + " --sensors contact --quiet --out " + scratch("out"));
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find(fragment), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(fs::exists(scratch("out"))) << "no output for refused input";
  }

  static std::string data_;
};
std::string BadInputCatalogue::data_;

/// Replaces field `column` of line `line`.
void set_field(std::vector<std::string>& lines, std::size_t line, std::size_t column, const std::string& value) {
  std::vector<std::string> fields;
  std::stringstream ss(lines[line]);
  for (std::string f; std::getline(ss, f, ',');) fields.push_back(f);
  fields[column] = value;
  std::string joined;
  for (std::size_t i = 0; i < fields.size(); ++i) joined += (i ? "," : "") + fields[i];
  lines[line] = joined;
}

TEST_F(BadInputCatalogue, NanInAStream) {
  const std::string dir = with_encoders("nan", [](auto& lines) { set_field(lines, 5, 1, "nan"); });
  expect_error("kid_humanoid", dir, "encoders.csv: line 6: 'nan' is not a finite number");
}

TEST_F(BadInputCatalogue, InfInAStream) {
  const std::string dir = with_encoders("inf", [](auto& lines) { set_field(lines, 7, 2, "-inf"); });
  expect_error("kid_humanoid", dir, "encoders.csv: line 8: '-inf' is not a finite number");
}

TEST_F(BadInputCatalogue, NotANumber) {
  const std::string dir = with_encoders("text", [](auto& lines) { set_field(lines, 9, 1, "abc"); });
  expect_error("kid_humanoid", dir, "encoders.csv: line 10: 'abc' is not a number");
}

TEST_F(BadInputCatalogue, DuplicateTimeStamp) {
  const std::string dir = with_encoders("duplicate", [](auto& lines) {
    std::string stamp = lines[3].substr(0, lines[3].find(','));
    set_field(lines, 4, 0, stamp);
  });
  expect_error("kid_humanoid", dir, "encoders.csv: line 5: time");
  expect_error("kid_humanoid", dir, "(duplicate time stamp)");
}

TEST_F(BadInputCatalogue, TimeStampsOutOfOrder) {
  const std::string dir = with_encoders("backward", [](auto& lines) { std::swap(lines[10], lines[11]); });
  expect_error("kid_humanoid", dir, "encoders.csv: line 12: time");
  expect_error("kid_humanoid", dir, "(out of order)");
}

TEST_F(BadInputCatalogue, DataSetOfAnotherRobot) {
  // The kid-size humanoid's squat given to the 16-DOF biped: its joints are not in the recording.
  expect_error("biped16", data_, "encoders.csv: no channel 'q.l_hip_flexion'");
}

}  // namespace
