// Butterworth design and filtfilt against scipy.signal (the oracle runs at test time with Debian's
// python3-scipy, /usr/bin/python3; CI installs it from scripts/debian-packages.txt).

#include "dynid/mocap/butterworth.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "dynid/mocap/filtfilt.hpp"

namespace dynid {
namespace {

// The oracle: for each line "order cutoff rate signal-file" of its input, prints b, a and
// filtfilt(b, a, x) on three lines (one Python start for all cases: importing scipy is slow).
const char* kOracle = R"(
import sys
try:
    import numpy as np
    from scipy import signal
except ImportError as e:
    print("NO_SCIPY", e)
    sys.exit(3)
for line in open(sys.argv[1]):
    order, cutoff, rate, path = line.split()
    b, a = signal.butter(int(order), float(cutoff), fs=float(rate))
    y = signal.filtfilt(b, a, np.loadtxt(path))
    for v in (b, a, y):
        print(" ".join(repr(float(t)) for t in v))
)";

struct Oracle {
  Eigen::VectorXd b, a, y;
};

Eigen::VectorXd parse_line(const std::string& line) {
  std::istringstream in(line);
  std::vector<double> v;
  for (double x; in >> x;) v.push_back(x);
  return Eigen::Map<Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

struct Case {
  int order;
  double cutoff, rate;
  int samples;
};

std::vector<Oracle> scipy(const std::vector<Case>& cases, const std::vector<Eigen::VectorXd>& signals) {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string tag = "dynid_butter_" + std::to_string(::getpid());
  const auto script = dir / (tag + ".py"), list = dir / (tag + ".cases");
  std::ofstream(script) << kOracle;
  {
    std::ofstream cases_out(list);
    cases_out.precision(17);
    for (std::size_t c = 0; c < cases.size(); ++c) {
      const auto data = dir / (tag + "_" + std::to_string(c) + ".txt");
      std::ofstream out(data);
      out.precision(17);
      for (Eigen::Index i = 0; i < signals[c].size(); ++i) out << signals[c][i] << "\n";
      cases_out << cases[c].order << " " << cases[c].cutoff << " " << cases[c].rate << " " << data.string() << "\n";
    }
  }
  const std::string cmd = "/usr/bin/python3 " + script.string() + " " + list.string() + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf{};
  while (std::size_t n = fread(buf.data(), 1, buf.size(), pipe)) out.append(buf.data(), n);
  const int status = pclose(pipe);
  std::vector<Oracle> results;
  std::istringstream lines(out);
  for (std::string b, a, y; std::getline(lines, b) && std::getline(lines, a) && std::getline(lines, y);)
    results.push_back({parse_line(b), parse_line(a), parse_line(y)});
  if (status != 0 || results.size() != cases.size())
    ADD_FAILURE() << "the scipy oracle failed (/usr/bin/python3 needs python3-scipy, see "
                     "scripts/debian-packages.txt): "
                  << out;
  return results;
}

Eigen::VectorXd test_signal(int n, double rate, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0.0, 0.3);
  Eigen::VectorXd x(n);
  for (int i = 0; i < n; ++i) {
    const double t = i / rate;
    x[i] = 0.8 + std::sin(2 * M_PI * 1.3 * t) + 0.4 * std::sin(2 * M_PI * 23.0 * t + 0.3) + noise(rng) + 0.2 * t;
  }
  return x;
}

TEST(Butterworth, CoefficientsAndFiltfiltEqualScipy) {
  // Paper 000 filters markers (150 Hz) and plates (900 Hz) at 10 Hz. Higher orders at low
  // normalised cutoffs make the transfer-function form ill-conditioned, in scipy as here
  // (order 6 at 20 Hz / 1 kHz: lfilter_zi's linear solve already differs by 1e-10).
  const std::vector<Case> cases = {{2, 10.0, 150.0, 300}, {4, 10.0, 900.0, 2000}, {1, 6.0, 100.0, 50},
                                   {3, 45.0, 100.0, 31},  {4, 20.0, 1000.0, 400}, {2, 6.0, 120.0, 13}};
  std::vector<Eigen::VectorXd> signals;
  for (const Case& c : cases) signals.push_back(test_signal(c.samples, c.rate, static_cast<unsigned>(c.order)));
  const std::vector<Oracle> oracle = scipy(cases, signals);
  ASSERT_EQ(oracle.size(), cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    const Oracle& o = oracle[i];
    SCOPED_TRACE(std::to_string(c.order) + " " + std::to_string(c.cutoff) + " " + std::to_string(c.rate));
    const IirFilter f = butterworth_lowpass(c.order, c.cutoff, c.rate);
    ASSERT_EQ(o.b.size(), f.b.size());
    ASSERT_EQ(o.a.size(), f.a.size());
    EXPECT_LT((f.b - o.b).cwiseAbs().maxCoeff(), 1e-14 * o.b.cwiseAbs().maxCoeff());
    EXPECT_LT((f.a - o.a).cwiseAbs().maxCoeff(), 1e-14 * o.a.cwiseAbs().maxCoeff());
    const Eigen::VectorXd y = filtfilt(f, signals[i]);
    ASSERT_EQ(y.size(), o.y.size());
    EXPECT_LT((y - o.y).cwiseAbs().maxCoeff(), 1e-10);
  }
}

TEST(Butterworth, GapsAreFilteredRunByRun) {
  const IirFilter f = butterworth_lowpass(2, 10.0, 150.0);
  const Eigen::VectorXd x = test_signal(200, 150.0, 1);
  Eigen::VectorXd gappy = x;
  gappy.segment(80, 5).setConstant(NAN);  // runs 0..79, 85..149 and 155..199
  gappy.segment(150, 5).setConstant(NAN);
  const Eigen::VectorXd y = filtfilt_with_gaps(f, gappy);
  EXPECT_TRUE(y.segment(80, 5).array().isNaN().all());
  EXPECT_LT((y.head(80) - filtfilt(f, x.head(80))).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_LT((y.segment(85, 65) - filtfilt(f, x.segment(85, 65))).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_LT((y.tail(45) - filtfilt(f, x.tail(45))).cwiseAbs().maxCoeff(), 1e-15);
  // A run no longer than the padding (9 samples for order 2) cannot be filtered: NaN.
  Eigen::VectorXd island = x;
  island.segment(100, 20).setConstant(NAN);
  island.segment(105, 9) = x.segment(105, 9);
  EXPECT_TRUE(filtfilt_with_gaps(f, island).segment(105, 9).array().isNaN().all());
}

TEST(Butterworth, InvalidDesignsAndShortSignalsThrow) {
  EXPECT_THROW(butterworth_lowpass(0, 10, 100), std::invalid_argument);
  EXPECT_THROW(butterworth_lowpass(2, 60, 100), std::invalid_argument);
  EXPECT_THROW(butterworth_lowpass(2, std::nan(""), 100), std::invalid_argument);
  const IirFilter f = butterworth_lowpass(2, 10, 100);
  EXPECT_THROW(filtfilt(f, Eigen::VectorXd::Ones(9)), std::invalid_argument);
  EXPECT_NO_THROW(filtfilt(f, Eigen::VectorXd::Ones(10)));
  // A constant passes unchanged (unit DC gain, steady-state initial conditions).
  EXPECT_LT((filtfilt(f, Eigen::VectorXd::Constant(50, 3.5)).array() - 3.5).abs().maxCoeff(), 1e-12);
}

}  // namespace
}  // namespace dynid

namespace dynid {
namespace {

// The noise gains from the impulse response, against white noise actually filtered (Monte Carlo)
// and against the unfiltered case's closed form (difference of two independent samples: sqrt(2)).
TEST(Butterworth, WhiteNoiseGainsEqualThoseOfFilteredNoise) {
  const double rate = 1000.0;
  const FilteredNoiseGain none = filtered_white_noise_gain(IirFilter{}, rate);
  EXPECT_DOUBLE_EQ(none.value, 1.0);
  EXPECT_NEAR(none.rate, std::sqrt(2.0) * rate, 1e-9);

  std::mt19937 rng(7);
  std::normal_distribution<double> gauss;
  Eigen::VectorXd x(400000);
  for (Eigen::Index k = 0; k < x.size(); ++k) x[k] = gauss(rng);
  const auto measured = [&](const IirFilter& f, const IirFilter& then) {
    Eigen::VectorXd y = filtfilt(f, x);
    Eigen::VectorXd d = (y.tail(y.size() - 1) - y.head(y.size() - 1)) * rate;
    if (then.b.size() > 0) {
      y = filtfilt(then, y);
      d = filtfilt(then, d);
    }
    const Eigen::Index edge = 5000;  // away from the padded ends
    const auto rms = [&](const Eigen::VectorXd& v) {
      return std::sqrt(v.segment(edge, v.size() - 2 * edge).squaredNorm() / static_cast<double>(v.size() - 2 * edge));
    };
    return FilteredNoiseGain{rms(y), rms(d)};
  };
  for (const auto& [cutoff, row_cutoff] : std::vector<std::pair<double, double>>{{10, 0}, {20, 0}, {20, 3}, {10, 3}}) {
    const IirFilter f = butterworth_lowpass(2, cutoff, rate);
    const IirFilter then = row_cutoff > 0 ? butterworth_lowpass(2, row_cutoff, rate) : IirFilter{};
    const FilteredNoiseGain predicted = filtered_white_noise_gain(f, rate, then);
    const FilteredNoiseGain seen = measured(f, then);
    // 400,000 samples of noise low-passed to a few hertz: a few hundred independent values per
    // hertz of bandwidth, so a few per cent of sampling spread at 3 Hz.
    const double tolerance = row_cutoff > 0 ? 0.06 : 0.02;
    EXPECT_NEAR(seen.value / predicted.value, 1.0, tolerance) << cutoff << " Hz then " << row_cutoff;
    EXPECT_NEAR(seen.rate / predicted.rate, 1.0, tolerance) << cutoff << " Hz then " << row_cutoff;
  }
}

}  // namespace
}  // namespace dynid
