#include "dynid/data/white_noise_estimate.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace dynid {
namespace {

constexpr double kRate = 1000.0;  // [Hz]

/// A gyro-like recording: a walking robot's body rate (1-3 Hz, 0.5 rad/s), white noise of `sigma`
/// per sample, and impacts (a 5 ms burst of 2 rad/s every 0.4 s) that no Gaussian noise explains.
Eigen::VectorXd recording(double sigma, int samples, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> gauss;
  Eigen::VectorXd x(samples);
  for (int k = 0; k < samples; ++k) {
    const double t = k / kRate;
    x[k] = 0.5 * std::sin(2.0 * M_PI * 1.1 * t) + 0.2 * std::sin(2.0 * M_PI * 2.9 * t + 1.0) + sigma * gauss(rng);
    if (std::fmod(t, 0.4) < 0.005) x[k] += 2.0 * std::sin(M_PI * std::fmod(t, 0.4) / 0.005);
  }
  return x;
}

TEST(WhiteNoiseEstimate, RecoversTheNoiseOfAMovingImpactedRecording) {
  // The BMI088 gyro's density at 1 kHz (0.014 deg/s/sqrt(Hz): 7.7e-3 rad/s per sample), ten times
  // less and ten times more: within 3 % each (20,000 samples leave the MAD about 1 % of spread).
  for (const double sigma : {7.7e-4, 7.7e-3, 7.7e-2}) {
    const double estimate = white_noise_sigma(recording(sigma, 20000, 3));
    EXPECT_NEAR(estimate / sigma, 1.0, 0.03) << sigma;
  }
  // Without the median the impacts would dominate: the plain deviation of the second differences
  // is far above the noise's.
  const Eigen::VectorXd x = recording(7.7e-3, 20000, 4);
  const Eigen::VectorXd d = x.segment(2, x.size() - 2) - 2.0 * x.segment(1, x.size() - 2) + x.head(x.size() - 2);
  EXPECT_GT(std::sqrt(d.squaredNorm() / d.size() / 6.0), 3.0 * 7.7e-3);
}

TEST(WhiteNoiseEstimate, ANoiseFreeRecordingHasNone) {
  // The motion alone: what its second differences leave (|x''| dt^2 ~ 3e-5) is far below any IMU's.
  EXPECT_LT(white_noise_sigma(recording(0.0, 20000, 1)), 1e-4);
}

TEST(WhiteNoiseEstimate, SkipsGapsAndRefusesTooFewSamples) {
  Eigen::VectorXd x = recording(7.7e-3, 20000, 5);
  for (int k = 1000; k < 1200; ++k) x[k] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NEAR(white_noise_sigma(x) / 7.7e-3, 1.0, 0.03);
  EXPECT_TRUE(std::isnan(white_noise_sigma(recording(7.7e-3, 40, 6))));
}

}  // namespace
}  // namespace dynid
