// Inverse dynamics, mass matrix, energy and momentum: each checked against a second formulation.

#include <gtest/gtest.h>

#include <Eigen/Cholesky>

#include "dynid/dynamics/centroidal.hpp"
#include "dynid/dynamics/crba.hpp"
#include "dynid/dynamics/rnea.hpp"
#include "dynid/model/urdf_reader.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

std::vector<Model> models() {
  std::vector<Model> out;
  for (bool floating : {false, true}) {
    UrdfReadOptions options;
    options.floating_base = floating;
    out.push_back(read_urdf_string(test::random_tree_urdf(34, 80 + (floating ? 1 : 0)), "random", options));
  }
  for (const std::string& stem : test::bundled_robots()) out.push_back(test::bundled_robot(stem).model);
  return out;
}

TEST(Dynamics, MassMatrixIsSymmetricPositiveDefiniteAndMatchesRnea) {
  for (const Model& model : models()) {
    SCOPED_TRACE(model.name);
    Data data(model);
    std::mt19937 rng(90);
    const test::State s = test::random_state(model, rng);
    const MatrixX M = crba(model, data, s.q);
    EXPECT_LT((M - M.transpose()).norm(), 1e-12 * M.norm());
    EXPECT_EQ(Eigen::LLT<MatrixX>(M).info(), Eigen::Success);
    // Column i of M is rnea(q, 0, e_i) - g(q).
    const VectorX g = generalized_gravity(model, data, s.q);
    const VectorX zero = VectorX::Zero(model.nv);
    for (int i = 0; i < model.nv; i += 3) {
      const VectorX col = rnea(model, data, s.q, zero, VectorX::Unit(model.nv, i)) - g;
      EXPECT_LT((col - M.col(i)).norm(), 1e-10 * (1 + M.col(i).norm())) << "column " << i;
    }
    // rnea = M a + nle.
    const VectorX nle = nonlinear_effects(model, data, s.q, s.v);
    const VectorX tau = rnea(model, data, s.q, s.v, s.a);
    EXPECT_LT((tau - (M * s.a + nle)).norm(), 1e-10 * (1 + tau.norm()));
  }
}

TEST(Dynamics, PowerBalance) {
  // d(T + U)/dt = v . tau along any motion, by central differences on q(t) = q (+) (t v + t^2 a / 2).
  for (const Model& model : models()) {
    SCOPED_TRACE(model.name);
    Data data(model);
    std::mt19937 rng(91);
    const test::State s = test::random_state(model, rng);
    const double h = 1e-5;
    auto energy = [&](double t) {
      VectorX q(model.nq);
      integrate(model, s.q, s.v * t + s.a * (0.5 * t * t), q);
      const VectorX v = s.v + s.a * t;
      forward_kinematics(model, data, q, v);
      return kinetic_energy(model, data) + potential_energy(model, data);
    };
    const double dE = (energy(h) - energy(-h)) / (2 * h);
    const double power = s.v.dot(rnea(model, data, s.q, s.v, s.a));
    EXPECT_NEAR(dE, power, 1e-5 * (1 + std::abs(power)));
  }
}

TEST(Dynamics, KineticEnergyIsHalfVMv) {
  for (const Model& model : models()) {
    Data data(model);
    std::mt19937 rng(92);
    const test::State s = test::random_state(model, rng);
    forward_kinematics(model, data, s.q, s.v);
    const double T = kinetic_energy(model, data);
    EXPECT_NEAR(T, 0.5 * s.v.dot(crba(model, data, s.q) * s.v), 1e-10 * (1 + T));
  }
}

TEST(Dynamics, ExternalWrenchesEnterAsJacobianTranspose) {
  // A wrench on a body equals subtracting J^T f: moving it to the body's parent frame must not
  // change the result (checks the frame handling of f_ext).
  for (const Model& model : models()) {
    if (!model.floating_base) continue;
    Data data(model);
    std::mt19937 rng(93);
    const test::State s = test::random_state(model, rng);
    std::vector<Force> f_ext(model.bodies.size(), Force::Zero());
    const int body = static_cast<int>(model.bodies.size()) - 1;
    forward_kinematics(model, data, s.q);
    const Force world(Vector3(10, -5, 30), Vector3(1, 2, -3));
    f_ext[static_cast<std::size_t>(body)] = world_wrench_to_body(data, body, world);
    const VectorX with = rnea(model, data, s.q, s.v, s.a, f_ext);
    const VectorX without = rnea(model, data, s.q, s.v, s.a);
    // Base rows: the base must supply everything but the external wrench, which in the base frame is
    // the world wrench moved to the base origin and axes.
    const Force on_base = data.oMi[1].act_inv(world);
    EXPECT_LT((without.head<6>() - with.head<6>() - on_base.to_vector()).norm(), 1e-9 * (1 + without.norm()));
  }
}

TEST(Dynamics, CentroidalMomentumRateEqualsBaseWrenchPlusGravity) {
  // Without contacts, the only external wrench is the one the free-flyer joint applies, i.e. the
  // first 6 entries of rnea; Newton-Euler for the whole robot says dh_G/dt = that wrench + m g.
  for (const Model& model : models()) {
    if (!model.floating_base) continue;
    SCOPED_TRACE(model.name);
    Data data(model);
    std::mt19937 rng(94);
    const test::State s = test::random_state(model, rng);
    const VectorX tau = rnea(model, data, s.q, s.v, s.a);
    const Force base_world = data.oMi[1].act(Force(tau.head<3>(), tau.segment<3>(3)));
    const Force rate = centroidal_momentum_rate(model, data, s.q, s.v, s.a);
    const Vector3 c = data.com;
    const Vector3 f = base_world.linear + data.mass * model.gravity;
    const Vector3 n = base_world.angular - c.cross(base_world.linear);  // gravity acts at the COM
    EXPECT_LT((rate.linear - f).norm(), 1e-9 * (1 + f.norm()));
    EXPECT_LT((rate.angular - n).norm(), 1e-9 * (1 + n.norm()));
    // The centroidal momentum's linear part is m * com velocity; its rate matches finite differences.
    const double h = 1e-6;
    auto momentum = [&](double t) {
      VectorX q(model.nq);
      integrate(model, s.q, s.v * t + s.a * (0.5 * t * t), q);
      return centroidal_momentum(model, data, q, s.v + s.a * t).to_vector();
    };
    const Vector6 fd = (momentum(h) - momentum(-h)) / (2 * h);
    EXPECT_LT((fd - rate.to_vector()).norm(), 1e-5 * (1 + fd.norm()));
  }
}

}  // namespace
}  // namespace dynid
