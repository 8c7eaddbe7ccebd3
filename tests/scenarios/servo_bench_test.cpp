// The servo-bench scenario of paper 002: the seeded swing, and the data checked against what could
// disagree with it: dynid's inverse dynamics of the truth, and the motor equation U = R I + k N qdot
// evaluated from the recorded files alone; the servo is the true one (dead time, supply sag, friction
// above the datasheet), as `identify actuator` simulates it.

#include "dynid/scenarios/servo_bench.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <numbers>

#include "dynid/io/csv_stream.hpp"
#include "dynid/locomotion/servo_model.hpp"
#include "dynid/pipeline/actuator_identification.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::string fresh_dir(const std::string& name) { return test::fresh_dir("servo_bench_test", name); }

TEST(ServoSwing, StartsAndEndsAtRestInsideTheLimits) {
  const ServoSwing swing = make_servo_swing(-2.2, 1.6, 5.23, 4);
  EXPECT_NEAR(swing.position(0.0), -0.3, 1e-12);
  EXPECT_NEAR(swing.position(swing.duration_s), -0.3, 1e-12);
  EXPECT_NEAR(swing.velocity(0.0), 0.0, 1e-12);
  double lo = 1e9, hi = -1e9, peak = 0.0;
  for (double t = 0.0; t <= swing.duration_s; t += 1e-3) {
    lo = std::min(lo, swing.position(t));
    hi = std::max(hi, swing.position(t));
    peak = std::max(peak, std::abs(swing.velocity(t)));
    // The analytic velocity is the derivative of the position.
    EXPECT_NEAR(swing.velocity(t), (swing.position(t + 1e-6) - swing.position(t - 1e-6)) / 2e-6, 1e-5) << t;
  }
  EXPECT_GT(lo, -2.2);
  EXPECT_LT(hi, 1.6);
  EXPECT_GT(hi - lo, 0.6);  // a real swing
  EXPECT_LE(peak, 0.6 * 5.23 + 1e-9);
}

ScenarioOptions bench_options(const std::string& dir, NoiseLevel noise, unsigned seed = 3) {
  ScenarioOptions o;
  o.scenario = "servo-bench";
  o.out_dir = dir;
  o.noise = noise;
  o.seed = seed;
  return o;
}

/// One noise-free run shared by the checks below (8 s simulated).
class ServoBench : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(fresh_dir("noise_free"));
    summary_ =
        new ScenarioSummary(run_scenario(test::bundled_robot("servo_bench"), bench_options(*dir_, NoiseLevel::None)));
  }
  static void TearDownTestSuite() {
    delete dir_;
    delete summary_;
  }
  static std::string* dir_;
  static ScenarioSummary* summary_;
};
std::string* ServoBench::dir_ = nullptr;
ScenarioSummary* ServoBench::summary_ = nullptr;

TEST_F(ServoBench, TruthAgreesWithDynidInverseDynamics) {
  EXPECT_LT(summary_->consistency_max_rel_error, 1e-6);
  EXPECT_FALSE(summary_->fell);
  EXPECT_NEAR(summary_->duration_s, 9.0, 0.01);  // 1 s hold + 8 s swing
  const json summary = json::parse(summary_->summary_json);
  for (const char* key :
       {"tracking_rms_error_rad", "tracking_max_error_rad", "max_current_a", "max_abs_joint_torque_nm",
        "effort_limit_nm", "max_joint_speed_rad_s", "voltage_saturated_fraction"})
    EXPECT_TRUE(summary.contains(key)) << key;
}

TEST_F(ServoBench, ServoStreamHasTheDocumentedChannels) {
  const CsvStream servo = read_csv_stream(*dir_ + "/servo.csv");
  const std::vector<std::string> expected = {"time",
                                             "l_hip_pitch.q_cmd",
                                             "l_hip_pitch.q",
                                             "l_hip_pitch.current",
                                             "l_hip_pitch.voltage",
                                             "l_hip_pitch.supply_voltage"};
  EXPECT_EQ(servo.header, expected);
  EXPECT_EQ(servo.values.rows(), 8001);
  const json dataset = json::parse(test::read_file(*dir_ + "/dataset.json"));
  EXPECT_EQ(dataset["scenario"], "servo-bench");
  EXPECT_EQ(dataset["streams"]["servo"]["file"], "servo.csv");
  EXPECT_DOUBLE_EQ(dataset["streams"]["servo"]["rate_hz"].get<double>(), 1000.0);
  const json& a = dataset["actuators_truth"]["l_hip_pitch"];
  for (const char* key : {"gear_ratio", "torque_constant", "resistance", "supply_voltage", "p_gain", "voltage_per_rad",
                          "armature", "viscous_friction", "coulomb_friction", "stribeck_friction", "stribeck_velocity",
                          "alpha0", "alpha1", "alpha2", "alpha3", "alpha4"})
    EXPECT_TRUE(a.contains(key)) << key;
  EXPECT_DOUBLE_EQ(a["supply_voltage"].get<double>(), 14.8);
  // The true servo, not the datasheet (docs/actuators.md): a dead time of one to three 8 ms bus
  // cycles, a supply line of 0.15-0.35 ohm, friction 20-60 % above the sidecar's.
  const double dead_time = a["dead_time"], line = a["supply_resistance"];
  EXPECT_NEAR(dead_time / 0.008, std::round(dead_time / 0.008), 1e-9);
  EXPECT_GE(dead_time, 0.008 - 1e-12);
  EXPECT_LE(dead_time, 0.024 + 1e-12);
  EXPECT_GE(line, 0.15);
  EXPECT_LE(line, 0.35);
  const Robot bench = test::bundled_robot("servo_bench");  // held: `sheet` refers into it
  const ActuatorInfo& sheet = bench.sidecar->actuators.front();
  const double friction_ratio = a["coulomb_friction"].get<double>() / *sheet.coulomb_friction;
  EXPECT_GE(friction_ratio, 1.2);
  EXPECT_LE(friction_ratio, 1.6);
  // The supply at the servo sags by the line's resistance times the current of the period before.
  const Eigen::Index cs = servo.column("l_hip_pitch.supply_voltage"), ci = servo.column("l_hip_pitch.current");
  double lowest = 14.8;
  for (Eigen::Index r = 1; r < servo.values.rows(); ++r) {
    ASSERT_NEAR(servo.values(r, cs), 14.8 - line * std::abs(servo.values(r - 1, ci)), 1e-9) << r;
    lowest = std::min(lowest, servo.values(r, cs));
  }
  EXPECT_LT(lowest, 14.8 - 0.1 * line);  // the swing draws current: the sag shows
}

TEST_F(ServoBench, RecordedCurrentVoltageAndSpeedSatisfyTheMotorEquation) {
  // Paper 002, eq. (3) at the motor with omega = N qdot: U = R I + k_tau N qdot, from the files alone
  // (dataset.json's true values, servo.csv, truth.csv), not from how the loop computed them.
  const json a = json::parse(test::read_file(*dir_ + "/dataset.json"))["actuators_truth"]["l_hip_pitch"];
  const double R = a["resistance"], k = a["torque_constant"], N = a["gear_ratio"];
  const CsvStream servo = read_csv_stream(*dir_ + "/servo.csv");
  const CsvStream truth = read_csv_stream(*dir_ + "/truth.csv");
  ASSERT_EQ(servo.values.rows(), truth.values.rows());
  const Eigen::Index cu = servo.column("l_hip_pitch.voltage"), ci = servo.column("l_hip_pitch.current"),
                     cv = truth.column("v.l_hip_pitch");
  double worst = 0.0, max_current = 0.0;
  for (Eigen::Index r = 0; r < servo.values.rows(); ++r) {
    ASSERT_EQ(servo.values(r, 0), truth.values(r, 0));
    const double U = servo.values(r, cu), I = servo.values(r, ci), qdot = truth.values(r, cv);
    worst = std::max(worst, std::abs(U - R * I - k * N * qdot));
    max_current = std::max(max_current, std::abs(I));
  }
  EXPECT_LT(worst, 1e-9);
  EXPECT_GT(max_current, 0.3);  // the motor works: gravity and the swing need current
  // Electrical power balance (eq. 2): U I = omega tau + R I^2 with tau = k_tau I, row by row.
  for (Eigen::Index r = 0; r < servo.values.rows(); r += 97) {
    const double U = servo.values(r, cu), I = servo.values(r, ci), qdot = truth.values(r, cv);
    EXPECT_NEAR(U * I, N * qdot * k * I + R * I * I, 1e-8);
  }
}

TEST_F(ServoBench, PaperModelWithTheTrueAlphasReproducesTheVoltage) {
  // Paper 002, eq. (14): U = a0 tau + a1 qdot + a2 sgn (1 - beta) + a3 sgn beta + a4 qddot with the
  // alphas dataset.json states, tau the link torque of the truth stream (what rnea of the links gives)
  // and sgn smoothed as documented: what the actuator identification must recover.
  const json a = json::parse(test::read_file(*dir_ + "/dataset.json"))["actuators_truth"]["l_hip_pitch"];
  const CsvStream servo = read_csv_stream(*dir_ + "/servo.csv");
  const CsvStream truth = read_csv_stream(*dir_ + "/truth.csv");
  const Eigen::Index cv = truth.column("v.l_hip_pitch"), ca = truth.column("a.l_hip_pitch"),
                     ct = truth.column("tau.l_hip_pitch"), cu = servo.column("l_hip_pitch.voltage");
  double worst = 0.0;
  for (Eigen::Index r = 0; r < servo.values.rows(); ++r) {
    const double v = truth.values(r, cv);
    const double beta = std::exp(-std::abs(v / double(a["stribeck_velocity"])));
    const double sign = std::tanh(v / double(a["friction_sign_velocity"]));
    const double u = double(a["alpha0"]) * truth.values(r, ct) + double(a["alpha1"]) * v +
                     double(a["alpha2"]) * sign * (1.0 - beta) + double(a["alpha3"]) * sign * beta +
                     double(a["alpha4"]) * truth.values(r, ca);
    worst = std::max(worst, std::abs(u - servo.values(r, cu)));
  }
  EXPECT_LT(worst, 1e-9);
}

TEST_F(ServoBench, TracksTheCommandWithinTheEffortLimit) {
  const CsvStream servo = read_csv_stream(*dir_ + "/servo.csv");
  const CsvStream truth = read_csv_stream(*dir_ + "/truth.csv");
  const json a = json::parse(test::read_file(*dir_ + "/dataset.json"))["actuators_truth"]["l_hip_pitch"];
  const double effort = a["effort_limit"], current_limit = a["current_limit"];
  const Eigen::Index cq = servo.column("l_hip_pitch.q_cmd"), cqt = truth.column("q.l_hip_pitch"),
                     ctau = truth.column("tau.l_hip_pitch"), ci = servo.column("l_hip_pitch.current");
  double sq = 0.0, worst = 0.0, lo = 1e9, hi = -1e9;
  for (Eigen::Index r = 0; r < servo.values.rows(); ++r) {
    const double e = servo.values(r, cq) - truth.values(r, cqt);
    sq += e * e;
    worst = std::max(worst, std::abs(e));
    lo = std::min(lo, servo.values(r, cq));
    hi = std::max(hi, servo.values(r, cq));
    EXPECT_LE(std::abs(truth.values(r, ctau)), effort) << r;
    EXPECT_LE(std::abs(servo.values(r, ci)), current_limit + 1e-9) << r;
  }
  const double rms = std::sqrt(sq / double(servo.values.rows()));
  std::cout << "tracking rms " << rms << " rad, max " << worst << " rad, command range " << lo << " .. " << hi << "\n";
  EXPECT_GT(hi - lo, 0.6);
  // The P servo follows: the error is a fraction of the swing (docs/scenarios.md: 0.12-0.18 rad RMS,
  // at most 0.38 rad over seeds 1-7, dead times of 8-24 ms included) ...
  EXPECT_LT(rms, 0.2);
  EXPECT_LT(worst, 0.4);
  // ... but lags: without feed-forward U = k_ctrl k_P U_bat e must also cover the back-EMF, an error
  // of k_tau N qdot / 37.7 V/rad = 0.07 rad per rad/s (paper 002, Fig. 5: why it learns a model).
  EXPECT_GT(rms, 0.02);
}

TEST_F(ServoBench, LogFitRecoversTheTrueServoNotTheDatasheet) {
  // `identify actuator --logs` on the scenario's servo.csv, with the true links (truth.urdf): the
  // alphas of the servo that ran (dataset.json), within the 10 % of issue 13's must-show, and its
  // dead time as the reaction time; the datasheet's friction alphas are further off than that.
  ActuatorIdentificationOptions o;
  o.joint = "l_hip_pitch";
  o.logs = *dir_;
  o.cutoff_hz = 0.0;
  o.links_urdf = *dir_ + "/truth.urdf";
  const ActuatorIdentificationResult r = run_actuator_identification(test::bundled_robot("servo_bench"), o);
  const json a = json::parse(test::read_file(*dir_ + "/dataset.json"))["actuators_truth"]["l_hip_pitch"];
  const ServoParameters sheet = servo_parameters(test::bundled_robot("servo_bench").sidecar->actuators.front());
  const ActuatorAlpha datasheet = alpha_from_physical(actuator_physical(sheet));
  for (int i = 0; i < 4; ++i) {
    const double truth = a["alpha" + std::to_string(i)];
    EXPECT_NEAR(r.fit.model.alpha[i], truth, 0.10 * truth) << "alpha" << i;
  }
  EXPECT_GT(std::abs(datasheet[2] / double(a["alpha2"]) - 1.0), 0.15);
  EXPECT_NEAR(r.fit.model.reaction_time_s, double(a["dead_time"]), 0.004);
}

TEST(ServoBenchRun, SameSeedGivesIdenticalFilesAndRealisticNoiseIsQuantized) {
  const Robot bench = test::bundled_robot("servo_bench");
  const std::string a = fresh_dir("seed_a"), b = fresh_dir("seed_b");
  run_scenario(bench, bench_options(a, NoiseLevel::Realistic, 7));
  run_scenario(bench, bench_options(b, NoiseLevel::Realistic, 7));
  for (const char* f : {"servo.csv", "truth.csv", "encoders.csv", "dataset.json", "truth.urdf"}) {
    ASSERT_TRUE(fs::exists(a + "/" + f)) << f;
    EXPECT_EQ(test::read_file(a + "/" + f), test::read_file(b + "/" + f)) << f;
  }
  const CsvStream servo = read_csv_stream(a + "/servo.csv");
  const double count = 2.0 * std::numbers::pi / 4096.0;
  double residual_sq = 0.0;
  const json act = json::parse(test::read_file(a + "/dataset.json"))["actuators_truth"]["l_hip_pitch"];
  const CsvStream truth = read_csv_stream(a + "/truth.csv");
  for (Eigen::Index r = 0; r < servo.values.rows(); ++r) {
    const double q = servo.values(r, servo.column("l_hip_pitch.q"));
    EXPECT_NEAR(q / count, std::round(q / count), 1e-6);
    const double I = servo.values(r, servo.column("l_hip_pitch.current"));
    EXPECT_NEAR(I / 0.0045, std::round(I / 0.0045), 1e-6);
    const double supply = servo.values(r, servo.column("l_hip_pitch.supply_voltage"));
    EXPECT_NEAR(supply / 0.1, std::round(supply / 0.1), 1e-6);
    EXPECT_LE(supply, 14.8 + 0.1 + 1e-9);
    const double e =
        servo.values(r, servo.column("l_hip_pitch.voltage")) - double(act["resistance"]) * I -
        double(act["torque_constant"]) * double(act["gear_ratio"]) * truth.values(r, truth.column("v.l_hip_pitch"));
    residual_sq += e * e;
  }
  // Noise of the motor equation: voltage ripple 0.02 V and R x current noise (4.5 mA + quantization).
  const double sigma = std::sqrt(residual_sq / double(servo.values.rows()));
  const double expected =
      std::sqrt(0.02 * 0.02 + std::pow(double(act["resistance"]), 2) * (0.0045 * 0.0045 + 0.0045 * 0.0045 / 12.0));
  EXPECT_NEAR(sigma / expected, 1.0, 0.1);
}

TEST(ServoBenchRun, BadRequestsFailBeforeRunning) {
  ScenarioOptions o = bench_options(fresh_dir("bad"), NoiseLevel::None);
  EXPECT_THROW(check_scenario(test::bundled_robot("kid_humanoid"), o), std::invalid_argument);
  Robot bench = test::bundled_robot("servo_bench");
  EXPECT_NO_THROW(check_scenario(bench, o));
  bench.sidecar->actuators.front().gear_ratio.reset();
  EXPECT_THROW(check_scenario(bench, o), std::invalid_argument);
  bench.sidecar->actuators.clear();
  EXPECT_THROW(check_scenario(bench, o), std::invalid_argument);
  EXPECT_FALSE(fs::exists(o.out_dir));
}

}  // namespace
}  // namespace dynid
