// Welded joints in the simulation (SceneSpec::welds): MuJoCo gets a rigid body where dynid has a
// joint held at a value. Checked against dynid's locked model (model/lock_joints.hpp), a second
// formulation of the same rigid robot, at lock values away from zero so that a wrongly baked
// placement would show.

#include <gtest/gtest.h>

#include <random>

#include "dynid/dynamics/rnea.hpp"
#include "dynid/model/lock_joints.hpp"
#include "dynid/sim/simulation.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

/// Copies the joints of `full` that `reduced` still has (by name) into its coordinates.
VectorX to_reduced(const Model& full, const Model& reduced, const VectorX& x, bool configuration) {
  VectorX out = VectorX::Zero(configuration ? reduced.nq : reduced.nv);
  for (std::size_t r = 1; r < reduced.bodies.size(); ++r) {
    const Body& rb = reduced.bodies[r];
    for (std::size_t f = 1; f < full.bodies.size(); ++f) {
      const Body& fb = full.bodies[f];
      if (fb.joint_name != rb.joint_name) continue;
      if (configuration)
        out.segment(rb.idx_q, rb.nq) = x.segment(fb.idx_q, fb.nq);
      else
        out.segment(rb.idx_v, rb.nv) = x.segment(fb.idx_v, fb.nv);
    }
  }
  return out;
}

TEST(WeldedJoints, MujocoMovesLikeTheLockedModelAndReportsTheWeldTorques) {
  const Robot kid = test::bundled_robot("kid_humanoid");
  const Model& model = kid.model;
  SceneSpec scene;
  scene.floor = false;  // in the air: gravity and the applied torques only
  std::vector<JointLock> locks;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (std::size_t i = 2; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    const std::string& n = b.joint_name;
    if (n.find("shoulder") == std::string::npos && n.find("elbow") == std::string::npos) continue;
    // Well inside the range and clearly away from zero.
    const double value = 0.5 * (b.limits.lower + b.limits.upper) + 0.3 * (b.limits.upper - b.limits.lower) * unit(rng);
    ASSERT_GT(std::abs(value), 0.05) << n;
    scene.welds.push_back({static_cast<int>(i), value});
    locks.push_back({n, value});
  }
  ASSERT_EQ(scene.welds.size(), 8u);
  const Model reduced = lock_joints(model, locks);
  Simulation sim(model, *kid.sidecar, scene);
  EXPECT_TRUE(sim.welded(scene.welds.front().body));
  EXPECT_FALSE(sim.welded(1));

  for (int trial = 0; trial < 3; ++trial) {
    VectorX q = model.neutral_configuration(), v = VectorX::Zero(model.nv), tau = VectorX::Zero(model.nv);
    const Eigen::Quaterniond base = Eigen::Quaterniond::UnitRandom();
    q.segment<4>(3) = base.coeffs();
    v.head<6>() = Vector6::NullaryExpr([&] { return unit(rng); });
    for (std::size_t i = 2; i < model.bodies.size(); ++i) {
      const Body& b = model.bodies[i];
      q[b.idx_q] = 0.5 * (b.limits.lower + b.limits.upper) + 0.3 * (b.limits.upper - b.limits.lower) * unit(rng);
      v[b.idx_v] = unit(rng);
      tau[b.idx_v] = unit(rng);
    }
    sim.set_state(q, v);
    sim.forward(tau);
    // Welded: exactly at the lock, still, whatever was asked of them.
    for (const MjcfWeld& w : scene.welds) {
      const Body& b = model.bodies[static_cast<std::size_t>(w.body)];
      EXPECT_EQ(sim.q()[b.idx_q], w.position) << b.joint_name;
      EXPECT_EQ(sim.v()[b.idx_v], 0.0) << b.joint_name;
      EXPECT_EQ(sim.a()[b.idx_v], 0.0) << b.joint_name;
    }
    // The reduced model's inverse dynamics with MuJoCo's accelerations gives back the torques on
    // the moving joints and nothing on the base (no contacts in the air).
    Data rdata(reduced);
    const VectorX rq = to_reduced(model, reduced, sim.q(), true), rv = to_reduced(model, reduced, sim.v(), false),
                  ra = to_reduced(model, reduced, sim.a(), false);
    const VectorX expected = to_reduced(model, reduced, sim.link_torques(), false);
    const VectorX reduced_tau = rnea(reduced, rdata, rq, rv, ra);
    const double scale = model.total_mass() * model.gravity.norm();
    EXPECT_LT((reduced_tau - expected).norm() / scale, 1e-10) << "trial " << trial;
    EXPECT_LT(reduced_tau.head<6>().norm() / scale, 1e-10);
    // On the full model the welded rows are the torques the welds carry, which the simulation
    // takes from MuJoCo's interaction forces.
    Data data(model);
    const VectorX full_tau = rnea(model, data, sim.q(), sim.v(), sim.a());
    double largest_weld_torque = 0.0;
    for (const MjcfWeld& w : scene.welds) {
      const int k = model.bodies[static_cast<std::size_t>(w.body)].idx_v;
      EXPECT_NEAR(full_tau[k], sim.link_torques()[k], 1e-10 * scale)
          << model.bodies[static_cast<std::size_t>(w.body)].joint_name;
      largest_weld_torque = std::max(largest_weld_torque, std::abs(full_tau[k]));
    }
    EXPECT_GT(largest_weld_torque, 1e-3);  // the welds do carry load
    sim.integrate();
  }
}

TEST(WeldedJoints, TheFloatingBaseCannotBeWelded) {
  const Robot kid = test::bundled_robot("kid_humanoid");
  SceneSpec scene;
  scene.welds.push_back({1, 0.0});
  EXPECT_THROW(Simulation(kid.model, *kid.sidecar, scene), std::invalid_argument);
}

}  // namespace
}  // namespace dynid
