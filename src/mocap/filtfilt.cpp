#include "dynid/mocap/filtfilt.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace dynid {
namespace {

// b and a of equal length, divided by a[0] (scipy does the same before filtering).
IirFilter normalized(const IirFilter& f) {
  if (f.a.size() == 0 || f.a[0] == 0.0) throw std::invalid_argument("IIR filter: a[0] must be non-zero");
  const Eigen::Index n = std::max(f.a.size(), f.b.size());
  IirFilter out{Eigen::VectorXd::Zero(n), Eigen::VectorXd::Zero(n)};
  out.b.head(f.b.size()) = f.b / f.a[0];
  out.a.head(f.a.size()) = f.a / f.a[0];
  return out;
}

}  // namespace

Eigen::VectorXd lfilter(const IirFilter& f, const Eigen::VectorXd& x, const Eigen::VectorXd& zi) {
  const auto [b, a] = normalized(f);
  const Eigen::Index n = b.size();
  if (zi.size() != n - 1) throw std::invalid_argument("lfilter: the initial state must have order entries");
  Eigen::VectorXd z = zi;
  Eigen::VectorXd y(x.size());
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    y[i] = b[0] * x[i] + (n > 1 ? z[0] : 0.0);
    for (Eigen::Index k = 0; k + 1 < n - 1; ++k) z[k] = b[k + 1] * x[i] + z[k + 1] - a[k + 1] * y[i];
    if (n > 1) z[n - 2] = b[n - 1] * x[i] - a[n - 1] * y[i];
  }
  return y;
}

Eigen::VectorXd lfilter_zi(const IirFilter& f) {
  const auto [b, a] = normalized(f);
  const Eigen::Index n = b.size();
  if (n == 1) return Eigen::VectorXd(0);
  // (I - companion(a)^T) zi = b[1:] - a[1:] b[0]: the state that a constant input 1 keeps constant.
  Eigen::MatrixXd companion = Eigen::MatrixXd::Zero(n - 1, n - 1);
  companion.row(0) = -a.tail(n - 1).transpose();
  companion.diagonal(-1).setOnes();
  const Eigen::MatrixXd i_minus_a = Eigen::MatrixXd::Identity(n - 1, n - 1) - companion.transpose();
  const Eigen::VectorXd rhs = b.tail(n - 1) - a.tail(n - 1) * b[0];
  return i_minus_a.partialPivLu().solve(rhs);
}

Eigen::Index filtfilt_padlen(const IirFilter& f) { return 3 * std::max(f.a.size(), f.b.size()); }

Eigen::VectorXd filtfilt(const IirFilter& f, const Eigen::VectorXd& x) { return filtfilt_piece(f, x, true, true); }

Eigen::VectorXd filtfilt_piece(const IirFilter& f, const Eigen::VectorXd& x, bool starts, bool ends) {
  const Eigen::Index pad = filtfilt_padlen(f), n = x.size();
  if (n <= pad)
    throw std::invalid_argument("filtfilt: " + std::to_string(n) + " samples; more than " + std::to_string(pad) +
                                " are needed for the edge padding");
  if (!x.allFinite()) throw std::invalid_argument("filtfilt: the signal has NaN or infinite samples");
  // Odd extension where the signal ends: the signal reflected through its end points.
  const Eigen::Index left = starts ? pad : 0, right = ends ? pad : 0;
  Eigen::VectorXd ext(n + left + right);
  for (Eigen::Index i = 0; i < left; ++i) ext[i] = 2.0 * x[0] - x[pad - i];
  for (Eigen::Index i = 0; i < right; ++i) ext[left + n + i] = 2.0 * x[n - 1] - x[n - 2 - i];
  ext.segment(left, n) = x;
  const Eigen::VectorXd zi = lfilter_zi(f);
  const Eigen::VectorXd forward = lfilter(f, ext, zi * ext[0]);
  const Eigen::VectorXd reversed = forward.reverse();
  const Eigen::VectorXd backward = lfilter(f, reversed, zi * reversed[0]);
  return backward.reverse().segment(left, n);
}

Eigen::Index filtfilt_settling(const IirFilter& f, double tolerance) {
  // The impulse response of a stable IIR filter decays geometrically (its slowest pole): computed
  // over a horizon that doubles until its second half lies below the threshold.
  const Eigen::Index pad = filtfilt_padlen(f);
  for (Eigen::Index horizon = 1024; horizon <= (Eigen::Index{1} << 24); horizon *= 2) {
    Eigen::VectorXd impulse = Eigen::VectorXd::Zero(horizon);
    impulse[0] = 1.0;
    const Eigen::VectorXd h = lfilter(f, impulse, Eigen::VectorXd::Zero(std::max(f.a.size(), f.b.size()) - 1));
    const double threshold = tolerance * h.cwiseAbs().maxCoeff();
    Eigen::Index last = horizon - 1;
    while (last > 0 && std::abs(h[last]) <= threshold) --last;
    if (last < horizon / 2) return std::max(last + 1, pad + 1);
  }
  throw std::invalid_argument("filtfilt_settling: the filter's impulse response does not decay (unstable filter?)");
}

Eigen::VectorXd filtfilt_with_gaps(const IirFilter& f, const Eigen::VectorXd& x) {
  const Eigen::Index pad = filtfilt_padlen(f), n = x.size();
  Eigen::VectorXd y = Eigen::VectorXd::Constant(n, std::numeric_limits<double>::quiet_NaN());
  for (Eigen::Index start = 0; start < n;) {
    if (!std::isfinite(x[start])) {
      ++start;
      continue;
    }
    Eigen::Index end = start;
    while (end < n && std::isfinite(x[end])) ++end;
    if (end - start > pad) y.segment(start, end - start) = filtfilt(f, x.segment(start, end - start));
    start = end;
  }
  return y;
}

Eigen::MatrixXd filtfilt_rows(const IirFilter& f, const Eigen::MatrixXd& signals) {
  Eigen::MatrixXd out(signals.rows(), signals.cols());
  for (Eigen::Index r = 0; r < signals.rows(); ++r)
    out.row(r) = filtfilt_with_gaps(f, signals.row(r).transpose()).transpose();
  return out;
}

FilteredNoiseGain filtered_white_noise_gain(const IirFilter& filter, double sample_rate_hz, const IirFilter& then) {
  // The filters are linear and, away from the edges, time-invariant: the output's variance for unit
  // white noise is the sum of its squared impulse response, and likewise for the difference quotient.
  // 2^14 samples: long enough for the responses of the low-passes the data path uses to die out.
  const Eigen::Index n = 1 << 14;
  Eigen::VectorXd h = Eigen::VectorXd::Zero(n);
  h[n / 2] = 1.0;
  if (filter.b.size() > 0) h = filtfilt(filter, h);
  Eigen::VectorXd d = Eigen::VectorXd::Zero(n);
  d.head(n - 1) = (h.tail(n - 1) - h.head(n - 1)) * sample_rate_hz;
  if (then.b.size() > 0) {
    h = filtfilt(then, h);
    d = filtfilt(then, d);
  }
  return {h.norm(), d.norm()};
}

}  // namespace dynid
