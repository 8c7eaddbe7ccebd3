// Y(q, v, a) pi == rnea(q, v, a): the linear-in-parameters form against the recursive one.

#include "dynid/dynamics/regressor.hpp"

#include <gtest/gtest.h>

#include "dynid/dynamics/center_of_mass.hpp"
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
