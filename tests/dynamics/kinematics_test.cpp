// Kinematics, Jacobians and their derivatives against finite differences along exact trajectories
// q(t) = q (+) t v (constant velocity, so a = 0 and the J-dot-v term is the only acceleration).

#include <gtest/gtest.h>

#include "dynid/dynamics/center_of_mass.hpp"
#include "dynid/dynamics/jacobian.hpp"
#include "dynid/model/urdf_reader.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

Model random_model(bool floating, unsigned seed) {
  UrdfReadOptions options;
  options.floating_base = floating;
  return read_urdf_string(test::random_tree_urdf(32, seed), "random", options);
}

VectorX advance(const Model& model, const VectorX& q, const VectorX& v, double t) {
  VectorX out(model.nq);
  integrate(model, q, v * t, out);
  return out;
}

TEST(Kinematics, FrameJacobianIsTheDerivativeOfThePose) {
  for (bool floating : {false, true}) {
    const Model model = random_model(floating, 40);
    Data data(model);
    std::mt19937 rng(41);
    const test::State s = test::random_state(model, rng);
    const double h = 1e-6;
    for (int frame = 0; frame < static_cast<int>(model.frames.size()); frame += 3) {
      forward_kinematics(model, data, s.q);
      Matrix6X J(6, model.nv), J_world(6, model.nv), J_lwa(6, model.nv);
      frame_jacobian(model, data, frame, ReferenceFrame::Local, J);
      frame_jacobian(model, data, frame, ReferenceFrame::World, J_world);
      frame_jacobian(model, data, frame, ReferenceFrame::LocalWorldAligned, J_lwa);
      const SE3 M0 = frame_placement(model, data, frame);
      forward_kinematics(model, data, advance(model, s.q, s.v, h));
      const SE3 Mp = frame_placement(model, data, frame);
      forward_kinematics(model, data, advance(model, s.q, s.v, -h));
      const SE3 Mm = frame_placement(model, data, frame);
      // Origin velocity in world and angular velocity (from R_dot R^T) by central differences.
      const Vector3 p_dot = (Mp.translation - Mm.translation) / (2 * h);
      const Matrix3 W = (Mp.rotation - Mm.rotation) / (2 * h) * M0.rotation.transpose();
      const Vector3 w(W(2, 1), W(0, 2), W(1, 0));
      const Vector6 twist_lwa = J_lwa * s.v;
      EXPECT_LT((twist_lwa.head<3>() - p_dot).norm(), 1e-7 * (1 + p_dot.norm())) << "frame " << frame;
      EXPECT_LT((twist_lwa.tail<3>() - w).norm(), 1e-7 * (1 + w.norm())) << "frame " << frame;
      // The three references describe one twist.
      const Motion local = Motion::from_vector(J * s.v);
      EXPECT_LT((M0.act(local).to_vector() - J_world * s.v).norm(), 1e-12 * (1 + local.to_vector().norm()));
      // And the body twist from forward kinematics agrees with J v.
      forward_kinematics(model, data, s.q, s.v);
      EXPECT_LT((frame_velocity(model, data, frame).to_vector() - J * s.v).norm(),
                1e-12 * (1 + local.to_vector().norm()));
    }
  }
}

TEST(Kinematics, ClassicalAccelerationIsJdotV) {
  for (bool floating : {false, true}) {
    const Model model = random_model(floating, 50);
    Data data(model);
    std::mt19937 rng(51);
    const test::State s = test::random_state(model, rng);
    const VectorX zero = VectorX::Zero(model.nv);
    const double h = 1e-5;
    for (int frame = 1; frame < static_cast<int>(model.frames.size()); frame += 4) {
      forward_kinematics(model, data, s.q, s.v, zero);
      const Motion acc_local = frame_classical_acceleration(model, data, frame);
      const Matrix3 R = frame_placement(model, data, frame).rotation;
      Matrix6X Jp(6, model.nv), Jm(6, model.nv);
      forward_kinematics(model, data, advance(model, s.q, s.v, h));
      frame_jacobian(model, data, frame, ReferenceFrame::LocalWorldAligned, Jp);
      forward_kinematics(model, data, advance(model, s.q, s.v, -h));
      frame_jacobian(model, data, frame, ReferenceFrame::LocalWorldAligned, Jm);
      const Vector6 fd = (Jp - Jm) * s.v / (2 * h);
      EXPECT_LT((R * acc_local.linear - fd.head<3>()).norm(), 1e-6 * (1 + fd.norm())) << "frame " << frame;
      EXPECT_LT((R * acc_local.angular - fd.tail<3>()).norm(), 1e-6 * (1 + fd.norm())) << "frame " << frame;
    }
  }
}

TEST(Kinematics, ComVelocityAndAccelerationAreDerivatives) {
  const Model model = random_model(true, 60);
  Data data(model);
  std::mt19937 rng(61);
  const test::State s = test::random_state(model, rng);
  const VectorX zero = VectorX::Zero(model.nv);
  const double h = 1e-5;
  center_of_mass(model, data, s.q, s.v, zero);
  const Vector3 vel = data.com_velocity, acc = data.com_acceleration, c0 = data.com;
  const Vector3 cp = center_of_mass(model, data, advance(model, s.q, s.v, h));
  const Vector3 cm = center_of_mass(model, data, advance(model, s.q, s.v, -h));
  EXPECT_LT((vel - (cp - cm) / (2 * h)).norm(), 1e-8);
  EXPECT_LT((acc - (cp - 2 * c0 + cm) / (h * h)).norm(), 1e-3 * (1 + acc.norm()));
}

TEST(Kinematics, GroundProjectedComOnLevelGround) {
  Model model;
  const Vector3 g = ground_projected_com(model, Vector3(0.1, -0.2, 0.9));
  EXPECT_LT((g - Vector3(0.1, -0.2, 0.0)).norm(), 1e-15);
}

TEST(Kinematics, IntegrateFollowsConstantBodyTwist) {
  // Two half steps equal one full step for constant velocity on SE(3) x R^n.
  const Model model = random_model(true, 70);
  std::mt19937 rng(71);
  const test::State s = test::random_state(model, rng);
  const VectorX half = advance(model, advance(model, s.q, s.v, 0.5), s.v, 0.5);
  EXPECT_LT((half - advance(model, s.q, s.v, 1.0)).norm(), 1e-12);
}

}  // namespace
}  // namespace dynid

namespace dynid {
namespace {

TEST(Kinematics, ComJacobianMatchesComVelocity) {
  for (bool floating : {false, true}) {
    const Model model = random_model(floating, 62);
    Data data(model);
    std::mt19937 rng(63);
    const test::State s = test::random_state(model, rng);
    center_of_mass(model, data, s.q, s.v, s.a);
    const Vector3 com_velocity = data.com_velocity;
    Eigen::Matrix<double, 3, Eigen::Dynamic> J(3, model.nv);
    com_jacobian(model, data, J);
    EXPECT_LT((J * s.v - com_velocity).norm(), 1e-12 * (1 + com_velocity.norm()));
  }
}

}  // namespace
}  // namespace dynid
