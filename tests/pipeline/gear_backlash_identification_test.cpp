// The gears' play taken off the encoders (--gear-backlash, data/gear_windup.hpp). The testbed's
// motor-side encoders read the rotor's place in a 0.1 deg play, on the flank the link torque names
// and crossing it against the rotor's inertia (actuator/gear_dead_band.hpp). Checked: the play
// the correction predicts from a link torque track is what the simulator recorded (from the truth
// stream's torques, a second path to the same numbers), and on the realistic kid walk the
// correction brings the identified model closer to the truth and lowers the fit's residual.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "dynid/data/gear_windup.hpp"
#include "dynid/io/csv_stream.hpp"
#include "dynid/model/sidecar.hpp"
#include "dynid/pipeline/inertial_identification.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/kid_walk_identification.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

TEST(GearBacklash, PlayPredictedFromTheTruthStreamsLinkTorquesIsWhatTheEncodersRecorded) {
  // biped16 (link-side torque sensors: the truth stream's torques are the link torques), two
  // seconds of paper 004's evaluation motion, realistic sensors without other perturbations.
  const auto robot = test::bundled_robot("biped16");
  ScenarioOptions o;
  o.scenario = "excite";
  o.motion = "evaluation";
  o.duration_s = 2.0;
  o.noise = NoiseLevel::Realistic;
  o.out_dir = test::fresh_dir("gear_backlash", "biped16");
  run_scenario(robot, o);
  const nlohmann::json dataset = nlohmann::json::parse(test::read_file(o.out_dir + "/dataset.json"));
  const double play = dataset.at("encoder_backlash_deg").get<double>() * M_PI / 180.0;
  EXPECT_NEAR(play, 0.0017, 1e-12);
  const CsvStream truth = read_csv_stream(o.out_dir + "/truth.csv");
  const CsvStream encoders = read_csv_stream(o.out_dir + "/encoders.csv");
  ASSERT_EQ(truth.values.rows(), encoders.values.rows());

  LinkTorqueTrack track;
  const std::vector<double> armature_per_body = joint_armature(robot.model, *robot.sidecar);
  std::vector<double> plays, armature, damping;
  for (const ActuatorInfo& a : robot.sidecar->actuators) {
    track.joints.push_back(a.joint);
    plays.push_back(play);
    armature.push_back(armature_per_body[static_cast<std::size_t>(*robot.model.find_joint(a.joint))]);
    damping.push_back(a.damping.value_or(0.0));
  }
  const Eigen::Index n = truth.values.rows();
  track.torque.resize(static_cast<Eigen::Index>(track.joints.size()), n);
  for (Eigen::Index k = 0; k < n; ++k) track.times.push_back(truth.values(k, 0));
  for (std::size_t j = 0; j < track.joints.size(); ++j)
    track.torque.row(static_cast<Eigen::Index>(j)) =
        truth.values.col(truth.column("tau." + track.joints[j])).transpose();
  const MatrixX predicted = gear_play_offsets(track, plays, armature, damping);

  // The encoders: 17-bit, written with ten significant digits. The first 50 ms are skipped: the
  // simulator's rotors may already be moving in their play when the recording starts.
  const double resolution = 2.0 * M_PI / 131072.0;
  double worst = 0.0, largest = 0.0;
  for (std::size_t j = 0; j < track.joints.size(); ++j) {
    const Eigen::Index e = encoders.column("q." + track.joints[j]), q = truth.column("q." + track.joints[j]);
    for (Eigen::Index k = 50; k < n; ++k) {
      const double recorded = encoders.values(k, e) - truth.values(k, q);
      worst = std::max(worst, std::abs(recorded - predicted(static_cast<Eigen::Index>(j), k)));
      largest = std::max(largest, std::abs(predicted(static_cast<Eigen::Index>(j), k)));
    }
  }
  EXPECT_LE(worst, 0.5 * resolution + 1e-9);
  EXPECT_NEAR(largest, 0.5 * play, 1e-12);  // the flanks are reached

  EXPECT_THROW(gear_play_offsets(track, {play}, armature, damping), std::invalid_argument);
}

TEST(GearBacklashIdentification, TakingThePlayOffBringsTheWalkCloserToTheTruth) {
  // The kid walk (seed 1, upper body locked, realistic sensors, no other imperfection), the demo's
  // options, validated on trunk bending. Measured: first moments / inertias 1.13 / 1.26 times CAD's
  // error as read, 0.79 / 1.27 with the play taken off; the training residual 0.70 -> 0.59 of the
  // sensors' noise model's scale.
  const std::string dir = test::fresh_dir("gear_backlash", "kid_walk");
  ScenarioOptions walk;
  walk.scenario = "walk";
  walk.out_dir = dir + "/walk";
  walk.seed = 1;
  walk.lock_upper_body = true;
  ASSERT_FALSE(run_scenario(test::bundled_robot("kid_humanoid"), walk).fell);
  ScenarioOptions bend = walk;
  bend.scenario = "excite";
  bend.motion = "trunk-bend";
  bend.out_dir = dir + "/trunk_bend";
  ASSERT_FALSE(run_scenario(test::bundled_robot("kid_humanoid"), bend).fell);

  InertialIdentificationOptions o = test::kid_walk_options(walk.out_dir);
  EXPECT_EQ(o.gear_backlash_deg, 0.1);  // realistic encoders: the helper takes the play off
  o.consistent = true;
  o.sensor_options.cutoff_hz = 20.0;
  o.parallel_filter.cutoff_hz = 3.0;
  o.cad_prior_coordinates = CadPriorCoordinates::Com;
  o.validate = bend.out_dir;
  const InertialIdentificationResult corrected = run_inertial_identification(o);
  o.gear_backlash_deg = 0.0;
  const InertialIdentificationResult as_read = run_inertial_identification(o);
  std::printf(
      "first moments / inertias x CAD's error: as read %.3f / %.3f, play taken off %.3f / %.3f; training "
      "residual %.3f -> %.3f\n",
      test::class_ratio(as_read, "first_moment"), test::class_ratio(as_read, "inertia"),
      test::class_ratio(corrected, "first_moment"), test::class_ratio(corrected, "inertia"),
      as_read.residual_rms_weighted, corrected.residual_rms_weighted);
  EXPECT_LT(test::class_ratio(corrected, "first_moment"), 0.8 * test::class_ratio(as_read, "first_moment"));
  EXPECT_LT(test::class_ratio(corrected, "inertia"), 1.1 * test::class_ratio(as_read, "inertia"));
  EXPECT_LT(corrected.residual_rms_weighted, 0.9 * as_read.residual_rms_weighted);
  const nlohmann::json summary = nlohmann::json::parse(corrected.summary_json);
  EXPECT_DOUBLE_EQ(summary.at("gear_backlash").at("play_deg").get<double>(), 0.1);
  EXPECT_FALSE(nlohmann::json::parse(as_read.summary_json).contains("gear_backlash"));
  EXPECT_TRUE(corrected.gear_windup.empty());  // the play alone: no wind-up corrections listed

  // The same play declared once in the robot's sidecar (each actuator's `backlash` [rad]) and taken
  // from there (--gear-backlash sidecar): the same identification.
  const std::string robot_dir = dir + "/robot";
  std::filesystem::create_directories(robot_dir);
  std::filesystem::copy_file(std::string(DYNID_MODELS_DIR) + "/kid_humanoid.urdf", robot_dir + "/kid_humanoid.urdf");
  std::istringstream yaml(test::read_file(std::string(DYNID_MODELS_DIR) + "/kid_humanoid.yaml"));
  std::ostringstream with_play, without_play;
  for (std::string line; std::getline(yaml, line);) {
    with_play << line << "\n";
    without_play << line << "\n";
    if (line.rfind("  - joint: ", 0) == 0)
      with_play << "    backlash: " << std::setprecision(17) << 0.1 * M_PI / 180.0 << "\n";
  }
  std::ofstream(robot_dir + "/kid_humanoid.yaml") << with_play.str();
  InertialIdentificationOptions declared = o;
  declared.model = robot_dir + "/kid_humanoid.urdf";
  declared.gear_backlash_deg = 0.0;
  declared.gear_backlash_from_sidecar = true;
  const InertialIdentificationResult from_sidecar = run_inertial_identification(declared);
  EXPECT_LT((from_sidecar.base_values - corrected.base_values).cwiseAbs().maxCoeff(),
            1e-9 * corrected.base_values.cwiseAbs().maxCoeff());
  const nlohmann::json sidecar_summary = nlohmann::json::parse(from_sidecar.summary_json);
  EXPECT_EQ(sidecar_summary.at("gear_backlash").at("from"), "sidecar");
  EXPECT_NEAR(sidecar_summary.at("gear_backlash").at("joints_deg").at("l_knee").get<double>(), 0.1, 1e-12);
  // A sidecar that declares none is named.
  std::ofstream(robot_dir + "/kid_humanoid.yaml") << without_play.str();
  try {
    prepare_inertial_identification(declared);
    ADD_FAILURE() << "a sidecar without backlash was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("--gear-backlash sidecar: no actuator of"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace dynid
