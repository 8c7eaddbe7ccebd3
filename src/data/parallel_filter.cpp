#include "dynid/data/parallel_filter.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
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
  sample_rate_hz_ = sample_rate_hz;
  decimation_ = options.decimation > 0
                    ? options.decimation
                    : std::max(1, static_cast<int>(std::floor(sample_rate_hz / (4.0 * options.cutoff_hz))));
  capacity_ = std::max<Eigen::Index>(filtfilt_padlen(filter_) + 1, std::lround(options.chunk_s * sample_rate_hz));
}

void ParallelRowFilter::add(double time, const MatrixX& A, const VectorX& b, const VectorX& weights,
                            const VectorX& structure) {
  const bool same_structure = count_ > 0 && A.rows() == rows_ && A.cols() == cols_ && structure == weights_ &&
                              time - times_[count_ - 1] < 1.5 * period_;
  if (count_ > 0 && (!same_structure || count_ == capacity_)) flush();
  if (count_ == 0) {
    rows_ = A.rows();
    cols_ = A.cols();
    weights_ = structure;
    buffer_.resize(rows_ * (cols_ + 1), capacity_);
    times_.resize(capacity_);
  }
  Eigen::Map<MatrixX> a(buffer_.col(count_).data(), rows_, cols_);
  if (&weights == &structure || weights == structure) {
    a = A;
    buffer_.col(count_).tail(rows_) = b;
  } else {
    scale_ = (weights.array() / structure.array()).sqrt().matrix();
    a = scale_.asDiagonal() * A;
    buffer_.col(count_).tail(rows_) = scale_.cwiseProduct(b);
  }
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

double ParallelRowFilter::noise_bandwidth_hz() const {
  // |H(e^jw)|^2 of the single pass, squared for the forward-backward pass; midpoint rule up to 50
  // cut-offs (or the Nyquist frequency), 400 points per cut-off.
  const int n = 20000;
  const auto gain2 = [&](double w) {
    std::complex<double> num = 0.0, den = 0.0;
    for (Eigen::Index k = 0; k < filter_.b.size(); ++k) num += filter_.b[k] * std::polar(1.0, -w * k);
    for (Eigen::Index k = 0; k < filter_.a.size(); ++k) den += filter_.a[k] * std::polar(1.0, -w * k);
    return std::norm(num) / std::norm(den);
  };
  double sum = 0.0;
  const double w_c = 2.0 * M_PI * options_.cutoff_hz / sample_rate_hz_;
  const double w_top = std::min(M_PI, 50.0 * w_c);  // |H|^4 falls as (f/fc)^-16 beyond: negligible
  for (int i = 0; i < n; ++i) {
    const double w = (i + 0.5) * w_top / n;
    const double g = gain2(w);
    sum += g * g;
  }
  return sum * (w_top / n) / (2.0 * M_PI) * sample_rate_hz_;
}

double ParallelRowFilter::standard_deviation_factor() const {
  const double row_rate = sample_rate_hz_ / decimation_;
  return std::sqrt(std::max(1.0, row_rate / (2.0 * noise_bandwidth_hz())));
}

}  // namespace dynid
