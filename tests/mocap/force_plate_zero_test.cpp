// FORCE_PLATFORM:ZERO: a lab's plate channels with a zero offset (the amplifier not zeroed before
// the trial) read back the true loads once the baseline of the unloaded ZERO frames is subtracted;
// a ZERO window in which the plate is loaded is not applied (it would remove the subject's weight),
// and neither is [1, 0] (ezc3d's default: no baseline). The truth is the synthetic trial's loads,
// written through the plate model of mocap_fixtures.hpp, not through the reader.

#include <gtest/gtest.h>

#include "dynid/mocap/c3d_reader.hpp"
#include "dynid/mocap/force_plate.hpp"
#include "mocap/mocap_fixtures.hpp"

namespace dynid {
namespace {

using testing::kSamplesPerFrame;
using testing::kSyntheticFrames;

/// The synthetic trial with plate 1 (type 2) unloaded in frame 1 and every stored count of its six
/// channels shifted by a zero offset; FORCE_PLATFORM:ZERO as given.
testing::SyntheticC3d offset_trial(const std::vector<double>& zero) {
  testing::SyntheticC3d s = testing::synthetic_c3d(C3dProcessor::Intel, true);
  const ForcePlate& plate = s.plates[0];
  const std::vector<double> offsets = s.file.parameters.numbers("ANALOG", "OFFSET");
  const std::vector<double> counts = {40, -25, 120, 300, -500, 80};  // the amplifier's zero offset
  for (int k = 0; k < 6; ++k) {
    const int c = plate.channels[static_cast<std::size_t>(k)];
    for (int r = 0; r < kSyntheticFrames * kSamplesPerFrame; ++r) {
      if (r < kSamplesPerFrame) s.file.analogs(r, c) = offsets[static_cast<std::size_t>(c)];  // no load in frame 1
      s.file.analogs(r, c) += counts[static_cast<std::size_t>(k)];
    }
  }
  s.loads[0][0].force_world.setZero();
  s.loads[0][0].tau = 0.0;
  if (!zero.empty()) s.file.parameters.set_numbers("FORCE_PLATFORM", "ZERO", C3dType::Int16, zero, {2});
  return s;
}

/// Largest force error [N] of plate 1 over frames 2.. against the synthetic loads.
double worst_force_error(const testing::SyntheticC3d& s, const MocapRecording& rec) {
  const PlateSeries series = ground_reaction_series(rec.force_plates[0], rec.analogs, 20.0);
  double worst = 0.0;
  for (int f = 1; f < kSyntheticFrames; ++f)
    for (int k = 0; k < kSamplesPerFrame; ++k)
      worst = std::max(worst, (series.force_world.col(f * kSamplesPerFrame + k) - s.loads[0][f].force_world).norm());
  return worst;
}

bool noted(const MocapRecording& rec, const std::string& what) {
  for (const std::string& w : rec.warnings)
    if (w.find(what) != std::string::npos) return true;
  return false;
}

TEST(ForcePlateZero, UnloadedZeroFramesRemoveTheOffset) {
  const testing::SyntheticC3d s = offset_trial({1, 1});
  const MocapRecording rec = recording_from_c3d(s.file, "zeroed");
  // Stored counts are rounded to 0.25 N (forces) and 100 N mm (moments).
  EXPECT_LT(worst_force_error(s, rec), 0.5);
  EXPECT_TRUE(noted(rec, "force plate 1: zeroed on FORCE_PLATFORM:ZERO frames 1-1")) << rec.warnings.size();
  // Plates 2-4 are loaded with 4 N in frame 1 (below the limit): zeroed too, by that small load.
  EXPECT_TRUE(noted(rec, "force plate 2: zeroed"));
  EXPECT_TRUE(noted(rec, "force plate 4: not zeroed: FORCE_PLATFORM:ZERO on a type 1 plate"));
}

TEST(ForcePlateZero, WithoutTheBaselineTheOffsetStays) {
  const testing::SyntheticC3d s = offset_trial({1, 0});
  const MocapRecording rec = recording_from_c3d(s.file, "not zeroed");
  EXPECT_GT(worst_force_error(s, rec), 10.0);  // 120 counts of 0.25 N on Fz alone: 30 N
  EXPECT_FALSE(noted(rec, "zeroed"));
}

TEST(ForcePlateZero, LoadedZeroFramesAreNotApplied) {
  const testing::SyntheticC3d s = offset_trial({3, 5});
  const testing::SyntheticC3d unshifted = offset_trial({});
  const MocapRecording rec = recording_from_c3d(s.file, "loaded"), plain = recording_from_c3d(unshifted.file, "plain");
  EXPECT_TRUE(noted(rec, "force plate 1: not zeroed: the plate carries"))
      << (rec.warnings.empty() ? "" : rec.warnings[0]);
  EXPECT_EQ(rec.analogs, plain.analogs);
  EXPECT_TRUE(noted(rec, "FORCE_PLATFORM:ZERO frames 3-5"));
}

TEST(ForcePlateZero, ZeroFramesOutsideTheTrialAreSaidSo) {
  const testing::SyntheticC3d s = offset_trial({100, 110});
  const MocapRecording rec = recording_from_c3d(s.file, "outside");
  EXPECT_TRUE(noted(rec, "lie outside the trial"));
}

}  // namespace
}  // namespace dynid
