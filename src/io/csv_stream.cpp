#include "dynid/io/csv_stream.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace dynid {

CsvStreamWriter::CsvStreamWriter(const std::string& path, std::vector<Channel> channels, int digits)
    : path_(path), out_(path, std::ios::binary | std::ios::trunc), channels_(std::move(channels)), digits_(digits) {
  if (!out_) throw std::runtime_error(path + ": cannot create the file");
  out_ << "time";
  for (const Channel& c : channels_) out_ << ',' << c.name;
  out_ << '\n';
}

void CsvStreamWriter::write(double time, const std::vector<double>& values) {
  if (values.size() != channels_.size())
    throw std::logic_error(path_ + ": row has " + std::to_string(values.size()) + " values for " +
                           std::to_string(channels_.size()) + " channels");
  char buf[64];
  line_.clear();
  std::snprintf(buf, sizeof(buf), "%.9f", time);
  line_ += buf;
  for (double x : values) {
    line_ += ',';
    if (std::isnan(x)) continue;
    std::snprintf(buf, sizeof(buf), "%.*g", digits_, x);
    line_ += buf;
  }
  line_ += '\n';
  out_ << line_;
  ++rows_;
}

void CsvStreamWriter::close() {
  out_.close();
  if (out_.fail()) throw std::runtime_error(path_ + ": write failed (disk full?)");
}

Eigen::Index CsvStream::column(const std::string& name) const {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return static_cast<Eigen::Index>(i);
  throw std::runtime_error(path + ": no channel '" + name + "'");
}

void check_sample_time(const std::string& path, long line, double time, double previous) {
  const std::string where = path + ": line " + std::to_string(line) + ": ";
  if (std::isnan(time)) throw std::runtime_error(where + "no time stamp");
  if (!(time > previous)) {
    char text[96];
    std::snprintf(text, sizeof(text), "time %.9g s is not after the previous sample's %.9g s", time, previous);
    throw std::runtime_error(where + text + (time == previous ? " (duplicate time stamp)" : " (out of order)"));
  }
}

CsvStream read_csv_stream(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open the file");
  CsvStream s;
  s.path = path;
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error(path + ": empty file (no header)");
  // Line ends of Windows (CRLF) as CsvRowReader reads them: the CR is not part of the last field.
  const auto drop_cr = [](std::string& text) {
    if (!text.empty() && text.back() == '\r') text.pop_back();
  };
  drop_cr(line);
  {
    std::stringstream h(line);
    std::string name;
    while (std::getline(h, name, ',')) s.header.push_back(name);
  }
  if (s.header.empty() || s.header[0] != "time") throw std::runtime_error(path + ": the first column must be 'time'");
  std::vector<double> data;
  long row = 0;
  const std::size_t cols = s.header.size();
  while (std::getline(in, line)) {
    ++row;
    drop_cr(line);
    if (line.empty()) continue;
    std::size_t start = 0, count = 0;
    for (std::size_t i = 0; i <= line.size(); ++i) {
      if (i < line.size() && line[i] != ',') continue;
      const std::string_view field(line.data() + start, i - start);
      double x = std::numeric_limits<double>::quiet_NaN();
      if (!field.empty()) {
        const auto [ptr, ec] = std::from_chars(field.data(), field.data() + field.size(), x);
        if (ec != std::errc() || ptr != field.data() + field.size())
          throw std::runtime_error(path + ": line " + std::to_string(row + 1) + ": '" + std::string(field) +
                                   "' is not a number");
        if (!std::isfinite(x))
          throw std::runtime_error(path + ": line " + std::to_string(row + 1) + ": '" + std::string(field) +
                                   "' is not a finite number (a missing sample is an empty field)");
      }
      data.push_back(x);
      ++count;
      start = i + 1;
    }
    if (count != cols)
      throw std::runtime_error(path + ": line " + std::to_string(row + 1) + " has " + std::to_string(count) +
                               " fields, the header has " + std::to_string(cols));
    check_sample_time(path, row + 1, data[data.size() - cols],
                      data.size() > cols ? data[data.size() - 2 * cols] : -std::numeric_limits<double>::infinity());
  }
  const Eigen::Index n = static_cast<Eigen::Index>(data.size() / cols);
  s.values = Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
      data.data(), n, static_cast<Eigen::Index>(cols));
  return s;
}

}  // namespace dynid
