#pragma once
// Reading a recorded stream's channels onto other time stamps: filtered (zero-phase) at the stream's
// own rate, then linearly interpolated, so streams of different rates and clocks meet on the
// encoders' time base.

#include <string>
#include <vector>

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

}  // namespace dynid
