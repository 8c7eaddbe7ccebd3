// Time alignment (data/time_alignment.hpp) against what could disagree with it: lags built into
// synthetic signals (a sub-sample shift, unknown weights of several references), and a simulated
// walk whose F/T and IMU streams the test restamps as clocks that are off by 0-100 ms would.

#include "dynid/data/time_alignment.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "dynid/pipeline/inertial_identification.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/kid_walk_identification.hpp"
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

/// Channels x samples of the sines above as a stream on `clock` records them, at robot times
/// k dt: the sample at robot time tau holds the value at the instant t the stream stamps tau
/// (clock.stream_time(t) = tau), plus white noise of `noise`.
Eigen::MatrixXd sines_on_clock(int channels, Eigen::Index n, double dt, const StreamClock& clock, unsigned seed,
                               double noise) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> phase(0.0, 2.0 * M_PI);
  std::mt19937 noise_rng(seed + 100);
  std::normal_distribution<double> gauss(0.0, noise);
  const double freqs[] = {0.37, 0.91, 1.73, 2.9, 4.3};
  const double rate = 1e-6 * clock.drift_ppm;
  Eigen::MatrixXd x = Eigen::MatrixXd::Zero(channels, n);
  for (int c = 0; c < channels; ++c)
    for (double f : freqs) {
      const double p = phase(rng);
      for (Eigen::Index k = 0; k < n; ++k) {
        const double tau = static_cast<double>(k) * dt;
        const double t = (tau - clock.offset_s + rate * clock.reference_time_s) / (1.0 + rate);
        x(c, k) += std::sin(2.0 * M_PI * f * t + p);
      }
    }
  for (Eigen::Index k = 0; k < x.size(); ++k) x.data()[k] += gauss(noise_rng);
  return x;
}

TEST(TimeAlignment, StreamClockRecoversOffsetAndDriftOfASimulatedClock) {
  // A 30 s recording at 1 kHz; the stream's clock off by 0-100 ms and drifting by up to 40 ppm
  // (issue 19: within 1 ms and 10 ppm). The offset is stated at the recording's middle.
  const double dt = 1e-3;
  const Eigen::Index n = 30001;
  Eigen::VectorXd times(n);
  for (Eigen::Index k = 0; k < n; ++k) times[k] = static_cast<double>(k) * dt;
  const Eigen::MatrixXd reference = sines(3, n, dt, 0.0, 5);
  double worst_offset = 0.0, worst_drift = 0.0;
  for (const auto& [offset, drift] :
       std::vector<std::pair<double, double>>{{0.0, 0.0}, {0.0, 30.0}, {0.04, -25.0}, {0.1, 40.0}, {0.0731, 12.0}}) {
    StreamClock truth;
    truth.offset_s = offset;
    truth.drift_ppm = drift;
    truth.reference_time_s = 15.0;
    const Eigen::MatrixXd signal = 2.0 * sines_on_clock(3, n, dt, truth, 5, 0.05).array() + 0.3;
    TimeAlignmentOptions o;
    o.estimate_drift = true;
    const StreamAlignment a = estimate_stream_clock(reference, signal, times, o, "synthetic");
    SCOPED_TRACE("offset " + std::to_string(offset) + " s, drift " + std::to_string(drift) + " ppm");
    ASSERT_TRUE(a.warning.empty()) << a.warning;
    EXPECT_DOUBLE_EQ(a.clock.reference_time_s, 15.0);
    EXPECT_GE(a.drift_windows, 9);
    EXPECT_NEAR(a.clock.offset_s, offset, 1e-3);
    EXPECT_NEAR(a.clock.drift_ppm, drift, 10.0);
    worst_offset = std::max(worst_offset, std::abs(a.clock.offset_s - offset));
    worst_drift = std::max(worst_drift, std::abs(a.clock.drift_ppm - drift));
    // The stated standard deviation of the drift covers the error.
    EXPECT_LT(std::abs(a.clock.drift_ppm - drift), 4.0 * a.drift_std_ppm + 0.5);
  }
  std::printf("synthetic clocks: worst offset error %.4f ms, worst drift error %.2f ppm\n", 1e3 * worst_offset,
              worst_drift);
  // Too short for three windows of 2 s: the offset alone, drift 0 and said so (drift_windows 0).
  TimeAlignmentOptions o;
  o.estimate_drift = true;
  const StreamAlignment short_one =
      estimate_stream_clock(reference.leftCols(5000), sines(3, 5000, dt, 0.02, 5), times.head(5000), o, "short");
  EXPECT_EQ(short_one.drift_windows, 0);
  EXPECT_EQ(short_one.clock.drift_ppm, 0.0);
  EXPECT_NEAR(short_one.clock.offset_s, 0.02, 1e-4);
  // Without estimate_drift (the default): the offset only.
  StreamClock drifting;
  drifting.offset_s = 0.04;
  drifting.drift_ppm = 30.0;
  drifting.reference_time_s = 15.0;
  const StreamAlignment offset_only =
      estimate_stream_clock(reference, sines_on_clock(3, n, dt, drifting, 5, 0.05), times, {}, "offset only");
  EXPECT_EQ(offset_only.drift_windows, 0);
  EXPECT_EQ(offset_only.clock.drift_ppm, 0.0);
  EXPECT_NEAR(offset_only.clock.offset_s, 0.04, 1e-3);
}

/// Copies data set `from` to `to` with the time column of each stream in `clocks` restamped on its
/// clock (stamp -> clock.stream_time(stamp)): what a device stamping on its own clock records.
void restamp_on_clocks(const std::string& from, const std::string& to,
                       const std::map<std::string, StreamClock>& clocks) {
  fs::remove_all(to);
  fs::copy(from, to, fs::copy_options::recursive);
  for (const auto& [stream, clock] : clocks) {
    const std::string path = to + "/" + stream + ".csv";
    std::ifstream in(path);
    std::ostringstream out;
    std::string line;
    std::getline(in, line);
    out << line << '\n';
    char buf[64];
    while (std::getline(in, line)) {
      const std::size_t comma = line.find(',');
      std::snprintf(buf, sizeof buf, "%.9f", clock.stream_time(std::stod(line.substr(0, comma))));
      out << buf << line.substr(comma) << '\n';
    }
    in.close();
    std::ofstream(path) << out.str();
  }
}

/// The same with a constant offset [s] per stream.
void restamp(const std::string& from, const std::string& to, const std::map<std::string, double>& offsets) {
  std::map<std::string, StreamClock> clocks;
  for (const auto& [stream, offset] : offsets) clocks[stream].offset_s = offset;
  restamp_on_clocks(from, to, clocks);
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
    InertialIdentificationOptions o = test::kid_walk_options(data);
    o.align_time = align;
    // The kinematic estimate on its own. Refined by the fit (the default), the encoders' backlash
    // moves both streams about 0.8 ms late on this walk whose kinematics are exact
    // (WalkTimeAlignmentByFit; docs/identification.md, "Time alignment").
    if (align) o.align_time_by_fit = false;
    o.time_offsets = given;
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

TEST(TimeAlignment, OneWindowWhoseLagTheMotionBiasesDoesNotTiltTheDrift) {
  // On a walk the comparison's own bias differs from stretch to stretch: the first seconds
  // (standing, shifting the weight) and the stop read 1-1.7 ms off the steps' lag. Here 30 s of
  // sines on a clock drifting by 20 ppm, whose first 2.5 s (and, in a second case, also the
  // last 2.5 s) are 1.5 ms further off: a least-squares line through 12 windows' lags would tilt
  // by about 20 ppm per such window at an end; the robust line must stay within 5 ppm.
  const double dt = 1e-3;
  const Eigen::Index n = 30001, stretch = 2500;
  Eigen::VectorXd times(n);
  for (Eigen::Index k = 0; k < n; ++k) times[k] = static_cast<double>(k) * dt;
  const Eigen::MatrixXd reference = sines(3, n, dt, 0.0, 5);
  StreamClock truth;
  truth.offset_s = 0.03;
  truth.drift_ppm = 20.0;
  truth.reference_time_s = 15.0;
  StreamClock biased = truth;
  biased.offset_s += 0.0015;
  const Eigen::MatrixXd steady = sines_on_clock(3, n, dt, truth, 5, 0.05);
  const Eigen::MatrixXd off = sines_on_clock(3, n, dt, biased, 5, 0.05);
  for (const bool both_ends : {false, true}) {
    Eigen::MatrixXd signal = steady;
    signal.leftCols(stretch) = off.leftCols(stretch);
    if (both_ends) signal.rightCols(stretch) = off.rightCols(stretch);
    TimeAlignmentOptions o;
    o.estimate_drift = true;
    const StreamAlignment a = estimate_stream_clock(reference, signal, times, o, "synthetic");
    SCOPED_TRACE(both_ends ? "both ends biased" : "first stretch biased");
    ASSERT_TRUE(a.warning.empty()) << a.warning;
    EXPECT_GE(a.drift_windows, 10);
    EXPECT_NEAR(a.clock.drift_ppm, truth.drift_ppm, 5.0);
    std::printf("%s: drift %.2f +- %.2f ppm (true %.0f)\n",
                both_ends ? "both ends 1.5 ms off" : "first 2.5 s 1.5 ms off", a.clock.drift_ppm, a.drift_std_ppm,
                truth.drift_ppm);
  }
}

TEST(WalkTimeAlignmentNoiseFree, RawStreamsAreAlignedOnTheirFilteredKinematics) {
  // Noise-free data are identified from raw streams; the alignment still reads the kinematics
  // low-passed. Before it did not, each touch-down's jolt in the raw second differences put the
  // F/T 4.5-4.8 ms off on clocks that agree, that offset was applied, and the held-out base force
  // went from 7.7e-5 N to 10-15 N. Clocks that agree: every offset below half an encoder period, nothing
  // applied, the fit the one without --align-time.
  ScenarioOptions walk;
  walk.scenario = "walk";
  walk.out_dir = test::fresh_dir("time_alignment", "noise_free_walk");
  walk.seed = 1;
  walk.noise = NoiseLevel::None;
  walk.lock_upper_body = true;
  ASSERT_FALSE(run_scenario(test::bundled_robot("kid_humanoid"), walk).fell);
  InertialIdentificationOptions o;
  o.model = "kid_humanoid";
  o.data = walk.out_dir;
  o.sensors = "contact";
  o.lock_upper_body = true;
  o.truth_urdf = walk.out_dir + "/truth.urdf";
  const InertialIdentificationResult plain = run_inertial_identification(o);
  o.align_time = true;
  o.align_time_by_fit = false;  // the kinematic estimate itself (the fit's refinement: WalkTimeAlignmentByFit)
  const InertialIdentificationResult aligned = run_inertial_identification(o);
  for (const char* stream : {"ft", "imu"}) {
    const StreamAlignment& a = aligned.time_alignment.at(stream).estimate;
    std::printf("%s: offset %.3f ms, correlation %.3f\n", stream, 1e3 * a.clock.offset_s, a.correlation);
    EXPECT_LT(std::abs(a.clock.offset_s), 0.5e-3) << stream;
    EXPECT_FALSE(aligned.time_alignment.at(stream).applied) << stream;
  }
  std::printf("held-out base force [N]: %.3g without --align-time, %.3g with\n", plain.identified_rms.force,
              aligned.identified_rms.force);
  EXPECT_LT(plain.identified_rms.force, 1e-3);
  EXPECT_NEAR(aligned.identified_rms.force, plain.identified_rms.force, 1e-9);
}

/// The kid humanoid's walk of `steps` steps, seed 1, realistic sensors, into a fresh directory.
ScenarioOptions kid_walk(const std::string& name, int steps) {
  ScenarioOptions walk;
  walk.scenario = "walk";
  walk.out_dir = test::fresh_dir("time_alignment", name);
  walk.seed = 1;
  walk.walk_steps = steps;
  return walk;
}

TEST(WalkClockDrift, DriftEstimatedAlongALongWalkAndAppliedWithAlignDrift) {
  // A 60-step walk (31 s, realistic sensors, seed 1), its F/T and IMU restamped on clocks that are
  // off by 40 / 15 ms and drift by +300 / -200 ppm (a clock far outside a quartz's tolerance, +-4.5 ms
  // at the ends), against the same walk as recorded. --align-drift estimates the drift from 2 s
  // windows; on the walk their lags scatter with the motion (the estimator's own bias), so the drift
  // is known to tens of ppm, not to issue 19's 10 ppm (docs/identification.md, "Time alignment").
  ScenarioOptions walk = kid_walk("long_walk", 60);
  walk.lock_upper_body = true;
  ASSERT_FALSE(run_scenario(test::bundled_robot("kid_humanoid"), walk).fell);
  std::map<std::string, StreamClock> clocks;
  clocks["ft"].offset_s = 0.04;
  clocks["ft"].drift_ppm = 300.0;
  clocks["imu"].offset_s = 0.015;
  clocks["imu"].drift_ppm = -200.0;
  const std::string data = walk.out_dir + "_drifting";
  restamp_on_clocks(walk.out_dir, data, clocks);
  InertialIdentificationOptions o;
  o.model = "kid_humanoid";
  o.data = data;
  o.sensors = "contact";
  o.lock_upper_body = true;
  o.truth_urdf = data + "/truth.urdf";
  o.align_time = true;
  o.align_time_by_fit = false;  // the kinematic windows' drift (the refinement moves offsets only)
  o.gear_backlash_deg = 0.1;    // the clocks again on the encoders less the gears' play
  const InertialIdentificationResult offset_only = run_inertial_identification(o);
  o.align_drift = true;
  const InertialIdentificationResult with_drift = run_inertial_identification(o);
  InertialIdentificationOptions original = o;
  original.data = walk.out_dir;
  original.truth_urdf = walk.out_dir + "/truth.urdf";
  const InertialIdentificationResult stationary = run_inertial_identification(original);
  for (const char* stream : {"ft", "imu"}) {
    const StreamAlignment& a = with_drift.time_alignment.at(stream).estimate;
    const StreamAlignment& s = stationary.time_alignment.at(stream).estimate;
    const double t = a.clock.reference_time_s;
    std::printf(
        "%s: offset %.3f ms (true %.3f), drift %.1f +- %.1f ppm over %d windows (true %.0f); "
        "recorded clocks: %.3f ms, %.1f ppm\n",
        stream, 1e3 * a.clock.offset_s, 1e3 * (clocks[stream].stream_time(t) - t), a.clock.drift_ppm, a.drift_std_ppm,
        a.drift_windows, clocks[stream].drift_ppm, 1e3 * s.clock.offset_s, s.clock.drift_ppm);
    EXPECT_TRUE(a.warning.empty()) << a.warning;
    EXPECT_GE(a.drift_windows, 10) << stream;
    EXPECT_NEAR(a.clock.offset_s, clocks[stream].stream_time(t) - t, 1e-3) << stream;
    EXPECT_NEAR(a.clock.drift_ppm, clocks[stream].drift_ppm, 100.0) << stream;
    EXPECT_EQ(offset_only.time_alignment.at(stream).estimate.drift_windows, 0) << stream;
    EXPECT_EQ(offset_only.time_alignment.at(stream).estimate.clock.drift_ppm, 0.0) << stream;
  }
  const nlohmann::json summary = nlohmann::json::parse(with_drift.summary_json);
  EXPECT_DOUBLE_EQ(summary["time_alignment"]["ft"]["drift_ppm"].get<double>(),
                   with_drift.time_alignment.at("ft").estimate.clock.drift_ppm);
  EXPECT_GE(summary["time_alignment"]["ft"]["drift_windows"].get<int>(), 10);
  // Reading the streams on the drifting clocks restores the fit an offset alone leaves worse.
  std::printf("held-out base force [N]: offset only %.3f, offset and drift %.3f, recorded clocks %.3f\n",
              offset_only.identified_rms.force, with_drift.identified_rms.force, stationary.identified_rms.force);
  EXPECT_LT(with_drift.identified_rms.force, offset_only.identified_rms.force);
  EXPECT_LT(with_drift.identified_rms.force, 1.2 * stationary.identified_rms.force);
}

TEST(WalkClockDrift, TheSimulatedQuartzDriftIsFoundWithinTenPpmOnAWalkOfAMinuteAndAHalf) {
  // Issue 19's bar for the drift: within 10 ppm. The simulator's own clocks (`--perturb time`:
  // offsets within +-50 ms, quartz drifts within +-30 ppm) on a 200-step walk, 93 s: the lags of the
  // windows carry the motion's bias (a few tenths of a ms, most at the start and the stop), which
  // spread over 93 s is a few ppm; over the 31 s walk above it was tens (docs/identification.md,
  // "Time alignment"). The offsets are this kinematic comparison's, 1.8 and 3.8 ms off on the
  // simulator's clocks; `identify inertial` refines them by the fit's residual
  // (WalkTimeAlignmentByFit): on 200-step walks of seeds 1-3 with the upper body locked, to within
  // 0.6 ms.
  ScenarioOptions walk = kid_walk("walk_200_steps", 200);
  walk.perturbations = {"time"};
  const Robot robot = test::bundled_robot("kid_humanoid");
  ASSERT_FALSE(run_scenario(robot, walk).fell);
  std::ifstream in(walk.out_dir + "/dataset.json");
  const nlohmann::json time = nlohmann::json::parse(in)["perturbations"]["time"];
  const DatasetInfo dataset = read_dataset_info(walk.out_dir);
  Model model = robot.model;
  model.gravity = dataset.gravity;
  TimeAlignmentOptions options;
  options.estimate_drift = true;
  const auto clocks = estimate_stream_clocks(model, *robot.sidecar, dataset, SensorSourceOptions{}, {}, {}, options);
  for (const char* stream : {"ft", "imu"}) {
    ASSERT_TRUE(clocks.count(stream)) << stream;
    const StreamAlignment& a = clocks.at(stream);
    StreamClock truth;
    truth.offset_s = time["time_offset_s"][stream].get<double>();
    truth.drift_ppm = time["drift_ppm"][stream].get<double>();
    const double t = a.clock.reference_time_s;
    std::printf("%s: offset at %.1f s %.3f ms (true %.3f), drift %.2f +- %.2f ppm (true %.2f) over %d windows\n",
                stream, t, 1e3 * a.clock.offset_s, 1e3 * (truth.stream_time(t) - t), a.clock.drift_ppm, a.drift_std_ppm,
                truth.drift_ppm, a.drift_windows);
    EXPECT_TRUE(a.warning.empty()) << a.warning;
    EXPECT_GE(a.drift_windows, 10) << stream;
    EXPECT_NEAR(a.clock.drift_ppm, truth.drift_ppm, 10.0) << stream;
    // The drift is a measurement, not the identity clock: the quartz's is at least 10 ppm here.
    EXPECT_GT(std::abs(truth.drift_ppm), 10.0) << stream;
  }
}

}  // namespace
}  // namespace dynid

namespace dynid {
namespace {

TEST(WalkTimeAlignmentByFit, TheFitsResidualFindsTheClocksTheGeometryHidesFromTheKinematics) {
  // The kid walk (seed 1, realistic sensors) with its F/T and IMU on their own clocks and the true
  // robot's joints off by machining tolerances (`--perturb time,geometry`), validated on the same
  // robot bending its trunk. The kinematic comparison reads the nominal geometry: on the walk its
  // F/T offset is 1.65 ms off, the IMU's 1.0 ms (3.4 and 2.0 ms when the testbed's encoders jumped
  // across the gears' play with the motor torque). The fit's residual, minimised over the offsets,
  // finds both within 0.9 ms. The validation data's clocks stay the kinematic estimate (the
  // identified model's residual on the slow trunk bending is no clock signal: docs/identification.md).
  ScenarioOptions walk;
  walk.scenario = "walk";
  walk.out_dir = test::fresh_dir("time_alignment", "walk_time_geometry");
  walk.seed = 1;
  walk.lock_upper_body = true;
  walk.perturbations = {"time", "geometry"};
  ASSERT_FALSE(run_scenario(test::bundled_robot("kid_humanoid"), walk).fell);
  ScenarioOptions bend = walk;
  bend.scenario = "excite";
  bend.motion = "trunk-bend";
  bend.out_dir = walk.out_dir + "_trunk_bend";
  ASSERT_FALSE(run_scenario(test::bundled_robot("kid_humanoid"), bend).fell);
  auto true_offset = [](const std::string& data, const std::string& stream, double t) {
    const nlohmann::json d = nlohmann::json::parse(std::ifstream(data + "/dataset.json"));
    const nlohmann::json& time = d["perturbations"]["time"];
    return time["time_offset_s"][stream].get<double>() + time["drift_ppm"][stream].get<double>() * 1e-6 * t;
  };
  InertialIdentificationOptions o = test::kid_walk_options(walk.out_dir);
  o.sensor_options.cutoff_hz = 20.0;
  o.parallel_filter.cutoff_hz = 3.0;
  o.cad_prior_coordinates = CadPriorCoordinates::Com;
  o.validate = bend.out_dir;
  o.align_time = true;
  o.align_time_by_fit = false;
  // The clocks of one fit: the gears' play left in the encoders (taken off, the clocks are estimated
  // a second time on the corrected encoders, and the validation's with the identified model).
  o.gear_backlash_deg = 0.0;
  const InertialIdentificationResult kinematic = run_inertial_identification(o);
  o.align_time_by_fit = true;
  const InertialIdentificationResult refined = run_inertial_identification(o);
  for (const char* stream : {"ft", "imu"}) {
    const AppliedStreamClock& k = kinematic.time_alignment.at(stream);
    const AppliedStreamClock& r = refined.time_alignment.at(stream);
    const double truth = true_offset(walk.out_dir, stream, r.estimate.clock.reference_time_s);
    ASSERT_TRUE(r.refined.has_value()) << stream;
    EXPECT_FALSE(k.refined.has_value()) << stream;
    std::printf("walk %s: offset error %.2f ms from the kinematics, %.2f ms refined by the fit (%d fits)\n", stream,
                1e3 * (k.estimate.clock.offset_s - truth), 1e3 * (r.estimate.clock.offset_s - truth), r.refined->fits);
    EXPECT_DOUBLE_EQ(r.refined->kinematic_offset_s, k.estimate.clock.offset_s) << stream;
    EXPECT_LT(std::abs(r.estimate.clock.offset_s - truth), 1e-3) << stream;
    EXPECT_LT(r.refined->residual_rms_refined, r.refined->residual_rms_kinematic) << stream;
    EXPECT_TRUE(r.refined->converged) << r.refined->warning;
    EXPECT_TRUE(r.applied) << stream;
  }
  {
    const AppliedStreamClock &k = kinematic.time_alignment.at("ft"), &r = refined.time_alignment.at("ft");
    EXPECT_GT(
        std::abs(k.estimate.clock.offset_s - true_offset(walk.out_dir, "ft", k.estimate.clock.reference_time_s)),
        1.5 * std::abs(r.estimate.clock.offset_s - true_offset(walk.out_dir, "ft", r.estimate.clock.reference_time_s)));
  }
  // The validation data's own clocks, reported beside the training's: the kinematic estimate.
  ASSERT_TRUE(refined.validation_time_alignment.count("ft"));
  const AppliedStreamClock& v = refined.validation_time_alignment.at("ft");
  EXPECT_FALSE(v.refined.has_value());
  EXPECT_DOUBLE_EQ(v.estimate.clock.offset_s, kinematic.validation_time_alignment.at("ft").estimate.clock.offset_s);
  std::printf("first moments / inertias x CAD's error: %.2f / %.2f kinematic clocks, %.2f / %.2f refined\n",
              test::class_ratio(kinematic, "first_moment"), test::class_ratio(kinematic, "inertia"),
              test::class_ratio(refined, "first_moment"), test::class_ratio(refined, "inertia"));
  EXPECT_LT(test::class_ratio(refined, "inertia"), test::class_ratio(kinematic, "inertia"));
  const nlohmann::json summary = nlohmann::json::parse(refined.summary_json);
  EXPECT_DOUBLE_EQ(summary["time_alignment"]["ft"]["refined_by_fit"]["kinematic_offset_s"].get<double>(),
                   kinematic.time_alignment.at("ft").estimate.clock.offset_s);
  EXPECT_DOUBLE_EQ(summary["validation_time_alignment"]["ft"]["offset_s"].get<double>(), v.estimate.clock.offset_s);
}

}  // namespace
}  // namespace dynid
