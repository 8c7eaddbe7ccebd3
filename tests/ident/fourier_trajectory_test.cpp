// Fourier-series trajectories: derivatives against finite differences, bounds against sampled
// peaks, the file format round trip and its errors.

#include "dynid/ident/fourier_trajectory.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

FourierTrajectory random_trajectory(int joints, int harmonics, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  FourierTrajectory t;
  t.base_frequency_hz = 0.2;
  for (int j = 0; j < joints; ++j) t.joints.push_back("joint" + std::to_string(j));
  t.q0 = VectorX::NullaryExpr(joints, [&] { return u(rng); });
  t.a = MatrixX::NullaryExpr(joints, harmonics, [&] { return u(rng); });
  t.b = MatrixX::NullaryExpr(joints, harmonics, [&] { return u(rng); });
  return t;
}

TEST(FourierTrajectory, DerivativesMatchFiniteDifferences) {
  const FourierTrajectory t = random_trajectory(3, 5, 1);
  VectorX q(3), qd(3), qdd(3), qp(3), qm(3), vp(3), vm(3), scratch(3);
  const double h = 1e-5;
  for (double time : {0.0, 0.37, 2.9, 7.1}) {
    t.evaluate(time, q, qd, qdd);
    t.evaluate(time + h, qp, vp, scratch);
    t.evaluate(time - h, qm, vm, scratch);
    EXPECT_LT(((qp - qm) / (2 * h) - qd).norm(), 1e-7 * (1 + qd.norm()));
    EXPECT_LT(((vp - vm) / (2 * h) - qdd).norm(), 1e-6 * (1 + qdd.norm()));
  }
}

TEST(FourierTrajectory, RepeatsEveryPeriodAndBoundsHoldOnSamples) {
  const FourierTrajectory t = random_trajectory(2, 4, 2);
  VectorX q(2), qd(2), qdd(2), q2(2), qd2(2), qdd2(2);
  VectorX peak_q = VectorX::Zero(2), peak_v = VectorX::Zero(2), peak_a = VectorX::Zero(2);
  for (int k = 0; k < 5000; ++k) {
    const double time = 5.0 * k / 5000;  // one period (f = 0.2 Hz)
    t.evaluate(time, q, qd, qdd);
    t.evaluate(time + 5.0, q2, qd2, qdd2);
    EXPECT_LT((q - q2).norm(), 1e-12);
    peak_q = peak_q.cwiseMax((q - t.q0).cwiseAbs());
    peak_v = peak_v.cwiseMax(qd.cwiseAbs());
    peak_a = peak_a.cwiseMax(qdd.cwiseAbs());
  }
  for (int j = 0; j < 2; ++j) {
    EXPECT_LE(peak_q[j], t.position_bound(j));
    EXPECT_LE(peak_v[j], t.velocity_bound(j));
    EXPECT_LE(peak_a[j], t.acceleration_bound(j));
  }
}

TEST(FourierTrajectory, OneHarmonicReachesItsBounds) {
  // One harmonic: a pure sine, whose peaks are the bounds exactly.
  FourierTrajectory t = random_trajectory(1, 1, 3);
  t.a(0, 0) = 0.3;
  t.b(0, 0) = -0.4;  // amplitude 0.5 rad/s
  const double w = 2 * M_PI * 0.2;
  EXPECT_NEAR(t.velocity_bound(0), 0.5, 1e-15);
  EXPECT_NEAR(t.position_bound(0), 0.5 / w, 1e-15);
  EXPECT_NEAR(t.acceleration_bound(0), 0.5 * w, 1e-15);
  VectorX q(1), qd(1), qdd(1);
  double peak = 0.0;
  for (int k = 0; k < 20000; ++k) {
    t.evaluate(5.0 * k / 20000, q, qd, qdd);
    peak = std::max(peak, std::abs(q[0] - t.q0[0]));
  }
  EXPECT_NEAR(peak, 0.5 / w, 1e-6);
}

TEST(FourierTrajectory, FileRoundTrip) {
  FourierTrajectory t = random_trajectory(3, 2, 4);
  t.held = {{"elbow", -0.6}, {"wrist", 0.25}};
  const std::string path = test::write_temp_file(to_json(t, 5.0, 10.0, {{"robot", "x"}}).dump(), ".json");
  const FourierTrajectory back = read_fourier_trajectory(path);
  EXPECT_EQ(back.joints, t.joints);
  EXPECT_EQ(back.base_frequency_hz, t.base_frequency_hz);
  EXPECT_EQ(back.q0, t.q0);
  EXPECT_EQ(back.a, t.a);
  EXPECT_EQ(back.b, t.b);
  ASSERT_EQ(back.held.size(), 2u);
  EXPECT_EQ(back.held[1].joint, "wrist");
  EXPECT_EQ(back.held[1].position, 0.25);
  // The sampled q(t): 51 rows of t and 3 joints, equal to evaluate().
  const nlohmann::json doc = nlohmann::json::parse(test::read_file(path));
  ASSERT_EQ(doc["samples"]["q"].size(), 51u);
  VectorX q(3), qd(3), qdd(3);
  t.evaluate(2.5, q, qd, qdd);
  EXPECT_DOUBLE_EQ(doc["samples"]["q"][25][0].get<double>(), 2.5);
  EXPECT_DOUBLE_EQ(doc["samples"]["q"][25][2].get<double>(), q[1]);
  EXPECT_EQ(doc["robot"], "x");
}

void expect_read_error(const std::string& text, const std::string& fragment) {
  const std::string path = test::write_temp_file(text, ".json");
  try {
    read_fourier_trajectory(path);
    FAIL() << "accepted " << text;
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

TEST(FourierTrajectory, BadFilesAreRefusedWithTheReason) {
  EXPECT_THROW(read_fourier_trajectory("/nonexistent/traj.json"), std::runtime_error);
  expect_read_error("{not json", "is not JSON");
  expect_read_error(R"({"format": "dynid-dataset"})", "not a dynid excitation trajectory");
  expect_read_error(R"({"format": 3})", "not a dynid excitation trajectory");
  expect_read_error(R"({"format": "dynid-excitation", "base_frequency_hz": 0.1, "joints": []})", "no joints");
  expect_read_error(R"({"format": "dynid-excitation", "base_frequency_hz": -1, "joints": [{}]})", "positive");
  expect_read_error(
      R"({"format": "dynid-excitation", "base_frequency_hz": 0.1, "joints": [{"name": "a", "q0": 0, "a": [1, 2], "b": [1]}]})",
      "same");
  expect_read_error(
      R"({"format": "dynid-excitation", "base_frequency_hz": 0.1, "joints": [{"name": "a", "q0": "x", "a": [1], "b": [1]}]})",
      "not a finite number");
  expect_read_error(R"({"format": "dynid-excitation", "base_frequency_hz": 0.1, "joints": [
      {"name": "a", "q0": 0, "a": [1], "b": [1]}, {"name": "a", "q0": 0, "a": [1], "b": [1]}]})",
                    "twice");
  expect_read_error(R"({"format": "dynid-excitation", "base_frequency_hz": 0.1, "joints": [
      {"name": "a", "q0": 0, "a": [1], "b": [1]}], "held_joints": [{"joint": "b", "position": null}]})",
                    "position of held joint 'b'");
  expect_read_error(R"({"format": "dynid-excitation", "base_frequency_hz": 0.1, "joints": [
      {"name": "a", "q0": 0, "a": [1], "b": [1]}], "held_joints": {"b": 0}})",
                    "held_joints is not a list");
}

}  // namespace
}  // namespace dynid
