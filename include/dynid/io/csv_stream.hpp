#pragma once
// CSV streams of dynid data sets (docs/data-format.md): a header of named channels, then one row per
// sample, first column `time` in seconds. Numbers are printed with a fixed number of significant
// digits so the same data always gives the same bytes.

#include <fstream>
#include <string>
#include <vector>

#include "dynid/spatial/skew.hpp"

namespace dynid {

struct Channel {
  std::string name;
  std::string unit;  ///< SI unit symbol ("rad", "N", "m/s^2", ...)
};

class CsvStreamWriter {
 public:
  /// Creates `path` (its directory must exist) and writes the header. `digits`: significant digits.
  CsvStreamWriter(const std::string& path, std::vector<Channel> channels, int digits = 10);
  /// Appends a row; `values` has one entry per channel (NaN is written as an empty field).
  void write(double time, const std::vector<double>& values);
  const std::vector<Channel>& channels() const { return channels_; }
  long rows() const { return rows_; }
  void close();

 private:
  std::string path_;
  std::ofstream out_;
  std::vector<Channel> channels_;
  int digits_;
  long rows_ = 0;
  std::string line_;
};

/// A CSV stream read back: channel names and a rows x (1 + channels) matrix, time first.
struct CsvStream {
  std::vector<std::string> header;  ///< "time" then channel names
  MatrixX values;                   ///< NaN for empty fields
  /// Column of a channel; throws naming the file when absent.
  Eigen::Index column(const std::string& name) const;
  std::string path;
};

/// Reads a CSV stream; throws "PATH: line N: reason" on malformed rows.
CsvStream read_csv_stream(const std::string& path);

/// Throws naming the file and line unless `time` [s] is given, finite and after `previous` [s]: a
/// stream's samples are strictly increasing in time, so a duplicate or backward stamp is an error
/// rather than a sample read at the wrong place.
void check_sample_time(const std::string& path, long line, double time, double previous);

}  // namespace dynid
