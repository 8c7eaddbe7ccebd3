// A program that evaluates dynamics links dynid::core alone (Eigen, no MuJoCo, yaml-cpp, urdfdom,
// tinyxml2 or JSON): this file is built against that target only (tests/CMakeLists.txt), so the
// build fails if the core algorithms ever reach into a parser or the simulator. It also checks RNEA
// on a model built in code against the closed-form dynamics of a planar double pendulum.

#include <gtest/gtest.h>

#include <cmath>

#include "dynid/dynamics/rnea.hpp"

namespace dynid {
namespace {

struct Link {
  double mass, length, com, inertia;  ///< [kg], joint to next joint [m], joint to COM [m], about the COM [kg m^2]
};

/// Two links hanging from the world, both joints about y, each link along its frame's -z.
Model double_pendulum(const Link& l1, const Link& l2) {
  Model model;
  model.name = "double_pendulum";
  Body universe;
  universe.name = universe.joint_name = "universe";
  universe.parent = -1;
  model.bodies.push_back(universe);
  const auto link = [](const Link& l) {
    return Inertia::from_com(l.mass, Vector3(0.0, 0.0, -l.com), Vector3(0.01, l.inertia, 0.02).asDiagonal());
  };
  Body upper;
  upper.name = upper.joint_name = "upper";
  upper.parent = 0;
  upper.axis = Vector3::UnitY();
  upper.inertia = link(l1);
  model.add_body(upper);
  Body lower;
  lower.name = lower.joint_name = "lower";
  lower.parent = 1;
  lower.joint_placement.translation = Vector3(0.0, 0.0, -l1.length);
  lower.axis = Vector3::UnitY();
  lower.inertia = link(l2);
  model.add_body(lower);
  return model;
}

TEST(CoreOnlyLink, RneaMatchesTheClosedFormDoublePendulum) {
  const Link l1{1.3, 0.45, 0.2, 0.031}, l2{0.7, 0.3, 0.17, 0.012};
  const Model model = double_pendulum(l1, l2);
  Data data(model);
  const double g = -model.gravity.z();
  const Eigen::Vector2d q(0.4, -1.1), v(0.8, 1.7), a(-2.1, 0.6);
  const VectorX& tau = rnea(model, data, q, v, a);

  // Lagrange's equations of the planar two-link arm, angles from the hanging pose.
  const double c2 = std::cos(q[1]), s2 = std::sin(q[1]);
  const double m11 = l1.inertia + l2.inertia + l1.mass * l1.com * l1.com +
                     l2.mass * (l1.length * l1.length + l2.com * l2.com + 2 * l1.length * l2.com * c2);
  const double m12 = l2.inertia + l2.mass * (l2.com * l2.com + l1.length * l2.com * c2);
  const double m22 = l2.inertia + l2.mass * l2.com * l2.com;
  const double h = l2.mass * l1.length * l2.com * s2;
  const double g1 =
      g * ((l1.mass * l1.com + l2.mass * l1.length) * std::sin(q[0]) + l2.mass * l2.com * std::sin(q[0] + q[1]));
  const double g2 = g * l2.mass * l2.com * std::sin(q[0] + q[1]);
  const double tau1 = m11 * a[0] + m12 * a[1] - h * (2 * v[0] * v[1] + v[1] * v[1]) + g1;
  const double tau2 = m12 * a[0] + m22 * a[1] + h * v[0] * v[0] + g2;

  ASSERT_EQ(tau.size(), 2);
  EXPECT_NEAR(tau[0], tau1, 1e-12);
  EXPECT_NEAR(tau[1], tau2, 1e-12);
}

}  // namespace
}  // namespace dynid
