// Errors in variables: the IMU gyro's white noise, differentiated into the base's angular
// acceleration, is noise in the regressor's own inputs. Least squares then shrinks the whole body's
// inertia about the base (the columns the angular acceleration multiplies) toward zero: on biped16's
// paper-004 motion, which turns the base slowly, by tens of per cent. The sensor path declares that
// noise (ForceNoise::acceleration, from the datasheet density) and the fit takes its expected
// contribution off the normal equations. Checked on a noise-free recording with datasheet-level gyro
// noise written into its IMU stream: with the noise modelled the whole-body inertias come out close
// to the truth; with it not modelled (--gyro-noise 0 --accelerometer-noise 0), they are shrunk.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "dynid/pipeline/inertial_identification.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"
#include "support/torque_stream_edit.hpp"

namespace dynid {
namespace {

constexpr double kGyroDensity = 0.014 * 3.14159265358979323846 / 180.0;  // BMI088 [rad/s/sqrt(Hz)]

/// A noise-free paper-004 recording of biped16 with white gyro noise at `density` written into its
/// IMU stream, which dataset.json then declares noisy.
std::string noisy_gyro_recording(double density) {
  ScenarioOptions s;
  s.scenario = "excite";
  s.noise = NoiseLevel::None;
  s.seed = 3;
  s.motion = "paper004";
  s.duration_s = 30.0;
  s.out_dir = test::fresh_dir("acceleration_noise", "clean");
  run_scenario(test::bundled_robot("biped16"), s);
  nlohmann::json info = nlohmann::json::parse(test::read_file(s.out_dir + "/dataset.json"));
  const double rate = info["streams"]["imu"]["rate_hz"].get<double>();
  std::mt19937 rng(11);
  std::normal_distribution<double> gauss;
  const double sigma = density * std::sqrt(rate);
  const std::string out =
      test::with_stream_readings(s.out_dir, "imu.csv", "acceleration_noise", "noisy_gyro", [&](int k, double value) {
        const double noise = sigma * gauss(rng);
        return k < 3 ? value + noise : value;  // gyro x, y, z
      });
  info["streams"]["imu"]["noise_free"] = false;
  std::ofstream(out + "/dataset.json") << info.dump(2);
  return out;
}

InertialIdentificationResult identify(const std::string& data, double gyro_density) {
  InertialIdentificationOptions o;
  o.model = "biped16";
  o.data = data;
  o.source = "sensors";
  o.sensors = "full";
  o.sensor_options.gyro_noise_density = gyro_density;
  if (gyro_density == 0.0) o.sensor_options.accelerometer_noise_density = 0.0;  // no IMU noise model at all
  o.truth_urdf = data + "/truth.urdf";
  return run_inertial_identification(o);
}

/// Largest relative error of the whole body's inertia about the base (the base parameters named
/// after the root body's Ixx, Iyy, Izz: every link's inertia lumps into them).
double whole_body_inertia_error(const InertialIdentificationResult& r) {
  double worst = 0.0;
  for (const char* axis : {"Ixx", "Iyy", "Izz"}) {
    const std::string name = std::string("pelvis.") + axis;
    int k = -1;
    for (int i = 0; i < r.base.num_base(); ++i)
      if (r.base.name(i) == name) k = i;
    EXPECT_GE(k, 0) << name;
    if (k < 0) return 1e9;
    worst = std::max(worst, std::abs(r.base_values[k] - (*r.base_truth)[k]) / std::abs((*r.base_truth)[k]));
  }
  return worst;
}

TEST(AccelerationNoise, ModelledGyroNoiseKeepsTheWholeBodyInertiaUnshrunk) {
  const std::string data = noisy_gyro_recording(kGyroDensity);
  const InertialIdentificationResult modelled = identify(data, kGyroDensity);
  const InertialIdentificationResult ignored = identify(data, 0.0);
  ASSERT_TRUE(modelled.base_truth && ignored.base_truth);
  ASSERT_TRUE(modelled.acceleration_noise);
  EXPECT_TRUE(modelled.acceleration_noise->bias_removed);
  EXPECT_FALSE(ignored.acceleration_noise);
  const double e_modelled = whole_body_inertia_error(modelled), e_ignored = whole_body_inertia_error(ignored);
  std::printf(
      "whole-body inertia, largest relative error: noise modelled %.3f, ignored %.3f (accelerometer density "
      "%.3g m/s^2/sqrt(Hz), %s)\n",
      e_modelled, e_ignored, modelled.acceleration_noise->accelerometer_noise_density,
      modelled.acceleration_noise->densities_from_data ? "estimated" : "given");
  EXPECT_LT(e_modelled, 0.1);
  EXPECT_GT(e_ignored, 2.0 * e_modelled);
}

}  // namespace
}  // namespace dynid
