// `dynid identify actuator` on the simulated servo bench (paper 002): ILC converges on the true
// servo (which differs from its datasheet), the fit finds the true servo's alphas, the fitted model
// tracks a held-out trajectory and predicts a held-out P gain better than the datasheet, the same
// fit comes out of the servo.csv log the run writes, and bad input stops with a reason and no files.

#include "dynid/pipeline/actuator_identification.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/scratch_files.hpp"

namespace dynid {
namespace {

namespace fs = std::filesystem;

std::string fresh_dir(const std::string& name) { return test::fresh_dir("actuator_identification_test", name); }

/// One noise-free run on the built-in reference with the true links (so that the fit is judged on
/// the actuator alone, not on CAD errors of the links), shared by the checks below.
class ActuatorIdentification : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    robot_ = new Robot(load_robot("servo_bench"));
    ActuatorIdentificationOptions o;
    o.joint = "l_hip_pitch";
    o.true_links = true;
    o.noise_free = true;
    o.seed = 3;
    result_ = new ActuatorIdentificationResult(run_actuator_identification(*robot_, o));
    dir_ = new std::string(fresh_dir("run"));
    write_actuator_identification(*result_, *dir_);
  }
  static void TearDownTestSuite() {
    delete result_;
    delete robot_;
    delete dir_;
  }
  static Robot* robot_;
  static ActuatorIdentificationResult* result_;
  static std::string* dir_;
};
Robot* ActuatorIdentification::robot_ = nullptr;
ActuatorIdentificationResult* ActuatorIdentification::result_ = nullptr;
std::string* ActuatorIdentification::dir_ = nullptr;

TEST_F(ActuatorIdentification, IlcConvergesOnTheTrueServoWithinFifteenIterations) {
  const auto& ilc = result_->summary["ilc"];
  EXPECT_TRUE(ilc["converged"].get<bool>());
  EXPECT_LE(ilc["iterations"].get<int>(), 15);
  EXPECT_LE(ilc["max_windowed_error_rad"].get<double>(), 0.02);
  // The first trial (the reference as command) is far off: there was something to learn.
  EXPECT_GT(result_->iterations.front().max_windowed_error_rad, 0.1);
}

TEST_F(ActuatorIdentification, FitFindsTheTrueServoNotTheDatasheet) {
  const auto& s = result_->summary;
  const auto fit = s["fit"]["alpha"].get<std::vector<double>>();
  const auto truth = s["truth"]["alpha"].get<std::vector<double>>();
  const auto sheet = s["datasheet"]["alpha"].get<std::vector<double>>();
  ASSERT_EQ(fit.size(), 5u);
  // alpha0..alpha3, the paper's four; alpha4 (rotor inertia, ~0.1 V of the voltage) moves by
  // alpha1 dt / 2 with half a sample of timing between velocity and voltage (docs/actuators.md).
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_NEAR(fit[i], truth[i], 0.10 * std::abs(truth[i])) << "alpha" << i;
    // The true servo differs from its datasheet by more than the fit's error (friction 20-60 %).
    if (i >= 2) {
      EXPECT_GT(std::abs(sheet[i] - truth[i]), std::abs(fit[i] - truth[i])) << "alpha" << i;
    }
  }
  EXPECT_NEAR(s["fit"]["reaction_time_s"].get<double>(), s["truth"]["dead_time_s"].get<double>(), 0.004);
}

TEST_F(ActuatorIdentification, FittedModelTracksAHeldOutTrajectoryOpenLoop) {
  const auto& v = result_->summary["validation"]["heldout_max_windowed_error_rad"];
  EXPECT_LE(v["identified"].get<double>(), 0.05);
  EXPECT_LT(v["identified"].get<double>(), v["p_only"].get<double>());
  // The maximum is set by stiction at rest (any model leaves the P servo's friction band), the mean
  // by the model: the datasheet's too-low friction leaves the joint behind all along.
  const auto& m = result_->summary["validation"]["heldout_mean_abs_error_rad"];
  EXPECT_LT(2.0 * m["identified"].get<double>(), m["datasheet"].get<double>());
}

TEST_F(ActuatorIdentification, IdentifiedModelPredictsAHeldOutPGainBetterThanTheDatasheet) {
  const auto& g = result_->summary["validation"]["heldout_p_gain"];
  EXPECT_NE(g["p_gain"].get<double>(), result_->summary["p_gain"].get<double>());
  EXPECT_LT(g["prediction_rms_error_rad"]["identified"].get<double>(),
            g["prediction_rms_error_rad"]["datasheet"].get<double>());
}

TEST_F(ActuatorIdentification, SameFitFromTheServoLogItWrote) {
  ASSERT_TRUE(fs::is_regular_file(*dir_ + "/ilc_trial/servo.csv"));
  ASSERT_TRUE(fs::is_regular_file(*dir_ + "/actuator.yaml"));
  ASSERT_TRUE(fs::is_regular_file(*dir_ + "/report.html"));
  ActuatorIdentificationOptions o;
  o.joint = "l_hip_pitch";
  o.logs = *dir_ + "/ilc_trial";
  o.links_urdf = *dir_ + "/truth.urdf";  // the in-loop run used the true links ...
  o.cutoff_hz = 0.0;                     // ... and differentiated the exact positions unfiltered
  const ActuatorIdentificationResult from_logs = run_actuator_identification(*robot_, o);
  const ActuatorFit& in_loop = result_->fit;
  EXPECT_EQ(from_logs.fit.model.reaction_time_s, in_loop.model.reaction_time_s);
  for (std::size_t i = 0; i < 5; ++i)
    EXPECT_NEAR(from_logs.fit.model.alpha[i], in_loop.model.alpha[i], 1e-6 * std::abs(in_loop.model.alpha[i]) + 1e-9);
}

TEST(ActuatorIdentificationInput, BadInputStopsWithAReasonAndNoFiles) {
  const Robot robot = load_robot("servo_bench");
  ActuatorIdentificationOptions o;
  o.joint = "l_hip_pitch";
  // A log without the supply voltage.
  const std::string logs = fresh_dir("bad_log");
  fs::create_directories(logs);
  {
    std::ofstream f(logs + "/servo.csv");
    f << "time,l_hip_pitch.q_cmd,l_hip_pitch.q\n";
    for (int i = 0; i < 200; ++i) f << i * 1e-3 << ",0.1,0.1\n";
  }
  o.logs = logs;
  try {
    run_actuator_identification(robot, o);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("supply_voltage"), std::string::npos) << e.what();
  }
  // A reference beyond the joint limits [-2.2, 1.6].
  o.logs.clear();
  const std::string ref = fresh_dir("far_reference") + ".csv";
  {
    std::ofstream f(ref);
    f << "time,position\n";
    for (int i = 0; i <= 100; ++i) f << i * 0.01 << "," << 0.02 * i << "\n";
  }
  o.reference = ref;
  try {
    run_actuator_identification(robot, o);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("beyond the limits"), std::string::npos) << e.what();
  }
  // An unknown joint.
  o.reference.clear();
  o.joint = "r_knee";
  EXPECT_THROW(run_actuator_identification(robot, o), std::invalid_argument);
}

}  // namespace
}  // namespace dynid
