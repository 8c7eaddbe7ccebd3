// Gear wind-up behind the encoders (data/gear_windup.hpp). The link torques dynid's inverse dynamics
// gives along the truth stream (state and contact wrenches as MuJoCo had them) are the link torques
// MuJoCo reported; and on a noise-free walk whose gears wind up (--perturb joint-elasticity), the
// sensor path corrected by those torques and the true stiffnesses reads the links' angles, where
// uncorrected it reads the wind-up.

#include "dynid/data/gear_windup.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "dynid/data/sensor_source.hpp"
#include "dynid/data/truth_source.hpp"
#include "dynid/model/sidecar.hpp"
#include "dynid/model/urdf_reader.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

TEST(LinkTorqueTrack, InterpolatesBetweenSamplesAndHoldsBeyondTheEnds) {
  LinkTorqueTrack t;
  t.joints = {"a", "b"};
  t.times = {1.0, 2.0, 4.0};
  t.torque.resize(2, 3);
  t.torque << 1.0, 3.0, -1.0,  //
      0.0, 10.0, 20.0;
  EXPECT_DOUBLE_EQ(t.at(0, 1.5), 2.0);
  EXPECT_DOUBLE_EQ(t.at(0, 3.0), 1.0);
  EXPECT_DOUBLE_EQ(t.at(1, 3.5), 17.5);
  EXPECT_DOUBLE_EQ(t.at(0, 2.0), 3.0);
  EXPECT_DOUBLE_EQ(t.at(0, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(t.at(1, 9.0), 20.0);
}

/// The kid-size humanoid walking with its upper body welded, noise-free sensors, gears that wind up.
std::string noise_free_elastic_walk() {
  static const std::string dir = [] {
    ScenarioOptions o;
    o.scenario = "walk";
    o.out_dir = test::fresh_dir("gear_windup", "walk");
    o.noise = NoiseLevel::None;
    o.walk_steps = 3;
    o.lock_upper_body = true;
    o.perturbations = {"joint-elasticity"};
    EXPECT_FALSE(run_scenario(test::bundled_robot("kid_humanoid"), o).fell);
    return o.out_dir;
  }();
  return dir;
}

std::vector<std::string> leg_joints() {
  std::vector<std::string> joints;
  for (const char* side : {"l_", "r_"})
    for (const char* j : {"hip_yaw", "hip_roll", "hip_pitch", "knee", "ankle_pitch", "ankle_roll"})
      joints.push_back(std::string(side) + j);
  return joints;
}

TEST(LinkTorqueTrack, InverseDynamicsWithTheContactWrenchesGivesMujocosLinkTorques) {
  const std::string dir = noise_free_elastic_walk();
  const Robot robot = test::bundled_robot("kid_humanoid");
  UrdfReadOptions read;
  read.floating_base = true;
  Model truth = read_urdf_file(dir + "/truth.urdf", read);  // the true masses, with the sidecar's frames
  RobotSidecar sidecar = *robot.sidecar;
  attach_sidecar(truth, sidecar);
  const DatasetInfo info = read_dataset_info(dir);
  TruthSource source(truth, sidecar, info);
  const std::vector<std::string> joints = leg_joints();
  const LinkTorqueTrack track = link_torque_track(truth, sidecar, source, joints, 0.0);
  // The truth stream's joint torques are the link torques MuJoCo's body interaction forces gave.
  MotionSample s;
  long k = 0;
  double worst = 0.0, largest = 0.0;
  while (source.next(s)) {
    ASSERT_DOUBLE_EQ(track.times[static_cast<std::size_t>(k)], s.time);
    for (std::size_t j = 0; j < joints.size(); ++j) {
      const double recorded =
          s.joint_torques[truth.bodies[static_cast<std::size_t>(*truth.find_joint(joints[j]))].idx_v];
      worst = std::max(worst, std::abs(track.torque(static_cast<Eigen::Index>(j), k) - recorded));
      largest = std::max(largest, std::abs(recorded));
    }
    ++k;
  }
  EXPECT_EQ(k, static_cast<long>(track.times.size()));
  std::printf("link torques: largest %.3f N m, worst difference %.2e N m over %ld samples\n", largest, worst, k);
  EXPECT_GT(largest, 1.0);
  EXPECT_LT(worst, 1e-6 * largest);

  // The low-pass keeps the slow torques: the 3 Hz track stays within the walk's torque scale.
  const LinkTorqueTrack smooth = link_torque_track(truth, sidecar, source, joints, 3.0);
  EXPECT_LT((smooth.torque - track.torque).cwiseAbs().maxCoeff(), largest);
  EXPECT_GT((smooth.torque - track.torque).cwiseAbs().maxCoeff(), 0.0);
}

TEST(GearWindupCorrection, TheCorrectedEncodersReadTheLinksAngles) {
  const std::string dir = noise_free_elastic_walk();
  const Robot robot = test::bundled_robot("kid_humanoid");
  const DatasetInfo info = read_dataset_info(dir);
  const nlohmann::json dataset = nlohmann::json::parse(test::read_file(dir + "/dataset.json"));
  const auto& stiffness = dataset.at("perturbations").at("joint-elasticity").at("stiffness_nm_per_rad");
  const std::vector<std::string> joints = leg_joints();

  // The link torques MuJoCo reported, at the truth stream's (the encoders') instants.
  auto windup = std::make_shared<GearWindup>();
  {
    TruthSource truth(robot.model, *robot.sidecar, info);
    MotionSample s;
    std::vector<std::vector<double>> columns;
    while (truth.next(s)) {
      windup->link_torque.times.push_back(s.time);
      std::vector<double> c;
      for (const std::string& j : joints)
        c.push_back(s.joint_torques[robot.model.bodies[static_cast<std::size_t>(*robot.model.find_joint(j))].idx_v]);
      columns.push_back(c);
    }
    windup->link_torque.joints = joints;
    windup->link_torque.torque.resize(static_cast<Eigen::Index>(joints.size()),
                                      static_cast<Eigen::Index>(columns.size()));
    for (std::size_t k = 0; k < columns.size(); ++k)
      for (std::size_t j = 0; j < joints.size(); ++j)
        windup->link_torque.torque(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(k)) = columns[k][j];
  }
  for (const std::string& j : joints) windup->compliance.push_back(1.0 / stiffness.at(j).get<double>());

  // Largest difference between the sensor path's joint angles and the truth stream's.
  auto worst_joint_error = [&](std::shared_ptr<const GearWindup> correction) {
    SensorSourceOptions o;
    o.gear_windup = std::move(correction);
    SensorSource sensors(robot.model, *robot.sidecar, info, o);
    TruthSource truth(robot.model, *robot.sidecar, info);
    MotionSample a, b;
    double worst = 0.0;
    while (sensors.next(a)) {
      while (truth.next(b) && b.time < a.time - 1e-9) {
      }
      EXPECT_NEAR(b.time, a.time, 1e-9);
      for (const std::string& j : joints) {
        const int idx_q = robot.model.bodies[static_cast<std::size_t>(*robot.model.find_joint(j))].idx_q;
        worst = std::max(worst, std::abs(a.q[idx_q] - b.q[idx_q]));
      }
    }
    return worst;
  };
  const double as_read = worst_joint_error(nullptr), corrected = worst_joint_error(windup);
  std::printf("largest joint angle error: %.2e rad as read, %.2e rad corrected\n", as_read, corrected);
  EXPECT_GT(as_read, 5e-4);  // the wind-up: up to 0.1-0.3 deg at the effort limit
  EXPECT_LT(corrected, 1e-9);
}

TEST(GearWindupCorrection, AJointTheModelDoesNotMoveIsNamed) {
  const Robot robot = test::bundled_robot("kid_humanoid");
  const DatasetInfo info = read_dataset_info(noise_free_elastic_walk());
  auto windup = std::make_shared<GearWindup>();
  windup->link_torque.joints = {"l_knee", "no_such_joint"};
  windup->link_torque.times = {0.0};
  windup->link_torque.torque = MatrixX::Zero(2, 1);
  windup->compliance = {1e-3, 1e-3};
  SensorSourceOptions o;
  o.gear_windup = windup;
  try {
    SensorSource s(robot.model, *robot.sidecar, info, o);
    ADD_FAILURE() << "an unknown joint was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'no_such_joint' is not a moving joint"), std::string::npos) << e.what();
  }
  MotionSample s;
  TruthSource truth(robot.model, *robot.sidecar, info);
  EXPECT_THROW(link_torque_track(robot.model, *robot.sidecar, truth, {"no_such_joint"}, 0.0), std::invalid_argument);
}

}  // namespace
}  // namespace dynid
