#include "dynid/data/parallel_filter.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "dynid/core/number_format.hpp"
#include "dynid/mocap/filtfilt.hpp"

namespace dynid {

ParallelRowFilter::ParallelRowFilter(double sample_rate_hz, const ParallelFilterOptions& options, Sink sink)
    : options_(options), sink_(std::move(sink)) {
  if (!(sample_rate_hz > 0.0)) throw std::invalid_argument("parallel filter: the sample rate must be positive");
  if (!(options.cutoff_hz > 0.0 && options.cutoff_hz < 0.5 * sample_rate_hz))
    throw std::invalid_argument("parallel filter: cut-off " + format_fixed(options.cutoff_hz, 1) +
                                " Hz must lie between 0 and half the sample rate (" +
                                format_fixed(0.5 * sample_rate_hz, 1) + " Hz)");
  filter_ = butterworth_lowpass(options.order, options.cutoff_hz, sample_rate_hz);
  period_ = 1.0 / sample_rate_hz;
  decimation_ = options.decimation > 0
                    ? options.decimation
                    : std::max(1, static_cast<int>(std::floor(sample_rate_hz / (4.0 * options.cutoff_hz))));
  capacity_ = std::max<Eigen::Index>(filtfilt_padlen(filter_) + 1, std::lround(options.chunk_s * sample_rate_hz));
}

void ParallelRowFilter::add(double time, const MatrixX& A, const VectorX& b, const VectorX& weights) {
  const bool same_structure = count_ > 0 && A.rows() == rows_ && A.cols() == cols_ && weights == weights_ &&
                              time - times_[count_ - 1] < 1.5 * period_;
  if (count_ > 0 && (!same_structure || count_ == capacity_)) flush();
  if (count_ == 0) {
    rows_ = A.rows();
    cols_ = A.cols();
    weights_ = weights;
    buffer_.resize(rows_ * (cols_ + 1), capacity_);
    times_.resize(capacity_);
  }
  Eigen::Map<MatrixX>(buffer_.col(count_).data(), rows_, cols_) = A;
  buffer_.col(count_).tail(rows_) = b;
  times_[count_] = time;
  ++count_;
  ++samples_in_;
}

void ParallelRowFilter::flush() {
  if (count_ == 0) return;
  const bool filterable = count_ > filtfilt_padlen(filter_);
  const Eigen::Index channels = buffer_.rows();
  // Filtered channels: row c is channel c over time, so column k is sample k's [A | b] again.
  Eigen::MatrixXd filtered(channels, count_);
  for (Eigen::Index c = 0; c < channels; ++c) {
    const Eigen::VectorXd x = buffer_.row(c).head(count_).transpose();
    filtered.row(c) = (filterable ? filtfilt(filter_, x) : x).transpose();  // too short a run: as it is
  }
  for (Eigen::Index k = 0; k < count_; ++k, ++phase_) {
    if (phase_ % decimation_ != 0) continue;
    const Eigen::Map<const MatrixX> A(filtered.col(k).data(), rows_, cols_);
    sink_(A, filtered.col(k).tail(rows_), weights_, times_[k]);
    ++samples_out_;
  }
  count_ = 0;
}

}  // namespace dynid
