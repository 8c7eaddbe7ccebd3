#pragma once
// Digital Butterworth low-pass design: analog prototype poles, frequency prewarping and the
// bilinear transform, as scipy.signal.butter(order, cutoff, fs=rate) computes them (the test
// compares against scipy). Paper 000 filters markers and forces with a bi-directional
// Butterworth at 10 Hz; zero-phase filtering is filtfilt.hpp.

#include <Eigen/Core>

namespace dynid {

/// Transfer function b(z^-1) / a(z^-1), a[0] = 1; b and a have order + 1 coefficients.
struct IirFilter {
  Eigen::VectorXd b, a;
};

/// Low-pass of `order` (1..20) with -3 dB at `cutoff_hz`, for samples at `sample_rate_hz`;
/// requires 0 < cutoff < sample_rate / 2. Throws std::invalid_argument otherwise.
IirFilter butterworth_lowpass(int order, double cutoff_hz, double sample_rate_hz);

}  // namespace dynid
