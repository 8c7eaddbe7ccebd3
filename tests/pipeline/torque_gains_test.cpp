// Joint torque sensor gains estimated with the inertial parameters (--torque-gains): with known
// gains and offsets written into a noise-free recording's torque stream, the identification
// recovers the gains, predicts the miscalibrated sensors on another motion as well as it predicts
// clean ones, and keeps the base parameters of the clean recording. Without measured contact
// wrenches the gains and the masses scale together, which is refused.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
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

/// Gain of torque channel k (k = 0 .. 15): within +-3 %, as a strain-gauge sensor's calibration is.
double injected_gain(int k) { return 1.0 + 0.03 * std::sin(1.7 * k + 0.5); }
/// Offset of torque channel k [N m]: up to ~1.4 N m, both signs.
double injected_offset(int k) { return (k % 2 == 0 ? 0.4 : -0.6) * (1.0 + 0.08 * k); }

/// A copy of `dir` whose torques.csv reads gain x joint torque + offset per channel.
std::string miscalibrated(const std::string& dir, const std::string& name) {
  return test::with_torque_readings(dir, "torque_gains", name,
                                    [](int k, double value) { return injected_gain(k) * value + injected_offset(k); });
}

InertialIdentificationResult identify(const std::string& train, const std::string& evaluation, bool offsets,
                                      bool gains) {
  InertialIdentificationOptions o;
  o.model = "biped16";
  o.data = train;
  o.validate = evaluation;
  o.source = "sensors";
  o.sensors = "full";
  o.prior = 1e-6;
  o.torque_offsets = offsets;
  o.torque_gains = gains;
  o.truth_urdf = train + "/truth.urdf";
  return run_inertial_identification(o);
}

std::string simulate(const std::string& motion, double duration_s, const std::string& name) {
  ScenarioOptions s;
  s.scenario = "excite";
  s.noise = NoiseLevel::None;
  s.seed = 1;
  s.motion = motion;
  s.duration_s = duration_s;
  s.out_dir = test::fresh_dir("torque_gains", name);
  run_scenario(test::bundled_robot("biped16"), s);
  return s.out_dir;
}

TEST(TorqueGains, MiscalibratedSensorsAreRecoveredAndPredicted) {
  const std::string train = simulate("paper004", 8.0, "train"), evaluation = simulate("evaluation", 3.0, "evaluation");
  const std::string train_bad = miscalibrated(train, "train_bad"),
                    evaluation_bad = miscalibrated(evaluation, "eval_bad");

  const InertialIdentificationResult clean = identify(train, evaluation, false, false);
  const InertialIdentificationResult offsets_only = identify(train_bad, evaluation_bad, true, false);
  const InertialIdentificationResult estimated = identify(train_bad, evaluation_bad, true, true);
  ASSERT_EQ(estimated.torque_gains.size(), 16u);
  ASSERT_EQ(estimated.torque_offsets.size(), 16u);
  double worst_gain = 0.0;
  for (std::size_t k = 0; k < 16; ++k) {
    const TorqueGain& g = estimated.torque_gains[k];
    EXPECT_GT(g.std, 0.0) << g.joint;
    worst_gain = std::max(worst_gain, std::abs(g.value - injected_gain(static_cast<int>(k))));
  }
  std::printf(
      "worst gain error %.3g (gains within 3 %%); held-out torque RMS clean %.3g, gains ignored %.3g, "
      "estimated %.3g N m\n",
      worst_gain, *clean.identified_rms.torque, *offsets_only.identified_rms.torque, *estimated.identified_rms.torque);
  EXPECT_LT(worst_gain, 1e-3);
  // The sensors' readings on another motion are predicted as well as clean sensors'; ignoring the
  // gains costs (3 % of ~9 N m RMS torques).
  EXPECT_LT(*estimated.identified_rms.torque, 1.5 * *clean.identified_rms.torque + 1e-3);
  EXPECT_GT(*offsets_only.identified_rms.torque, 20.0 * *estimated.identified_rms.torque);
  // The true model is read through the same fitted sensor calibration (it is the sensors', not the
  // model's): on the miscalibrated sensors it predicts as on clean ones, not 1 N m off by the offsets.
  ASSERT_TRUE(estimated.truth_rms && clean.truth_rms && estimated.truth_rms->torque && clean.truth_rms->torque);
  std::printf("held-out torque RMS of the true model: clean %.3g, miscalibrated and calibrated %.3g N m\n",
              *clean.truth_rms->torque, *estimated.truth_rms->torque);
  EXPECT_LT(*estimated.truth_rms->torque, 1.1 * *clean.truth_rms->torque);
  // That calibration is fitted for the true model itself (its inertias held in the same least
  // squares): the rows read Y pi + o' + d tau_m = f with tau_m = g tau + o, so it must find the
  // injected o' = o / g and d = 1 - 1/g of every channel.
  ASSERT_TRUE(estimated.truth_sensor_calibration);
  ASSERT_EQ(estimated.truth_sensor_calibration->size(), 32);
  double worst_offset = 0.0, worst_d = 0.0;
  for (int k = 0; k < 16; ++k) {
    worst_offset = std::max(worst_offset,
                            std::abs((*estimated.truth_sensor_calibration)[k] - injected_offset(k) / injected_gain(k)));
    worst_d =
        std::max(worst_d, std::abs((*estimated.truth_sensor_calibration)[16 + k] - (1.0 - 1.0 / injected_gain(k))));
  }
  std::printf("the true model's own calibration: worst offset error %.3g N m, worst 1 - 1/g error %.3g\n", worst_offset,
              worst_d);
  EXPECT_LT(worst_offset, 1e-5);
  EXPECT_LT(worst_d, 1e-6);
  ASSERT_TRUE(estimated.base_param_max_rel_error && clean.base_param_max_rel_error);
  EXPECT_LT(*estimated.base_param_max_rel_error, 2.0 * *clean.base_param_max_rel_error + 1e-3);
}

TEST(TorqueGains, SetsThatCannotFixTheScaleAreRefused) {
  const std::string data = simulate("evaluation", 1.0, "refused");
  InertialIdentificationOptions o;
  o.model = "biped16";
  o.data = data;
  o.source = "sensors";
  o.torque_gains = true;
  for (const auto& [sensors, expected] : {std::pair<std::string, std::string>{"joints", "measures no contact wrench"},
                                          {"contact", "uses no joint torque sensor"}}) {
    o.sensors = sensors;
    try {
      run_inertial_identification(o);
      ADD_FAILURE() << sensors << ": no error";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  }
  // --torque-gain-std counts the gains instead of estimating them: not both, and only with sensors.
  auto refused = [&](const std::string& sensors, bool gains, double std, const std::string& expected) {
    o.sensors = sensors;
    o.torque_gains = gains;
    o.torque_gain_std = std;
    try {
      run_inertial_identification(o);
      ADD_FAILURE() << sensors << " " << std << ": no error";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  refused("full", true, 0.01, "either estimated or counted");
  refused("contact", false, 0.01, "--torque-gain-std: sensor set 'contact' uses no joint torque sensor");
  refused("full", false, -0.01, "--torque-gain-std must be a fraction");
}

}  // namespace
}  // namespace dynid
