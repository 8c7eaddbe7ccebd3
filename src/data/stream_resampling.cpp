#include "dynid/data/stream_resampling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace dynid {

Eigen::VectorXd filtered_channel(const CsvStream& s, const std::string& name, const IirFilter& filter) {
  const Eigen::Index c = s.column(name);
  const Eigen::VectorXd x = s.values.col(c);
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i]))
      throw std::runtime_error(s.path + ": line " + std::to_string(i + 2) + ": channel '" + name +
                               "' is empty or not finite");
  if (filter.b.size() == 0) return x;  // no low-pass
  if (x.size() <= filtfilt_padlen(filter))
    throw std::runtime_error(s.path + ": too few samples (" + std::to_string(x.size()) + ") to filter");
  return filtfilt(filter, x);
}

double interpolate_at(const Eigen::VectorXd& t, const Eigen::VectorXd& x, double tq, Eigen::Index& hint) {
  const Eigen::Index n = t.size();
  if (tq <= t[0]) return x[0];
  if (tq >= t[n - 1]) return x[n - 1];
  while (hint + 1 < n && t[hint + 1] < tq) ++hint;
  while (hint > 0 && t[hint] > tq) --hint;
  const double u = (tq - t[hint]) / (t[hint + 1] - t[hint]);
  return (1.0 - u) * x[hint] + u * x[hint + 1];
}

Eigen::MatrixXd resampled(const CsvStream& s, const std::vector<std::string>& names, const IirFilter& filter,
                          const Eigen::VectorXd& times) {
  Eigen::MatrixXd out(static_cast<Eigen::Index>(names.size()), times.size());
  const Eigen::VectorXd t = s.values.col(0);
  for (std::size_t i = 0; i < names.size(); ++i) {
    const Eigen::VectorXd x = filtered_channel(s, names[i], filter);
    Eigen::Index hint = 0;
    for (Eigen::Index k = 0; k < times.size(); ++k)
      out(static_cast<Eigen::Index>(i), k) = interpolate_at(t, x, times[k], hint);
  }
  return out;
}

StreamPieces::StreamPieces(const std::string& path, const std::vector<std::string>& names, const IirFilter& filter)
    : reader_(path), names_(names), filter_(filter), values_(names.size()) {
  for (const std::string& name : names) columns_.push_back(reader_.column(name));
  overlap_ = filter.b.size() > 0 ? static_cast<long>(filtfilt_settling(filter)) : 1;
}

bool StreamPieces::load_through(long row) {
  while (!ended_ && loaded() <= row) {
    if (!reader_.next(row_)) {
      ended_ = true;
      break;
    }
    times_.push_back(row_[0]);
    for (std::size_t c = 0; c < columns_.size(); ++c) values_[c].push_back(row_[static_cast<std::size_t>(columns_[c])]);
  }
  return loaded() > row;
}

void StreamPieces::drop_before(long row) {
  const auto k = static_cast<std::ptrdiff_t>(std::clamp(row - first_, 0L, static_cast<long>(times_.size())));
  times_.erase(times_.begin(), times_.begin() + k);
  for (auto& v : values_) v.erase(v.begin(), v.begin() + k);
  first_ += k;
}

Eigen::MatrixXd StreamPieces::filtered(long a, long b) {
  if (a < first_ || b < a) throw std::logic_error(path() + ": rows requested out of order");
  const bool filter = filter_.b.size() > 0;
  load_through(b + (filter ? overlap_ : 0));
  if (b > loaded()) throw std::logic_error(path() + ": rows requested past the end");
  const long lo = filter ? std::max(first_, a - overlap_) : a;
  const long hi = filter ? std::min(loaded(), b + overlap_) : b;
  if (filter && ended_ && lo == 0 && hi == loaded() && hi <= filtfilt_padlen(filter_))
    throw std::runtime_error(path() + ": too few samples (" + std::to_string(hi) + ") to filter");
  Eigen::MatrixXd out(static_cast<Eigen::Index>(names_.size()), b - a);
  for (std::size_t c = 0; c < names_.size(); ++c) {
    const Eigen::Map<const Eigen::VectorXd> x(values_[c].data() + (lo - first_), hi - lo);
    for (Eigen::Index i = 0; i < x.size(); ++i)
      if (!std::isfinite(x[i]))
        throw std::runtime_error(path() + ": line " + std::to_string(lo + i + 2) + ": channel '" + names_[c] +
                                 "' is empty or not finite");
    const Eigen::VectorXd y = filter ? filtfilt_piece(filter_, x, lo == 0, ended_ && hi == loaded()) : x;
    out.row(static_cast<Eigen::Index>(c)) = y.segment(a - lo, b - a).transpose();
  }
  // Later requests start at or after `a`: what lies more than the overlap before it is done with.
  drop_before(a - overlap_);
  return out;
}

std::vector<Eigen::MatrixXd> StreamPieces::resampled(const std::vector<Eigen::VectorXd>& times) {
  double t0 = std::numeric_limits<double>::infinity(), t1 = -t0;
  for (const Eigen::VectorXd& t : times)
    if (t.size() > 0) {
      t0 = std::min(t0, t[0]);
      t1 = std::max(t1, t[t.size() - 1]);
    }
  // Rows from the last at or before t0 to the first at or after t1 (clamped to the stream's ends).
  while (!ended_ && (times_.empty() || times_.back() < t1)) load_through(loaded());
  long a = first_;
  while (a + 1 < loaded() && time(a + 1) <= t0) ++a;
  long b = a;
  while (b < loaded() && time(b) < t1) ++b;
  b = std::min(b + 1, loaded());
  if (b <= a) throw std::runtime_error(path() + ": no samples");
  if (a > 0 && time(a) > t0) throw std::logic_error(path() + ": times requested out of order");
  const Eigen::VectorXd t = Eigen::Map<const Eigen::VectorXd>(times_.data() + (a - first_), b - a);
  const Eigen::MatrixXd x = filtered(a, b);
  std::vector<Eigen::MatrixXd> out;
  for (const Eigen::VectorXd& tq : times) {
    Eigen::MatrixXd m(x.rows(), tq.size());
    for (Eigen::Index c = 0; c < x.rows(); ++c) {
      const Eigen::VectorXd xc = x.row(c).transpose();
      Eigen::Index hint = 0;
      for (Eigen::Index k = 0; k < tq.size(); ++k) m(c, k) = interpolate_at(t, xc, tq[k], hint);
    }
    out.push_back(std::move(m));
  }
  return out;
}

void StreamPieces::check_rest() {
  for (;;) {
    for (long row = first_; row < loaded(); ++row)
      for (std::size_t c = 0; c < names_.size(); ++c)
        if (!std::isfinite(raw(row, c)))
          throw std::runtime_error(path() + ": line " + std::to_string(row + 2) + ": channel '" + names_[c] +
                                   "' is empty or not finite");
    drop_before(loaded());
    if (ended_) return;
    load_through(loaded() + 4095);
  }
}

void StreamPieces::rewind() {
  reader_.rewind();
  first_ = 0;
  ended_ = false;
  times_.clear();
  for (auto& v : values_) v.clear();
}

}  // namespace dynid
