// `dynid import log`: a controller's log as it comes (jittered stamps, degrees, its own column
// names, a joint counted the other way, CSV or whitespace text) becomes the data set dynid's
// simulator writes for the same motion; a map that does not fit the log or the model is one line
// naming the column or joint.

#include "dynid/io/log_import.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "dynid/ident/fourier_trajectory.hpp"
#include "dynid/io/csv_stream.hpp"
#include "dynid/model/robot.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/scratch_files.hpp"

namespace dynid {
namespace {

namespace fs = std::filesystem;

const Robot& arm7() {
  static const Robot robot = load_robot(std::string(DYNID_MODELS_DIR) + "/arm7.urdf");
  return robot;
}

/// A 3 s noise-free excitation of the bundled arm by dynid simulate (a fixed Fourier trajectory,
/// no design), shared by the tests here.
const std::string& simulated_arm_data() {
  static const std::string dir = [] {
    const std::string root = test::fresh_dir("log_import", "simulated");
    fs::create_directories(root);
    FourierTrajectory traj;
    traj.base_frequency_hz = 0.25;
    traj.joints = {"a1", "a2", "a3", "a4", "a5", "a6", "a7"};
    traj.q0 = VectorX::Zero(7);
    traj.q0 << 0.2, 0.4, -0.3, -0.8, 0.1, 0.5, 0.0;
    traj.a = MatrixX::Zero(7, 2);
    traj.b = MatrixX::Zero(7, 2);
    for (int j = 0; j < 7; ++j) {
      traj.a(j, 0) = 0.25 + 0.03 * j;
      traj.b(j, 1) = 0.2 - 0.02 * j;
    }
    std::ofstream(root + "/traj.json") << to_json(traj, 4.0, 100.0, {}).dump();
    ScenarioOptions o;
    o.scenario = "excite";
    o.motion = root + "/traj.json";
    o.duration_s = 3.0;
    o.noise = NoiseLevel::None;
    o.out_dir = root + "/data";
    run_scenario(arm7(), o);
    return o.out_dir;
  }();
  return dir;
}

/// Largest |second difference| / h^2 of each column of a stream (an estimate of max |f''|).
std::vector<double> max_curvature(const CsvStream& s) {
  std::vector<double> out(s.header.size(), 0.0);
  for (Eigen::Index c = 1; c < s.values.cols(); ++c)
    for (Eigen::Index r = 1; r + 1 < s.values.rows(); ++r) {
      const double h = s.values(r + 1, 0) - s.values(r, 0);
      out[static_cast<std::size_t>(c)] =
          std::max(out[static_cast<std::size_t>(c)],
                   std::abs(s.values(r + 1, c) - 2 * s.values(r, c) + s.values(r - 1, c)) / (h * h));
    }
  return out;
}

/// The simulated streams as a drive controller might log them: stamps jittered by up to 0.3 ms
/// (values interpolated at the jittered stamps, first and last exact), positions in degrees,
/// columns named pos_N / trq_N in another order plus a status column, joint a2 counted the other
/// way. Returns the largest stamp interval [s].
double write_log(const std::string& data, const std::string& path) {
  const CsvStream enc = read_csv_stream(data + "/encoders.csv");
  const CsvStream tau = read_csv_stream(data + "/torques.csv");
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> jitter(-3e-4, 3e-4);
  std::ofstream out(path);
  out << "# exported by the drive controller\nstatus,t";
  for (int j = 7; j >= 1; --j) out << ",trq_" << j << ",pos_" << j;
  out << "\n";
  out.precision(17);
  const Eigen::Index n = enc.values.rows();
  const double t0 = enc.values(0, 0), h = enc.values(1, 0) - t0;
  double largest = 0.0, previous = t0;
  for (Eigen::Index r = 0; r < n; ++r) {
    const double t = r == 0 || r == n - 1 ? enc.values(r, 0) : enc.values(r, 0) + jitter(rng);
    largest = std::max(largest, t - previous);
    previous = t;
    // Linear interpolation of the 1 kHz streams at t: exact for the data between two samples.
    const Eigen::Index i = std::clamp<Eigen::Index>(static_cast<Eigen::Index>(std::floor((t - t0) / h)), 0, n - 2);
    const double w = (t - enc.values(i, 0)) / h;
    auto at = [&](const CsvStream& s, const std::string& name) {
      const Eigen::Index c = s.column(name);
      return (1.0 - w) * s.values(i, c) + w * s.values(i + 1, c);
    };
    out << 3 << "," << t;
    for (int j = 7; j >= 1; --j) {
      const std::string joint = "a" + std::to_string(j);
      const double sign = j == 2 ? -1.0 : 1.0;
      out << "," << sign * at(tau, "tau." + joint) << "," << sign * at(enc, "q." + joint) * 180.0 / M_PI;
    }
    out << "\n";
  }
  return largest;
}

std::string write_map(const std::string& path, const std::string& extra_joint = "") {
  std::ofstream m(path);
  m << "time: {column: t}\nrate_hz: 1000\njoints:\n";
  for (int j = 1; j <= 7; ++j)
    m << "  a" << j << ": {q: pos_" << j << ", tau: trq_" << j << ", q_unit: deg, tau_unit: N m"
      << (j == 2 ? ", sign: -1" : "") << "}\n";
  m << extra_joint;
  return path;
}

TEST(LogImport, JitteredDegreesRenamedFlippedLogGivesTheSimulatorsDataSet) {
  const std::string& data = simulated_arm_data();
  const std::string root = test::fresh_dir("log_import", "roundtrip");
  fs::create_directories(root);
  const double largest_interval = write_log(data, root + "/log.csv");
  LogImportOptions o;
  o.log_path = root + "/log.csv";
  o.map_path = write_map(root + "/map.yaml");
  o.out_dir = root + "/imported";
  const LogImportResult r = import_log(arm7().model, o);
  EXPECT_DOUBLE_EQ(r.rate_hz, 1000.0);
  EXPECT_GT(r.jitter_max_s, 2e-4);  // the log's jitter is reported
  EXPECT_LT(r.jitter_max_s, 6e-4);
  // Same streams, same grid, same values up to linear interpolation over the log's intervals: the
  // log's values lie on the piecewise-linear interpolant of the 1 kHz samples, whose kinks (slope
  // change h |f''|) the import's interpolation over an interval of at most `largest` cuts by at most
  // h |f''| largest / 4 each, two kinks at most per interval.
  for (const char* stream : {"encoders", "torques"}) {
    const CsvStream expected = read_csv_stream(data + "/" + stream + ".csv");
    const CsvStream got = read_csv_stream(o.out_dir + "/" + stream + ".csv");
    ASSERT_EQ(got.values.rows(), expected.values.rows()) << stream;
    ASSERT_EQ(got.header.size(), expected.header.size()) << stream;
    const std::vector<double> curvature = max_curvature(expected);
    for (std::size_t c = 1; c < expected.header.size(); ++c) {
      const Eigen::Index gc = got.column(expected.header[c]);
      const double h = expected.values(1, 0) - expected.values(0, 0);
      const double scale = expected.values.col(static_cast<Eigen::Index>(c)).cwiseAbs().maxCoeff();
      const double bound = 0.5 * h * largest_interval * curvature[c] + 1e-10 * (1.0 + scale);
      double worst = 0.0;
      for (Eigen::Index k = 0; k < got.values.rows(); ++k) {
        EXPECT_NEAR(got.values(k, 0), expected.values(k, 0) - expected.values(0, 0), 1e-9);
        worst = std::max(worst, std::abs(got.values(k, gc) - expected.values(k, static_cast<Eigen::Index>(c))));
      }
      EXPECT_LT(worst, bound) << stream << " " << expected.header[c];
    }
  }
  const nlohmann::json d = nlohmann::json::parse(std::ifstream(o.out_dir + "/dataset.json"));
  EXPECT_EQ(d["format"], "dynid-dataset");
  EXPECT_DOUBLE_EQ(d["streams"]["encoders"]["rate_hz"].get<double>(), 1000.0);
  EXPECT_TRUE(d["streams"].contains("torques"));
  EXPECT_FALSE(d["streams"]["torques"]["noise_free"].get<bool>());
}

/// The message of the exception `f` throws ("" when it does not throw).
template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

/// The whole text of a file.
std::string file_text(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), {}};
}

// A stacked log (the map's `stacked`: several files of one value per line, as the Panda log of
// docs/identification.md, "A real arm's log", was published): the table above written as three such
// files — time, the seven positions of each sample, the seven torques — imports to the same data set
// as the table itself, byte for byte; files that do not hold whole samples, or disagree on their
// count, and a LOG that is not a directory fail with one line naming the file.
TEST(LogImport, StackedFilesGiveTheTablesDataSet) {
  const std::string& data = simulated_arm_data();
  const std::string root = test::fresh_dir("log_import", "stacked");
  fs::create_directories(root + "/log");
  write_log(data, root + "/log.csv");
  const LogTable table = read_log_table(root + "/log.csv");
  auto col = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(table.header.begin(), table.header.end(), name) - table.header.begin());
  };
  {
    std::ofstream t(root + "/log/time.txt"), q(root + "/log/q.txt"), tau(root + "/log/tau.txt");
    for (auto* f : {&t, &q, &tau}) f->precision(17);
    q << "# positions, seven lines per sample\n";
    for (const std::vector<double>& row : table.rows) {
      t << row[col("t")] << "\n";
      for (int j = 1; j <= 7; ++j) {
        q << row[col("pos_" + std::to_string(j))] << "\n";
        tau << " " << row[col("trq_" + std::to_string(j))] << " \r\n";  // spaces and CRLF tolerated
      }
    }
  }
  std::string columns_q, columns_tau;
  for (int j = 1; j <= 7; ++j) {
    columns_q += std::string(j > 1 ? ", " : "") + "pos_" + std::to_string(j);
    columns_tau += std::string(j > 1 ? ", " : "") + "trq_" + std::to_string(j);
  }
  const std::string stacked = "stacked:\n  - {file: time.txt, columns: [t]}\n  - {file: q.txt, columns: [" + columns_q +
                              "]}\n  - {file: tau.txt, columns: [" + columns_tau + "]}\n";
  LogImportOptions o;
  o.log_path = root + "/log.csv";
  o.map_path = write_map(root + "/map.yaml");
  o.out_dir = root + "/from_table";
  import_log(arm7().model, o);
  o.log_path = root + "/log";
  o.map_path = write_map(root + "/stacked.yaml");
  std::ofstream(o.map_path, std::ios::app) << stacked;
  o.out_dir = root + "/from_stacked";
  const LogImportResult r = import_log(arm7().model, o);
  EXPECT_EQ(r.samples, static_cast<long>(table.rows.size()));
  for (const char* stream : {"encoders.csv", "torques.csv"})
    EXPECT_EQ(file_text(root + "/from_stacked/" + stream), file_text(root + "/from_table/" + stream)) << stream;

  // Bad stacked logs: one line naming the file, nothing written.
  std::ofstream(root + "/log/short.txt") << "1\n2\n3\n";
  auto refused = [&](const std::string& map_text, const std::string& log, const std::string& fragment) {
    LogImportOptions b;
    b.log_path = log;
    b.map_path = write_map(root + "/bad.yaml");
    std::ofstream(b.map_path, std::ios::app) << map_text;
    b.out_dir = root + "/bad_out";
    const std::string why = error_of([&] { import_log(arm7().model, b); });
    EXPECT_NE(why.find(fragment), std::string::npos) << why;
    EXPECT_EQ(why.find('\n'), std::string::npos) << why;
    EXPECT_FALSE(fs::exists(b.out_dir));
  };
  refused("stacked:\n  - {file: short.txt, columns: [t, pos_1]}\n", root + "/log",
          "short.txt: 3 values, not a whole number of samples of 2");
  refused(stacked + "  - {file: short.txt, columns: [extra]}\n", root + "/log", "short.txt: 3 samples, ");
  refused(stacked, root + "/log.csv", "not a directory");
  refused("stacked:\n  - {file: missing.txt, columns: [t]}\n", root + "/log", "missing.txt: cannot open");
  refused("stacked: [t]\n", root + "/log", "'stacked' must list");
}

TEST(LogImport, WhitespaceTextLogWithRateAndWindow) {
  const std::string root = test::fresh_dir("log_import", "text");
  fs::create_directories(root);
  {
    std::ofstream log(root + "/log.txt");
    log << "# two joints of the arm, 100 Hz, no time column\nA   B   TA  TB\n";
    for (int k = 0; k < 50; ++k) log << 0.01 * k << "  " << -0.02 * k << "  " << 2.0 * k << "  " << 0.5 << "\n";
  }
  std::ofstream(root + "/map.yaml") << "rate_hz: 100\nwindow: [0.1, 0.3]\njoints:\n"
                                       "  a1: {q: A, tau: TA, tau_unit: A, torque_constant: 0.5}\n"
                                       "  a4: {q: B, tau: TB}\n";
  LogImportOptions o;
  o.log_path = root + "/log.txt";
  o.map_path = root + "/map.yaml";
  o.out_dir = root + "/out";
  const LogImportResult r = import_log(arm7().model, o);
  EXPECT_EQ(r.samples, 21);  // rows 10 .. 30
  EXPECT_NEAR(r.jitter_max_s, 0.0, 1e-12);
  const CsvStream enc = read_csv_stream(o.out_dir + "/encoders.csv");
  const CsvStream tau = read_csv_stream(o.out_dir + "/torques.csv");
  for (Eigen::Index k = 0; k < enc.values.rows(); ++k) {
    EXPECT_NEAR(enc.values(k, enc.column("q.a1")), 0.01 * (k + 10), 1e-12);
    EXPECT_NEAR(enc.values(k, enc.column("q.a4")), -0.02 * (k + 10), 1e-12);
    EXPECT_NEAR(tau.values(k, tau.column("tau.a1")), 0.5 * 2.0 * (k + 10), 1e-9);  // amperes x N m/A
  }
}

TEST(LogImport, BadMapsAndLogsFailWithOneLineNamingTheColumnOrJoint) {
  const std::string root = test::fresh_dir("log_import", "bad");
  fs::create_directories(root);
  std::ofstream(root + "/log.csv") << "t,pos_1,trq_1\n0,0,0\n0.001,0.1,1\n0.002,0.2,2\n0.002,0.3,3\n";
  LogImportOptions o;
  o.log_path = root + "/log.csv";
  o.out_dir = root + "/out";
  auto with_map = [&](const std::string& map) {
    std::ofstream(root + "/map.yaml") << map;
    o.map_path = root + "/map.yaml";
    return error_of([&] { import_log(arm7().model, o); });
  };
  const std::string unknown = with_map("time: {column: t}\njoints:\n  a9: {q: pos_1}\n");
  EXPECT_NE(unknown.find("joint 'a9'"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("not a joint of"), std::string::npos) << unknown;
  const std::string missing = with_map("time: {column: t}\njoints:\n  a1: {q: pos_1, tau: torque_1}\n");
  EXPECT_NE(missing.find("no column 'torque_1'"), std::string::npos) << missing;
  EXPECT_NE(missing.find("joints.a1.tau"), std::string::npos) << missing;
  const std::string no_time = with_map("time: {column: time}\njoints:\n  a1: {q: pos_1}\n");
  EXPECT_NE(no_time.find("no column 'time'"), std::string::npos) << no_time;
  const std::string backward = with_map("time: {column: t}\njoints:\n  a1: {q: pos_1, tau: trq_1}\n");
  EXPECT_NE(backward.find("line 5"), std::string::npos) << backward;
  EXPECT_NE(backward.find("column 't' must increase"), std::string::npos) << backward;
  const std::string unit = with_map("time: {column: t}\njoints:\n  a1: {q: pos_1, q_unit: grad}\n");
  EXPECT_NE(unit.find("q_unit 'grad'"), std::string::npos) << unit;
  // A key that is a list: yaml-cpp's conversion error, with the file and line.
  const std::string list_key = with_map("time: {column: t}\n? [a1]\n: {q: pos_1}\n");
  EXPECT_EQ(list_key.rfind(o.map_path + ": line 2: bad conversion", 0), 0u) << list_key;
  const std::string list_field = with_map("time: {column: t}\njoints:\n  a1: {q: pos_1, ? [x] : y}\n");
  EXPECT_EQ(list_field.rfind(o.map_path + ": line 3: bad conversion", 0), 0u) << list_field;
  for (const std::string& e : {unknown, missing, no_time, backward, unit, list_key, list_field})
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  EXPECT_FALSE(fs::exists(o.out_dir));  // nothing written on failure
}

}  // namespace
}  // namespace dynid
