#include "dynid/mocap/butterworth.hpp"

#include <cmath>
#include <complex>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

namespace dynid {
namespace {

using Complex = std::complex<double>;

// Coefficients of prod (x - r_i), highest power first (numpy.poly).
std::vector<Complex> poly(const std::vector<Complex>& roots) {
  std::vector<Complex> c{1.0};
  for (const Complex& r : roots) {
    c.push_back(0.0);
    for (std::size_t i = c.size() - 1; i > 0; --i) c[i] -= r * c[i - 1];
  }
  return c;
}

}  // namespace

IirFilter butterworth_lowpass(int order, double cutoff_hz, double sample_rate_hz) {
  if (order < 1 || order > 20)
    throw std::invalid_argument("Butterworth: order must be 1..20, not " + std::to_string(order));
  if (!(sample_rate_hz > 0 && cutoff_hz > 0 && cutoff_hz < sample_rate_hz / 2))
    throw std::invalid_argument("Butterworth: cutoff " + std::to_string(cutoff_hz) +
                                " Hz must lie between 0 and half of " + std::to_string(sample_rate_hz) + " Hz");
  const double pi = std::numbers::pi;
  // scipy normalises to fs = 2 (Nyquist = 1) and prewarps: the analog cutoff that the bilinear
  // transform maps onto the digital one.
  const double wn = 2.0 * cutoff_hz / sample_rate_hz;
  const double fs = 2.0;
  const double warped = 2.0 * fs * std::tan(pi * wn / fs);

  // Analog prototype poles on the left half of the unit circle, scaled to the cutoff.
  std::vector<Complex> poles;
  for (int m = -order + 1; m < order; m += 2) poles.push_back(-std::exp(Complex(0.0, pi * m / (2.0 * order))) * warped);
  double gain = std::pow(warped, order);

  // Bilinear transform z = (2 fs + s) / (2 fs - s); the zeros at infinity go to z = -1.
  const double fs2 = 2.0 * fs;
  Complex denominator = 1.0;
  std::vector<Complex> poles_z;
  for (const Complex& p : poles) {
    poles_z.push_back((fs2 + p) / (fs2 - p));
    denominator *= fs2 - p;
  }
  gain *= (1.0 / denominator).real();

  const std::vector<Complex> b = poly(std::vector<Complex>(static_cast<std::size_t>(order), Complex(-1.0)));
  const std::vector<Complex> a = poly(poles_z);
  IirFilter f{Eigen::VectorXd(order + 1), Eigen::VectorXd(order + 1)};
  for (int i = 0; i <= order; ++i) {
    f.b[i] = gain * b[static_cast<std::size_t>(i)].real();
    f.a[i] = a[static_cast<std::size_t>(i)].real();
  }
  return f;
}

}  // namespace dynid
