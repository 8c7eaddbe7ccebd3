// Force plates zeroed from the windows where they carry no foot (data/plate_zero.hpp). A hand-built
// session of poses, some on one foot, whose plates read a known zero offset and drift on every
// channel gives them back; a plate that always carries a foot is left as recorded; one window gives
// the offset without a drift; and bad input is refused in one line.

#include "dynid/data/plate_zero.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <functional>

namespace dynid {
namespace {

constexpr double kWeight = 760.0;  // [N]
constexpr double kRate = 100.0;    // plate samples per second

struct Zero {
  Vector6 offset, drift;  // [N; N m], per second
};

/// Two plates; pose k lasts `pose_s` seconds with support(k) = 0 (both feet), 1 (left only) or
/// 2 (right only); a foot landing or lifting off ramps its load over 0.05 s at the pose's start.
/// Each plate reads its load (and a moment from the COP 2 cm off its centre) plus `zero[p]`'s offset
/// and drift, plus `noise` (a deterministic +-noise sequence) on every channel.
LabRecording session(int poses, double pose_s, const std::function<int(int)>& support, const std::array<Zero, 2>& zero,
                     double noise = 0.0) {
  LabRecording rec;
  rec.dataset.directory = "hand-built";
  rec.dataset.force_plates = {{"plate_left", Vector3(0, 0.3, 0), {}}, {"plate_right", Vector3(0, -0.3, 0), {}}};
  const int per_pose = static_cast<int>(std::lround(pose_s * kRate));
  rec.plate_wrench.setZero(12, poses * per_pose);
  for (int k = 0; k < poses; ++k)
    for (int i = 0; i < per_pose; ++i) {
      const int col = k * per_pose + i;
      const double t = 1.0 + (k * per_pose + i) / kRate;  // the recording starts at 1 s
      rec.plate_time.push_back(t);
      const double ramp = std::min(1.0, (i / kRate) / 0.05);
      const int s = support(k);
      const double share[2] = {s == 0 ? 0.5 : (s == 1 ? 1.0 : 0.0), s == 0 ? 0.5 : (s == 2 ? 1.0 : 0.0)};
      for (int p = 0; p < 2; ++p) {
        const double fz = -kWeight * share[p] * (share[p] > 0.0 ? ramp : 1.0);
        Vector6 w;
        w << 2.0 * share[p], -1.0 * share[p], fz, 0.02 * fz, -0.01 * fz, 0.0;
        const Zero& z = zero[static_cast<std::size_t>(p)];
        w += z.offset + z.drift * (t - 1.0);
        for (int c = 0; c < 6; ++c) w[c] += noise * (((col * 7 + c * 13 + p * 5) % 11) / 5.0 - 1.0);
        rec.plate_wrench.block<6, 1>(6 * p, col) = w;
      }
    }
  return rec;
}

std::array<Zero, 2> zeros() {
  Zero a, b;
  a.offset << 0.8, -0.3, 1.5, 0.05, -0.02, 0.01;
  a.drift << 0.003, -0.002, 0.004, 3e-4, -2e-4, 1e-4;
  b.offset << -0.4, 0.6, -1.1, -0.03, 0.04, -0.02;
  b.drift << -0.001, 0.0025, -0.0035, -1e-4, 3e-4, -2e-4;
  return {a, b};
}

// Paper 000's protocol shape: poses on both feet, then on the left, then on the right, interleaved.
int protocol(int k) { return k % 5 == 1 ? 1 : (k % 5 == 3 ? 2 : 0); }

TEST(PlateZero, UnloadedWindowsGiveEachPlatesOffsetAndDriftOnEveryChannel) {
  const std::array<Zero, 2> z = zeros();
  LabRecording rec = session(60, 2.0, protocol, z);
  const PlateZeroing zero = estimate_plate_zero(rec);
  ASSERT_EQ(zero.plates.size(), 2u);
  for (std::size_t p = 0; p < 2; ++p) {
    const PlateZero& e = zero.plates[p];
    EXPECT_EQ(e.windows, 12) << e.plate;  // one pose in five lifts this plate's foot
    // Each window a pose (1.99 s between its first and last sample) less 0.1 s at both ends; the
    // next pose's foot lands from zero, one more sample.
    EXPECT_NEAR(e.unloaded_s, 12 * 1.79, 12 * 0.011) << e.plate;
    EXPECT_TRUE(e.drift_estimated);
    EXPECT_DOUBLE_EQ(e.reference_time_s, 1.0);
    EXPECT_LT((e.offset - z[p].offset).cwiseAbs().maxCoeff(), 1e-9) << e.plate;
    EXPECT_LT((e.drift_per_s - z[p].drift).cwiseAbs().maxCoeff(), 1e-12) << e.plate;
    EXPECT_LT(e.residual_rms.maxCoeff(), 1e-9) << e.plate;
  }
  // Removed, an unloaded plate reads zero on every channel and a loaded one its load alone.
  remove_plate_zero(zero, rec);
  const Eigen::Index left_only = 1 * 200 + 100, late_both = 55 * 200 + 100;  // pose 1 (left), pose 55 (both)
  EXPECT_LT((rec.plate_wrench.block<6, 1>(6, left_only).cwiseAbs().maxCoeff()), 1e-9);
  EXPECT_NEAR(rec.plate_wrench(2, left_only), -kWeight, 1e-9);
  EXPECT_NEAR(rec.plate_wrench(2, late_both), -0.5 * kWeight, 1e-9);
  EXPECT_NEAR(rec.plate_wrench(8, late_both), -0.5 * kWeight, 1e-9);
}

TEST(PlateZero, NoisyReadingsGiveTheZeroWithinTheirMeansNoise) {
  const std::array<Zero, 2> z = zeros();
  // +-2 N and N m of noise per sample (a plate's class is tenths): 12 windows of ~180 samples each.
  const PlateZeroing zero = estimate_plate_zero(session(60, 2.0, protocol, z, 2.0));
  for (std::size_t p = 0; p < 2; ++p) {
    const PlateZero& e = zero.plates[p];
    // Noise of a window's mean: below 2 / sqrt(180) / sqrt(3) ~ 0.09; the line's drift over 100 s spans it.
    EXPECT_LT((e.offset - z[p].offset).cwiseAbs().maxCoeff(), 0.1) << e.plate;
    EXPECT_LT((e.drift_per_s - z[p].drift).cwiseAbs().maxCoeff(), 2e-3) << e.plate;
  }
}

TEST(PlateZero, APlateThatAlwaysCarriesAFootIsLeftAsRecorded) {
  const std::array<Zero, 2> z = zeros();
  // Only left-foot and two-feet poses: the left plate is never unloaded.
  LabRecording rec = session(
      20, 2.0, [](int k) { return k % 2 == 0 ? 0 : 1; }, z);
  const LabRecording before = rec;
  const PlateZeroing zero = estimate_plate_zero(rec);
  EXPECT_EQ(zero.plates[0].windows, 0);
  EXPECT_EQ(zero.plates[0].offset, Vector6::Zero());
  EXPECT_EQ(zero.plates[1].windows, 10);
  remove_plate_zero(zero, rec);
  EXPECT_EQ(rec.plate_wrench.topRows(6), before.plate_wrench.topRows(6));
  EXPECT_NE(rec.plate_wrench.bottomRows(6), before.plate_wrench.bottomRows(6));
}

TEST(PlateZero, OneWindowOrAShortSpanGivesTheOffsetWithoutADrift) {
  std::array<Zero, 2> z = zeros();
  z[0].drift.setZero();
  z[1].drift.setZero();
  // One right-foot pose in six: the left plate has a single window.
  const PlateZeroing one = estimate_plate_zero(session(
      6, 2.0, [](int k) { return k == 3 ? 2 : 0; }, z));
  EXPECT_EQ(one.plates[0].windows, 1);
  EXPECT_FALSE(one.plates[0].drift_estimated);
  EXPECT_LT((one.plates[0].offset - z[0].offset).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_EQ(one.plates[0].drift_per_s, Vector6::Zero());
  // Poses of 0.4 s: each unloaded stretch shorter than a window.
  const PlateZeroing brief = estimate_plate_zero(session(60, 0.4, protocol, z));
  EXPECT_EQ(brief.plates[0].windows, 0);
  // Two windows 10 s apart: less than the 30 s a drift needs.
  const PlateZeroing short_span = estimate_plate_zero(session(12, 2.0, protocol, z));
  EXPECT_GE(short_span.plates[0].windows, 2);
  EXPECT_FALSE(short_span.plates[0].drift_estimated);
  EXPECT_LT((short_span.plates[1].offset - z[1].offset).cwiseAbs().maxCoeff(), 1e-9);
}

TEST(PlateZero, BadInputIsRefusedInOneLine) {
  LabRecording rec = session(10, 2.0, protocol, zeros());
  LabRecording nan = rec;
  nan.plate_wrench(3, 17) = std::nan("");
  try {
    estimate_plate_zero(nan);
    FAIL() << "a NaN reading was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "hand-built: a force-plate reading is not a finite number");
  }
  LabRecording none = rec;
  none.plate_time.clear();
  none.plate_wrench.resize(0, 0);
  EXPECT_THROW(estimate_plate_zero(none), std::runtime_error);
  const PlateZeroing zero = estimate_plate_zero(rec);
  LabRecording other = rec;
  other.dataset.force_plates[1].name = "plate_3";
  try {
    remove_plate_zero(zero, other);
    FAIL() << "another lab's plates were zeroed";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "hand-built: its force plates are not the ones the zero was estimated for");
  }
}

}  // namespace
}  // namespace dynid
