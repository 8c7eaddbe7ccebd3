// Excitation design: the designed trajectory stays within the joint limits (analytic bounds and
// samples), its regressor has the full base rank (SVD of the stacked regressor, built here from
// the public regressor, not the design's own Gram matrix), the optimizer lowers the condition number
// of its start, and bad requests are refused.

#include "dynid/ident/excitation.hpp"

#include <gtest/gtest.h>

#include <Eigen/SVD>

#include "dynid/dynamics/regressor.hpp"
#include "dynid/ident/base_parameters.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

/// Singular values of the base regressor stacked over `count` samples of the design window,
/// in the design's situation (model with its held joints welded, base still).
VectorX stacked_singular_values(const Robot& robot, const ExcitationDesign& d, int count) {
  const Model model = d.held.empty() ? robot.model : lock_joints(robot.model, d.held);
  BaseParameterOptions bo;
  bo.rows = model.floating_base && d.sensors == "contact" ? base_link_rows(model) : all_equation_rows(model);
  VectorX q_still = model.neutral_configuration();
  if (model.floating_base) q_still.segment<7>(model.bodies[1].idx_q) = d.base_configuration;
  bo.sample_state = [&](std::mt19937& rng) {
    StateSample s = random_state(model, rng);
    if (model.floating_base) {
      s.q.segment<7>(0) = q_still.segment<7>(0);
      s.v.head<6>().setZero();
      s.a.head<6>().setZero();
    }
    return s;
  };
  const BaseParameters base = compute_base_parameters(model, bo);
  EXPECT_EQ(base.num_base(), d.num_base_parameters);
  const auto r = static_cast<Eigen::Index>(bo.rows.size());
  MatrixX W(count * r, base.num_base());
  Data data(model);
  const FourierTrajectory& t = d.trajectory;
  VectorX qj(t.num_joints()), vj(t.num_joints()), aj(t.num_joints());
  for (int k = 0; k < count; ++k) {
    t.evaluate(d.duration_s * k / count, qj, vj, aj);
    VectorX q = q_still, v = VectorX::Zero(model.nv), a = VectorX::Zero(model.nv);
    for (int j = 0; j < t.num_joints(); ++j) {
      const Body& b = model.bodies[static_cast<std::size_t>(model.joint_index(t.joints[static_cast<std::size_t>(j)]))];
      q[b.idx_q] = qj[j];
      v[b.idx_v] = vj[j];
      a[b.idx_v] = aj[j];
    }
    const MatrixX& Y = joint_torque_regressor(model, data, q, v, a);
    W.middleRows(k * r, r) = Y(bo.rows, base.independent);
  }
  return Eigen::JacobiSVD<MatrixX>(W).singularValues();
}

/// Every joint within its position limits less the margin, 80 % of its velocity limit and the
/// acceleration bound: by the analytic bounds and on 1 kHz samples.
void expect_within_limits(const Model& model, const ExcitationDesign& d, const ExcitationOptions& o) {
  const FourierTrajectory& t = d.trajectory;
  VectorX q(t.num_joints()), qd(t.num_joints()), qdd(t.num_joints());
  for (int j = 0; j < t.num_joints(); ++j) {
    const JointLimits& lim =
        model.bodies[static_cast<std::size_t>(model.joint_index(t.joints[static_cast<std::size_t>(j)]))].limits;
    const double margin = o.position_margin * (lim.upper - lim.lower);
    EXPECT_GE(t.q0[j] - t.position_bound(j), lim.lower + margin - 1e-12) << t.joints[static_cast<std::size_t>(j)];
    EXPECT_LE(t.q0[j] + t.position_bound(j), lim.upper - margin + 1e-12);
    EXPECT_LE(t.velocity_bound(j), o.velocity_fraction * lim.velocity);
    EXPECT_LE(t.acceleration_bound(j), o.max_acceleration);
    for (int k = 0; k <= 1000 * d.duration_s; ++k) {
      t.evaluate(k * 1e-3, q, qd, qdd);
      ASSERT_GE(q[j], lim.lower);
      ASSERT_LE(q[j], lim.upper);
      ASSERT_LE(std::abs(qd[j]), lim.velocity);
      ASSERT_LE(std::abs(qdd[j]), o.max_acceleration);
    }
  }
}

TEST(Excitation, ServoBenchWithinLimitsFullRankAndBetterThanItsStart) {
  const Robot robot = test::bundled_robot("servo_bench");
  ExcitationOptions o;
  o.duration_s = 5.0;
  o.harmonics = 3;
  o.iterations = 30;
  const ExcitationDesign d = design_excitation(robot, o);
  EXPECT_EQ(d.mode, "fixed-base");
  EXPECT_EQ(d.sensors, "full");
  ASSERT_EQ(d.trajectory.num_joints(), 1);
  expect_within_limits(robot.model, d, o);
  EXPECT_LT(d.optimized.condition_number, d.initial.condition_number);
  EXPECT_LE(d.optimized.condition_number, d.best_random.condition_number);
  EXPECT_EQ(d.optimized.rank, d.num_base_parameters);
  // Second formulation: SVD of the stacked regressor at the design's sample times.
  const VectorX sv = stacked_singular_values(robot, d, d.samples);
  EXPECT_GT(sv.minCoeff(), 1e-6 * sv.maxCoeff());
  EXPECT_NEAR(sv.maxCoeff() / sv.minCoeff(), d.optimized.condition_number, 1e-6 * d.optimized.condition_number);
  // The metrics of a trajectory recomputed from the design are those it reported.
  EXPECT_NEAR(evaluate_excitation(robot, d, d.trajectory).condition_number, d.optimized.condition_number,
              1e-9 * d.optimized.condition_number);
}

TEST(Excitation, KidHumanoidStandingOnBothFeet) {
  const Robot robot = test::bundled_robot("kid_humanoid");
  ExcitationOptions o;
  o.fixed_feet = true;
  o.duration_s = 5.0;
  o.harmonics = 2;
  o.iterations = 4;
  o.restarts = 2;
  const ExcitationDesign d = design_excitation(robot, o);
  EXPECT_EQ(d.mode, "fixed-feet");
  EXPECT_EQ(d.sensors, "contact");
  EXPECT_EQ(d.held.size(), 12u);            // both legs, 6 joints each
  EXPECT_EQ(d.trajectory.num_joints(), 8);  // the arms
  expect_within_limits(robot.model, d, o);
  EXPECT_LT(d.optimized.condition_number, d.initial.condition_number);
  EXPECT_LE(d.optimized.zmp_use, 1.0);
  EXPECT_GT(d.optimized.zmp_use, 0.0);
  // Full base rank on samples other than the design's own.
  const VectorX sv = stacked_singular_values(robot, d, 3 * d.samples + 1);
  EXPECT_GT(sv.minCoeff(), 1e-7 * sv.maxCoeff());
}

TEST(Excitation, Biped16OnItsContactPoints) {
  // biped16's feet are four contact points each, not polygons: the ZMP region comes from them.
  const Robot robot = test::bundled_robot("biped16");
  ExcitationOptions o;
  o.fixed_feet = true;
  o.duration_s = 4.0;
  o.harmonics = 3;
  o.iterations = 5;
  const ExcitationDesign d = design_excitation(robot, o);
  EXPECT_EQ(d.trajectory.num_joints(), 2);  // torso roll and pitch
  expect_within_limits(robot.model, d, o);
  EXPECT_GT(d.optimized.zmp_use, 0.0);
  EXPECT_LE(d.optimized.zmp_use, 1.0);
  EXPECT_EQ(d.optimized.rank, d.num_base_parameters);
  EXPECT_LT(d.optimized.condition_number, d.initial.condition_number);
}

void expect_refused(const char* robot, const ExcitationOptions& o, const std::string& fragment) {
  try {
    design_excitation(test::bundled_robot(robot), o);
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(Excitation, BadRequestsAreRefused) {
  ExcitationOptions o;
  o.iterations = 0;
  o.sensors = "contact";
  expect_refused("servo_bench", o, "no contact (base-link) equations");
  o.sensors = "";
  o.fixed_feet = true;
  expect_refused("servo_bench", o, "--fixed-feet needs a floating robot");
  o.fixed_feet = false;
  o.max_acceleration = 0.0;
  expect_refused("servo_bench", o, "acceleration");
  o.max_acceleration = 10.0;
  o.position_margin = 0.5;
  expect_refused("servo_bench", o, "margin");
  o.position_margin = 0.05;
  o.harmonics = 0;
  expect_refused("servo_bench", o, "harmonics");
  o.harmonics = 5;
  o.locks = {{"l_hip_pitch", 0.0}};
  expect_refused("servo_bench", o, "without a moving joint");
  o.locks = {{"l_knee", 0.3}};
  o.fixed_feet = true;
  expect_refused("kid_humanoid", o, "in a leg");
}

}  // namespace
}  // namespace dynid
