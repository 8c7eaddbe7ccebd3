// The joint torque sensors' stream (torques.csv): the torque acting on each link, as the truth
// stream records it, plus the configured white noise; read back by the sensor path.

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "dynid/data/sensor_source.hpp"
#include "dynid/io/csv_stream.hpp"
#include "dynid/mocap/butterworth.hpp"
#include "dynid/mocap/filtfilt.hpp"
#include "dynid/sim/scenario.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

using json = nlohmann::json;

std::string simulate_biped16(const std::string& name, NoiseLevel noise) {
  const std::string dir = test::fresh_dir("joint_torque_stream", name);
  ScenarioOptions o;
  o.scenario = "excite";
  o.out_dir = dir;
  o.noise = noise;
  o.motion = "evaluation";
  o.duration_s = 1.0;
  run_scenario(test::bundled_robot("biped16"), o);
  return dir;
}

/// Per torque channel: the recorded value minus the truth stream's tau at the same time.
std::vector<std::vector<double>> differences_to_truth(const std::string& dir, int& channels) {
  const CsvStream torques = read_csv_stream(dir + "/torques.csv");
  const CsvStream truth = read_csv_stream(dir + "/truth.csv");
  EXPECT_EQ(torques.values.rows(), truth.values.rows());
  channels = static_cast<int>(torques.header.size()) - 1;
  std::vector<std::vector<double>> d(static_cast<std::size_t>(channels));
  for (int c = 0; c < channels; ++c) {
    const Eigen::Index tc = truth.column(torques.header[static_cast<std::size_t>(c + 1)]);
    for (Eigen::Index r = 0; r < std::min(torques.values.rows(), truth.values.rows()); ++r) {
      EXPECT_EQ(torques.values(r, 0), truth.values(r, 0));
      d[static_cast<std::size_t>(c)].push_back(torques.values(r, c + 1) - truth.values(r, tc));
    }
  }
  return d;
}

TEST(JointTorqueStream, NoiseFreeIsTheTruthsLinkTorque) {
  const std::string dir = simulate_biped16("none", NoiseLevel::None);
  const json dataset = json::parse(test::read_file(dir + "/dataset.json"));
  ASSERT_TRUE(dataset["streams"].contains("torques"));
  EXPECT_EQ(dataset["streams"]["torques"]["rate_hz"], dataset["streams"]["encoders"]["rate_hz"]);
  int channels = 0;
  const auto d = differences_to_truth(dir, channels);
  EXPECT_EQ(channels, 16);  // biped16's sidecar: joint_torque_sensors: all
  double worst = 0.0;
  for (const auto& channel : d)
    for (double x : channel) worst = std::max(worst, std::abs(x));
  EXPECT_LT(worst, 1e-12);
}

TEST(JointTorqueStream, RealisticNoiseHasTheConfiguredSigma) {
  const std::string dir = simulate_biped16("realistic", NoiseLevel::Realistic);
  int channels = 0;
  const auto d = differences_to_truth(dir, channels);
  double sum = 0.0, sum2 = 0.0;
  long n = 0;
  for (const auto& channel : d)
    for (double x : channel) {
      sum += x;
      sum2 += x * x;
      ++n;
    }
  ASSERT_GT(n, 10000);
  const double mean = sum / static_cast<double>(n);
  const double sigma = std::sqrt(sum2 / static_cast<double>(n) - mean * mean);
  const double configured = sensor_noise(NoiseLevel::Realistic).joint_torque_sigma;
  EXPECT_NEAR(sigma / configured, 1.0, 0.05);
  EXPECT_LT(std::abs(mean), 0.05 * configured);
}

TEST(JointTorqueStream, TheSensorPathFillsTheMeasuredTorques) {
  const std::string dir = simulate_biped16("sensor_path", NoiseLevel::None);
  const Robot robot = test::bundled_robot("biped16");
  Model model = robot.model;
  const DatasetInfo dataset = read_dataset_info(dir);
  model.gravity = dataset.gravity;
  SensorSource source(model, *robot.sidecar, dataset);
  // Noise-free: the sensor path's torque is the truth's, low-passed with the same zero-phase filter.
  const CsvStream truth = read_csv_stream(dir + "/truth.csv");
  const SensorSourceOptions defaults;
  const Eigen::VectorXd knee = filtfilt(butterworth_lowpass(defaults.filter_order, defaults.cutoff_hz, 1000.0),
                                        Eigen::VectorXd(truth.values.col(truth.column("tau.l_knee"))));
  const int knee_v = model.bodies[static_cast<std::size_t>(model.joint_index("l_knee"))].idx_v;
  MotionSample s;
  long compared = 0;
  while (source.next(s)) {
    EXPECT_TRUE(std::isnan(s.joint_torques[0]));  // base rows: no joint torque
    ASSERT_TRUE(s.joint_torques.tail(model.nv - 6).allFinite());
    const long row = std::lround((s.time - truth.values(0, 0)) * 1000.0);
    ASSERT_NEAR(truth.values(row, 0), s.time, 1e-9);
    EXPECT_NEAR(s.joint_torques[knee_v], knee[row], 1e-9 * (1.0 + std::abs(knee[row])));
    ++compared;
  }
  EXPECT_GT(compared, 500);
  EXPECT_NEAR(source.noise().torque, sensor_noise(NoiseLevel::Realistic).joint_torque_sigma, 1e-15);
}

}  // namespace
}  // namespace dynid
