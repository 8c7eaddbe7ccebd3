// `--perturb force-plates` and `--perturb imu` in recorded data. Force plates: the same noise-free
// static poses with and without it (the plates do not touch the motion) differ in plates.csv as the
// listed gains, crosstalk, centre-of-pressure shift and zero drift say — written out here from the
// documented definitions (a force at COP + δ; gains, crosstalk and drift on the channels) — and the
// drawn errors lie within their documented bands.

#include "dynid/sim/force_plate_perturbation.hpp"
#include "dynid/sim/ft_perturbation.hpp"
#include "dynid/sim/imu_perturbation.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "dynid/io/csv_stream.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

std::string poses(const std::string& name, const std::vector<std::string>& perturbations) {
  ScenarioOptions o;
  o.scenario = "static-poses";
  o.seed = 4;
  o.noise = NoiseLevel::None;
  o.static_pose_count = 3;
  o.perturbations = perturbations;
  o.out_dir = test::fresh_dir("force_plate_perturbation", name);
  run_scenario(test::bundled_robot("adult_humanoid"), o);
  return o.out_dir;
}

TEST(ForcePlatePerturbation, RecordedPlatesReadTheListedErrors) {
  const std::string with = poses("plates", {"force-plates"}), without = poses("none", {});
  const nlohmann::json listed =
      nlohmann::json::parse(test::read_file(with + "/dataset.json"))["perturbations"]["force-plates"]["plates"];
  ASSERT_EQ(listed.size(), 2u);
  const CsvStream a = read_csv_stream(with + "/plates.csv"), b = read_csv_stream(without + "/plates.csv");
  ASSERT_EQ(a.values.rows(), b.values.rows());
  for (const auto& [plate, listed_plate] : listed.items()) {
    const nlohmann::json& e = listed_plate;  // clang 14 (the sanitizer build) cannot capture a structured binding
    auto v = [&](const char* key, int k) { return e[key][k].get<double>(); };
    for (int k = 0; k < 3; ++k) EXPECT_LE(std::abs(v("gain", k) - 1.0), kPlateGainTolerance);
    for (int k = 0; k < 2; ++k) {
      EXPECT_LE(std::abs(v("crosstalk_fz_to_fx_fy", k)), kPlateCrosstalk);
      EXPECT_LE(std::abs(v("cop_bias_m", k)), kPlateCopBiasM);
      EXPECT_LE(std::abs(v("cop_scale", k)), kPlateCopScale);
    }
    for (int k = 0; k < 6; ++k)
      EXPECT_LE(std::abs(v("drift_per_s", k)), k < 3 ? kPlateForceDriftNPerS : kPlateMomentDriftNmPerS);
    const Eigen::Index c = b.column(plate + ".fx");
    double worst_force = 0.0, worst_moment = 0.0, largest_change = 0.0;
    for (Eigen::Index r = 0; r < b.values.rows(); ++r) {
      const double t = b.values(r, 0);
      const Vector3 f = b.values.block<1, 3>(r, c).transpose(), m = b.values.block<1, 3>(r, c + 3).transpose();
      if (std::abs(f.z()) < 100.0) continue;  // a foot barely on the plate: no COP to speak of
      // The true COP relative to the top centre, and the force applied instead at COP + delta.
      const Vector3 cop(-m.y() / f.z(), m.x() / f.z(), 0.0);
      const Vector3 delta(v("cop_bias_m", 0) + v("cop_scale", 0) * cop.x(),
                          v("cop_bias_m", 1) + v("cop_scale", 1) * cop.y(), 0.0);
      Vector3 f_expected(v("gain", 0) * f.x() + v("crosstalk_fz_to_fx_fy", 0) * f.z(),
                         v("gain", 1) * f.y() + v("crosstalk_fz_to_fx_fy", 1) * f.z(), v("gain", 2) * f.z());
      Vector3 m_expected = m + delta.cross(f);
      for (int k = 0; k < 3; ++k) {
        f_expected[k] += v("drift_per_s", k) * t;
        m_expected[k] += v("drift_per_s", 3 + k) * t;
      }
      const Vector3 fa = a.values.block<1, 3>(r, c).transpose(), ma = a.values.block<1, 3>(r, c + 3).transpose();
      worst_force = std::max(worst_force, (fa - f_expected).norm());
      worst_moment = std::max(worst_moment, (ma - m_expected).norm());
      largest_change = std::max(largest_change, (fa - f).norm());
    }
    EXPECT_LT(worst_force, 1e-6) << plate;  // the CSV's 10 significant digits of ~400 N
    EXPECT_LT(worst_moment, 1e-6) << plate;
    EXPECT_GT(largest_change, 0.5) << plate;  // the errors are there: newtons on a 400 N load
  }
}

}  // namespace
}  // namespace dynid

namespace dynid {
namespace {

// `--perturb imu` (sim/imu_perturbation.hpp): the same noise-free walk with and without it (the
// controllers read the sidecar's IMU, so the motion is the same) — the recorded accelerometer is the
// unperturbed one in the listed sensor axes times the listed scales, the gyro the unperturbed one in
// those axes plus a bias that walks (by the end as listed); the misalignment is within 1 deg.
TEST(ImuPerturbation, RecordedImuIsTheListedMountingAndScale) {
  auto walk = [](const std::string& name, const std::vector<std::string>& perturbations) {
    ScenarioOptions o;
    o.scenario = "walk";
    o.seed = 2;
    o.noise = NoiseLevel::None;
    o.walk_steps = 2;
    o.walk_speed_mps = 0.1;
    o.perturbations = perturbations;
    o.out_dir = test::fresh_dir("imu_perturbation", name);
    run_scenario(test::bundled_robot("kid_humanoid"), o);
    return o.out_dir;
  };
  const std::string with = walk("imu", {"imu"}), without = walk("none", {});
  const nlohmann::json m = nlohmann::json::parse(test::read_file(with + "/dataset.json"))["perturbations"]["imu"];
  Matrix3 sensor_in_frame;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) sensor_in_frame(i, j) = m["sensor_axes_in_frame"][i][j].get<double>();
  EXPECT_LT((sensor_in_frame.transpose() * sensor_in_frame - Matrix3::Identity()).norm(), 1e-9);
  EXPECT_LE(m["misalignment_deg"].get<double>(), kImuMisalignmentDeg);
  EXPECT_NEAR(std::acos(std::clamp(0.5 * (sensor_in_frame.trace() - 1.0), -1.0, 1.0)) * 180.0 / M_PI,
              m["misalignment_deg"].get<double>(), 1e-6);
  const Vector3 scale(m["accel_scale"][0].get<double>(), m["accel_scale"][1].get<double>(),
                      m["accel_scale"][2].get<double>());
  EXPECT_LE((scale - Vector3::Ones()).cwiseAbs().maxCoeff(), kImuAccelScaleTolerance);
  const CsvStream a = read_csv_stream(with + "/imu.csv"), b = read_csv_stream(without + "/imu.csv");
  ASSERT_EQ(a.values.rows(), b.values.rows());
  const Eigen::Index g = a.column("imu.gyro.x"), acc = a.column("imu.acc.x");
  double worst_acc = 0.0;
  Vector3 walk_now = Vector3::Zero();
  for (Eigen::Index r = 0; r < a.values.rows(); ++r) {
    const Vector3 acc_b = b.values.block<1, 3>(r, acc).transpose(), acc_a = a.values.block<1, 3>(r, acc).transpose();
    worst_acc = std::max(worst_acc, (acc_a - scale.cwiseProduct(sensor_in_frame.transpose() * acc_b)).norm());
    walk_now =
        a.values.block<1, 3>(r, g).transpose() - sensor_in_frame.transpose() * b.values.block<1, 3>(r, g).transpose();
  }
  EXPECT_LT(worst_acc, 1e-7);
  const Vector3 listed_walk(m["gyro_bias_walk_at_end"][0].get<double>(), m["gyro_bias_walk_at_end"][1].get<double>(),
                            m["gyro_bias_walk_at_end"][2].get<double>());
  EXPECT_LT((walk_now - listed_walk).norm(), 1e-8);
  EXPECT_GT(listed_walk.norm(), 0.0);
  // A random walk of 2e-4 rad/s per sqrt(s) over a few seconds: well below 5 sigma.
  EXPECT_LT(listed_walk.norm(), 5.0 * kImuGyroBiasWalk * std::sqrt(3.0 * a.values(a.values.rows() - 1, 0)));
}

// `--perturb ft`: the same noise-free static poses with and without it (the poses are held by the
// stance servos, which read no F/T: the encoders are the same to the last digit) differ in ft.csv
// as the listed calibration matrices, sensing origin and zero drift say, written out here from the
// documented definitions; every drawn error lies within its band.
TEST(FtPerturbation, RecordedFtSensorsReadTheListedErrors) {
  const std::string with = poses("ft", {"ft"}), without = poses("none", {});
  EXPECT_EQ(test::read_file(with + "/encoders.csv"), test::read_file(without + "/encoders.csv"));
  const nlohmann::json listed =
      nlohmann::json::parse(test::read_file(with + "/dataset.json"))["perturbations"]["ft"]["sensors"];
  ASSERT_EQ(listed.size(), 4u);  // feet and wrists
  const CsvStream a = read_csv_stream(with + "/ft.csv"), b = read_csv_stream(without + "/ft.csv");
  ASSERT_EQ(a.values.rows(), b.values.rows());
  for (const auto& [sensor, e] : listed.items()) {
    Matrix3 F, M;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        F(i, j) = e["force_matrix"][i][j].get<double>();
        M(i, j) = e["moment_matrix"][i][j].get<double>();
        EXPECT_LE(std::abs(F(i, j) - (i == j ? 1.0 : 0.0)), i == j ? kFtGainTolerance : kFtCrosstalk);
        EXPECT_LE(std::abs(M(i, j) - (i == j ? 1.0 : 0.0)), i == j ? kFtGainTolerance : kFtCrosstalk);
      }
    const Vector3 r(e["origin_error_m"][0].get<double>(), e["origin_error_m"][1].get<double>(),
                    e["origin_error_m"][2].get<double>());
    EXPECT_LE(r.cwiseAbs().maxCoeff(), kFtOriginErrorM);
    Vector6 drift;
    for (int k = 0; k < 6; ++k) {
      drift[k] = e["drift_per_s"][k].get<double>();
      EXPECT_LE(std::abs(drift[k]), k < 3 ? kFtForceDriftNPerS : kFtMomentDriftNmPerS);
    }
    const Eigen::Index c = b.column(sensor + ".fx");
    double worst_force = 0.0, worst_moment = 0.0, largest_change = 0.0, largest_force = 0.0;
    for (Eigen::Index r_ = 0; r_ < b.values.rows(); ++r_) {
      const double t = b.values(r_, 0);
      const Vector3 f = b.values.block<1, 3>(r_, c).transpose(), m = b.values.block<1, 3>(r_, c + 3).transpose();
      // Read about the calibrated origin r: the moment m - r x f, then the matrices, then the drift.
      const Vector3 f_read = F * f + drift.head<3>() * t, m_read = M * (m - r.cross(f)) + drift.tail<3>() * t;
      const Vector3 fa = a.values.block<1, 3>(r_, c).transpose(), ma = a.values.block<1, 3>(r_, c + 3).transpose();
      worst_force = std::max(worst_force, (fa - f_read).norm());
      worst_moment = std::max(worst_moment, (ma - m_read).norm());
      largest_change = std::max(largest_change, (fa - f).norm());
      largest_force = std::max(largest_force, f.norm());
    }
    EXPECT_LT(worst_force, 1e-6) << sensor;  // ft.csv keeps 10 significant digits
    EXPECT_LT(worst_moment, 1e-6) << sensor;
    // A foot carrying hundreds of newtons: errors of up to 1 % show.
    if (largest_force > 100.0) {
      EXPECT_GT(largest_change, 0.05) << sensor;
    }
  }
}

}  // namespace
}  // namespace dynid
