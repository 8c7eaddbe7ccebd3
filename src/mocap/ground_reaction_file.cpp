#include "dynid/mocap/ground_reaction_file.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "file_bytes.hpp"

namespace dynid {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// Fields split on tabs and blanks (OpenSim pads with blanks; rows may end with a tab).
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string f; in >> f;) out.push_back(f);
  return out;
}

class StorageParser {
 public:
  StorageParser(const std::string& text, std::string label) : label_(std::move(label)) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines_.push_back(line);
    }
  }

  OpenSimStorage parse() {
    OpenSimStorage out;
    out.source = label_;
    std::size_t l = 0;
    long rows_said = -1, columns_said = -1;
    std::size_t rows_line = 0, columns_line = 0;
    for (; l < lines_.size(); ++l) {
      const std::string line = trim(lines_[l]);
      if (lower(line) == "endheader") break;
      // `key=value` (OpenSim) or `key value` (SIMM); the first line may be the file's name.
      std::string key, value;
      if (const auto eq = line.find('='); eq != std::string::npos) {
        key = lower(trim(line.substr(0, eq)));
        value = trim(line.substr(eq + 1));
      } else if (const auto blank = line.find_first_of(" \t"); blank != std::string::npos) {
        key = lower(line.substr(0, blank));
        value = trim(line.substr(blank));
      }
      if (key == "units") out.units = value, out.units_line = l + 1;
      if (key == "nrows" || key == "datarows") rows_said = count(value, l + 1, key), rows_line = l + 1;
      if (key == "ncolumns" || key == "datacolumns") columns_said = count(value, l + 1, key), columns_line = l + 1;
    }
    if (l == lines_.size()) fail(lines_.size(), "no `endheader` line (an OpenSim .mot/.sto header ends with one)");
    ++l;
    // Blank is what `fields` finds nothing in (a vertical tab or form feed too: found by fuzz/).
    while (l < lines_.size() && fields(lines_[l]).empty()) ++l;
    if (l == lines_.size()) fail(l, "no column names after endheader");
    out.names = fields(lines_[l]);
    if (lower(out.names.front()) != "time") fail(l + 1, "the first column is '" + out.names.front() + "', not time");
    const std::size_t columns = out.names.size();
    if (columns_said >= 0 && static_cast<std::size_t>(columns_said) != columns)
      fail(columns_line, "nColumns is " + std::to_string(columns_said) + " but the table names " +
                             std::to_string(columns) + " columns");
    for (std::size_t c = 0; c < columns; ++c)
      if (!out.index.emplace(out.names[c], static_cast<Eigen::Index>(c) - 1).second)
        fail(l + 1, "column '" + out.names[c] + "' is named twice");

    std::vector<double> values;
    std::vector<double> time;
    for (++l; l < lines_.size(); ++l) {
      const std::vector<std::string> f = fields(lines_[l]);
      if (f.empty()) continue;
      if (f.size() != columns)
        fail(l + 1, std::to_string(f.size()) + " values, but the header names " + std::to_string(columns) + " columns");
      const double t = number(f[0], l + 1, "time");
      if (!std::isfinite(t)) fail(l + 1, "time '" + f[0] + "' is not a finite number");
      if (!time.empty() && !(t > time.back()))
        fail(l + 1, "time " + f[0] + " does not increase (the row before is at " + std::to_string(time.back()) + ")");
      time.push_back(t);
      out.lines.push_back(l + 1);
      for (std::size_t c = 1; c < columns; ++c) values.push_back(number(f[c], l + 1, out.names[c]));
    }
    if (time.empty()) fail(lines_.size(), "no data rows");
    if (rows_said >= 0 && static_cast<std::size_t>(rows_said) != time.size())
      fail(rows_line,
           "nRows is " + std::to_string(rows_said) + " but the table has " + std::to_string(time.size()) + " rows");
    const auto rows = static_cast<Eigen::Index>(time.size());
    out.time = Eigen::Map<const Eigen::VectorXd>(time.data(), rows);
    out.values = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
        values.data(), rows, static_cast<Eigen::Index>(columns - 1));
    return out;
  }

 private:
  [[noreturn]] void fail(std::size_t line, const std::string& what) const {
    throw std::runtime_error(label_ + ": line " + std::to_string(line) + ": " + what);
  }

  double number(const std::string& s, std::size_t line, const std::string& column) const {
    double x = 0;
    const char* end = s.data() + s.size();
    const auto [ptr, ec] = std::from_chars(s.data(), end, x);
    if (ec != std::errc() || ptr != end) fail(line, column + " '" + s + "' is not a number");
    return x;
  }

  long count(const std::string& value, std::size_t line, const std::string& key) const {
    const double x = number(value, line, key);
    if (!(x >= 0 && x == std::floor(x) && x < 1e9)) fail(line, key + " '" + value + "' is not a count");
    return static_cast<long>(x);
  }

  std::string label_;
  std::vector<std::string> lines_;
};

// The identifier split around its kind: "1_ground_force_r_v" -> ("1_", "r_").
struct Split {
  std::string pre, mid;
  bool operator<(const Split& o) const { return std::tie(pre, mid) < std::tie(o.pre, o.mid); }
};

}  // namespace

Eigen::Index OpenSimStorage::column(const std::string& name) const {
  const auto it = index.find(name);
  if (it == index.end() || it->second < 0) throw std::runtime_error(source + ": no column '" + name + "'");
  return it->second;
}

OpenSimStorage parse_opensim_storage(const std::string& text, const std::string& label) {
  return StorageParser(text, label).parse();
}

OpenSimStorage read_opensim_storage(const std::string& path) {
  return parse_opensim_storage(mocap_detail::file_bytes(path), path);
}

double metres_per_length_unit(const std::string& text) {
  const std::string u = lower(text);
  if (u == "m" || u == "meters" || u == "metres") return 1.0;
  if (u == "cm" || u == "centimeters" || u == "centimetres") return 1e-2;
  if (u == "mm" || u == "millimeters" || u == "millimetres") return 1e-3;
  return 0.0;
}

std::vector<GroundReactionColumns> find_ground_reaction_columns(const OpenSimStorage& storage) {
  std::vector<Split> order;
  std::set<Split> seen;
  const std::string force = "ground_force_";
  for (std::size_t c = 1; c < storage.names.size(); ++c) {
    const std::string& n = storage.names[c];
    if (n.size() < 2 || n.back() != 'x') continue;  // one entry per identifier, by its x column
    const std::string stem = n.substr(0, n.size() - 1);
    if (const auto at = stem.find(force); at != std::string::npos && stem.back() == 'v') {
      const Split s{stem.substr(0, at), stem.substr(at + force.size(), stem.size() - at - force.size() - 1)};
      if (seen.insert(s).second) order.push_back(s);
    }
  }
  if (order.empty())
    throw std::runtime_error(storage.source +
                             ": no ground reaction columns (OpenSim's ground_force_vx ... ground_force_px ... "
                             "ground_torque_x, with a prefix or infix per plate)");
  std::vector<GroundReactionColumns> out;
  for (const Split& s : order) {
    GroundReactionColumns g{s.pre + force + s.mid + "v", s.pre + force + s.mid + "p", s.pre + "ground_torque_" + s.mid};
    const auto has = [&](const std::string& id) { return storage.index.count(id + "x") > 0; };
    for (const std::string& moment : {s.pre + "ground_moment_" + s.mid, s.pre + "ground_moment_" + s.mid + "m"})
      if (!has(g.torque) && has(moment)) g.torque = moment;
    out.push_back(g);
  }
  return out;
}

GroundReactionSeries plate_series(const OpenSimStorage& storage, const GroundReactionColumns& columns) {
  GroundReactionSeries out;
  out.columns = columns;
  const Eigen::Index rows = storage.values.rows();
  std::vector<Eigen::Index> index;
  for (const std::string* id : {&columns.force, &columns.point, &columns.torque})
    for (const char* axis : {"x", "y", "z"}) {
      const std::string name = *id + axis;
      if (!storage.index.count(name) || name == storage.names.front())
        throw std::runtime_error(storage.source + ": plate '" + columns.force + "' has no column '" + name +
                                 "' (each plate needs its force, point and torque columns)");
      index.push_back(storage.column(name));
    }
  out.force.resize(3, rows);
  out.point.resize(3, rows);
  out.torque.resize(3, rows);
  for (Eigen::Index r = 0; r < rows; ++r)
    for (int k = 0; k < 3; ++k) {
      out.force(k, r) = storage.values(r, index[static_cast<std::size_t>(k)]);
      out.point(k, r) = storage.values(r, index[static_cast<std::size_t>(3 + k)]);
      out.torque(k, r) = storage.values(r, index[static_cast<std::size_t>(6 + k)]);
      for (const int group : {0, 2}) {
        const std::size_t i = static_cast<std::size_t>(3 * group + k);
        if (!std::isfinite(storage.values(r, index[i])))
          throw std::runtime_error(storage.source + ": line " +
                                   std::to_string(storage.lines[static_cast<std::size_t>(r)]) + ": " +
                                   storage.names[static_cast<std::size_t>(index[i]) + 1] +
                                   " is not a finite number (a force or torque must be; only an unloaded "
                                   "plate's point may be NaN)");
      }
    }
  return out;
}

}  // namespace dynid
