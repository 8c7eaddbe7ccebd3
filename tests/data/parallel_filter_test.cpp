#include "dynid/data/parallel_filter.hpp"

#include <gtest/gtest.h>

#include <Eigen/QR>
#include <array>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "dynid/mocap/filtfilt.hpp"

namespace dynid {
namespace {

constexpr double kRate = 1000.0;  // [Hz]

/// Rows of a time-varying linear system A(t) x = b(t), as a regressor along a motion makes them:
/// smooth terms plus a broadband part (impacts, differentiated encoders) well above the cut-off.
struct Equations {
  std::vector<double> time;
  std::vector<MatrixX> A;
  std::vector<VectorX> b;
};

Equations equations(const VectorX& x, int samples, int rows, double t0 = 0.0, unsigned seed = 1) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> gauss;
  Equations e;
  for (int k = 0; k < samples; ++k) {
    const double t = t0 + k / kRate;
    MatrixX A(rows, x.size());
    for (Eigen::Index i = 0; i < A.rows(); ++i)
      for (Eigen::Index j = 0; j < A.cols(); ++j) A(i, j) = std::sin((1.0 + i + 2.0 * j) * t + j) + 0.5 * gauss(rng);
    e.time.push_back(t);
    e.A.push_back(A);
    e.b.push_back(A * x);
  }
  return e;
}

/// Least squares over every row the filter hands over.
struct Collector {
  std::vector<double> time;
  MatrixX A;
  VectorX b;
  void add(const MatrixX& rows, const VectorX& rhs, double t) {
    A.conservativeResize(A.rows() + rows.rows(), rows.cols());
    b.conservativeResize(b.rows() + rhs.rows());
    A.bottomRows(rows.rows()) = rows;
    b.tail(rhs.rows()) = rhs;
    time.push_back(t);
  }
  VectorX solve() const { return A.colPivHouseholderQr().solve(b); }
};

TEST(ParallelRowFilter, FilteredEquationsKeepTheirSolutionExactly) {
  const VectorX x = (VectorX(4) << 1.5, -0.25, 3.0, 0.01).finished();
  const Equations e = equations(x, 3000, 3);
  ParallelFilterOptions o;
  o.cutoff_hz = 5.0;
  Collector out;
  ParallelRowFilter filter(kRate, o,
                           [&](const MatrixX& A, const VectorX& b, const VectorX&, double t) { out.add(A, b, t); });
  const VectorX w = VectorX::Ones(3);
  for (std::size_t k = 0; k < e.time.size(); ++k) filter.add(e.time[k], e.A[k], e.b[k], w);
  filter.flush();
  EXPECT_EQ(filter.decimation(), 50);  // 1000 Hz / (4 x 5 Hz)
  EXPECT_EQ(filter.samples_in(), 3000);
  EXPECT_EQ(filter.samples_out(), 60);
  EXPECT_LT((out.solve() - x).norm(), 1e-9 * x.norm());

  // What the filter exists to avoid: the measured side low-passed, the regressor not (a filter on the
  // signals and not on the equations) -- the solution moves far from x.
  std::vector<Eigen::VectorXd> columns(3, Eigen::VectorXd(3000));
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 3000; ++k) columns[static_cast<std::size_t>(r)][k] = e.b[static_cast<std::size_t>(k)][r];
  const IirFilter lowpass = butterworth_lowpass(2, 5.0, kRate);
  Collector one_sided;
  for (int r = 0; r < 3; ++r)
    columns[static_cast<std::size_t>(r)] = filtfilt(lowpass, columns[static_cast<std::size_t>(r)]);
  for (int k = 0; k < 3000; k += 50) {
    VectorX b(3);
    for (int r = 0; r < 3; ++r) b[r] = columns[static_cast<std::size_t>(r)][k];
    one_sided.add(e.A[static_cast<std::size_t>(k)], b, e.time[static_cast<std::size_t>(k)]);
  }
  EXPECT_GT((one_sided.solve() - x).norm(), 0.1 * x.norm());
}

TEST(ParallelRowFilter, RunsEndAtAChangeOfRowsOrWeightsAndAtTimeGaps) {
  const VectorX x = (VectorX(2) << -2.0, 0.5).finished();
  // Three runs: 3 rows, then 2 rows, then 2 rows with other weights after a gap of 0.5 s.
  const Equations a = equations(x, 700, 3, 0.0, 1), b = equations(x, 400, 2, 0.7, 2), c = equations(x, 300, 2, 1.6, 3);
  ParallelFilterOptions o;
  o.cutoff_hz = 10.0;
  o.decimation = 7;
  o.chunk_s = 0.25;  // and chunks of 250 samples within each run
  Collector out;
  std::vector<VectorX> weights_seen;
  ParallelRowFilter filter(kRate, o, [&](const MatrixX& A, const VectorX& rhs, const VectorX& w, double t) {
    out.add(A, rhs, t);
    weights_seen.push_back(w);
  });
  for (std::size_t k = 0; k < a.time.size(); ++k) filter.add(a.time[k], a.A[k], a.b[k], VectorX::Ones(3));
  for (std::size_t k = 0; k < b.time.size(); ++k) filter.add(b.time[k], b.A[k], b.b[k], VectorX::Ones(2));
  for (std::size_t k = 0; k < c.time.size(); ++k) filter.add(c.time[k], c.A[k], c.b[k], VectorX::Constant(2, 4.0));
  filter.flush();
  EXPECT_EQ(filter.samples_in(), 1400);
  EXPECT_EQ(filter.samples_out(), 200);  // every 7th of 1400 on one global grid
  for (std::size_t k = 1; k < out.time.size(); ++k) EXPECT_GT(out.time[k], out.time[k - 1]);
  EXPECT_EQ(weights_seen.front().size(), 3);
  // The kept rows weigh the 7 samples each stands for (rows kept at 143 Hz, faster than twice the
  // 8.3 Hz noise bandwidth: the decimation, not rate / 2B = 60).
  EXPECT_EQ(weights_seen.back(), VectorX::Constant(2, 4.0 * 7));
  EXPECT_LT((out.solve() - x).norm(), 1e-9 * x.norm());
}

TEST(ParallelRowFilter, ChunksOfALongRunComeOutAsTheWholeRunFiltered) {
  // A 6 s run filtered in chunks of about 0.5 s (overlapping by twice the settling length) against
  // the same run filtered at once: every kept row equal to the filter's 1e-4 settling tolerance.
  const VectorX x = (VectorX(2) << 1.0, -0.5).finished();
  const Equations e = equations(x, 6001, 2);  // the last sample on the decimation grid
  const auto run = [&](double chunk_s, std::vector<MatrixX>& rows, std::vector<double>& weights) {
    ParallelFilterOptions o;
    o.cutoff_hz = 10.0;
    o.chunk_s = chunk_s;
    ParallelRowFilter filter(kRate, o, [&](const MatrixX& A, const VectorX&, const VectorX& w, double) {
      rows.push_back(A);
      weights.push_back(w[0]);
    });
    for (std::size_t k = 0; k < e.time.size(); ++k) filter.add(e.time[k], e.A[k], e.b[k], VectorX::Ones(2));
    filter.flush();
    return filter.settling_samples();
  };
  std::vector<MatrixX> chunked, whole;
  std::vector<double> chunked_w, whole_w;
  const Eigen::Index settling = run(0.5, chunked, chunked_w);
  run(100.0, whole, whole_w);
  ASSERT_LT(4 * settling, 3000);  // at least two chunk boundaries inside the run
  ASSERT_EQ(chunked.size(), whole.size());
  double worst = 0.0, scale = 0.0;
  for (std::size_t k = 0; k < whole.size(); ++k) {
    worst = std::max(worst, (chunked[k] - whole[k]).cwiseAbs().maxCoeff());
    scale = std::max(scale, whole[k].cwiseAbs().maxCoeff());
    EXPECT_DOUBLE_EQ(chunked_w[k], whole_w[k]) << k;
  }
  std::printf("chunked against whole: largest difference %.2g of the rows' %.2g (settling %ld samples)\n", worst, scale,
              static_cast<long>(settling));
  EXPECT_LT(worst, 1e-3 * scale);
  // The run's own ends weigh less than its middle (the filter leaves more noise there; at the
  // start, where both passes' initial states lean on the first sample, nearly all of it).
  EXPECT_LT(whole_w.front(), 0.1 * whole_w[whole_w.size() / 2]);
  EXPECT_LT(whole_w.back(), 0.75 * whole_w[whole_w.size() / 2]);
}

TEST(ParallelRowFilter, RefusesACutOffAboveNyquist) {
  ParallelFilterOptions o;
  o.cutoff_hz = 600.0;
  EXPECT_THROW(ParallelRowFilter(kRate, o, [](const MatrixX&, const VectorX&, const VectorX&, double) {}),
               std::invalid_argument);
  o.cutoff_hz = 0.0;
  EXPECT_THROW(ParallelRowFilter(kRate, o, [](const MatrixX&, const VectorX&, const VectorX&, double) {}),
               std::invalid_argument);
}

TEST(ParallelRowFilter, NoiseBandwidthAndStandardDeviationFactor) {
  // Zero-phase order-2 Butterworth: power gain 1 / (1 + (f/fc)^4)^2, whose integral over f is
  // fc 3 pi / (8 sqrt 2) (analog; the bilinear warping is negligible at fc = rate / 500).
  const ParallelRowFilter filter(1000.0, {.cutoff_hz = 2.0}, [](auto&&...) {});
  EXPECT_NEAR(filter.noise_bandwidth_hz(), 2.0 * 3.0 * M_PI / (8.0 * std::sqrt(2.0)), 1e-3);
  // Kept at 4 rows per cut-off period (decimation 125: 8 Hz), twice as fast as twice the bandwidth.
  EXPECT_EQ(filter.decimation(), 125);
  EXPECT_NEAR(filter.standard_deviation_factor(), std::sqrt(8.0 / (2.0 * filter.noise_bandwidth_hz())), 1e-12);
  // Decimated below twice the bandwidth: the rows are (nearly) independent, no correction.
  const ParallelRowFilter sparse(1000.0, {.cutoff_hz = 2.0, .decimation = 400}, [](auto&&...) {});
  EXPECT_DOUBLE_EQ(sparse.standard_deviation_factor(), 1.0);
}

TEST(ParallelRowFilter, KeptRowsCarryTheInformationOfTheSamplesTheyStandFor) {
  // y_k = a_k x + e_k, a a slow regressor (inside the pass band), e white of unit variance, with
  // per-sample weights that vary (whitened before the filter, unit structure). Ordinary weighted
  // least squares on every raw sample gives var(x_hat) = 1 / sum w a^2. The filtered, decimated rows
  // with the filter's weights must carry the same information (sum W a~^2), and the residuals of
  // the kept rows, weighted, must have the scale the standard deviation factor expects: the spread
  // of x_hat over noise draws is what the information says once the factor corrects the
  // correlation of rows kept faster than twice the noise bandwidth.
  const int n = 20000;
  const double x = 1.5;
  std::vector<double> a(n), w(n);
  for (int k = 0; k < n; ++k) {
    const double t = k / kRate;
    a[k] = std::sin(2.0 * M_PI * 0.3 * t) + 0.5 * std::cos(2.0 * M_PI * 0.7 * t + 1.0);
    w[k] = 1.0 + 0.5 * std::sin(2.0 * M_PI * 0.11 * t);  // weights that follow a "posture"
  }
  double raw_information = 0.0;
  for (int k = 0; k < n; ++k) raw_information += w[k] * a[k] * a[k];
  std::mt19937 rng(7);
  std::normal_distribution<double> gauss;
  std::vector<double> estimates;
  double information = 0.0, factor = 0.0, residual_scale = 0.0;
  for (int draw = 0; draw < 200; ++draw) {
    double H = 0.0, g = 0.0, rss = 0.0;
    long rows = 0;
    std::vector<std::array<double, 3>> kept;
    ParallelRowFilter filter(kRate, {.cutoff_hz = 3.0},
                             [&](const MatrixX& A, const VectorX& b, const VectorX& W, double) {
                               H += W[0] * A(0, 0) * A(0, 0);
                               g += W[0] * A(0, 0) * b[0];
                               kept.push_back({A(0, 0), b[0], W[0]});
                               ++rows;
                             });
    for (int k = 0; k < n; ++k) {
      const double y = a[k] * x + gauss(rng) / std::sqrt(w[k]);
      filter.add(k / kRate, MatrixX::Constant(1, 1, a[k]), VectorX::Constant(1, y), VectorX::Constant(1, w[k]),
                 VectorX::Ones(1));
    }
    filter.flush();
    const double xh = g / H;
    for (const auto& [ak, bk, wk] : kept) rss += wk * (bk - ak * xh) * (bk - ak * xh);
    estimates.push_back(xh);
    information = H;
    factor = filter.standard_deviation_factor();
    residual_scale += rss / static_cast<double>(rows - 1) / 200.0;
  }
  EXPECT_NEAR(information / raw_information, 1.0, 0.02);
  double mean = 0.0, var = 0.0;
  for (double e : estimates) mean += e / estimates.size();
  for (double e : estimates) var += (e - mean) * (e - mean) / (estimates.size() - 1);
  // The spread over draws against 1 / raw information: 200 draws, the variance within ~20 %.
  EXPECT_NEAR(var * raw_information, 1.0, 0.25);
  // What least squares would state from the kept rows' residuals, corrected by the factor.
  const double stated = residual_scale / information * factor * factor;
  EXPECT_NEAR(stated * raw_information, 1.0, 0.25);
}

}  // namespace
}  // namespace dynid
