// Mislabelled markers in a motion's marker IK (data/lab_motion.hpp, MarkerConfigurationOptions::
// outlier_m): the simulated squat with `--perturb markers` has the tracker swap the labels of the
// two closest markers on one link for 0.5 s (dataset.json lists when and which). Kept, the swap
// puts centimetres into the fit of those frames; dropped as outliers, those frames fit as well as
// the rest, and nothing is dropped outside the swap.

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "dynid/data/lab_motion.hpp"
#include "dynid/data/lab_recording.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

TEST(MislabelledMarkers, ASwappedPairIsDroppedForTheFramesItIsSwapped) {
  const Robot robot = test::bundled_robot("adult_humanoid");
  ScenarioOptions o;
  o.scenario = "squat";
  o.seed = 1;
  o.noise = NoiseLevel::None;
  o.perturbations = {"markers"};
  o.out_dir = test::fresh_dir("mislabelled_markers", "squat");
  run_scenario(robot, o);
  const nlohmann::json swap =
      nlohmann::json::parse(test::read_file(o.out_dir + "/dataset.json"))["perturbations"]["markers"]["swap"];
  ASSERT_TRUE(swap.is_object());
  const double start = swap["start_s"].get<double>(), end = start + swap["duration_s"].get<double>();
  const LabRecording rec = read_lab_recording(o.out_dir);

  MarkerConfigurationOptions keep, drop;
  keep.outlier_m = 0.0;
  const MarkerConfigurations kept = solve_marker_configurations(robot.model, rec.markers, &rec, keep);
  const MarkerConfigurations dropped = solve_marker_configurations(robot.model, rec.markers, &rec, drop);
  ASSERT_EQ(kept.time.size(), dropped.time.size());
  double kept_in = 0.0, dropped_in = 0.0, dropped_out = 0.0;
  int swapped_frames = 0, dropped_outside = 0;
  for (std::size_t f = 0; f < kept.time.size(); ++f) {
    const bool in = kept.time[f] >= start && kept.time[f] < end;
    if (in) {
      ++swapped_frames;
      kept_in = std::max(kept_in, kept.max[f]);
      dropped_in = std::max(dropped_in, dropped.max[f]);
      // Both markers of the pair, or the one left visible when the other is in an occlusion gap.
      EXPECT_GE(dropped.dropped[f], 1) << "frame at " << kept.time[f] << " s";
      EXPECT_LE(dropped.dropped[f], 2) << "frame at " << kept.time[f] << " s";
    } else {
      dropped_out = std::max(dropped_out, dropped.max[f]);
      dropped_outside += dropped.dropped[f];
    }
  }
  std::printf("%d swapped frames: largest marker distance kept %.1f mm, dropped %.1f mm (elsewhere %.1f mm)\n",
              swapped_frames, 1e3 * kept_in, 1e3 * dropped_in, 1e3 * dropped_out);
  ASSERT_GT(swapped_frames, 10);
  EXPECT_GT(kept_in, 0.03);  // the swap is there: centimetres
  EXPECT_LT(dropped_in, 0.01);
  EXPECT_LT(dropped_in, 2.0 * dropped_out + 1e-3);  // as well as the frames around it (mount errors)
  EXPECT_EQ(dropped_outside, 0);
}

}  // namespace
}  // namespace dynid
