// Spatial algebra checked against the 6x6 matrix forms and against each other.

#include <gtest/gtest.h>

#include <random>

#include "dynid/spatial/inertia.hpp"

namespace dynid {
namespace {

SE3 random_se3(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  return {rotation_from_rpy(Vector3(u(rng), u(rng), u(rng)) * 3.0), Vector3(u(rng), u(rng), u(rng))};
}

Inertia random_inertia(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0.1, 1.0);
  const Vector3 d(u(rng), u(rng), u(rng));
  const double m = 3.0 * u(rng);
  const Vector3 principal(m / 12 * (d.y() * d.y() + d.z() * d.z()), m / 12 * (d.x() * d.x() + d.z() * d.z()),
                          m / 12 * (d.x() * d.x() + d.y() * d.y()));
  const Matrix3 R = rotation_from_rpy(Vector3(u(rng), u(rng), u(rng)) * 3.0);
  return Inertia::from_com(m, Vector3(u(rng), -u(rng), u(rng)) * 0.2, R * principal.asDiagonal() * R.transpose());
}

TEST(Spatial, TransformsMatchTheirMatrices) {
  std::mt19937 rng(1);
  for (int k = 0; k < 20; ++k) {
    const SE3 M = random_se3(rng);
    const Vector6 m = Vector6::Random(), f = Vector6::Random();
    EXPECT_LT((M.act(Motion::from_vector(m)).to_vector() - M.motion_matrix() * m).norm(), 1e-14);
    EXPECT_LT((M.act(Force::from_vector(f)).to_vector() - M.force_matrix() * f).norm(), 1e-14);
    EXPECT_LT((M.act_inv(M.act(Motion::from_vector(m))).to_vector() - m).norm(), 1e-14);
    EXPECT_LT((M.act_inv(M.act(Force::from_vector(f))).to_vector() - f).norm(), 1e-14);
    // The force transform is the inverse transpose of the motion transform: power is frame-free.
    EXPECT_NEAR(M.act(Force::from_vector(f)).dot(M.act(Motion::from_vector(m))), f.dot(m), 1e-13);
    EXPECT_TRUE((M * M.inverse()).is_approx(SE3::Identity(), 1e-14));
  }
}

TEST(Spatial, CrossProductsMatchTheirMatrices) {
  const Motion v = Motion::from_vector(Vector6::Random());
  const Motion m = Motion::from_vector(Vector6::Random());
  const Force f = Force::from_vector(Vector6::Random());
  Matrix6 crm = Matrix6::Zero();  // Featherstone's v x, in [linear; angular] order
  crm.topLeftCorner<3, 3>() = skew(v.angular);
  crm.topRightCorner<3, 3>() = skew(v.linear);
  crm.bottomRightCorner<3, 3>() = skew(v.angular);
  EXPECT_LT((v.cross(m).to_vector() - crm * m.to_vector()).norm(), 1e-14);
  EXPECT_LT((v.cross(f).to_vector() - (-crm.transpose()) * f.to_vector()).norm(), 1e-14);
}

TEST(Spatial, InertiaTransformMatchesCongruence) {
  std::mt19937 rng(2);
  for (int k = 0; k < 20; ++k) {
    const Inertia I = random_inertia(rng);
    const SE3 aMb = random_se3(rng);
    // I_a = X*_ab I_b X_ba, with X_ba the motion transform from a to b.
    const Matrix6 expected = aMb.force_matrix() * I.matrix() * aMb.inverse().motion_matrix();
    EXPECT_LT((I.transformed(aMb).matrix() - expected).norm(), 1e-12);
    EXPECT_LT((I.to_parameters() - Inertia::from_parameters(I.to_parameters()).to_parameters()).norm(), 1e-15);
    const Motion v = Motion::from_vector(Vector6::Random());
    EXPECT_LT(((I * v).to_vector() - I.matrix() * v.to_vector()).norm(), 1e-14);
    EXPECT_TRUE(check_physical_consistency(I).consistent);
    EXPECT_GT(I.pseudo_inertia().llt().info() == Eigen::Success ? 1 : 0, 0);
  }
}

TEST(Spatial, RpyRoundTrip) {
  const Vector3 rpy(0.3, -1.2, 2.9);
  EXPECT_LT((rpy_from_rotation(rotation_from_rpy(rpy)) - rpy).norm(), 1e-14);
  // URDF convention: fixed X then Y then Z, i.e. R = Rz Ry Rx.
  const Matrix3 R = rotation_from_rpy(Vector3(0.0, 0.0, M_PI / 2));
  EXPECT_LT((R * Vector3::UnitX() - Vector3::UnitY()).norm(), 1e-15);
}

TEST(Spatial, ConsistencyDetectsImpossibleBodies) {
  EXPECT_FALSE(check_physical_consistency(Inertia::from_com(-1.0, Vector3::Zero(), Matrix3::Identity())).consistent);
  EXPECT_FALSE(
      check_physical_consistency(Inertia::from_com(1.0, Vector3::Zero(), Vector3(1, 1, 3).asDiagonal())).consistent);
  EXPECT_FALSE(
      check_physical_consistency(Inertia::from_com(1.0, Vector3::Zero(), Vector3(1, 1, -0.1).asDiagonal())).consistent);
  const ConsistencyReport ok =
      check_physical_consistency(Inertia::from_com(1.0, Vector3::Zero(), Vector3(1, 1, 1.5).asDiagonal()));
  EXPECT_TRUE(ok.consistent) << ok.reason;
  // Triangle inequality and positive-definite pseudo-inertia agree.
  const Inertia bad = Inertia::from_com(1.0, Vector3(0.1, 0, 0), Vector3(1, 1, 2.2).asDiagonal());
  EXPECT_NE(bad.pseudo_inertia().llt().info(), Eigen::Success);
}

}  // namespace
}  // namespace dynid
