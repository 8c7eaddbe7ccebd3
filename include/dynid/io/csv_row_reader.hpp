#pragma once
// A CSV stream (docs/data-format.md) read one row at a time: memory independent of the recording's
// length, for passes over long data sets (identification folds rows as they arrive).

#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "dynid/spatial/skew.hpp"

namespace dynid {

class CsvRowReader {
 public:
  /// Opens `path` and reads the header; throws "PATH: reason" when it cannot be opened or the first
  /// column is not `time`.
  explicit CsvRowReader(const std::string& path);

  const std::vector<std::string>& header() const { return header_; }
  const std::string& path() const { return path_; }
  /// Column of a channel (0 = time); throws naming the file and the channel when absent.
  int column(const std::string& name) const;
  /// Column of a channel or -1.
  int find_column(const std::string& name) const;

  /// Reads the next row into `row` (time first, NaN for empty fields); false at the end of the file.
  /// Throws "PATH: line N: reason" on a malformed row.
  bool next(std::vector<double>& row);
  /// Back to the first data row.
  void rewind();
  /// 1-based line number of the row last read (for error messages).
  long line() const { return line_; }

 private:
  std::string path_;
  std::ifstream in_;
  std::vector<std::string> header_;
  std::string text_;
  long line_ = 1;
  double previous_time_ = -std::numeric_limits<double>::infinity();  // [s], the last row's
  std::streampos data_start_;
};

}  // namespace dynid
