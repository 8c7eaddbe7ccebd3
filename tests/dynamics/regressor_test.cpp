// Y(q, v, a) pi == rnea(q, v, a): the linear-in-parameters form against the recursive one.

#include "dynid/dynamics/regressor.hpp"

#include <gtest/gtest.h>

#include "dynid/dynamics/center_of_mass.hpp"
#include "dynid/dynamics/crba.hpp"
#include "dynid/dynamics/kinematics.hpp"
#include "dynid/dynamics/rnea.hpp"
#include "dynid/dynamics/static_regressor.hpp"
#include "dynid/model/urdf_reader.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

void expect_regressor_matches_rnea(const Model& model, unsigned seed) {
  Data data(model);
  std::mt19937 rng(seed);
  const VectorX pi = model.inertial_parameters();
  for (int k = 0; k < 10; ++k) {
    const test::State s = test::random_state(model, rng, 2.0);
    const VectorX tau = rnea(model, data, s.q, s.v, s.a);
    const VectorX Ypi = joint_torque_regressor(model, data, s.q, s.v, s.a) * pi;
    EXPECT_LT((Ypi - tau).norm() / std::max(1.0, tau.norm()), 1e-10) << model.name << " state " << k;
  }
}

/// A second formulation of the regressor: each body's block carried joint by joint to the root
/// (f' = R f, n' = R n + p x f' per joint), projected on every joint it passes.
MatrixX carried_regressor(const Model& model, Data& data, const VectorX& q, const VectorX& v, const VectorX& a) {
  forward_kinematics(model, data, q, v, a);
  rnea(model, data, q, v, a);  // fills a_gf
  MatrixX Y = MatrixX::Zero(model.nv, 10 * model.num_moving_bodies());
  for (std::size_t i = 1; i < model.bodies.size(); ++i) {
    BodyRegressor F;
    body_regressor(data.v[i], data.a_gf[i], F);
    for (std::size_t j = i;;) {
      const Body& bj = model.bodies[j];
      const Eigen::Index col = 10 * static_cast<Eigen::Index>(i - 1);
      if (bj.joint_type == JointType::Revolute) Y.block(bj.idx_v, col, 1, 10) = bj.axis.transpose() * F.bottomRows<3>();
      if (bj.joint_type == JointType::Prismatic) Y.block(bj.idx_v, col, 1, 10) = bj.axis.transpose() * F.topRows<3>();
      if (bj.joint_type == JointType::FreeFlyer) Y.block(bj.idx_v, col, 6, 10) = F;
      if (bj.parent <= 0) break;
      const SE3& X = data.liMi[j];
      const Eigen::Matrix<double, 3, 10> f = X.rotation * F.topRows<3>();
      F.bottomRows<3>() = X.rotation * F.bottomRows<3>() + skew(X.translation) * f;
      F.topRows<3>() = f;
      j = static_cast<std::size_t>(bj.parent);
    }
  }
  return Y;
}

TEST(Regressor, EqualsTheBlocksCarriedJointByJoint) {
  for (unsigned seed = 0; seed < 4; ++seed)
    for (bool floating : {false, true}) {
      UrdfReadOptions options;
      options.floating_base = floating;
      const Model model = read_urdf_string(test::random_tree_urdf(40, seed), "random", options);
      Data data(model), data_ref(model);
      std::mt19937 rng(seed + 50);
      for (int k = 0; k < 5; ++k) {
        const test::State s = test::random_state(model, rng, 2.0);
        const MatrixX reference = carried_regressor(model, data_ref, s.q, s.v, s.a);
        const MatrixX& Y = joint_torque_regressor(model, data, s.q, s.v, s.a);
        EXPECT_LT((Y - reference).norm(), 1e-12 * reference.norm()) << "seed " << seed << " state " << k;
      }
    }
}

/// The regressor and CRBA work in one reference frame (dynamics/reference_frame.hpp). A random tree
/// with free-flyer joints where the reference frame is not theirs: one more root
/// hanging from the world beside the tree's own first body, and one deep in the tree, each with a
/// revolute child.
Model tree_with_more_free_flyers(bool floating, unsigned seed) {
  UrdfReadOptions options;
  options.floating_base = floating;
  Model model = read_urdf_string(test::random_tree_urdf(12, seed), "random", options);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto add = [&](int parent, JointType type, const std::string& name) {
    Body b;
    b.name = b.joint_name = name;
    b.joint_type = type;
    b.parent = parent;
    b.joint_placement =
        SE3(rotation_about_axis(Vector3(u(rng), u(rng), u(rng)).normalized(), u(rng)), Vector3(u(rng), u(rng), u(rng)));
    b.axis = Vector3(u(rng), u(rng), u(rng)).normalized();
    b.inertia = Inertia::from_com(1.0 + u(rng) * u(rng), 0.1 * Vector3(u(rng), u(rng), u(rng)),
                                  Vector3(0.02, 0.03, 0.04).asDiagonal());
    return model.add_body(b);
  };
  add(add(0, JointType::FreeFlyer, "second_root"), JointType::Revolute, "second_root_child");
  const int deep = static_cast<int>(model.bodies.size()) - 3;
  add(add(deep, JointType::FreeFlyer, "inner_flyer"), JointType::Revolute, "inner_flyer_child");
  return model;
}

TEST(ReferenceFrame, RegressorWithFreeFlyersAnywhereInTheTree) {
  for (bool floating : {false, true}) {
    const Model model = tree_with_more_free_flyers(floating, 3);
    Data data(model), data_ref(model);
    std::mt19937 rng(8);
    const VectorX pi = model.inertial_parameters();
    for (int k = 0; k < 5; ++k) {
      const test::State s = test::random_state(model, rng, 2.0);
      const MatrixX reference = carried_regressor(model, data_ref, s.q, s.v, s.a);
      const MatrixX& Y = joint_torque_regressor(model, data, s.q, s.v, s.a);
      EXPECT_LT((Y - reference).norm(), 1e-12 * reference.norm()) << "floating " << floating << " state " << k;
      const VectorX tau = rnea(model, data_ref, s.q, s.v, s.a);
      EXPECT_LT((Y * pi - tau).norm(), 1e-10 * std::max(1.0, tau.norm())) << "floating " << floating << " state " << k;
    }
  }
}

TEST(ReferenceFrame, MassMatrixWithFreeFlyersAnywhereInTheTree) {
  for (bool floating : {false, true}) {
    const Model model = tree_with_more_free_flyers(floating, 4);
    Data data(model);
    std::mt19937 rng(9);
    const test::State s = test::random_state(model, rng);
    const MatrixX M = crba(model, data, s.q);
    const VectorX g = generalized_gravity(model, data, s.q);
    for (int i = 0; i < model.nv; ++i) {  // column i of M is rnea(q, 0, e_i) - g(q)
      const VectorX col = rnea(model, data, s.q, VectorX::Zero(model.nv), VectorX::Unit(model.nv, i)) - g;
      EXPECT_LT((col - M.col(i)).norm(), 1e-10 * (1 + M.col(i).norm())) << "floating " << floating << " column " << i;
    }
  }
}

TEST(Regressor, BodyRegressorMatchesNewtonEuler) {
  std::mt19937 rng(3);
  for (int k = 0; k < 20; ++k) {
    const Motion v = Motion::from_vector(Vector6::Random()), a = Motion::from_vector(Vector6::Random());
    const Inertia I = Inertia::from_com(2.0, Vector3(0.1, -0.2, 0.05), Vector3(0.3, 0.2, 0.25).asDiagonal());
    BodyRegressor Y;
    body_regressor(v, a, Y);
    const Force f = I * a + v.cross(I * v);
    EXPECT_LT((Y * I.to_parameters() - f.to_vector()).norm(), 1e-13);
  }
}

TEST(Regressor, MatchesRneaOnRandomTrees) {
  for (unsigned seed = 0; seed < 6; ++seed) {
    const std::string urdf = test::random_tree_urdf(46, seed);
    for (bool floating : {false, true}) {
      UrdfReadOptions options;
      options.floating_base = floating;
      const Model model = read_urdf_string(urdf, "random", options);
      ASSERT_GE(model.num_moving_bodies(), 30);
      expect_regressor_matches_rnea(model, seed + 100);
    }
  }
}

TEST(Regressor, MatchesRneaOnBundledRobots) {
  const auto robots = test::bundled_robots();
  if (robots.empty()) GTEST_SKIP() << "no bundled robots";
  for (const std::string& stem : robots) expect_regressor_matches_rnea(test::bundled_robot(stem).model, 7);
}

// The base-link rows from one transform per body against the first 6 rows of the full regressor
// (carried joint by joint) and against RNEA's base wrench.
TEST(Regressor, BaseLinkRowsMatchTheFullRegressorAndRnea) {
  for (unsigned seed = 0; seed < 4; ++seed) {
    UrdfReadOptions options;
    options.floating_base = true;
    const Model model = read_urdf_string(test::random_tree_urdf(40, seed), "random", options);
    Data data(model), data_full(model);
    std::mt19937 rng(seed + 20);
    const VectorX pi = model.inertial_parameters();
    for (int k = 0; k < 5; ++k) {
      const test::State s = test::random_state(model, rng, 2.0);
      const MatrixX Y6 = base_link_regressor(model, data, s.q, s.v, s.a);
      const MatrixX Y = joint_torque_regressor(model, data_full, s.q, s.v, s.a).topRows<6>();
      EXPECT_LT((Y6 - Y).norm(), 1e-12 * Y.norm()) << "seed " << seed << " state " << k;
      const VectorX tau = rnea(model, data_full, s.q, s.v, s.a).head<6>();
      EXPECT_LT((Y6 * pi - tau).norm(), 1e-10 * std::max(1.0, tau.norm())) << "seed " << seed << " state " << k;
    }
  }
}

TEST(Regressor, BaseLinkRowsNeedAFloatingBase) {
  UrdfReadOptions options;
  options.floating_base = false;
  const Model model = read_urdf_string(test::random_tree_urdf(5, 1), "fixed_arm", options);
  Data data(model);
  std::mt19937 rng(1);
  const test::State s = test::random_state(model, rng);
  try {
    base_link_regressor(model, data, s.q, s.v, s.a);
    FAIL() << "no error for a fixed base";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(model.label() + " has a fixed base"), std::string::npos) << e.what();
  }
}

TEST(Regressor, StaticRegressorReproducesTheCom) {
  for (bool floating : {false, true}) {
    UrdfReadOptions options;
    options.floating_base = floating;
    const Model model = read_urdf_string(test::random_tree_urdf(30, 11), "random", options);
    Data data(model);
    std::mt19937 rng(4);
    for (int k = 0; k < 5; ++k) {
      const test::State s = test::random_state(model, rng);
      const Vector3 first_moment = com_regressor(model, data, s.q) * model.inertial_parameters() +
                                   model.bodies[0].inertia.mc;  // links welded to the world
      center_of_mass(model, data, s.q);
      EXPECT_LT((first_moment / model.total_mass() - data.com).norm(), 1e-12);
    }
  }
}

}  // namespace
}  // namespace dynid
