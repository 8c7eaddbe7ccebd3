// `identify inertial --imu-calibration` on the kid humanoid's walk: the gyro bias from the windows
// where the robot stands still against the bias the simulator put in (the mean of the reading minus
// the true base rate over the whole walk, on the sensor's simulated axes), the summary's keys, and
// the walk's one attitude leaving the axes at the sidecar's.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "dynid/io/csv_stream.hpp"
#include "dynid/pipeline/inertial_identification.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/kid_walk_identification.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

TEST(ImuCalibrationIdentification, TheStandingWindowsGiveTheGyroBiasTheSimulatorPutIn) {
  ScenarioOptions walk;
  walk.scenario = "walk";
  walk.out_dir = test::fresh_dir("imu_calibration", "walk");
  walk.seed = 1;
  walk.noise = NoiseLevel::Realistic;
  walk.lock_upper_body = true;
  walk.walk_steps = 6;
  walk.perturbations = {"imu"};  // the mounting and the bias's random walk; one clock
  ASSERT_FALSE(run_scenario(test::bundled_robot("kid_humanoid"), walk).fell);

  InertialIdentificationOptions o = test::kid_walk_options(walk.out_dir);
  o.imu_calibration = true;
  o.out_dir = test::fresh_dir("imu_calibration", "identified");
  const InertialIdentificationResult r = run_inertial_identification(o);
  ASSERT_TRUE(r.imu_calibration);
  const ImuCalibration& c = *r.imu_calibration;
  // The walk stands before its first step (0.5-2.5 s, the weight shift included) and after its last.
  ASSERT_FALSE(c.windows.empty());
  EXPECT_LT(c.windows.front().start, 2.5);
  EXPECT_FALSE(c.axes_determined);  // one attitude
  EXPECT_NE(c.axes_note.find("kept at the sidecar's"), std::string::npos) << c.axes_note;

  // The simulated bias on the sensor's axes: reading - R_sf * (true rate in the sidecar frame),
  // averaged over the whole walk (the constant draw plus the mean of the random walk).
  const Robot robot = test::bundled_robot("kid_humanoid");
  const Matrix3 frame_in_base =
      robot.model.frames[static_cast<std::size_t>(robot.model.frame_index(robot.sidecar->imu->name))]
          .placement.rotation;
  const nlohmann::json listed =
      nlohmann::json::parse(test::read_file(walk.out_dir + "/dataset.json"))["perturbations"]["imu"];
  Matrix3 sensor_in_frame;
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) sensor_in_frame(i, k) = listed["sensor_axes_in_frame"][i][k].get<double>();
  const CsvStream imu = read_csv_stream(walk.out_dir + "/imu.csv");
  const CsvStream truth = read_csv_stream(walk.out_dir + "/truth.csv");
  ASSERT_EQ(imu.values.rows(), truth.values.rows());  // both at 1 kHz on the robot's clock
  Vector3 simulated = Vector3::Zero();
  const std::string nm = robot.sidecar->imu->name;
  for (Eigen::Index k = 0; k < imu.values.rows(); ++k) {
    const Vector3 reading(imu.values(k, imu.column(nm + ".gyro.x")), imu.values(k, imu.column(nm + ".gyro.y")),
                          imu.values(k, imu.column(nm + ".gyro.z")));
    const Vector3 rate(truth.values(k, truth.column("v.root_joint.wx")),
                       truth.values(k, truth.column("v.root_joint.wy")),
                       truth.values(k, truth.column("v.root_joint.wz")));
    simulated += (reading - sensor_in_frame.transpose() * frame_in_base.transpose() * rate) /
                 static_cast<double>(imu.values.rows());
  }
  std::printf("gyro bias: still windows %.2e %.2e %.2e, simulated %.2e %.2e %.2e rad/s (%zu windows, %.1f s)\n",
              c.gyro_bias_rad_s.x(), c.gyro_bias_rad_s.y(), c.gyro_bias_rad_s.z(), simulated.x(), simulated.y(),
              simulated.z(), c.windows.size(), c.still_seconds);
  // The random walk moves the bias by 2e-4 rad/s per sqrt(s) between the windows and the walk's mean.
  EXPECT_LT((c.gyro_bias_rad_s - simulated).norm(), 1e-3);

  const nlohmann::json s = nlohmann::json::parse(test::read_file(o.out_dir + "/summary.json"))["imu_calibration"];
  for (const char* key : {"still_windows", "still_seconds", "gyro_bias_rad_s", "accel_bias_m_s2", "axes_determined",
                          "axes_note", "sensor_axes_in_frame", "std_deg", "attitude_spread_deg", "basis"})
    EXPECT_TRUE(s.contains(key)) << key;
  EXPECT_EQ(s["still_windows"].size(), c.windows.size());
}

}  // namespace
}  // namespace dynid
