// Time alignment (data/time_alignment.hpp) against what could disagree with it: lags built into
// synthetic signals (a sub-sample shift, unknown weights of several references), and a simulated
// walk whose F/T and IMU streams the test restamps as clocks that are off by 0-100 ms would.

#include "dynid/data/time_alignment.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "dynid/pipeline/inertial_identification.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

namespace fs = std::filesystem;

/// Channels x samples of incommensurate sines with random phases at time t - shift [s].
Eigen::MatrixXd sines(int channels, Eigen::Index n, double dt, double shift, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> phase(0.0, 2.0 * M_PI);
  const double freqs[] = {0.37, 0.91, 1.73, 2.9, 4.3};
  Eigen::MatrixXd x = Eigen::MatrixXd::Zero(channels, n);
  for (int c = 0; c < channels; ++c)
    for (double f : freqs) {
      const double p = phase(rng);
      for (Eigen::Index k = 0; k < n; ++k)
        x(c, k) += std::sin(2.0 * M_PI * f * (static_cast<double>(k) * dt - shift) + p);
    }
  return x;
}

TEST(TimeAlignment, EstimateLagRecoversASubSampleShiftWhateverTheScaleAndOffset) {
  const double dt = 1e-3, lag = 0.0373;  // 37.3 samples
  const Eigen::Index n = 8000;
  const Eigen::MatrixXd reference = sines(3, n, dt, 0.0, 1);
  // The stream stamps late by `lag`: its sample at t + lag holds the reference's value at t.
  std::mt19937 rng(2);
  std::normal_distribution<double> noise(0.0, 0.02);
  Eigen::MatrixXd signal = 2.5 * sines(3, n, dt, lag, 1);
  signal.array() += 0.7;
  for (Eigen::Index k = 0; k < signal.size(); ++k) signal.data()[k] += noise(rng);
  const LagEstimate e = estimate_lag(reference, signal, dt, 0.2);
  EXPECT_NEAR(e.lag_s, lag, 5e-5);
  EXPECT_GT(e.correlation, 0.99);
  EXPECT_FALSE(e.at_limit);
  EXPECT_NEAR(estimate_lag(reference, sines(3, n, dt, -lag, 1), dt, 0.2).lag_s, -lag, 5e-5);
  EXPECT_THROW(estimate_lag(reference, signal.leftCols(n - 1), dt, 0.2), std::invalid_argument);
}

TEST(TimeAlignment, RegressedLagFindsTheShiftOfASumWithUnknownWeights) {
  // The contact force is the limbs' accelerations weighted by masses the CAD model has wrong: a
  // reference with the wrong weights correlates best at a shifted lag; refitting the weights does not.
  const double dt = 1e-3, lag = 0.0231;
  const Eigen::Index n = 8000;
  const Eigen::MatrixXd a = sines(3, n, dt, 0.0, 3), b = sines(3, n, dt, 0.0, 4);
  const Eigen::MatrixXd signal = 3.0 * sines(3, n, dt, lag, 3) - 0.7 * sines(3, n, dt, lag, 4);
  const LagEstimate e = estimate_lag_regressed({a, b}, signal, dt, 0.2);
  EXPECT_NEAR(e.lag_s, lag, 5e-5);
  EXPECT_GT(e.correlation, 0.999);
  const LagEstimate wrong_weights = estimate_lag(a + b, signal, dt, 0.2);
  EXPECT_GT(std::abs(wrong_weights.lag_s - lag), 1e-3);  // why the weights are refitted
}

/// Copies data set `from` to `to` with the time column of each stream in `offsets` moved by its
/// offset [s]: what a device stamping on its own clock records.
void restamp(const std::string& from, const std::string& to, const std::map<std::string, double>& offsets) {
  fs::remove_all(to);
  fs::copy(from, to, fs::copy_options::recursive);
  for (const auto& [stream, offset] : offsets) {
    const std::string path = to + "/" + stream + ".csv";
    std::ifstream in(path);
    std::ostringstream out;
    std::string line;
    std::getline(in, line);
    out << line << '\n';
    char buf[64];
    while (std::getline(in, line)) {
      const std::size_t comma = line.find(',');
      std::snprintf(buf, sizeof buf, "%.9f", std::stod(line.substr(0, comma)) + offset);
      out << buf << line.substr(comma) << '\n';
    }
    in.close();
    std::ofstream(path) << out.str();
  }
}

class WalkTimeAlignment : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ScenarioOptions o;
    o.scenario = "walk";
    o.out_dir = test::fresh_dir("time_alignment", "walk");
    o.seed = 1;
    o.lock_upper_body = true;
    ASSERT_FALSE(run_scenario(test::bundled_robot("kid_humanoid"), o).fell);
    dir_ = o.out_dir;
  }
  static InertialIdentificationResult identify(const std::string& data, bool align,
                                               const std::map<std::string, double>& given = {},
                                               const std::string& out_dir = "") {
    InertialIdentificationOptions o;
    o.model = "kid_humanoid";
    o.data = data;
    o.sensors = "contact";
    o.source = "sensors";
    o.lock_upper_body = true;
    o.align_time = align;
    o.time_offsets = given;
    o.truth_urdf = data + "/truth.urdf";
    o.out_dir = out_dir;
    return run_inertial_identification(o);
  }
  static std::string dir_;
};
std::string WalkTimeAlignment::dir_;

TEST_F(WalkTimeAlignment, RecoversOffsetsOfZeroToAHundredMillisecondsWithinOneMillisecond) {
  // The realistic walk (encoders, IMU, foot F/T with their noise and the encoders' backlash). Measured
  // errors: F/T below 0.1 ms, IMU 0.34-0.36 ms (docs/identification.md, "Time alignment").
  for (const auto& [ft, imu] : std::vector<std::pair<double, double>>{{0.0, 0.0}, {0.04, 0.015}, {0.1, 0.06}}) {
    const std::string data = dir_ + "_restamped";
    restamp(dir_, data, {{"ft", ft}, {"imu", imu}});
    const InertialIdentificationResult r = identify(data, true);
    SCOPED_TRACE("ft " + std::to_string(ft) + " s, imu " + std::to_string(imu) + " s");
    ASSERT_TRUE(r.time_alignment.count("ft") && r.time_alignment.count("imu"));
    const AppliedStreamClock &f = r.time_alignment.at("ft"), &i = r.time_alignment.at("imu");
    EXPECT_TRUE(f.estimate.warning.empty()) << f.estimate.warning;
    EXPECT_NEAR(f.estimate.clock.offset_s, ft, 1e-3);
    EXPECT_NEAR(i.estimate.clock.offset_s, imu, 1e-3);
    EXPECT_FALSE(f.given);
    // Applied where it matters (half an encoder period or more), left alone where the stamps agree.
    EXPECT_EQ(f.applied, ft > 0.0);
    EXPECT_EQ(i.applied, imu > 0.0);
  }
}

TEST_F(WalkTimeAlignment, AligningRestoresTheHeldOutFitThatAFortyMillisecondOffsetSpoils) {
  const std::string data = dir_ + "_ft40";
  restamp(dir_, data, {{"ft", 0.04}});
  const InertialIdentificationResult as_stamped = identify(data, false);
  const std::string out = test::fresh_dir("time_alignment", "aligned_out");
  const InertialIdentificationResult aligned = identify(data, true, {}, out);
  const InertialIdentificationResult given = identify(data, false, {{"ft", 0.04}});
  const InertialIdentificationResult original = identify(dir_, false);
  std::printf("held-out base force [N]: 40 ms off %.3f, aligned %.3f, given %.3f, original %.3f\n",
              as_stamped.identified_rms.force, aligned.identified_rms.force, given.identified_rms.force,
              original.identified_rms.force);
  EXPECT_GT(as_stamped.identified_rms.force, 2.0 * original.identified_rms.force);
  // The report's unexplained residual tells the offset apart: far above the sensors' noise as
  // stamped, back near the original's once aligned.
  std::printf("residual / sensor noise: 40 ms off %.2f, aligned %.2f, original %.2f\n",
              as_stamped.unexplained.noise_ratio, aligned.unexplained.noise_ratio, original.unexplained.noise_ratio);
  EXPECT_EQ(as_stamped.unexplained.level, "far-above-sensor-noise");
  EXPECT_LT(aligned.unexplained.noise_ratio, 1.2 * original.unexplained.noise_ratio);
  EXPECT_NE(original.unexplained.level, "far-above-sensor-noise");
  EXPECT_LT(aligned.identified_rms.force, 1.1 * original.identified_rms.force);
  EXPECT_TRUE(given.time_alignment.at("ft").given && given.time_alignment.at("ft").applied);
  // The report shows the clocks (a table row per stream, the estimate in ms).
  std::ifstream html(out + "/report.html");
  const std::string text((std::istreambuf_iterator<char>(html)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("Stream clocks against the encoders"), std::string::npos);
  char ms[32];
  std::snprintf(ms, sizeof ms, "%.2f", 1e3 * aligned.time_alignment.at("ft").estimate.clock.offset_s);
  EXPECT_NE(text.find(std::string(">") + ms + "<"), std::string::npos) << ms;
  EXPECT_NEAR(given.identified_rms.force, original.identified_rms.force, 0.05 * original.identified_rms.force);
}

}  // namespace
}  // namespace dynid
