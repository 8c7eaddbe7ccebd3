#include "dynid/io/log_import.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>

#include "dynid/core/atomic_file.hpp"
#include "dynid/core/number_format.hpp"
#include "dynid/core/staged_directory.hpp"
#include "dynid/io/csv_stream.hpp"

namespace dynid {
namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw std::runtime_error(where + ": " + what);
}

std::string text(const YAML::Node& n, const std::string& where, const std::string& key) {
  if (!n.IsScalar()) fail(where, "'" + key + "' must be a single value");
  return n.as<std::string>();
}

double number(const YAML::Node& n, const std::string& where, const std::string& key) {
  try {
    if (n.IsScalar()) {
      const double x = n.as<double>();
      if (std::isfinite(x)) return x;
    }
  } catch (const YAML::Exception&) {
  }
  fail(where, "'" + key + "' must be a finite number");
}

/// Scale of a position unit to SI (rad for revolute, m for prismatic joints).
double position_scale(const std::string& unit, bool prismatic, const std::string& where) {
  if (!prismatic && unit == "rad") return 1.0;
  if (!prismatic && unit == "deg") return M_PI / 180.0;
  if (prismatic && unit == "m") return 1.0;
  if (prismatic && unit == "mm") return 1e-3;
  fail(where, "q_unit '" + unit + "' is not " + (prismatic ? "m or mm (prismatic joint)" : "rad or deg"));
}

double time_scale(const std::string& unit, const std::string& where) {
  if (unit == "s") return 1.0;
  if (unit == "ms") return 1e-3;
  if (unit == "us") return 1e-6;
  if (unit == "ns") return 1e-9;
  fail(where, "time unit '" + unit + "' is not s, ms, us or ns");
}

std::vector<std::string> split(const std::string& line, char delimiter) {
  std::vector<std::string> out;
  if (delimiter == ' ') {
    std::istringstream in(line);
    for (std::string f; in >> f;) out.push_back(f);
    return out;
  }
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, delimiter)) out.push_back(field);
  if (!line.empty() && line.back() == delimiter) out.push_back("");
  for (std::string& f : out) {  // trim blanks and quotes around names
    const auto a = f.find_first_not_of(" \t\r\""), b = f.find_last_not_of(" \t\r\"");
    f = a == std::string::npos ? "" : f.substr(a, b - a + 1);
  }
  return out;
}

}  // namespace

namespace {

/// The next line of a log that is neither empty nor a '#' comment (a trailing CR dropped), counting
/// the lines read in `number`; false at the end.
bool next_content_line(std::istream& in, std::string& line, long& number) {
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line[first] != '#') return true;
  }
  return false;
}

LogMap parse_log_map(const std::string& path, const Model& model) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    fail(path, "cannot open the map file");
  } catch (const YAML::Exception& e) {
    fail(path, "malformed YAML at line " + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  if (!root.IsMap()) fail(path, "the map file must be a YAML mapping (time, joints)");
  static const std::set<std::string> known = {"time", "rate_hz", "window", "joints", "stacked"};
  for (const auto& kv : root)
    if (!known.count(kv.first.as<std::string>()))
      fail(path, "unknown key '" + kv.first.as<std::string>() + "' (time, rate_hz, window, joints, stacked)");
  LogMap m;
  m.source_path = path;
  if (root["rate_hz"]) {
    m.rate_hz = number(root["rate_hz"], path, "rate_hz");
    if (!(m.rate_hz > 0.0)) fail(path, "'rate_hz' must be positive");
  }
  if (const YAML::Node t = root["time"]) {
    if (!t.IsMap() || !t["column"]) fail(path, "'time' must be {column: NAME[, unit: s|ms|us|ns]}");
    m.time_column = text(t["column"], path, "time.column");
    if (t["unit"]) m.time_scale = time_scale(text(t["unit"], path, "time.unit"), path);
  } else if (m.rate_hz <= 0.0) {
    fail(path, "neither 'time: {column: ...}' nor 'rate_hz': the log's time is unknown");
  }
  if (const YAML::Node w = root["window"]) {
    if (!w.IsSequence() || w.size() != 2) fail(path, "'window' must be [from, to] in seconds");
    m.from_s = number(w[0], path, "window");
    m.to_s = number(w[1], path, "window");
    if (!(m.from_s < m.to_s)) fail(path, "'window' must be [from, to] with from < to");
  }
  if (const YAML::Node st = root["stacked"]) {
    const std::string form = "'stacked' must list {file: NAME, columns: [COLUMN, ...]}";
    if (!st.IsSequence() || st.size() == 0) fail(path, form);
    std::set<std::string> seen;
    for (const YAML::Node& f : st) {
      if (!f.IsMap() || !f["file"] || !f["columns"] || !f["columns"].IsSequence() || f["columns"].size() == 0)
        fail(path, form);
      StackedLogFile file;
      file.file = text(f["file"], path, "stacked.file");
      for (const YAML::Node& c : f["columns"]) {
        file.columns.push_back(text(c, path, "stacked.columns"));
        if (!seen.insert(file.columns.back()).second)
          fail(path, "stacked: column '" + file.columns.back() + "' named twice");
      }
      m.stacked.push_back(std::move(file));
    }
  }
  const YAML::Node joints = root["joints"];
  if (!joints || !joints.IsMap() || joints.size() == 0)
    fail(path, "'joints' must map joint names to their columns ({q: COLUMN, ...})");
  for (const auto& kv : joints) {
    LogJointMap j;
    j.joint = kv.first.as<std::string>();
    const std::string where = path + ": joint '" + j.joint + "'";
    const auto body = model.find_joint(j.joint);
    if (!body) fail(where, "is not a joint of " + model.label());
    const Body& b = model.bodies[static_cast<std::size_t>(*body)];
    if (b.joint_type == JointType::FreeFlyer) fail(where, "is the floating base, not a joint with a position column");
    const YAML::Node n = kv.second;
    if (!n.IsMap() || !n["q"]) fail(where, "needs at least {q: COLUMN}");
    static const std::set<std::string> keys = {"q", "dq", "tau", "q_unit", "tau_unit", "sign", "torque_constant"};
    for (const auto& f : n)
      if (!keys.count(f.first.as<std::string>()))
        fail(where,
             "unknown key '" + f.first.as<std::string>() + "' (q, dq, tau, q_unit, tau_unit, torque_constant, sign)");
    j.q = text(n["q"], where, "q");
    if (n["dq"]) j.dq = text(n["dq"], where, "dq");
    if (n["tau"]) j.tau = text(n["tau"], where, "tau");
    const bool prismatic = b.joint_type == JointType::Prismatic;
    j.q_scale = position_scale(n["q_unit"] ? text(n["q_unit"], where, "q_unit")
                               : prismatic ? "m"
                                           : "rad",
                               prismatic, where);
    const std::string tau_unit = n["tau_unit"] ? text(n["tau_unit"], where, "tau_unit") : "N m";
    if (tau_unit == "N m" || tau_unit == "Nm" || tau_unit == "N") {
      j.tau_scale = 1.0;
    } else if (tau_unit == "A") {
      if (!n["torque_constant"])
        fail(where, "tau_unit A needs torque_constant [N m/A at the joint: motor constant x gear ratio]");
      j.tau_scale = number(n["torque_constant"], where, "torque_constant");
    } else {
      fail(where, "tau_unit '" + tau_unit + "' is not N m or A");
    }
    if (n["sign"]) {
      j.sign = number(n["sign"], where, "sign");
      if (j.sign != 1.0 && j.sign != -1.0) fail(where, "sign must be 1 or -1");
    }
    for (const LogJointMap& other : m.joints)
      if (other.joint == j.joint) fail(where, "is mapped twice");
    m.joints.push_back(j);
  }
  return m;
}

}  // namespace

LogMap read_log_map(const std::string& path, const Model& model) {
  // What yaml-cpp throws past the checks of parse_log_map (a key that is a list or a mapping, ...)
  // is also one line naming the file.
  try {
    return parse_log_map(path, model);
  } catch (const YAML::Exception& e) {
    fail(path, (e.mark.is_null() ? std::string() : "line " + std::to_string(e.mark.line + 1) + ": ") + e.msg);
  }
}

LogTable read_log_table(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the log");
  LogTable t;
  t.path = path;
  std::string line;
  long number_of_line = 0;
  char delimiter = 0;
  while (next_content_line(in, line, number_of_line)) {
    if (!delimiter) {
      delimiter = line.find(',') != std::string::npos ? ',' : line.find(';') != std::string::npos ? ';' : ' ';
      t.header = split(line, delimiter);
      std::set<std::string> seen;
      for (const std::string& h : t.header)
        if (!seen.insert(h).second) fail(path, "line " + std::to_string(number_of_line) + ": column '" + h + "' twice");
      continue;
    }
    const std::vector<std::string> fields = split(line, delimiter);
    if (fields.size() != t.header.size())
      fail(path, "line " + std::to_string(number_of_line) + ": " + std::to_string(fields.size()) +
                     " fields, the header has " + std::to_string(t.header.size()));
    std::vector<double> row(fields.size());
    for (std::size_t c = 0; c < fields.size(); ++c) {
      if (fields[c].empty()) {
        row[c] = std::nan("");
        continue;
      }
      std::size_t used = 0;
      try {
        row[c] = std::stod(fields[c], &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != fields[c].size())
        fail(path, "line " + std::to_string(number_of_line) + ": column '" + t.header[c] + "' is not a number ('" +
                       fields[c] + "')");
    }
    t.rows.push_back(std::move(row));
    t.line.push_back(number_of_line);
  }
  if (t.header.empty()) fail(path, "empty log (no header line)");
  if (t.rows.empty()) fail(path, "no data rows after the header");
  return t;
}

LogTable read_stacked_log_table(const std::string& dir, const std::vector<StackedLogFile>& files) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    fail(dir, "not a directory: a stacked log (the map's 'stacked') is the directory holding its files");
  LogTable t;
  t.path = dir;
  t.stacked = true;
  std::string first;
  for (const StackedLogFile& f : files) {
    const std::string path = (fs::path(dir) / f.file).string();
    std::ifstream in(path);
    if (!in) fail(path, "cannot open this file of the stacked log");
    std::vector<double> values;
    std::string line;
    long number_of_line = 0;
    while (next_content_line(in, line, number_of_line)) {
      const auto a = line.find_first_not_of(" \t");
      const std::string field = line.substr(a, line.find_last_not_of(" \t") + 1 - a);
      std::size_t used = 0;
      double v = 0.0;
      try {
        v = std::stod(field, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != field.size())
        fail(path, "line " + std::to_string(number_of_line) + ": '" + field + "' is not one number (a stacked log " +
                       "has one value per line)");
      values.push_back(v);
    }
    const std::size_t k = f.columns.size();
    if (values.empty()) fail(path, "no values");
    if (values.size() % k != 0)
      fail(path, std::to_string(values.size()) + " values, not a whole number of samples of " + std::to_string(k) +
                     " (its columns in the map)");
    const std::size_t samples = values.size() / k;
    if (t.rows.empty()) {
      t.rows.assign(samples, {});
      for (std::size_t r = 0; r < samples; ++r) t.line.push_back(static_cast<long>(r + 1));
      first = path;
    } else if (samples != t.rows.size()) {
      fail(path, std::to_string(samples) + " samples, " + first + " has " + std::to_string(t.rows.size()));
    }
    for (std::size_t r = 0; r < samples; ++r)
      t.rows[r].insert(t.rows[r].end(), values.begin() + static_cast<long>(r * k),
                       values.begin() + static_cast<long>((r + 1) * k));
    t.header.insert(t.header.end(), f.columns.begin(), f.columns.end());
  }
  return t;
}

LogSeries read_log_series(const Model& model, const LogMap& map, const std::string& log_path) {
  if (!(map.from_s < map.to_s)) throw std::invalid_argument("the time window is empty (from >= to)");
  const LogTable log = map.stacked.empty() ? read_log_table(log_path) : read_stacked_log_table(log_path, map.stacked);
  const auto at_row = [&](std::size_t r) { return (log.stacked ? "sample " : "line ") + std::to_string(log.line[r]); };
  auto column = [&](const std::string& name, const std::string& what) {
    const auto it = std::find(log.header.begin(), log.header.end(), name);
    if (it == log.header.end()) fail(log_path, "no column '" + name + "' (" + what + " in " + map.source_path + ")");
    return static_cast<std::size_t>(it - log.header.begin());
  };
  // Columns first, so a map naming what the log lacks fails before anything is read further.
  const std::size_t time_col = map.time_column.empty() ? 0 : column(map.time_column, "time.column");
  struct Columns {
    std::size_t q = 0, dq = 0, tau = 0;
  };
  std::vector<Columns> cols;
  bool any_dq = false, any_tau = false;
  for (const LogJointMap& j : map.joints) {
    Columns c;
    c.q = column(j.q, "joints." + j.joint + ".q");
    if (!j.dq.empty()) c.dq = column(j.dq, "joints." + j.joint + ".dq");
    if (!j.tau.empty()) c.tau = column(j.tau, "joints." + j.joint + ".tau");
    any_dq = any_dq || !j.dq.empty();
    any_tau = any_tau || !j.tau.empty();
    cols.push_back(c);
  }
  for (const LogJointMap& j : map.joints) {
    if (any_dq && j.dq.empty()) fail(map.source_path, "joint '" + j.joint + "' has no dq while others have");
    if (any_tau && j.tau.empty()) fail(map.source_path, "joint '" + j.joint + "' has no tau while others have");
  }

  // Time stamps: strictly increasing, finite; the window selects the rows.
  LogSeries series;
  std::vector<std::size_t> rows;
  double previous = -std::numeric_limits<double>::infinity();
  for (std::size_t r = 0; r < log.rows.size(); ++r) {
    const double t =
        map.time_column.empty() ? static_cast<double>(r) / map.rate_hz : map.time_scale * log.rows[r][time_col];
    if (!std::isfinite(t)) fail(log_path, at_row(r) + ": column '" + map.time_column + "' is empty");
    if (!(t > previous))
      fail(log_path, at_row(r) + ": time " + std::to_string(t) + " s is not after the previous " +
                         std::to_string(previous) + " s (column '" + map.time_column + "' must increase)");
    previous = t;
    if (t < map.from_s || t > map.to_s) continue;
    for (std::size_t j = 0; j < map.joints.size(); ++j) {
      const auto check = [&](std::size_t c) {
        if (!std::isfinite(log.rows[r][c]))
          fail(log_path, at_row(r) + ": column '" + log.header[c] + "' of joint '" + map.joints[j].joint +
                             "' is empty or not finite");
      };
      check(cols[j].q);
      if (any_dq) check(cols[j].dq);
      if (any_tau) check(cols[j].tau);
    }
    series.time.push_back(t);
    rows.push_back(r);
  }
  if (series.time.size() < 3) fail(log_path, "fewer than 3 rows in the time window");

  // The rate: the map's, else the median stamp interval's (rounded to 0.1 % of itself).
  const std::vector<double>& time = series.time;
  std::vector<double> intervals;
  for (std::size_t k = 1; k < time.size(); ++k) intervals.push_back(time[k] - time[k - 1]);
  std::vector<double> sorted = intervals;
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<long>(sorted.size() / 2), sorted.end());
  const double median = sorted[sorted.size() / 2];
  series.rate_hz = map.rate_hz > 0.0 ? map.rate_hz : 1.0 / median;
  if (map.rate_hz <= 0.0) {
    const double step = std::pow(10.0, std::floor(std::log10(series.rate_hz)) - 2);
    series.rate_hz = std::round(series.rate_hz / step) * step;
  }
  const double period = 1.0 / series.rate_hz;
  double sq = 0.0;
  for (double d : intervals) {
    sq += (d - period) * (d - period);
    series.jitter_max_s = std::max(series.jitter_max_s, std::abs(d - period));
  }
  series.jitter_rms_s = std::sqrt(sq / static_cast<double>(intervals.size()));

  // The model's units and signs at the log's own stamps.
  const auto n = static_cast<Eigen::Index>(rows.size()), joints = static_cast<Eigen::Index>(map.joints.size());
  series.q.resize(joints, n);
  if (any_dq) series.dq.resize(joints, n);
  if (any_tau) series.tau.resize(joints, n);
  for (const LogJointMap& j : map.joints) {
    series.joints.push_back(j.joint);
    series.prismatic.push_back(model.bodies[static_cast<std::size_t>(*model.find_joint(j.joint))].joint_type ==
                               JointType::Prismatic);
  }
  for (Eigen::Index r = 0; r < n; ++r)
    for (Eigen::Index j = 0; j < joints; ++j) {
      const LogJointMap& m = map.joints[static_cast<std::size_t>(j)];
      const std::vector<double>& row = log.rows[rows[static_cast<std::size_t>(r)]];
      const Columns& c = cols[static_cast<std::size_t>(j)];
      series.q(j, r) = m.sign * m.q_scale * row[c.q] + 0.0;  // + 0: no "-0" for a flipped zero
      if (any_dq) series.dq(j, r) = m.sign * m.q_scale * row[c.dq];
      if (any_tau) series.tau(j, r) = m.sign * m.tau_scale * row[c.tau];
    }
  return series;
}

void LogSeries::sample(double t, Eigen::Ref<Eigen::VectorXd> q_out, Eigen::Ref<Eigen::VectorXd> dq_out,
                       Eigen::Ref<Eigen::VectorXd> tau_out) const {
  // The bracketing rows by bisection; outside the log the end row is held.
  const auto it = std::upper_bound(time.begin(), time.end(), t);
  const std::size_t k1 = std::clamp<std::size_t>(static_cast<std::size_t>(it - time.begin()), 1, time.size() - 1);
  const std::size_t k0 = k1 - 1;
  const double w = std::clamp((t - time[k0]) / (time[k1] - time[k0]), 0.0, 1.0);
  const auto a = static_cast<Eigen::Index>(k0), b = static_cast<Eigen::Index>(k1);
  q_out = (1.0 - w) * q.col(a) + w * q.col(b);
  if (has_velocities()) dq_out = (1.0 - w) * dq.col(a) + w * dq.col(b);
  if (has_torques()) tau_out = (1.0 - w) * tau.col(a) + w * tau.col(b);
}

LogStreamFiles write_log_streams(const std::vector<LogStreamSegment>& segments, const std::string& dir) {
  if (segments.empty()) throw std::invalid_argument("write_log_streams: no segment");
  const LogSeries& first = *segments.front().series;
  for (const LogStreamSegment& s : segments)
    if (s.series->joints != first.joints || s.series->has_velocities() != first.has_velocities() ||
        s.series->has_torques() != first.has_torques() || s.log_time.size() != s.stamps.size())
      throw std::invalid_argument("write_log_streams: segments of different logs or channels");
  std::vector<Channel> enc, vel, tau;
  for (std::size_t j = 0; j < first.joints.size(); ++j) {
    const bool prismatic = first.prismatic[j];
    enc.push_back({"q." + first.joints[j], prismatic ? "m" : "rad"});
    vel.push_back({"v." + first.joints[j], prismatic ? "m/s" : "rad/s"});
    tau.push_back({"tau." + first.joints[j], prismatic ? "N" : "N m"});
  }
  CsvStreamWriter enc_csv(dir + "/encoders.csv", enc, 12);
  std::unique_ptr<CsvStreamWriter> vel_csv, tau_csv;
  if (first.has_velocities()) vel_csv = std::make_unique<CsvStreamWriter>(dir + "/velocities.csv", vel, 12);
  if (first.has_torques()) tau_csv = std::make_unique<CsvStreamWriter>(dir + "/torques.csv", tau, 12);
  const auto joints = static_cast<Eigen::Index>(first.joints.size());
  Eigen::VectorXd q(joints), dq(joints), t(joints);
  std::vector<double> row(first.joints.size());
  auto write = [&](CsvStreamWriter& out, const Eigen::VectorXd& values, double stamp) {
    for (Eigen::Index j = 0; j < joints; ++j) row[static_cast<std::size_t>(j)] = values[j] + 0.0;
    out.write(stamp, row);
  };
  LogStreamFiles files;
  for (const LogStreamSegment& segment : segments)
    for (std::size_t s = 0; s < segment.log_time.size(); ++s) {
      segment.series->sample(segment.log_time[s], q, dq, t);
      write(enc_csv, q, segment.stamps[s]);
      if (vel_csv) write(*vel_csv, dq, segment.stamps[s]);
      if (tau_csv) write(*tau_csv, t, segment.stamps[s]);
      ++files.samples;
    }
  enc_csv.close();
  if (vel_csv) vel_csv->close();
  if (tau_csv) tau_csv->close();
  files.streams.emplace_back("encoders", "encoders.csv");
  if (tau_csv) files.streams.emplace_back("torques", "torques.csv");
  if (vel_csv) files.streams.emplace_back("velocities", "velocities.csv");
  return files;
}

std::string log_time_gap_warning(const LogSeries& series, const std::string& log_path, double from, double to) {
  const double period = 1.0 / series.rate_hz;
  double longest = 0.0, after = 0.0;
  for (std::size_t k = 1; k < series.time.size(); ++k)
    if (series.time[k] > from && series.time[k - 1] < to && series.time[k] - series.time[k - 1] > longest) {
      longest = series.time[k] - series.time[k - 1];
      after = series.time[k - 1];
    }
  if (!(longest > 5.0 * period)) return {};
  return "time gap: " + log_path + " has no samples for " + format_fixed(longest, 4) + " s after log time " +
         format_fixed(after, 4) + " s (more than 5 of its periods, " + format_fixed(5.0 * period, 4) +
         " s): the data set interpolates across it";
}

LogImportResult import_log(const Model& model, const LogImportOptions& options) {
  LogMap map = read_log_map(options.map_path, model);
  if (!std::isnan(options.from_s)) map.from_s = options.from_s;
  if (!std::isnan(options.to_s)) map.to_s = options.to_s;
  const LogSeries series = read_log_series(model, map, options.log_path);
  LogImportResult result;
  result.rate_hz = series.rate_hz;
  result.jitter_rms_s = series.jitter_rms_s;
  result.jitter_max_s = series.jitter_max_s;
  result.rows_read = static_cast<long>(series.time.size());
  result.start_s = series.time.front();
  const std::string gap = log_time_gap_warning(series, options.log_path, series.time.front(), series.time.back());
  if (!gap.empty()) result.warnings.push_back(gap);

  // Resampled at start + k / rate by linear interpolation between the bracketing log rows; stamps
  // relative to the window's first row: a data set starts at its first sample.
  const double period = 1.0 / result.rate_hz;
  const long samples =
      static_cast<long>(std::floor((series.time.back() - series.time.front()) * result.rate_hz + 1e-9)) + 1;
  result.samples = samples;
  result.duration_s = static_cast<double>(samples - 1) * period;
  LogStreamSegment all{&series, {}, {}};
  for (long s = 0; s < samples; ++s) {
    all.stamps.push_back(static_cast<double>(s) * period);
    all.log_time.push_back(series.time.front() + all.stamps.back());
  }
  StagedDirectory out(options.out_dir, "import log");
  const LogStreamFiles files = write_log_streams({all}, out.path());

  nlohmann::json d;
  d["format"] = "dynid-dataset";
  d["version"] = 1;
  d["robot"] = model.name;
  if (!options.model_path.empty()) d["model"] = fs::absolute(options.model_path).string();
  d["scenario"] = "imported log";
  d["gravity"] = {model.gravity.x(), model.gravity.y(), model.gravity.z()};
  d["velocity"] = "instant";
  for (const auto& [name, file] : files.streams)
    d["streams"][name] = {{"file", file}, {"rate_hz", series.rate_hz}, {"noise_free", false}};
  write_file_atomically(out.path() + "/dataset.json", d.dump(2) + "\n");
  nlohmann::json summary{{"log", fs::absolute(options.log_path).string()},
                         {"map", fs::absolute(options.map_path).string()},
                         {"rows_read", result.rows_read},
                         {"samples", result.samples},
                         {"rate_hz", result.rate_hz},
                         {"start_s", result.start_s},
                         {"duration_s", result.duration_s},
                         {"jitter_rms_s", result.jitter_rms_s},
                         {"jitter_max_s", result.jitter_max_s},
                         {"resampling", "linear interpolation onto start_s + k / rate_hz; stamps from 0"},
                         {"joints", map.joints.size()},
                         {"warnings", result.warnings}};
  result.summary_json = summary.dump(2) + "\n";
  write_file_atomically(out.path() + "/import.json", result.summary_json);
  out.commit();
  return result;
}

}  // namespace dynid
