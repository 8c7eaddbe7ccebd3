#pragma once
// The white noise a sensor's recording carries, read from the recording itself, so that the data
// path need not trust a datasheet (or a default) for the sensor a user actually has.
//
// Second differences d_k = x[k+1] - 2 x[k] + x[k-1] of white noise with per-sample deviation s have
// deviation s sqrt(6); a smooth motion adds |x''| dt^2, negligible when the rate is well above the
// motion's band (a walking robot's gyro at 1 kHz: about 1e-4 rad/s against the noise's 1e-2); the
// median absolute deviation ignores the samples where impacts break that. Quantization counts as
// noise, which it is.

#include <Eigen/Core>

namespace dynid {

/// Per-sample standard deviation of the white noise in `samples` (one channel at a constant rate;
/// NaN samples and the differences that touch them are skipped): 1.4826 median |d - median d| / sqrt 6.
/// NaN when fewer than 50 second differences are left.
double white_noise_sigma(const Eigen::VectorXd& samples);

}  // namespace dynid
