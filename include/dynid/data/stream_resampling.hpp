#pragma once
// Reading a recorded stream's channels onto other time stamps: filtered (zero-phase) at the stream's
// own rate, then linearly interpolated, so streams of different rates and clocks meet on the
// encoders' time base.

#include <string>
#include <vector>

#include "dynid/io/csv_row_reader.hpp"
#include "dynid/io/csv_stream.hpp"
#include "dynid/mocap/filtfilt.hpp"

namespace dynid {

/// Column `name` of a stream, filtered (no filter when `filter` is empty); throws naming the file,
/// line and channel when a value is absent or not finite, or when there are too few samples to filter.
Eigen::VectorXd filtered_channel(const CsvStream& s, const std::string& name, const IirFilter& filter);

/// Linear interpolation of (t, x) at `tq`, clamped to the ends; `hint` (start at 0) makes a pass
/// over increasing `tq` linear in time.
double interpolate_at(const Eigen::VectorXd& t, const Eigen::VectorXd& x, double tq, Eigen::Index& hint);

/// Channels `names` of a stream, filtered and interpolated at `times`: one row per channel.
Eigen::MatrixXd resampled(const CsvStream& s, const std::vector<std::string>& names, const IirFilter& filter,
                          const Eigen::VectorXd& times);

/// A stream read and filtered a piece at a time: memory bounded by the pieces asked for plus the
/// filter's settling length (filtfilt_settling) on each side, whatever the recording's length. Rows
/// are numbered from 0 (the first data row); requests move forward through the file (a request
/// may reach back to the previous request's first row, not before).
class StreamPieces {
 public:
  /// Channels `names` of the CSV stream at `path`, filtered with `filter` (empty: none). Throws
  /// naming the file when a channel is absent.
  StreamPieces(const std::string& path, const std::vector<std::string>& names, const IirFilter& filter);
  const std::string& path() const { return reader_.path(); }
  /// Loads rows up to `row` (inclusive) when the file has them; false when it ends before.
  bool load_through(long row);
  /// Rows read so far (one past the last loaded row's number) and whether the file has ended.
  long loaded() const { return first_ + static_cast<long>(times_.size()); }
  bool ended() const { return ended_; }
  /// Time [s] and raw value of channel `c` (index into `names`) of a loaded row.
  double time(long row) const { return times_[static_cast<std::size_t>(row - first_)]; }
  double raw(long row, std::size_t c) const { return values_[c][static_cast<std::size_t>(row - first_)]; }
  /// Channels (rows of the result) on rows [a, b), filtered as filtfilt of each whole channel
  /// would filter them (to round-off). Throws naming the file, line and channel when a value there
  /// or in the context is not finite, or when the whole stream is too short to filter.
  Eigen::MatrixXd filtered(long a, long b);
  /// Channels filtered and interpolated (clamped at the stream's ends) at each of `times` (each
  /// increasing): one matrix per vector, one row per channel.
  std::vector<Eigen::MatrixXd> resampled(const std::vector<Eigen::VectorXd>& times);
  /// Reads the rest of the file (format and finite values checked) without keeping it.
  void check_rest();
  /// Back to the first row.
  void rewind();

 private:
  void drop_before(long row);
  CsvRowReader reader_;
  std::vector<std::string> names_;
  std::vector<int> columns_;
  IirFilter filter_;
  long overlap_;  ///< rows of context on each side of a piece
  long first_ = 0;
  bool ended_ = false;
  std::vector<double> times_, row_;
  std::vector<std::vector<double>> values_;  ///< per channel
};

}  // namespace dynid
