// IMU calibration from still windows (data/imu_still_calibration.hpp) against what could disagree
// with it: window means built from a known rotation and biases (exact, and the rotation's standard
// deviation against the scatter of many noisy draws), and the simulator's own mounting error
// (dataset.json perturbations.imu) on the adult humanoid's static poses, found by the sensor path's
// still-window detection from the robot's own sensors.

#include "dynid/data/imu_still_calibration.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>
#include <random>

#include "dynid/data/sensor_source.hpp"
#include "dynid/model/lock_joints.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "dynid/sim/perturbations.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

constexpr double kDeg = 180.0 / std::numbers::pi;

/// Angle [deg] of the rotation between two rotation matrices.
double angle_between(const Matrix3& a, const Matrix3& b) { return Eigen::AngleAxisd(a.transpose() * b).angle() * kDeg; }

/// Still windows at `n` attitudes tilted up to `tilt_deg` about random horizontal axes, read by an
/// IMU whose axes are `axes` in the frame, with biases and white noise `sigma` on each window mean.
std::vector<ImuStillWindow> windows_at_attitudes(int n, double tilt_deg, const Matrix3& axes, const Vector3& gyro_bias,
                                                 const Vector3& accel_bias, double sigma, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::normal_distribution<double> noise(0.0, 1.0);
  std::vector<ImuStillWindow> out;
  for (int k = 0; k < n; ++k) {
    const Vector3 axis = Vector3(u(rng), u(rng), 0.0).normalized();
    const Matrix3 frame_in_world = Eigen::AngleAxisd(tilt_deg / kDeg * u(rng), axis).toRotationMatrix();
    ImuStillWindow w;
    w.start = 2.0 * k;
    w.end = w.start + 1.0;
    w.samples = 100 + k;
    w.gravity_in_frame = frame_in_world.transpose() * Vector3(0.0, 0.0, 9.81);
    w.accelerometer =
        axes.transpose() * w.gravity_in_frame + accel_bias + sigma * Vector3(noise(rng), noise(rng), noise(rng));
    w.gyro = gyro_bias + 1e-4 * Vector3(noise(rng), noise(rng), noise(rng));
    out.push_back(w);
  }
  return out;
}

const Matrix3 kMounting = Eigen::AngleAxisd(0.8 / kDeg, Vector3(0.3, -0.5, 0.8).normalized()).toRotationMatrix();

TEST(ImuStillCalibration, ExactWindowMeansGiveTheMountingAndTheBiases) {
  const Vector3 gyro_bias(0.002, -0.001, 0.003), accel_bias(0.03, -0.02, 0.05);
  const auto windows = windows_at_attitudes(12, 15.0, kMounting, gyro_bias, accel_bias, 0.0, 1);
  const ImuCalibration c = calibrate_imu(windows);
  ASSERT_TRUE(c.axes_determined) << c.axes_note;
  EXPECT_LT(angle_between(c.sensor_axes_in_frame, kMounting), 1e-9);
  EXPECT_NEAR(c.misalignment_deg, 0.8, 1e-9);
  EXPECT_LT((c.accel_bias_m_s2 - accel_bias).norm(), 1e-9);
  EXPECT_LT((c.gyro_bias_rad_s - gyro_bias).norm(), 1e-4);
  EXPECT_NEAR(c.still_seconds, 12.0, 1e-12);
}

TEST(ImuStillCalibration, StandardDeviationsMatchTheScatterOfNoisyDraws) {
  // 400 draws of 10 windows with 0.01 m/s^2 on each mean: the spread of the fitted rotation about
  // each axis against the standard deviation the fit states (within 15 %).
  Eigen::Matrix<double, 3, Eigen::Dynamic> errors(3, 400);
  Vector3 stated = Vector3::Zero();
  for (int d = 0; d < 400; ++d) {
    const auto windows = windows_at_attitudes(10, 12.0, kMounting, Vector3::Zero(), Vector3::Zero(), 0.01, 100 + d);
    ImuCalibrationOptions loose;
    loose.max_axes_std_deg = 90.0;
    const ImuCalibration c = calibrate_imu(windows, loose);
    // The error as a small rotation of the frame axes: fitted = true * exp([e]x).
    const Eigen::AngleAxisd e(kMounting.transpose() * c.sensor_axes_in_frame);
    errors.col(d) = e.angle() * e.axis() * kDeg;
    stated += c.std_deg / 400.0;
  }
  const Vector3 scatter = (errors.array().square().rowwise().mean()).sqrt();
  for (int i = 0; i < 3; ++i) {
    std::printf("axis %d: stated %.4f deg, scatter %.4f deg\n", i, stated[i], scatter[i]);
    EXPECT_NEAR(stated[i] / scatter[i], 1.0, 0.15) << i;
  }
}

TEST(ImuStillCalibration, OneAttitudeKeepsTheSidecarAxesAndFoldsTheTiltIntoTheBias) {
  const Vector3 accel_bias(0.03, -0.02, 0.05);
  // Three windows, all upright: the rotation about x and y is not seen.
  const auto windows = windows_at_attitudes(3, 0.0, kMounting, Vector3::Zero(), accel_bias, 0.0, 2);
  const ImuCalibration c = calibrate_imu(windows);
  EXPECT_FALSE(c.axes_determined);
  EXPECT_NE(c.axes_note.find("kept at the sidecar's"), std::string::npos) << c.axes_note;
  EXPECT_TRUE(c.sensor_axes_in_frame.isIdentity());
  // The bias is what makes the upright mean right on the sidecar's axes.
  EXPECT_LT((windows[0].accelerometer - (windows[0].gravity_in_frame + c.accel_bias_m_s2)).norm(), 1e-9);
  EXPECT_GT((c.accel_bias_m_s2 - accel_bias).norm(), 0.05);  // the 0.8 deg tilt is in it (0.1 m/s^2)
  // Given axes (another recording's): only the biases, on them.
  const ImuCalibration given = calibrate_imu(windows, {}, kMounting);
  EXPECT_LT((given.accel_bias_m_s2 - accel_bias).norm(), 1e-9);
  EXPECT_THROW(calibrate_imu({}), std::runtime_error);
}

TEST(ImuStillCalibration, TheAdultHumanoidsTiltedStaticPosesGiveTheSimulatedMounting) {
  // Paper 000's protocol shortened to 24 poses, the base tilted up to 15 deg in each (paper 000's
  // poses keep it upright, 0.2 deg apart, which fixes no mounting), the realistic testbed's
  // imperfections on but the machining tolerances of `geometry`: those tilt the nominal leg
  // kinematics' base attitude by about as much as the mounting (0.45 deg off with them on,
  // docs/identification.md, "IMU calibration"), and the calibration finds the IMU's axes against
  // those kinematics, which is what the sensor path combines the IMU with. The still windows are
  // found from the robot's own encoders, the attitudes from the leg kinematics.
  ScenarioOptions o;
  o.scenario = "static-poses";
  o.seed = 1;
  o.noise = NoiseLevel::Realistic;
  o.static_pose_count = 24;
  o.static_pose_base_tilt_deg = 15.0;
  o.perturbations = parse_perturbations("imu,joint-elasticity,time,ft,force-plates,markers,inertia,sensor-bus");
  o.out_dir = test::fresh_dir("imu_still_calibration", "poses");
  run_scenario(test::bundled_robot("adult_humanoid"), o);
  const Robot robot = test::bundled_robot("adult_humanoid");
  const DatasetInfo dataset = read_dataset_info(o.out_dir);
  // The adult humanoid stands on plates, without foot F/T: the plates only say which foot carries
  // the weight (the anchor of the kinematic attitude); where they are in the world does not matter.
  SensorSourceOptions plates;
  plates.wrenches = "plates";
  plates.allow_plates_without_registration = true;
  const SensorSource source(robot.model, *robot.sidecar, dataset, plates);
  const ImuCalibration c = calibrate_imu(source.imu_still_windows());
  const nlohmann::json listed =
      nlohmann::json::parse(test::read_file(o.out_dir + "/dataset.json"))["perturbations"]["imu"];
  Matrix3 simulated;
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 3; ++k) simulated(r, k) = listed["sensor_axes_in_frame"][r][k].get<double>();
  const double mounting = listed["misalignment_deg"].get<double>(),
               error = angle_between(c.sensor_axes_in_frame, simulated);
  std::printf(
      "%zu still windows (%.1f s), %d set aside, attitudes %.2f deg apart; mounting %.3f deg, fitted %.3f deg, "
      "error %.3f deg, std %.3f %.3f %.3f deg\n",
      c.windows.size(), c.still_seconds, c.windows_set_aside, c.attitude_spread_deg, mounting, c.misalignment_deg,
      error, c.std_deg.x(), c.std_deg.y(), c.std_deg.z());
  EXPECT_EQ(c.windows.size(), 24u);  // one per pose
  ASSERT_TRUE(c.axes_determined) << c.axes_note;
  EXPECT_GT(mounting, 0.5);
  EXPECT_LT(error, 0.4 * mounting);  // measured 0.24 of 0.76 deg
  EXPECT_LT(error, 4.0 * c.std_deg.maxCoeff());
  // The gyro reads its bias in the still windows: the constant draw (0.002 rad/s per axis) and the
  // random walk of `imu` (2e-4 rad/s per sqrt(s)) bound it.
  EXPECT_LT(c.gyro_bias_rad_s.norm(), 0.02);
}

}  // namespace
}  // namespace dynid

namespace dynid {
namespace {

TEST(ImuStillCalibration, AnExcitationRecordedWithAStillPeriodFindsItAndNothingElse) {
  // `simulate --still 1.5` before paper 004's excitation (10 s of it): the one still window lies in
  // the recorded standing, listed as a `still` segment; the excitation moves from its first sample.
  ScenarioOptions o;
  o.scenario = "excite";
  o.motion = "paper004";
  o.duration_s = 10.0;
  o.still_s = 1.5;
  o.seed = 1;
  o.noise = NoiseLevel::Realistic;
  o.perturbations = {"imu"};
  o.out_dir = test::fresh_dir("imu_still_calibration", "excite");
  const Robot robot = test::bundled_robot("biped16");
  ASSERT_FALSE(run_scenario(robot, o).fell);
  const DatasetInfo dataset = read_dataset_info(o.out_dir);
  ASSERT_FALSE(dataset.segments.empty());
  const TimeSegment& still = dataset.segments.front();
  EXPECT_EQ(still.category, "still");
  EXPECT_NEAR(still.end - still.start, 1.5, 1e-9);
  const SensorSource source(robot.model, *robot.sidecar, dataset);
  ASSERT_EQ(source.imu_still_windows().size(), 1u);
  const ImuStillWindow& w = source.imu_still_windows().front();
  std::printf("still segment %.3f-%.3f s, window %.3f-%.3f s\n", still.start, still.end, w.start, w.end);
  EXPECT_GE(w.start, still.start);
  EXPECT_LE(w.end, still.end);
  EXPECT_GT(w.end - w.start, 1.0);
  ScenarioOptions arm = o;
  arm.out_dir = test::fresh_dir("imu_still_calibration", "arm");
  arm.motion = "fourier";
  EXPECT_THROW(run_scenario(test::bundled_robot("arm7"), arm), std::invalid_argument);
}

}  // namespace
}  // namespace dynid
