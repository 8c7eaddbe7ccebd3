// Zero-phase filtering a piece at a time (the sensor path's bounded memory): pieces that reach the
// filter's settling length beyond the samples kept give what filtfilt of the whole signal gives,
// and shorter overlaps do not (so the overlap is what makes them agree). The settling length
// against the slowest pole's analytic decay.

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "dynid/mocap/butterworth.hpp"
#include "dynid/mocap/filtfilt.hpp"

namespace dynid {
namespace {

/// A random walk with steps (a signal that is far from its steady state at any piece's edge).
Eigen::VectorXd random_walk(Eigen::Index n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> step(0.0, 0.01);
  Eigen::VectorXd x(n);
  double v = 0.3;
  for (Eigen::Index k = 0; k < n; ++k) {
    v += step(rng);
    x[k] = v + (k % 3000 < 1500 ? 0.2 : -0.2);
  }
  return x;
}

/// Largest difference from the whole signal's filtfilt of the pieced result, chunks of `chunk`
/// samples filtered with `overlap` samples of context on each side; relative to the signal's range.
double pieced_error(const IirFilter& f, const Eigen::VectorXd& x, Eigen::Index chunk, Eigen::Index overlap) {
  const Eigen::VectorXd whole = filtfilt(f, x);
  const Eigen::Index n = x.size();
  double err = 0.0;
  for (Eigen::Index a = 0; a < n; a += chunk) {
    const Eigen::Index b = std::min(n, a + chunk);
    const Eigen::Index lo = std::max<Eigen::Index>(0, a - overlap), hi = std::min(n, b + overlap);
    const Eigen::VectorXd y = filtfilt_piece(f, x.segment(lo, hi - lo), lo == 0, hi == n);
    err = std::max(err, (y.segment(a - lo, b - a) - whole.segment(a, b - a)).cwiseAbs().maxCoeff());
  }
  return err / (x.maxCoeff() - x.minCoeff());
}

TEST(FiltfiltPiece, PiecesWithTheSettlingOverlapGiveTheWholeSignalsResult) {
  const Eigen::VectorXd x = random_walk(20000, 7);
  for (const auto& [order, cutoff] : {std::pair{2, 10.0}, std::pair{4, 5.0}, std::pair{2, 40.0}}) {
    const IirFilter f = butterworth_lowpass(order, cutoff, 1000.0);
    const Eigen::Index overlap = filtfilt_settling(f);
    const double err = pieced_error(f, x, 1700, overlap);
    // The transfer-function form amplifies round-off (filtfilt.hpp: order 4 at low cut-offs): how much
    // the whole signal's result moves when its samples move by 1e-16 of the range is the floor.
    Eigen::VectorXd nudged = x;
    for (Eigen::Index k = 0; k < x.size(); k += 2) nudged[k] += 1e-16 * (x.maxCoeff() - x.minCoeff());
    const double floor = (filtfilt(f, nudged) - filtfilt(f, x)).cwiseAbs().maxCoeff() / (x.maxCoeff() - x.minCoeff());
    std::printf("order %d, %.0f Hz: overlap %ld samples, pieced vs whole %.2e of the range (round-off floor %.2e)\n",
                order, cutoff, static_cast<long>(overlap), err, floor);
    EXPECT_LT(err, std::max(1e-13, 10.0 * floor));
    // A quarter of the overlap leaves the edge transient in: the agreement is the overlap's doing.
    EXPECT_GT(pieced_error(f, x, 1700, overlap / 4), 1e-7);
  }
  // Both ends open is filtfilt itself.
  const IirFilter f = butterworth_lowpass(2, 10.0, 1000.0);
  EXPECT_EQ(filtfilt_piece(f, x, true, true), filtfilt(f, x));
}

TEST(FiltfiltPiece, SettlingFollowsTheSlowestPole) {
  // A second-order low-pass has a pair of complex poles of modulus sqrt(a2): its impulse response
  // decays like sqrt(a2)^k, so reaching 1e-17 of the peak takes about log(1e-17) / log(sqrt(a2)).
  for (const double cutoff : {5.0, 10.0, 40.0}) {
    const IirFilter g = butterworth_lowpass(2, cutoff, 1000.0);
    const double rho = std::sqrt(g.a[2] / g.a[0]);
    const double expected = std::log(1e-17) / std::log(rho);
    const double got = static_cast<double>(filtfilt_settling(g));
    EXPECT_NEAR(got, expected, 0.1 * expected) << cutoff << " Hz";
  }
  // A filter that does not decay is refused.
  IirFilter unstable{Eigen::VectorXd::Ones(1), Eigen::Vector2d(1.0, -1.0)};
  EXPECT_THROW(filtfilt_settling(unstable), std::invalid_argument);
}

}  // namespace
}  // namespace dynid
