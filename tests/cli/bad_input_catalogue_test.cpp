// docs/cli.md "What dynid says when the input is wrong": one test per entry of the catalogue, each a
// data set edited the way the field's files go wrong, run through the commands that read it as a user
// would; every one is a one-line error naming the file and line (exit 1) or a named warning in
// summary.json, the report and on stderr, never a silent answer.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_dynid.hpp"

namespace {

namespace fs = std::filesystem;

std::string scratch(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("dynid_bad_inputs_" + std::to_string(::getpid())) / name;
  fs::remove_all(p);
  fs::create_directories(p.parent_path());  // each test may run in a process of its own (ctest)
  return p.string();
}

class BadInputCatalogue : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    data_ = scratch("squat");
    ASSERT_EQ(run("simulate kid_humanoid --scenario squat --noise none --quiet --out " + data_).code, 0);
  }

  /// A copy of the squat whose stream `file` has its lines edited by `edit` (line 0: the header).
  static std::string with_stream(const std::string& name, const std::string& file,
                                 const std::function<void(std::vector<std::string>&)>& edit) {
    const std::string dir = scratch(name);  // a fresh copy
    fs::copy(data_, dir, fs::copy_options::recursive);
    edit_lines(dir + "/" + file, edit);
    return dir;
  }
  static std::string with_encoders(const std::string& name,
                                   const std::function<void(std::vector<std::string>&)>& edit) {
    return with_stream(name, "encoders.csv", edit);
  }
  static void edit_lines(const std::string& path, const std::function<void(std::vector<std::string>&)>& edit) {
    std::vector<std::string> lines;
    {
      std::ifstream in(path);
      for (std::string l; std::getline(in, l);) lines.push_back(l);
    }
    edit(lines);
    std::ofstream out(path, std::ios::trunc);
    for (const std::string& l : lines) out << l << "\n";
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

/// summary.json of DIR, and its `input_warnings` holding `fragment`.
nlohmann::json summary_of(const std::string& dir) {
  return nlohmann::json::parse(std::ifstream(dir + "/summary.json"));
}
std::vector<std::string> matching(const nlohmann::json& warnings, const std::string& fragment) {
  std::vector<std::string> out;
  for (const auto& w : warnings)
    if (w.get<std::string>().find(fragment) != std::string::npos) out.push_back(w.get<std::string>());
  return out;
}
std::string file_text(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), {}};
}

/// Drops every sample with t in [from, to) from each CSV stream of `dir`.
void drop_window(const std::string& dir, double from, double to) {
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".csv") continue;
    std::vector<std::string> kept;
    std::ifstream in(e.path());
    for (std::string l; std::getline(in, l);) {
      const double t = kept.empty() ? -1.0 : std::stod(l.substr(0, l.find(',')));
      if (kept.empty() || t < from || t >= to) kept.push_back(l);
    }
    in.close();
    std::ofstream out(e.path(), std::ios::trunc);
    for (const std::string& l : kept) out << l << "\n";
  }
}

TEST_F(BadInputCatalogue, TimeGapIsANamedWarningOfEveryCommandThatReadsTheStreams) {
  // 0.4 s missing from every stream (a logger that stalled): identify inertial and izmp run, and say so.
  const std::string dir = scratch("gap");
  fs::copy(data_, dir, fs::copy_options::recursive);
  drop_window(dir, 3.0, 3.4);
  const std::string out = scratch("gap_out");
  const Result r = run("identify inertial kid_humanoid " + dir + " --sensors contact --quiet --out " + out);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::vector<std::string> gaps = matching(summary_of(out)["input_warnings"], "time gap: ");
  ASSERT_FALSE(gaps.empty());
  const std::vector<std::string> encoders = matching(summary_of(out)["input_warnings"], "encoders.csv has 1 gap");
  ASSERT_EQ(encoders.size(), 1u) << gaps[0];
  EXPECT_NE(encoders[0].find("the longest 0.4010 s after t = 2.9990 s"), std::string::npos) << encoders[0];
  EXPECT_NE(r.err.find("warning: time gap: "), std::string::npos) << r.err;
  EXPECT_NE(file_text(out + "/report.html").find("Input warning: time gap: "), std::string::npos);

  const std::string izmp_out = scratch("gap_izmp");
  const Result z = run("izmp kid_humanoid " + dir + " --angular-acceleration gyro --quiet --out " + izmp_out);
  ASSERT_EQ(z.code, 0) << z.err;
  EXPECT_EQ(matching(summary_of(izmp_out)["input_warnings"], "encoders.csv has 1 gap").size(), 1u);
  EXPECT_NE(file_text(izmp_out + "/report.html").find("Input warning: time gap: "), std::string::npos);

  // The squat as recorded: no gap to report.
  const std::string clean = scratch("clean_out");
  ASSERT_EQ(run("identify inertial kid_humanoid " + data_ + " --sensors contact --quiet --out " + clean).code, 0);
  EXPECT_TRUE(matching(summary_of(clean)["input_warnings"], "time gap").empty());
}

TEST_F(BadInputCatalogue, AJointThatNeverMovesIsANamedWarning) {
  // The left elbow's encoder stuck at its first reading; the right elbow moves as recorded.
  const std::string dir = with_encoders("stuck", [](auto& lines) {
    const std::string first = lines[1];
    std::vector<std::string> header;
    std::stringstream h(lines[0]);
    for (std::string f; std::getline(h, f, ',');) header.push_back(f);
    const std::size_t c =
        static_cast<std::size_t>(std::find(header.begin(), header.end(), "q.l_elbow") - header.begin());
    std::stringstream f(first);
    std::string value;
    for (std::size_t i = 0; i <= c; ++i) std::getline(f, value, ',');
    for (std::size_t l = 1; l < lines.size(); ++l) set_field(lines, l, c, value);
  });
  const std::string out = scratch("stuck_out");
  const Result r = run("identify inertial kid_humanoid " + dir + " --sensors contact --quiet --out " + out);
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json w = summary_of(out)["input_warnings"];
  ASSERT_EQ(matching(w, "joint never moves: 'l_elbow' spans 0.000000 rad").size(), 1u) << w.dump();
  EXPECT_TRUE(matching(w, "'r_elbow'").empty()) << w.dump();
  EXPECT_NE(r.err.find("warning: joint never moves: 'l_elbow'"), std::string::npos) << r.err;
  // In the report, HTML-escaped.
  EXPECT_NE(file_text(out + "/report.html").find("Input warning: joint never moves: &#39;l_elbow&#39;"),
            std::string::npos);
}

TEST_F(BadInputCatalogue, DataSetNamingAnotherRobotIsANamedWarning) {
  // The same joints, but dataset.json says the recording is of another robot.
  const std::string dir = scratch("renamed");
  fs::copy(data_, dir, fs::copy_options::recursive);
  edit_lines(dir + "/dataset.json", [](auto& lines) {
    for (std::string& l : lines)
      if (l.find("\"robot\": \"kid_humanoid\"") != std::string::npos) l.replace(l.find("kid_humanoid"), 12, "kid_v2");
  });
  const std::string out = scratch("renamed_out");
  const Result r = run("identify inertial kid_humanoid " + dir + " --sensors contact --quiet --out " + out);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(matching(summary_of(out)["input_warnings"], "another robot: ").size(), 1u);
  EXPECT_NE(r.err.find("recorded for robot 'kid_v2', the model is 'kid_humanoid'"), std::string::npos) << r.err;
  const std::string clean = scratch("clean_robot_out");
  ASSERT_EQ(run("identify inertial kid_humanoid " + data_ + " --sensors contact --quiet --out " + clean).code, 0);
  EXPECT_TRUE(matching(summary_of(clean)["input_warnings"], "another robot").empty());
}

TEST_F(BadInputCatalogue, AModelWithInconsistentInertiasIsANamedWarning) {
  // The kid humanoid's URDF (and sidecar) with the left forearm's Ixx above Iyy + Izz.
  const std::string dir = scratch("model");
  fs::create_directories(dir);
  std::string urdf = file_text(std::string(DYNID_MODELS_DIR) + "/kid_humanoid.urdf");
  const std::size_t ixx = urdf.find("ixx=\"", urdf.find("<link name=\"l_forearm\"")) + 5;
  urdf.replace(ixx, urdf.find('"', ixx) - ixx, "1.0");
  std::ofstream(dir + "/kid_humanoid.urdf") << urdf;
  fs::copy_file(std::string(DYNID_MODELS_DIR) + "/kid_humanoid.yaml", dir + "/kid_humanoid.yaml");
  const std::string out = scratch("model_out");
  const Result r =
      run("identify inertial " + dir + "/kid_humanoid.urdf " + data_ + " --sensors contact --quiet --out " + out);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::vector<std::string> w =
      matching(summary_of(out)["input_warnings"], "model: link 'l_forearm' is not physically consistent");
  EXPECT_EQ(w.size(), 1u);
  EXPECT_NE(r.err.find("warning: model: link 'l_forearm'"), std::string::npos) << r.err;
}

TEST_F(BadInputCatalogue, RankDeficientProblemWithoutPriorIsOneLine) {
  // Both elbows held still in the oracle stream, which has no prior: the forearms' and upper arms'
  // parameters the elbows' motion separates are not determined.
  const std::string dir = scratch("still_elbows");
  fs::copy(data_, dir, fs::copy_options::recursive);
  edit_lines(dir + "/truth.csv", [](auto& lines) {
    std::vector<std::string> header;
    std::stringstream h(lines[0]);
    for (std::string f; std::getline(h, f, ',');) header.push_back(f);
    std::vector<std::string> first;
    std::stringstream f(lines[1]);
    for (std::string x; std::getline(f, x, ',');) first.push_back(x);
    for (std::size_t c = 0; c < header.size(); ++c) {
      const std::string& n = header[c];
      if (n.size() < 7 || (n.substr(n.size() - 7) != "l_elbow" && n.substr(n.size() - 7) != "r_elbow")) continue;
      for (std::size_t l = 1; l < lines.size(); ++l) set_field(lines, l, c, n.rfind("q.", 0) == 0 ? first[c] : "0");
    }
  });
  const std::string out = scratch("still_out");
  const Result r =
      run("identify inertial kid_humanoid " + dir + " --sensors contact --source truth --quiet --out " + out);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("the data do not determine all 150 parameters"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("forearm"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(BadInputCatalogue, NanInTheStreamsOfIzmp) {
  const std::string dir = with_stream("izmp_nan", "imu.csv", [](auto& lines) { set_field(lines, 12, 1, "nan"); });
  const std::string out = scratch("izmp_nan_out");
  const Result r = run("izmp kid_humanoid " + dir + " --angular-acceleration gyro --quiet --out " + out);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("imu.csv: line 13: 'nan' is not a finite number"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(out));
}

TEST(BadInputCatalogueOtherCommands, NanInTheStreamsOfIdentifyStatic) {
  const std::string dir = scratch("static");
  ASSERT_EQ(run("simulate kid_humanoid --scenario static-poses --poses 7 --noise none --quiet --out " + dir).code, 0);
  std::vector<std::string> lines;
  {
    std::ifstream in(dir + "/plates.csv");
    for (std::string l; std::getline(in, l);) lines.push_back(l);
  }
  set_field(lines, 20, 3, "inf");
  {
    std::ofstream o(dir + "/plates.csv", std::ios::trunc);
    for (const std::string& l : lines) o << l << "\n";
  }
  const std::string out = scratch("static_out");
  const Result r = run("identify static kid_humanoid " + dir + " --total-mass 8 --out " + out);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("plates.csv: line 21: 'inf' is not a finite number"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(out));
}

TEST(BadInputCatalogueOtherCommands, ImportLogNamesNanAndTimeGaps) {
  const std::string log = scratch("log.csv"), map = scratch("map.yaml");
  auto write_log = [&](const std::string& bad_q, bool gap) {
    std::ofstream l(log);
    l << "stamp_ms;J1;T1\n";
    for (int k = 0; k < 200; ++k) {
      if (gap && k >= 100 && k < 150) continue;  // 100 ms without samples at 2 ms
      l << 2.0 * k << ";" << (k == 60 ? bad_q : std::to_string(0.5 * k)) << ";1.0\n";
    }
  };
  std::ofstream(map)
      << "time: {column: stamp_ms, unit: ms}\nrate_hz: 500\njoints:\n  a1: {q: J1, tau: T1, q_unit: deg}\n";
  write_log("nan", false);
  const std::string out = scratch("log_out");
  const Result bad = run("import log " + log + " --map " + map + " --model arm7 --out " + out);
  EXPECT_EQ(bad.code, 1) << bad.err;
  EXPECT_NE(bad.err.find("is empty or not finite"), std::string::npos) << bad.err;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  EXPECT_FALSE(fs::exists(out));

  write_log("30", true);
  const Result gap = run("import log " + log + " --map " + map + " --model arm7 --out " + out);
  ASSERT_EQ(gap.code, 0) << gap.err;
  EXPECT_NE(gap.err.find("warning: time gap: "), std::string::npos) << gap.err;
  EXPECT_NE(gap.err.find("log.csv has no samples for 0.1020 s after log time 0.1980 s"), std::string::npos) << gap.err;
  EXPECT_NE(gap.out.find("\"warnings\": [\n    \"time gap: "), std::string::npos) << gap.out;  // import.json
  write_log("30", false);
  const Result even = run("import log " + log + " --map " + map + " --model arm7 --out " + scratch("log_even"));
  ASSERT_EQ(even.code, 0) << even.err;
  EXPECT_EQ(even.err.find("time gap"), std::string::npos) << even.err;
}

TEST(BadInputCatalogueOtherCommands, ServoLogThatNeverMovesOrHoldsInfIsOneLine) {
  const std::string logs = scratch("servo_logs");
  fs::create_directories(logs);
  {
    std::ofstream f(logs + "/servo.csv");
    f << "time,l_hip_pitch.q_cmd,l_hip_pitch.q,l_hip_pitch.supply_voltage\n";
    for (int i = 0; i < 2000; ++i) f << i * 1e-3 << "," << 0.3 * std::sin(i * 1e-2) << ",0.1,14.8\n";
  }
  const std::string out = scratch("servo_out");
  const Result r = run("identify actuator servo_bench --joint l_hip_pitch --logs " + logs + " --out " + out);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("'l_hip_pitch.q' spans 0.000000 rad (less than 0.1 degree): the servo never moves"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(out));

  // The same log moving, with one position written as inf: refused by the stream reader.
  {
    std::ofstream f(logs + "/servo.csv");
    f << "time,l_hip_pitch.q_cmd,l_hip_pitch.q,l_hip_pitch.supply_voltage\n";
    for (int i = 0; i < 2000; ++i)
      f << i * 1e-3 << "," << 0.3 * std::sin(i * 1e-2) << ","
        << (i == 700 ? "inf" : std::to_string(0.3 * std::sin(i * 1e-2))) << ",14.8\n";
  }
  const Result inf = run("identify actuator servo_bench --joint l_hip_pitch --logs " + logs + " --out " + out);
  EXPECT_EQ(inf.code, 1) << inf.err;
  EXPECT_NE(inf.err.find("servo.csv: line 702: 'inf' is not a finite number"), std::string::npos) << inf.err;
  EXPECT_EQ(std::count(inf.err.begin(), inf.err.end(), '\n'), 1) << inf.err;
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
