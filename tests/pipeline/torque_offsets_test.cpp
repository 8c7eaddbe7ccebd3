// Joint torque sensor offsets estimated with the inertial parameters (--torque-offsets): with known
// offsets written into a noise-free recording's torque stream, the identification predicts the
// offset sensors on another motion as well as it predicts clean ones, and recovers the offsets the
// motion separates from gravity.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "dynid/pipeline/inertial_identification.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"
#include "support/torque_stream_edit.hpp"

namespace dynid {
namespace {

/// Offset of torque channel k (k = 0 .. 15) [N m]: different sizes and signs, up to ~1.4 N m.
double injected_offset(int k) { return (k % 2 == 0 ? 0.4 : -0.6) * (1.0 + 0.08 * k); }

/// A copy of `dir` whose torques.csv reads the joint torques plus injected_offset(channel).
std::string with_offsets(const std::string& dir, const std::string& name) {
  return test::with_torque_readings(dir, "torque_offsets", name,
                                    [](int k, double value) { return value + injected_offset(k); });
}

InertialIdentificationResult identify(const std::string& train, const std::string& evaluation, bool offsets) {
  InertialIdentificationOptions o;
  o.model = "biped16";
  o.data = train;
  o.validate = evaluation;
  o.source = "sensors";
  o.sensors = "full";
  o.prior = 1e-6;
  o.torque_offsets = offsets;
  o.truth_urdf = train + "/truth.urdf";
  return run_inertial_identification(o);
}

TEST(TorqueOffsets, OffsetSensorsArePredictedAndVerticalAxisOffsetsRecovered) {
  ScenarioOptions s;
  s.scenario = "excite";
  s.noise = NoiseLevel::None;
  s.seed = 1;
  s.motion = "paper004-squats";
  s.duration_s = 6.0;
  s.out_dir = test::fresh_dir("torque_offsets", "train");
  run_scenario(test::bundled_robot("biped16"), s);
  const std::string train = s.out_dir;
  s.motion = "evaluation";
  s.duration_s = 3.0;
  s.out_dir = test::fresh_dir("torque_offsets", "evaluation");
  run_scenario(test::bundled_robot("biped16"), s);
  const std::string evaluation = s.out_dir;
  const std::string train_off = with_offsets(train, "train_off"), evaluation_off = with_offsets(evaluation, "eval_off");

  const InertialIdentificationResult clean = identify(train, evaluation, false);
  const InertialIdentificationResult ignored = identify(train_off, evaluation_off, false);
  const InertialIdentificationResult estimated = identify(train_off, evaluation_off, true);
  ASSERT_EQ(estimated.torque_offsets.size(), 16u);
  // On squats an offset of a gravity-loaded joint trades with the COMs below it (its gravity torque
  // hardly changes); the joints about vertical axes carry no gravity torque, so theirs separate.
  double worst_vertical = 0.0;
  for (std::size_t k = 0; k < 16; ++k) {
    const TorqueOffset& t = estimated.torque_offsets[k];
    EXPECT_GT(t.std, 0.0) << t.joint;
    if (t.joint.find("_rotation") != std::string::npos)
      worst_vertical = std::max(worst_vertical, std::abs(t.value - injected_offset(static_cast<int>(k))));
  }
  std::printf(
      "worst vertical-axis offset error %.3g N m; torque RMS clean %.3g, offsets ignored %.3g, estimated %.3g\n",
      worst_vertical, *clean.identified_rms.torque, *ignored.identified_rms.torque, *estimated.identified_rms.torque);
  EXPECT_LT(worst_vertical, 0.02);  // of offsets of 0.46-1.13 N m
  // Estimated offsets leave the sensors as well predicted as clean ones; ignored, they cost.
  EXPECT_LT(*estimated.identified_rms.torque, 1.2 * *clean.identified_rms.torque + 0.01);
  EXPECT_GT(*ignored.identified_rms.torque, 2.0 * *estimated.identified_rms.torque);
  ASSERT_TRUE(estimated.base_param_max_rel_error && clean.base_param_max_rel_error);
  EXPECT_LT(*estimated.base_param_max_rel_error, 2.0 * *clean.base_param_max_rel_error + 1e-3);
}

TEST(TorqueOffsets, ASetWithoutTorqueSensorsIsRefused) {
  InertialIdentificationOptions o;
  o.model = "biped16";
  o.data = "unused";
  o.sensors = "contact";
  o.torque_offsets = true;
  try {
    ScenarioOptions s;
    s.scenario = "excite";
    s.noise = NoiseLevel::None;
    s.motion = "evaluation";
    s.duration_s = 1.0;
    s.out_dir = test::fresh_dir("torque_offsets", "contact");
    run_scenario(test::bundled_robot("biped16"), s);
    o.data = s.out_dir;
    run_inertial_identification(o);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("uses no joint torque sensor"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace dynid
