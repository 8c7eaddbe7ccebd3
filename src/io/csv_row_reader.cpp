#include "dynid/io/csv_row_reader.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "dynid/io/csv_stream.hpp"

namespace dynid {

CsvRowReader::CsvRowReader(const std::string& path) : path_(path), in_(path, std::ios::binary) {
  if (!in_) throw std::runtime_error(path + ": cannot open the file");
  if (!std::getline(in_, text_)) throw std::runtime_error(path + ": empty file (no header)");
  if (!text_.empty() && text_.back() == '\r') text_.pop_back();
  std::stringstream h(text_);
  std::string name;
  while (std::getline(h, name, ',')) header_.push_back(name);
  if (header_.empty() || header_[0] != "time") throw std::runtime_error(path + ": the first column must be 'time'");
  data_start_ = in_.tellg();
}

int CsvRowReader::find_column(const std::string& name) const {
  for (std::size_t i = 0; i < header_.size(); ++i)
    if (header_[i] == name) return static_cast<int>(i);
  return -1;
}

int CsvRowReader::column(const std::string& name) const {
  const int c = find_column(name);
  if (c < 0) throw std::runtime_error(path_ + ": no channel '" + name + "'");
  return c;
}

bool CsvRowReader::next(std::vector<double>& row) {
  while (std::getline(in_, text_)) {
    ++line_;
    if (!text_.empty() && text_.back() == '\r') text_.pop_back();
    if (text_.empty()) continue;
    row.resize(header_.size());
    std::size_t start = 0, count = 0;
    for (std::size_t i = 0; i <= text_.size(); ++i) {
      if (i < text_.size() && text_[i] != ',') continue;
      if (count >= header_.size()) {
        count = header_.size() + 1;
        break;
      }
      const std::string_view field(text_.data() + start, i - start);
      double x = std::numeric_limits<double>::quiet_NaN();
      if (!field.empty()) {
        const auto [ptr, ec] = std::from_chars(field.data(), field.data() + field.size(), x);
        if (ec != std::errc() || ptr != field.data() + field.size())
          throw std::runtime_error(path_ + ": line " + std::to_string(line_) + ": '" + std::string(field) +
                                   "' is not a number");
        if (!std::isfinite(x))
          throw std::runtime_error(path_ + ": line " + std::to_string(line_) + ": '" + std::string(field) +
                                   "' is not a finite number (a missing sample is an empty field)");
      }
      row[count++] = x;
      start = i + 1;
    }
    if (count != header_.size())
      throw std::runtime_error(path_ + ": line " + std::to_string(line_) + " has " +
                               (count > header_.size() ? std::string("more") : std::to_string(count)) +
                               " fields, the header has " + std::to_string(header_.size()));
    check_sample_time(path_, line_, row[0], previous_time_);
    previous_time_ = row[0];
    return true;
  }
  return false;
}

void CsvRowReader::rewind() {
  in_.clear();
  in_.seekg(data_start_);
  line_ = 1;
  previous_time_ = -std::numeric_limits<double>::infinity();
}

}  // namespace dynid
