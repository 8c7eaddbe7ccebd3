#include "dynid/data/parallel_filter.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>

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
  information_weight_ = std::min(static_cast<double>(decimation_), sample_rate_hz / (2.0 * noise_bandwidth_hz()));
  // The zero-phase impulse response, long enough to die out (a Butterworth's slowest pole decays
  // within about order / cut-off seconds to 1e-4): its reach and its energy.
  const Eigen::Index half =
      std::max<Eigen::Index>(32, std::lround(4.0 * std::max(2, options.order) * sample_rate_hz / options.cutoff_hz));
  Eigen::VectorXd impulse = Eigen::VectorXd::Zero(2 * half + 1);
  impulse[half] = 1.0;
  const Eigen::VectorXd h = filtfilt(filter_, impulse);
  const double peak = h.cwiseAbs().maxCoeff();
  settling_ = 1;
  for (Eigen::Index d = half; d > 0; --d)
    if (std::abs(h[half + d]) > 1e-4 * peak || std::abs(h[half - d]) > 1e-4 * peak) {
      settling_ = d + 1;
      break;
    }
  settling_ = std::max(settling_, filtfilt_padlen(filter_) + 1);
  interior_variance_ = h.squaredNorm();
  capacity_ = std::max<Eigen::Index>(4 * settling_, std::lround(options.chunk_s * sample_rate_hz));
}

std::pair<Eigen::VectorXd, Eigen::VectorXd> ParallelRowFilter::edge_variance(Eigen::Index n) const {
  // The same filter on the same run length gives the same profile: computed once per process (the
  // identification makes several filters alike, one per pass).
  static std::mutex mutex;
  static std::map<std::vector<double>, std::pair<Eigen::VectorXd, Eigen::VectorXd>> cache;
  std::vector<double> key(filter_.b.data(), filter_.b.data() + filter_.b.size());
  key.insert(key.end(), filter_.a.data(), filter_.a.data() + filter_.a.size());
  key.push_back(static_cast<double>(n));
  key.push_back(static_cast<double>(settling_));
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = cache.find(key); it != cache.end()) return it->second;
  }
  // Column j of the filter's matrix on n samples is the filtered unit impulse at j; the variance at
  // row k is the squared norm of row k. Rows within settling_ of an end take their weight from
  // columns within 2 settling_ of it.
  const Eigen::Index e = std::min(settling_, n), reach = std::min(2 * settling_, n);
  Eigen::VectorXd start = Eigen::VectorXd::Zero(e), end = Eigen::VectorXd::Zero(e);
  if (n <= filtfilt_padlen(filter_)) return {start.setOnes(), end.setOnes()};  // passed unfiltered
  Eigen::VectorXd impulse = Eigen::VectorXd::Zero(n);
  for (Eigen::Index j = 0; j < reach; ++j) {
    impulse[j] = 1.0;
    start += filtfilt(filter_, impulse).head(e).cwiseAbs2();
    impulse[j] = 0.0;
    impulse[n - 1 - j] = 1.0;
    end += filtfilt(filter_, impulse).tail(e).cwiseAbs2();
    impulse[n - 1 - j] = 0.0;
  }
  const std::lock_guard<std::mutex> lock(mutex);
  if (cache.size() > 256) cache.clear();  // short runs of many lengths: bounded
  return cache.emplace(key, std::make_pair(start, end)).first->second;
}

void ParallelRowFilter::add(double time, const MatrixX& A, const VectorX& b, const VectorX& weights,
                            const VectorX& structure) {
  const bool same_structure = count_ > 0 && A.rows() == rows_ && A.cols() == cols_ && structure == weights_ &&
                              time - times_[count_ - 1] < 1.5 * period_;
  if (count_ > 0 && !same_structure)
    flush();
  else if (count_ == capacity_)
    filter_chunk(false);
  if (count_ == 0) {
    rows_ = A.rows();
    cols_ = A.cols();
    weights_ = structure;
    buffer_.resize(rows_ * (cols_ + 1), capacity_);
    times_.resize(capacity_);
    index_.resize(static_cast<std::size_t>(capacity_));
    run_started_here_ = true;
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
  index_[static_cast<std::size_t>(count_)] = next_index_++;
  ++count_;
  ++samples_in_;
}

void ParallelRowFilter::flush() { filter_chunk(true); }

void ParallelRowFilter::filter_chunk(bool run_ends) {
  if (count_ == 0) return;
  const bool filterable = count_ > filtfilt_padlen(filter_);
  const Eigen::Index channels = buffer_.rows();
  // Filtered channels: row c is channel c over time, so column k is sample k's [A | b] again.
  Eigen::MatrixXd filtered(channels, count_);
  for (Eigen::Index c = 0; c < channels; ++c) {
    const Eigen::VectorXd x = buffer_.row(c).head(count_).transpose();
    filtered.row(c) = (filterable ? filtfilt(filter_, x) : x).transpose();  // too short a run: as it is
  }
  // The noise the filter leaves near the run's own ends (a chunk's cut edges are never handed over).
  Eigen::VectorXd start_variance, end_variance;
  if (filterable && (run_started_here_ || run_ends)) {
    if (count_ >= 4 * settling_) {
      if (start_variance_.size() == 0) std::tie(start_variance_, end_variance_) = edge_variance(4 * settling_);
      start_variance = start_variance_;
      end_variance = end_variance_;
    } else {
      std::tie(start_variance, end_variance) = edge_variance(count_);
    }
  }
  const Eigen::Index first = run_started_here_ ? 0 : settling_;
  const Eigen::Index last = run_ends ? count_ : count_ - settling_;
  for (Eigen::Index k = first; k < last; ++k) {
    if (index_[static_cast<std::size_t>(k)] % decimation_ != 0) continue;
    double weight = filterable ? information_weight_ : 1.0;  // unfiltered: one sample's worth
    if (filterable && run_started_here_ && k < start_variance.size())
      weight = std::min(weight, 1.0 / start_variance[k]);
    const Eigen::Index from_end = k - (count_ - end_variance.size());
    if (filterable && run_ends && from_end >= 0) weight = std::min(weight, 1.0 / end_variance[from_end]);
    kept_weights_ = weight * weights_;
    const Eigen::Map<const MatrixX> A(filtered.col(k).data(), rows_, cols_);
    sink_(A, filtered.col(k).tail(rows_), kept_weights_, times_[k]);
    ++samples_out_;
  }
  if (run_ends) {
    count_ = 0;
    ++runs_;
    return;
  }
  // The next chunk starts with the last 2 settling_ samples: the first half only as the filter's
  // lead-in (handed over here), the second half handed over there.
  const Eigen::Index keep = 2 * settling_;
  buffer_.leftCols(keep) = buffer_.middleCols(count_ - keep, keep);
  times_.head(keep) = times_.segment(count_ - keep, keep).eval();
  std::copy(index_.begin() + (count_ - keep), index_.begin() + count_, index_.begin());
  count_ = keep;
  run_started_here_ = false;
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

double ParallelRowFilter::information_weight() const { return information_weight_; }

double ParallelRowFilter::standard_deviation_factor() const {
  const double row_rate = sample_rate_hz_ / decimation_;
  return std::sqrt(std::max(1.0, row_rate / (2.0 * noise_bandwidth_hz())));
}

}  // namespace dynid
