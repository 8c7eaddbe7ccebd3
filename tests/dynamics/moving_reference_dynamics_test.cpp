// MR-AD (paper 001) against dynid's floating-base RNEA, the IZMP against a point force, the NIF's
// axes, and IR-MD's momentum derivative against the analytic momentum rate.

#include <gtest/gtest.h>

#include "dynid/dynamics/centroidal.hpp"
#include "dynid/dynamics/inertial_reference_momentum.hpp"
#include "dynid/dynamics/moving_reference_dynamics.hpp"
#include "dynid/dynamics/rnea.hpp"
#include "dynid/model/urdf_reader.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

std::vector<Model> floating_models() {
  std::vector<Model> out;
  UrdfReadOptions options;
  options.floating_base = true;
  // A random tree with prismatic joints too (the bundled robots are all revolute).
  out.push_back(read_urdf_string(test::random_tree_urdf(20, 7), "random", options));
  for (const std::string& stem : test::bundled_robots()) {
    Model model = test::bundled_robot(stem).model;
    if (model.floating_base) out.push_back(std::move(model));
  }
  return out;
}

Matrix3 base_rotation(const VectorX& q) { return Eigen::Quaterniond(q[6], q[3], q[4], q[5]).toRotationMatrix(); }

// What an IMU at the base origin would measure in the state (q, v, a): root axes.
RootMotion measured_root_motion(const Model& model, const test::State& s) {
  const Vector3 v_lin = s.v.head<3>(), w = s.v.segment<3>(3);
  RootMotion root;
  root.angular_velocity = w;
  root.angular_acceleration = s.a.segment<3>(3);
  // Classical acceleration of the base origin = spatial a_lin + w x v_lin (docs/conventions.md).
  root.specific_force = s.a.head<3>() + w.cross(v_lin) - base_rotation(s.q).transpose() * model.gravity;
  return root;
}

TEST(MovingReferenceDynamics, WrenchEqualsTheBaseRowOfRneaAtRandomStates) {
  for (const Model& model : floating_models()) {
    SCOPED_TRACE(model.name);
    MovingReferenceData data(model);
    Data data_rnea(model);
    std::mt19937 rng(12);
    for (int trial = 0; trial < 20; ++trial) {
      const test::State s = test::random_state(model, rng, 2.0);
      const RootMotion root = measured_root_motion(model, s);
      const MovingReferenceWrench w = moving_reference_wrench(model, data, s.q.tail(model.nq - 7),
                                                              s.v.tail(model.nv - 6), s.a.tail(model.nv - 6), root);
      // RNEA's base row: the wrench the base needs from outside, base axes about the base origin.
      const VectorX& tau = rnea(model, data_rnea, s.q, s.v, s.a);
      Vector6 expected = tau.head<6>();
      Vector6 got;
      got << w.contact_wrench.linear, w.contact_wrench.angular;
      EXPECT_LT((got - expected).norm() / std::max(1.0, expected.norm()), 1e-9) << "trial " << trial;
      // The COM against the world one, moved into the base frame.
      centroidal_momentum_rate(model, data_rnea, s.q, s.v, s.a);
      const Vector3 com_root = base_rotation(s.q).transpose() * (data_rnea.com - s.q.head<3>());
      EXPECT_LT((w.com - com_root).norm(), 1e-12);
      EXPECT_NEAR(w.mass, data_rnea.mass, 1e-12);
      // Momentum rate about the moving point = centroidal rate moved to P (world axes -> root axes).
      const Matrix3 R = base_rotation(s.q);
      const Force rate = momentum_rate(w, R.transpose() * model.gravity);
      const Force& hg_dot = data_rnea.centroidal_momentum_rate;
      // dL^(P)/dt as eq. 13 defines it: sum of r_H x m a_COM + ..., i.e. the rate about the COM
      // plus c_P x dP/dt with c_P the COM seen from P.
      const Vector3 lin = R.transpose() * hg_dot.linear;
      const Vector3 ang = R.transpose() * hg_dot.angular + com_root.cross(lin);
      EXPECT_LT((rate.linear - lin).norm() / std::max(1.0, lin.norm()), 1e-9);
      EXPECT_LT((rate.angular - ang).norm() / std::max(1.0, ang.norm()), 1e-9);
    }
  }
}

TEST(MovingReferenceDynamics, RefusesAFixedBase) {
  UrdfReadOptions options;
  options.floating_base = false;
  const Model model = read_urdf_string(test::random_tree_urdf(4, 3), "fixed", options);
  ASSERT_FALSE(model.floating_base);
  MovingReferenceData data(model);
  const VectorX z = VectorX::Zero(model.nv);
  EXPECT_THROW(moving_reference_wrench(model, data, z, z, z, RootMotion{}), std::invalid_argument);
}

TEST(MovingReferenceDynamics, NifHasZAlongTheNormalAndXInTheSagittalPlane) {
  const Vector3 n = Vector3(0.2, -0.1, 0.9);
  const Matrix3 R = nif_rotation(n);
  EXPECT_LT((R * R.transpose() - Matrix3::Identity()).norm(), 1e-12);
  EXPECT_NEAR(R.determinant(), 1.0, 1e-12);
  EXPECT_LT((R.row(2).transpose() - n.normalized()).norm(), 1e-12);
  // x lies in the plane spanned by the root's x axis and the normal, pointing forward.
  EXPECT_NEAR(R.row(0).dot(n.normalized().cross(Vector3::UnitX())), 0.0, 1e-12);
  EXPECT_GT(R(0, 0), 0.0);
  EXPECT_THROW(nif_rotation(Vector3::UnitX()), std::invalid_argument);
  EXPECT_THROW(nif_rotation(Vector3::Zero()), std::invalid_argument);
}

TEST(MovingReferenceDynamics, IzmpOfAPointForceIsItsPointOfApplication) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 10; ++trial) {
    const double h = -0.6 + 0.1 * u(rng);
    const Vector3 p(0.2 * u(rng), 0.2 * u(rng), h);
    const Vector3 f(30 * u(rng), 30 * u(rng), 200 + 50 * u(rng));
    // Plus a pure moment about the normal, which a flat foot can transmit and the IZMP ignores.
    const Force wrench(f, p.cross(f) + Vector3(0, 0, 5 * u(rng)));
    const Vector3 z = izmp_on_plane(wrench, h);
    EXPECT_LT((z - p).norm(), 1e-12);
  }
  EXPECT_TRUE(izmp_on_plane(Force(Vector3(0, 0, -5), Vector3::Zero()), -0.5).hasNaN());
}

TEST(InertialReferenceMomentum, DifferenceQuotientConvergesToTheRneaWrench) {
  const Model model = test::bundled_robot("walker").model;
  Data data(model), data_rnea(model);
  std::mt19937 rng(4);
  const test::State s = test::random_state(model, rng, 1.0);
  // Move along the state for dt with constant a (second-order integration), then compare the
  // backward difference of the world momentum with RNEA's wrench at the midpoint to O(dt^2).
  const double dt = 1e-5;
  VectorX q0(model.nq), q1(model.nq), qm(model.nq);
  const VectorX v0 = s.v - 0.5 * dt * s.a, v1 = s.v + 0.5 * dt * s.a;
  // q0 = q (-) (dt/2 v - dt^2/8 a) approximately: integrate backwards and forwards from the midpoint.
  integrate(model, s.q, -0.5 * dt * s.v + dt * dt / 8.0 * s.a, q0);
  integrate(model, s.q, 0.5 * dt * s.v + dt * dt / 8.0 * s.a, q1);
  const Force h0 = momentum_about_world_origin(model, data, q0, v0);
  const Force h1 = momentum_about_world_origin(model, data, q1, v1);
  centroidal_momentum(model, data, s.q, s.v);
  const Force w = wrench_from_momentum_difference(h0, h1, dt, data.mass, data.com, model.gravity);
  // RNEA's base wrench, base axes about the base origin -> world axes about the world origin.
  rnea(model, data_rnea, s.q, s.v, s.a);
  const SE3 oMb(base_rotation(s.q), s.q.head<3>());
  const Force expected = oMb.act(Force(data_rnea.tau.head<3>(), data_rnea.tau.segment<3>(3)));
  EXPECT_LT((w.linear - expected.linear).norm(), 1e-4 * std::max(1.0, expected.linear.norm()));
  EXPECT_LT((w.angular - expected.angular).norm(), 1e-4 * std::max(1.0, expected.angular.norm()));
}

}  // namespace
}  // namespace dynid
