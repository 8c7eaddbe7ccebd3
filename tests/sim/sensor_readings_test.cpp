// The controller's sensor readings (DatasetRecorder::latest) are the values the streams record,
// noise included, also while nothing is written; the accelerometer reports the motion the
// integrator made.

#include <gtest/gtest.h>

#include <filesystem>

#include "dynid/dynamics/kinematics.hpp"
#include "dynid/io/csv_stream.hpp"
#include "dynid/sim/dataset_recorder.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

TEST(SensorReadings, AreTheNoisyValuesTheStreamsRecord) {
  const Robot robot = test::bundled_robot("kid_humanoid");
  const std::string dir = test::fresh_dir("sensor_readings_test", "run");
  std::filesystem::create_directories(dir);
  const SceneSpec scene;
  Simulation sim(robot.model, *robot.sidecar, scene);
  DatasetRecorder recorder(dir, robot.model, *robot.sidecar, scene, sensor_noise(NoiseLevel::Realistic), StreamRates{},
                           7);
  // Dropped onto the floor from just above it, turning: the feet land, the gyro sees the turn.
  VectorX q = robot.model.neutral_configuration();
  q[2] = 0.35;
  VectorX v = VectorX::Zero(robot.model.nv);
  v.segment<3>(3) = Vector3(0.3, -0.2, 0.1);
  sim.set_state(q, v);
  const VectorX tau = VectorX::Zero(robot.model.nv);
  std::vector<SensorReadings> written;
  for (int k = 0; k < 200; ++k) {
    sim.forward(tau);
    const bool write = k % 2 == 0;  // every other step only read, as a controller between recordings
    recorder.record(sim, tau, write);
    if (write) written.push_back(recorder.latest());
    sim.integrate();
  }
  recorder.finish();
  const CsvStream imu = read_csv_stream(dir + "/imu.csv");
  const CsvStream ft = read_csv_stream(dir + "/ft.csv");
  ASSERT_EQ(imu.values.rows(), static_cast<Eigen::Index>(written.size()));
  ASSERT_EQ(ft.values.rows(), static_cast<Eigen::Index>(written.size()));
  const char* axes[3] = {"x", "y", "z"};
  const char* wrench[6] = {"fx", "fy", "fz", "tx", "ty", "tz"};
  double largest_force = 0.0;
  for (std::size_t r = 0; r < written.size(); ++r) {
    const auto row = static_cast<Eigen::Index>(r);
    const SensorReadings& s = written[r];
    ASSERT_TRUE(s.imu);
    for (int a = 0; a < 3; ++a) {
      // The streams keep 10 significant digits.
      const double gyro = imu.values(row, imu.column(std::string("imu.gyro.") + axes[a]));
      EXPECT_NEAR(s.gyro[a], gyro, 1e-9 * std::max(1.0, std::abs(gyro)));
      const double acc = imu.values(row, imu.column(std::string("imu.acc.") + axes[a]));
      EXPECT_NEAR(s.accelerometer[a], acc, 1e-9 * std::max(1.0, std::abs(acc)));
    }
    ASSERT_EQ(s.ft.size(), robot.sidecar->ft_sensors.size());
    for (std::size_t f = 0; f < s.ft.size(); ++f)
      for (int k = 0; k < 6; ++k) {
        const double value = ft.values(row, ft.column(robot.sidecar->ft_sensors[f].name + "." + wrench[k]));
        EXPECT_NEAR(s.ft[f].to_vector()[k], value, 1e-9 * std::max(1.0, std::abs(value)));
        if (k == 2) largest_force = std::max(largest_force, std::abs(value));
      }
  }
  EXPECT_GT(largest_force, 10.0);  // the feet did land: the F/T sensors carried load
}

TEST(SensorReadings, AccelerometerIsTheSpecificForceOfTheIntegratedMotion) {
  // Second formulation: the IMU's world positions, differenced twice about a sample (central), are
  // the velocity change the integrator makes in the step after it, the acceleration of the sample's
  // forces (docs/data-format.md, "Time stamps"). MuJoCo's qacc differs from it where joint damping
  // is integrated implicitly; the accelerometer must follow the motion.
  const Robot robot = test::bundled_robot("kid_humanoid");
  const std::string dir = test::fresh_dir("sensor_readings_test", "accelerometer");
  std::filesystem::create_directories(dir);
  const SceneSpec scene;
  Simulation sim(robot.model, *robot.sidecar, scene);
  DatasetRecorder recorder(dir, robot.model, *robot.sidecar, scene, sensor_noise(NoiseLevel::None), StreamRates{}, 7);
  VectorX q = robot.model.neutral_configuration();
  q[2] = 0.35;
  VectorX v = VectorX::Zero(robot.model.nv);
  v.segment<3>(3) = Vector3(0.3, -0.2, 0.1);
  sim.set_state(q, v);
  const VectorX tau = VectorX::Zero(robot.model.nv);
  const int imu = robot.model.frame_index(robot.sidecar->imu->name);
  Data data(robot.model);
  std::vector<Vector3> position, reading;
  std::vector<Matrix3> rotation;
  for (int k = 0; k < 300; ++k) {
    sim.forward(tau);
    recorder.record(sim, tau, true);
    reading.push_back(recorder.latest().accelerometer);
    forward_kinematics(robot.model, data, sim.q());
    position.push_back(frame_placement(robot.model, data, imu).translation);
    rotation.push_back(frame_placement(robot.model, data, imu).rotation);
    sim.integrate();
  }
  recorder.finish();
  const double dt = sim.timestep();
  double e2 = 0.0, a2 = 0.0;
  for (std::size_t k = 1; k + 1 < position.size(); ++k) {
    const Vector3 acc = (position[k + 1] - 2 * position[k] + position[k - 1]) / (dt * dt);
    const Vector3 expected = rotation[k].transpose() * (acc - robot.model.gravity);
    e2 += (reading[k] - expected).squaredNorm();
    a2 += (expected + rotation[k].transpose() * robot.model.gravity).squaredNorm();
  }
  const double n = static_cast<double>(position.size() - 2);
  std::printf("accelerometer vs differenced IMU positions: RMS %.3g m/s^2 (motion RMS %.3g m/s^2)\n", std::sqrt(e2 / n),
              std::sqrt(a2 / n));
  EXPECT_GT(std::sqrt(a2 / n), 1.0);  // the robot did land and move
  EXPECT_LT(std::sqrt(e2 / n), 1e-3 * std::sqrt(a2 / n));
}

}  // namespace
}  // namespace dynid
