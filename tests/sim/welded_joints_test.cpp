// Welded joints in the simulation (SceneSpec::welds): MuJoCo gets a rigid body where dynid has a
// joint held at a value. Checked against dynid's locked model (model/lock_joints.hpp), a second
// formulation of the same rigid robot, at lock values away from zero so that a wrongly baked
// placement would show.

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "dynid/dynamics/rnea.hpp"
#include "dynid/model/lock_joints.hpp"
#include "dynid/model/urdf_reader.hpp"
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

/// A value well inside the joint's range and clearly away from zero (a wrong bake shows).
double lock_value(const Body& b, std::mt19937& rng) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const bool bounded = std::isfinite(b.limits.lower) && std::isfinite(b.limits.upper);
  const double mid = bounded ? 0.5 * (b.limits.lower + b.limits.upper) : 0.0;
  const double half = bounded ? 0.5 * (b.limits.upper - b.limits.lower) : 1.0;
  double value = 0.0;
  while (std::abs(value) < 0.05) value = mid + 0.6 * half * unit(rng);
  return value;
}

/// Welds `welded` (body indices) of floating-base `model` at random values; at random states with
/// random torques on the other joints, checks MuJoCo's motion against the locked model and the
/// weld torques against dynid's rnea of the full model.
void expect_welds_agree(const Model& model, const RobotSidecar& sidecar, const std::vector<int>& welded,
                        unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  SceneSpec scene;
  scene.floor = false;  // in the air: gravity and the applied torques only
  std::vector<JointLock> locks;
  for (int i : welded) {
    const Body& b = model.bodies[static_cast<std::size_t>(i)];
    scene.welds.push_back({i, lock_value(b, rng)});
    locks.push_back({b.joint_name, scene.welds.back().position});
  }
  const Model reduced = lock_joints(model, locks);
  Simulation sim(model, sidecar, scene);
  for (int i : welded) EXPECT_TRUE(sim.welded(i));
  EXPECT_FALSE(sim.welded(1));

  const double scale = model.total_mass() * model.gravity.norm();
  for (int trial = 0; trial < 3; ++trial) {
    VectorX q = model.neutral_configuration(), v = VectorX::Zero(model.nv), tau = VectorX::Zero(model.nv);
    q.segment<4>(3) = Eigen::Quaterniond::UnitRandom().coeffs();
    v.head<6>() = Vector6::NullaryExpr([&] { return unit(rng); });
    for (std::size_t i = 2; i < model.bodies.size(); ++i) {
      const Body& b = model.bodies[i];
      q[b.idx_q] = lock_value(b, rng);
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

TEST(WeldedJoints, KidHumanoidArmsMoveLikeTheLockedModel) {
  const Robot kid = test::bundled_robot("kid_humanoid");
  std::vector<int> arms;
  for (std::size_t i = 2; i < kid.model.bodies.size(); ++i) {
    const std::string& n = kid.model.bodies[i].joint_name;
    if (n.find("shoulder") != std::string::npos || n.find("elbow") != std::string::npos)
      arms.push_back(static_cast<int>(i));
  }
  ASSERT_EQ(arms.size(), 8u);
  expect_welds_agree(kid.model, *kid.sidecar, arms, 7);
}

TEST(WeldedJoints, RandomTreesWithPrismaticJointsMoveLikeTheLockedModel) {
  // Revolute, continuous and prismatic joints with random axes and placements; every other joint
  // welded, prismatic ones included.
  for (unsigned seed = 40; seed < 43; ++seed) {
    SCOPED_TRACE(seed);
    UrdfReadOptions options;
    options.floating_base = true;
    const Model model = read_urdf_string(test::random_tree_urdf(24, seed), "urdf", options);
    std::vector<int> welded;
    bool prismatic = false;
    for (std::size_t i = 2; i < model.bodies.size(); i += 2) {
      welded.push_back(static_cast<int>(i));
      prismatic = prismatic || model.bodies[i].joint_type == JointType::Prismatic;
    }
    EXPECT_TRUE(prismatic);
    expect_welds_agree(model, RobotSidecar{}, welded, seed);
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
