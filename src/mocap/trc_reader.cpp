#include "dynid/mocap/trc_reader.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

#include "file_bytes.hpp"

namespace dynid {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// Tab-separated fields; a line without tabs is split on blanks.
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  if (line.find('\t') != std::string::npos) {
    std::size_t start = 0;
    for (std::size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1)
      out.push_back(trim(line.substr(start, tab - start)));
    out.push_back(trim(line.substr(start)));
  } else {
    std::istringstream in(line);
    for (std::string f; in >> f;) out.push_back(f);
  }
  return out;
}

class TrcParser {
 public:
  TrcParser(const std::string& text, std::string label) : label_(std::move(label)) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines_.push_back(line);
    }
  }

  MocapRecording parse() {
    if (lines_.empty() || trim(lines_[0]).rfind("PathFileType", 0) != 0)
      fail(1, "not a TRC file (the first line must start with PathFileType)");
    if (lines_.size() < 5) fail(lines_.size(), "truncated: the header has 5 lines");
    const std::vector<std::string> keys = fields(lines_[1]);
    // Older exports pad the values with extra tabs (OpenSim's markers_walk.trc: "100.0\t\t100.0"):
    // a header value is never empty, so empty fields are padding.
    std::vector<std::string> values = fields(lines_[2]);
    std::erase(values, std::string());
    std::map<std::string, std::string> header;
    for (std::size_t i = 0; i < keys.size() && i < values.size(); ++i) header[keys[i]] = values[i];
    auto header_value = [&](const std::string& key) {
      auto it = header.find(key);
      if (it == header.end()) fail(3, "the header has no " + key);
      return it->second;
    };

    MocapRecording rec;
    rec.source = label_;
    rec.point_rate = number(header_value("DataRate"), 3, "DataRate");
    if (!(rec.point_rate > 0 && std::isfinite(rec.point_rate)))
      fail(3, "DataRate is " + header_value("DataRate") + "; a positive rate is required");
    const double frames = number(header_value("NumFrames"), 3, "NumFrames");
    const double markers = number(header_value("NumMarkers"), 3, "NumMarkers");
    if (!(frames >= 0 && frames == std::floor(frames) && markers >= 0 && markers == std::floor(markers) &&
          frames < 1e8 && markers < 1e5))
      fail(3, "NumFrames and NumMarkers must be counts");
    rec.length_unit_in_file = header_value("Units");
    const double to_m = unit_factor(rec.length_unit_in_file);

    const std::vector<std::string> names = fields(lines_[3]);
    for (std::size_t i = 2; i < names.size(); ++i)
      if (!names[i].empty()) rec.marker_labels.push_back(names[i]);
    if (static_cast<double>(rec.marker_labels.size()) != markers)
      fail(4, "wrong counts: NumMarkers is " + header_value("NumMarkers") + " but the line names " +
                  std::to_string(rec.marker_labels.size()) + " markers");

    const auto n = static_cast<Eigen::Index>(markers);
    std::vector<std::vector<double>> rows;
    std::vector<double> frame_numbers;
    std::size_t first_data_line = 0;  // 1-based
    for (std::size_t l = 5; l < lines_.size(); ++l) {
      if (trim(lines_[l]).empty()) continue;
      const std::vector<std::string> f = fields(lines_[l]);
      std::size_t last = f.size();
      while (last > 0 && f[last - 1].empty()) --last;
      if (last > static_cast<std::size_t>(2 + 3 * n))
        fail(l + 1, "wrong counts: " + std::to_string(last - 2) + " values for " + std::to_string(n) + " markers");
      if (f.size() < 2 || f[0].empty()) fail(l + 1, "a data line starts with the frame number and time");
      if (frame_numbers.empty()) first_data_line = l + 1;
      frame_numbers.push_back(number(f[0], l + 1, "the frame number"));
      const double time = number(f[1], l + 1, "the time");
      if (rows.empty()) rec.first_frame_time = time;
      rec.last_frame_time = time;
      std::vector<double> row(static_cast<std::size_t>(3 * n), kNaN);
      for (std::size_t k = 2; k < last; ++k)
        row[k - 2] = f[k].empty() ? kNaN : number(f[k], l + 1, "column " + std::to_string(k + 1));
      rows.push_back(std::move(row));
    }
    if (static_cast<double>(rows.size()) != frames)
      fail(2, "wrong counts: NumFrames is " + header_value("NumFrames") + " but the file has " +
                  std::to_string(rows.size()) + " frames");

    const auto F = static_cast<Eigen::Index>(rows.size());
    rec.first_frame = 1;
    if (F > 0 && std::isfinite(frame_numbers[0])) {
      const double first = frame_numbers[0];
      // Bounded so that the last frame's number (first + NumFrames - 1, NumFrames < 1e8) is an int.
      if (!(first == std::floor(first) && std::fabs(first) <= 1e9))
        fail(first_data_line,
             "the frame number " + fields(lines_[first_data_line - 1])[0] + " is not a whole number within +-10^9");
      rec.first_frame = static_cast<int>(first);
    }
    rec.marker_positions.resize(3 * n, F);
    rec.marker_valid.resize(n, F);
    for (Eigen::Index f = 0; f < F; ++f)
      for (Eigen::Index m = 0; m < n; ++m) {
        const double* x = rows[static_cast<std::size_t>(f)].data() + 3 * m;
        const bool valid = std::isfinite(x[0]) && std::isfinite(x[1]) && std::isfinite(x[2]);
        rec.marker_valid(m, f) = valid;
        for (int k = 0; k < 3; ++k) rec.marker_positions(3 * m + k, f) = valid ? x[k] * to_m : kNaN;
      }
    // Times follow DataRate; a Time column that steps otherwise (a file thinned without its rate
    // changed, as OpenSim's std_walking2_markers.trc: every tenth frame of 250 Hz, DataRate 250) is
    // said, since every frame's time would be off.
    if (F > 1 && std::isfinite(rec.first_frame_time) && std::isfinite(rec.last_frame_time)) {
      const double step = (rec.last_frame_time - rec.first_frame_time) / static_cast<double>(F - 1);
      if (std::abs(step * rec.point_rate - 1.0) > 0.01)
        rec.warnings.push_back("the Time column steps " + std::to_string(step) + " s a frame but DataRate is " +
                               header_value("DataRate") + " Hz; frames are placed by DataRate");
    }
    return rec;
  }

 private:
  [[noreturn]] void fail(std::size_t line, const std::string& what) const {
    throw std::runtime_error(label_ + ": line " + std::to_string(line) + ": " + what);
  }

  // A number, or NaN for the NaN OpenSim writes for missing markers.
  double number(const std::string& s, std::size_t line, const std::string& what) const {
    double x = 0;
    const char* end = s.data() + s.size();
    const auto [ptr, ec] = std::from_chars(s.data(), end, x);
    if (ec != std::errc() || ptr != end) fail(line, what + " '" + s + "' is not a number");
    return x;
  }

  double unit_factor(const std::string& unit) const {
    if (unit == "mm") return 1e-3;
    if (unit == "cm") return 1e-2;
    if (unit == "m") return 1.0;
    fail(3, "Units '" + unit + "' is not mm, cm or m");
  }

  std::string label_;
  std::vector<std::string> lines_;
};

}  // namespace

MocapRecording parse_trc(const std::string& text, const std::string& label) { return TrcParser(text, label).parse(); }

MocapRecording read_trc(const std::string& path) { return parse_trc(mocap_detail::file_bytes(path), path); }

}  // namespace dynid
