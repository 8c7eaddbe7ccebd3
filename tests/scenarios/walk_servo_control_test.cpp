// Paper 002's walking comparison (`simulate --scenario walk --servo-control`, docs/actuators.md):
// the feed-forward torque is inverse dynamics about the support foot, faded between the feet,
// checked against MuJoCo's own inverse dynamics and Jacobians; the leg servos are the servo the
// actuator bench identifies; and on a shortened walk low-gain P with the identified model's
// feed-forward tracks within 1.5 times high-gain P's error and better than low-gain P alone, with
// lower knee current peaks at touch-down than high-gain P, and none of the three falls. Why the knee
// energy does not drop with the feed-forward here: high-gain P shifts the weight late, so its planned
// swing foot still carries part of the weight after lift-off (the two knees share the load longer),
// and at the same executed motion the P gain itself leaves the knee energy unchanged.

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>

#include "../../src/scenarios/scenario_run.hpp"
#include "dynid/dynamics/sole_contacts.hpp"
#include "dynid/locomotion/servo_model.hpp"
#include "dynid/model/sidecar_reader.hpp"
#include "dynid/pipeline/actuator_identification.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "dynid/sim/mjcf_export.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

int sole_body(const Robot& robot, int contact) {
  const Model& m = robot.model;
  return m
      .frames[static_cast<std::size_t>(m.frame_index(robot.sidecar->contacts[static_cast<std::size_t>(contact)].name))]
      .body;
}

/// Joint torques (dynid velocity order, zero on the base) that MuJoCo's inverse dynamics needs
/// when the ground wrench that balances the base acts on `foot` alone: tau = rne - J^T F with F
/// such that the base rows vanish (J: MuJoCo's Jacobian of the foot body).
VectorX mujoco_support_foot_torques(const Model& model, const mjModel* m, mjData* d, int foot) {
  const int nv = model.nv;
  VectorX rne(nv);
  mj_rne(m, d, 1, rne.data());
  Eigen::Matrix<double, 3, Eigen::Dynamic, Eigen::RowMajor> jp(3, nv), jr(3, nv);
  const int body = mj_name2id(m, mjOBJ_BODY, model.bodies[static_cast<std::size_t>(foot)].name.c_str());
  EXPECT_GE(body, 0);
  mj_jacBody(m, d, jp.data(), jr.data(), body);
  MatrixX J(6, nv);
  J.topRows<3>() = jp;
  J.bottomRows<3>() = jr;
  // The free joint's dofs come first in MuJoCo (the base is the first body).
  const Eigen::Matrix<double, 6, 1> F = J.leftCols<6>().transpose().fullPivLu().solve(rne.head<6>());
  VectorX tau = rne - J.transpose() * F;
  EXPECT_LT(tau.head<6>().norm(), 1e-9 * std::max(1.0, rne.norm()));
  return tau;
}

TEST(WalkServoControl, FeedforwardIsInverseDynamicsAboutTheSupportFootFadedBetweenTheFeet) {
  const Robot robot = test::bundled_robot("kid_humanoid");
  const Model& model = robot.model;
  const auto [lc, rc] = left_right_soles(model, *robot.sidecar);
  const int left = sole_body(robot, lc), right = sole_body(robot, rc);
  // Base at rest (identity orientation, so MuJoCo's and dynid's base coordinates coincide) and every
  // joint quadratic in time: the feed-forward's central differences are then exact.
  const double period = 0.008;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  VectorX q0 = model.neutral_configuration(), qd = VectorX::Zero(model.nv), qdd = VectorX::Zero(model.nv);
  q0[2] = 0.4;
  for (std::size_t j = 1; j < model.bodies.size(); ++j) {
    const Body& b = model.bodies[j];
    if (b.joint_type == JointType::FreeFlyer) continue;
    q0[b.idx_q] += 0.3 * u(rng);
    qd[b.idx_v] = 1.0 * u(rng);
    qdd[b.idx_v] = 8.0 * u(rng);
  }
  std::vector<VectorX> q_ref;
  for (int i = -2; i <= 2; ++i) {
    const double t = i * period;
    VectorX q = q0;
    for (std::size_t j = 1; j < model.bodies.size(); ++j) {
      const Body& b = model.bodies[j];
      if (b.joint_type != JointType::FreeFlyer) q[b.idx_q] += qd[b.idx_v] * t + 0.5 * qdd[b.idx_v] * t * t;
    }
    q_ref.push_back(q);
  }

  const test::MjModelPtr m = test::load_mujoco(to_mjcf(model));
  const test::MjDataPtr d(mj_makeData(m.get()));
  std::vector<int> dof(static_cast<std::size_t>(model.nv));
  for (std::size_t j = 1; j < model.bodies.size(); ++j) {
    const Body& b = model.bodies[j];
    const int id = mj_name2id(m.get(), mjOBJ_JOINT, b.joint_name.c_str());
    ASSERT_GE(id, 0) << b.joint_name;
    if (b.joint_type == JointType::FreeFlyer) {
      for (int k = 0; k < 7; ++k) d->qpos[m->jnt_qposadr[id] + k] = q0[b.idx_q + (k < 3 ? k : k == 3 ? 6 : k - 1)];
      for (int k = 0; k < 6; ++k) dof[static_cast<std::size_t>(b.idx_v + k)] = m->jnt_dofadr[id] + k;
    } else {
      d->qpos[m->jnt_qposadr[id]] = q0[b.idx_q];
      dof[static_cast<std::size_t>(b.idx_v)] = m->jnt_dofadr[id];
    }
  }
  for (int i = 0; i < model.nv; ++i) d->qvel[dof[static_cast<std::size_t>(i)]] = qd[i];
  mj_forward(m.get(), d.get());
  for (int i = 0; i < model.nv; ++i) d->qacc[dof[static_cast<std::size_t>(i)]] = qdd[i];
  const VectorX on_left = mujoco_support_foot_torques(model, m.get(), d.get(), left);
  const VectorX on_right = mujoco_support_foot_torques(model, m.get(), d.get(), right);
  ASSERT_GT((on_left - on_right).norm(), 1.0);  // the support foot matters

  for (double share : {1.0, 0.0, 0.3}) {
    const std::vector<VectorX> tau = scenario_detail::planned_feedforward(
        model, q_ref, std::vector<double>(q_ref.size(), share), left, right, period);
    const VectorX mixed = share * on_left + (1.0 - share) * on_right;
    VectorX expected(model.nv);
    for (int i = 0; i < model.nv; ++i) expected[i] = mixed[dof[static_cast<std::size_t>(i)]];
    expected.head<6>().setZero();
    EXPECT_LT((tau[2] - expected).norm(), 1e-9 * expected.norm()) << "left share " << share << "\n"
                                                                  << tau[2].transpose() << "\n"
                                                                  << expected.transpose();
  }
}

TEST(WalkServoControl, LegServosAreTheServoTheBenchIdentifies) {
  // The walk's leg servos start from ServoParameters' defaults; `identify actuator servo_bench`
  // starts from the servo_bench sidecar. The same datasheet (and seed) gives the same true servo.
  const Robot bench = test::bundled_robot("servo_bench");
  ASSERT_EQ(bench.sidecar->actuators.size(), 1u);
  const ServoParameters sheet = servo_parameters(bench.sidecar->actuators.front());
  const ServoParameters walk;
  EXPECT_EQ(sheet.gear_ratio, walk.gear_ratio);
  EXPECT_EQ(sheet.torque_constant_nm_per_a, walk.torque_constant_nm_per_a);
  EXPECT_EQ(sheet.resistance_ohm, walk.resistance_ohm);
  EXPECT_EQ(sheet.supply_voltage_v, walk.supply_voltage_v);
  EXPECT_EQ(sheet.p_gain, walk.p_gain);
  EXPECT_EQ(sheet.effort_limit_nm, walk.effort_limit_nm);
  EXPECT_EQ(sheet.coulomb_friction_nm, walk.coulomb_friction_nm);
  EXPECT_EQ(sheet.stribeck_friction_nm, walk.stribeck_friction_nm);
  EXPECT_EQ(sheet.stribeck_velocity_rad_s, walk.stribeck_velocity_rad_s);
  EXPECT_EQ(sheet.viscous_friction_nm_s_per_rad, walk.viscous_friction_nm_s_per_rad);
}

/// summary.json of a short servo-controlled walk.
json servo_walk(const std::string& control, const std::string& actuator_model, int steps, double k_p = 0.0) {
  ScenarioOptions o;
  o.scenario = "walk";
  o.out_dir = test::fresh_dir("walk_servo_control", control + (k_p > 0.0 ? "-kp" + std::to_string(k_p) : ""));
  o.seed = 1;
  o.walk_steps = steps;
  o.walk_speed_mps = 0.1;  // the comparison's speed: the MX-106 knees are too slow for 0.2 m/s
  o.servo_control = control;
  o.actuator_model = actuator_model;
  o.servo_kp = k_p;
  run_scenario(test::bundled_robot("kid_humanoid"), o);
  return json::parse(test::read_file(o.out_dir + "/summary.json"));
}

// Paper 002 also reports 26 % less knee energy with the feed-forward (189 J -> 140 J). dynid's
// simulation does not reproduce that (docs/actuators.md: the knee energy is set by the motion the
// robot executes, which the P gain does not change), so the (a)/(c) energy ordering is not asserted;
// what is asserted is why.
TEST(WalkServoControl, FeedforwardAtLowGainTracksAsWellAsHighGainAndBetterThanLowGainAlone) {
  // The identified model of the bench servo (seed 1, as the walk's true servos).
  ActuatorIdentificationOptions id;
  id.joint = "l_hip_pitch";
  id.seed = 1;
  const std::string id_dir = test::fresh_dir("walk_servo_control", "identified");
  write_actuator_identification(run_actuator_identification(test::bundled_robot("servo_bench"), id), id_dir);
  const int steps = 4;
  const json a = servo_walk("high-gain", "", steps);
  const json b = servo_walk("low-gain", "", steps);
  const json c = servo_walk("feed-forward", id_dir + "/actuator.yaml", steps);
  for (const json* s : {&a, &b, &c}) {
    EXPECT_FALSE((*s)["fell"].get<bool>()) << (*s)["servo_control"]["control"];
    EXPECT_EQ((*s)["steps"], steps);
  }
  const auto rms = [](const json& s) { return s["tracking_rms_rad"].get<double>(); };
  EXPECT_LE(rms(c), 1.5 * rms(a)) << rms(c) << " rad vs " << rms(a) << " rad";
  EXPECT_GT(rms(b), rms(c)) << rms(b) << " rad vs " << rms(c) << " rad";
  EXPECT_EQ(c["servo_control"]["feedforward_model"], id_dir + "/actuator.yaml");
  // Paper 002: "current spikes are avoided by predicting higher loads". The knees' peak current
  // around touch-down, mean over both knees, is lower with the feed-forward than at high gain.
  const auto spike = [](const json& s) {
    const json& p = s["servo_control"]["knee_touchdown_peak_current_a"];
    return 0.5 * (p["left"].get<double>() + p["right"].get<double>());
  };
  EXPECT_LT(spike(c), spike(a)) << spike(c) << " A vs " << spike(a) << " A";

  // High-gain P without the feed-forward lags the planned weight shift: after the planned lift-off
  // its swing foot still carries part of the weight (40 steps: 17 % on average against 0.8 % with the
  // feed-forward, docs/actuators.md), so its knees share the load longer than planned.
  const auto swing_load = [](const json& s) { return s["servo_control"]["swing_foot_load_share"].get<double>(); };
  EXPECT_LT(swing_load(c), 0.25 * swing_load(a)) << swing_load(c) << " vs " << swing_load(a);
  // At the same executed motion the gain costs nothing: the feed-forward at k_P = 1.0 instead of
  // 0.35 spends the same knee energy (seed 1, 40 steps, k_P 0.35-1.25: within 3.5 %; seeds 2, 3 up to
  // +10 %, docs/actuators.md).
  const json c_stiff = servo_walk("feed-forward", id_dir + "/actuator.yaml", steps, 1.0);
  EXPECT_FALSE(c_stiff["fell"].get<bool>());
  EXPECT_EQ(c_stiff["servo_control"]["k_p"], 1.0);
  EXPECT_EQ(c_stiff["servo_control"]["p_gain_register"], 128.0);
  const auto knees = [](const json& s) {
    return s["knee_energy_j"]["left"].get<double>() + s["knee_energy_j"]["right"].get<double>();
  };
  EXPECT_NEAR(knees(c_stiff), knees(c), 0.05 * knees(c)) << knees(c_stiff) << " J vs " << knees(c) << " J";
}

}  // namespace
}  // namespace dynid
