#include "dynid/dynamics/regressor.hpp"

#include "dynid/dynamics/forward_recursion.hpp"

namespace dynid {
namespace {

/// L(w) such that I w = L(w) [Ixx Ixy Iyy Ixz Iyz Izz]^T for symmetric I.
Eigen::Matrix<double, 3, 6> inertia_action(const Vector3& w) {
  Eigen::Matrix<double, 3, 6> L;
  L << w.x(), w.y(), 0.0, w.z(), 0.0, 0.0,  //
      0.0, w.x(), w.y(), 0.0, w.z(), 0.0,   //
      0.0, 0.0, 0.0, w.x(), w.y(), w.z();
  return L;
}

}  // namespace

void body_regressor(const Motion& v, const Motion& a, BodyRegressor& Y) {
  // Newton-Euler about the frame origin with h = m c and I about the origin:
  //   f = m (a_l + w x v_l) + (alpha^ + w^ w^) h
  //   n = I alpha + w x I w - (a_l + w x v_l)^ h
  const Vector3& w = v.angular;
  const Vector3 g = a.linear + w.cross(v.linear);
  const Matrix3 W = skew(w);
  Y.setZero();
  Y.block<3, 1>(0, 0) = g;
  Y.block<3, 3>(0, 1) = skew(a.angular) + W * W;
  Y.block<3, 3>(3, 1) = -skew(g);
  Y.block<3, 6>(3, 4) = inertia_action(a.angular) + W * inertia_action(w);
}

const MatrixX& joint_torque_regressor(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v,
                                      const ConstVectorRef& a) {
  const std::size_t nb = model.bodies.size();
  detail::forward_recursion<true, true, true>(
      model, data, q, v, a, [&](std::size_t i) { body_regressor(data.v[i], data.a_gf[i], data.body_regressor[i]); });
  // Column block of body i lives in the rows of i and its ancestors: S_j^T (jXi^* Y_i).
  for (std::size_t i = 1; i < nb; ++i) {
    const Eigen::Index col = 10 * static_cast<Eigen::Index>(i - 1);
    BodyRegressor& F = data.regressor_carry[i];
    F = data.body_regressor[i];
    std::size_t j = i;
    while (true) {
      const Body& bj = model.bodies[j];
      switch (bj.joint_type) {
        case JointType::Revolute:
          data.regressor.block<1, 10>(bj.idx_v, col).noalias() = bj.axis.transpose() * F.bottomRows<3>();
          break;
        case JointType::Prismatic:
          data.regressor.block<1, 10>(bj.idx_v, col).noalias() = bj.axis.transpose() * F.topRows<3>();
          break;
        case JointType::FreeFlyer:
          data.regressor.block<6, 10>(bj.idx_v, col) = F;
          break;
      }
      if (bj.parent <= 0) break;
      // Force transform of all 10 columns to the parent frame: f' = R f, n' = R n + p x f'.
      const SE3& X = data.liMi[j];
      Eigen::Matrix<double, 3, 10> f = X.rotation * F.topRows<3>();
      F.bottomRows<3>() = X.rotation * F.bottomRows<3>() + skew(X.translation) * f;
      F.topRows<3>() = f;
      j = static_cast<std::size_t>(bj.parent);
    }
  }
  return data.regressor;
}

}  // namespace dynid
