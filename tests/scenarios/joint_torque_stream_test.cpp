// The joint torque sensors' stream (torques.csv): the torque acting on each link, as the truth
// stream records it, plus the configured white noise; read back by the sensor path.

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "dynid/data/sensor_source.hpp"
#include "dynid/io/csv_stream.hpp"
#include "dynid/mocap/butterworth.hpp"
#include "dynid/mocap/filtfilt.hpp"
#include "dynid/scenarios/scenario.hpp"
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

/// Per torque channel: the recorded value minus the truth stream's tau at the same time, and that tau.
struct ChannelDifferences {
  std::vector<std::string> joints;
  std::vector<std::vector<double>> difference, truth;
};

ChannelDifferences differences_to_truth(const std::string& dir) {
  const CsvStream torques = read_csv_stream(dir + "/torques.csv");
  const CsvStream truth = read_csv_stream(dir + "/truth.csv");
  EXPECT_EQ(torques.values.rows(), truth.values.rows());
  ChannelDifferences d;
  const std::size_t channels = torques.header.size() - 1;
  d.difference.resize(channels);
  d.truth.resize(channels);
  for (std::size_t c = 0; c < channels; ++c) {
    d.joints.push_back(torques.header[c + 1].substr(4));
    const Eigen::Index tc = truth.column(torques.header[c + 1]);
    for (Eigen::Index r = 0; r < std::min(torques.values.rows(), truth.values.rows()); ++r) {
      EXPECT_EQ(torques.values(r, 0), truth.values(r, 0));
      d.difference[c].push_back(torques.values(r, static_cast<Eigen::Index>(c) + 1) - truth.values(r, tc));
      d.truth[c].push_back(truth.values(r, tc));
    }
  }
  return d;
}

TEST(JointTorqueStream, NoiseFreeIsTheTruthsLinkTorque) {
  const std::string dir = simulate_biped16("none", NoiseLevel::None);
  const json dataset = json::parse(test::read_file(dir + "/dataset.json"));
  ASSERT_TRUE(dataset["streams"].contains("torques"));
  EXPECT_EQ(dataset["streams"]["torques"]["rate_hz"], dataset["streams"]["encoders"]["rate_hz"]);
  const ChannelDifferences d = differences_to_truth(dir);
  EXPECT_EQ(d.joints.size(), 16u);  // biped16's sidecar: joint_torque_sensors: all
  double worst = 0.0;
  for (const auto& channel : d.difference)
    for (double x : channel) worst = std::max(worst, std::abs(x));
  EXPECT_LT(worst, 1e-12);
}

// Realistic: each sensor reads gain * tau + offset + white noise, gain and offset constant per run.
// A straight-line fit of the error against the true torque per channel separates the three; their
// spread over the 16 sensors matches the configured sigmas (chi-square, 16 draws: 0.5-1.6x).
TEST(JointTorqueStream, RealisticSensorsHaveTheConfiguredCalibrationAndNoise) {
  const std::string dir = simulate_biped16("realistic", NoiseLevel::Realistic);
  const ChannelDifferences d = differences_to_truth(dir);
  const SensorNoise configured = sensor_noise(NoiseLevel::Realistic);
  const Model model = test::bundled_robot("biped16").model;
  double gain2 = 0.0, offset2 = 0.0, noise2 = 0.0;
  long n = 0;
  for (std::size_t c = 0; c < d.joints.size(); ++c) {
    const Eigen::Index m = static_cast<Eigen::Index>(d.truth[c].size());
    ASSERT_GT(m, 500);
    Eigen::MatrixXd X(m, 2);
    X.col(0) = Eigen::Map<const Eigen::VectorXd>(d.truth[c].data(), m);
    X.col(1).setOnes();
    const Eigen::VectorXd e = Eigen::Map<const Eigen::VectorXd>(d.difference[c].data(), m);
    const Eigen::Vector2d fit = X.colPivHouseholderQr().solve(e);
    const double rated = model.bodies[static_cast<std::size_t>(model.joint_index(d.joints[c]))].limits.effort;
    gain2 += fit[0] * fit[0];
    offset2 += std::pow(fit[1] / (configured.joint_torque_offset_fraction * rated), 2);
    noise2 += (e - X * fit).squaredNorm();
    n += m;
  }
  const double channels = static_cast<double>(d.joints.size());
  EXPECT_NEAR(std::sqrt(noise2 / static_cast<double>(n)) / configured.joint_torque_sigma, 1.0, 0.05);
  const double gain_ratio = std::sqrt(gain2 / channels) / configured.joint_torque_gain_sigma;
  const double offset_ratio = std::sqrt(offset2 / channels);
  EXPECT_GT(gain_ratio, 0.5);
  EXPECT_LT(gain_ratio, 1.6);
  EXPECT_GT(offset_ratio, 0.5);
  EXPECT_LT(offset_ratio, 1.6);
}

TEST(JointTorqueStream, TheSensorPathFillsTheMeasuredTorques) {
  const std::string dir = simulate_biped16("sensor_path", NoiseLevel::None);
  const Robot robot = test::bundled_robot("biped16");
  Model model = robot.model;
  const DatasetInfo dataset = read_dataset_info(dir);
  model.gravity = dataset.gravity;
  SensorSource source(model, *robot.sidecar, dataset);
  // Noise-free (every stream says so, the path reads them raw): the sensor path's torque is the truth's.
  const CsvStream truth = read_csv_stream(dir + "/truth.csv");
  const Eigen::VectorXd knee = truth.values.col(truth.column("tau.l_knee"));
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
