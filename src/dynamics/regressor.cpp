#include "dynid/dynamics/regressor.hpp"

#include <stdexcept>

#include "dynid/dynamics/forward_recursion.hpp"
#include "dynid/model/topology.hpp"

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

namespace {

/// Every body's regressor expressed in the reference frame r (the base frame of a floating base,
/// else the world) into data.regressor_carry: T_i = rXi^* Y_i, one force transform per body
/// (f' = R f, n' = R n + p x f'). Returns rMo.
SE3 body_regressors_in_reference_frame(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v,
                                       const ConstVectorRef& a) {
  detail::forward_recursion<true, true, true>(
      model, data, q, v, a, [&](std::size_t i) { body_regressor(data.v[i], data.a_gf[i], data.body_regressor[i]); });
  const bool floating = model.bodies.size() > 1 && model.bodies[1].joint_type == JointType::FreeFlyer;
  const SE3 rMo = floating ? data.oMi[1].inverse() : SE3::Identity();
  for (std::size_t i = 1; i < model.bodies.size(); ++i) {
    BodyRegressor& T = data.regressor_carry[i];
    const BodyRegressor& Y = data.body_regressor[i];
    if (floating && i == 1) {
      T = Y;
      continue;
    }
    const SE3 X = rMo * data.oMi[i];
    T.topRows<3>().noalias() = X.rotation * Y.topRows<3>();
    T.bottomRows<3>().noalias() = X.rotation * Y.bottomRows<3>();
    T.bottomRows<3>().noalias() += skew(X.translation) * T.topRows<3>();
  }
  return rMo;
}

}  // namespace

const MatrixX& joint_torque_regressor(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v,
                                      const ConstVectorRef& a) {
  // Column block of body i lives in the rows of i and its ancestors j: S_j^T T_i with both the
  // joint's motion subspace S_j and the body's wrench regressor T_i in the reference frame, so
  // each (body, ancestor) pair costs one 6-vector times 6x10 instead of a transform of the block.
  const SE3 rMo = body_regressors_in_reference_frame(model, data, q, v, a);
  for (std::size_t i = 1; i < model.bodies.size(); ++i) {
    const Eigen::Index col = 10 * static_cast<Eigen::Index>(i - 1);
    const BodyRegressor& T = data.regressor_carry[i];
    for_each_support(model, static_cast<int>(i), [&](int j) {
      const Body& bj = model.bodies[static_cast<std::size_t>(j)];
      if (bj.joint_type == JointType::FreeFlyer) {  // the reference frame is its frame: S = identity
        data.regressor.block<6, 10>(bj.idx_v, col) = T;
        return;
      }
      const SE3 X = rMo * data.oMi[static_cast<std::size_t>(j)];
      const Vector3 axis = X.rotation * bj.axis;
      if (bj.joint_type == JointType::Prismatic) {  // S = [axis; 0]
        data.regressor.block<1, 10>(bj.idx_v, col).noalias() = axis.transpose() * T.topRows<3>();
      } else {  // revolute about `axis` through the joint origin p: S = [p x axis; axis]
        const Vector3 moment_arm = X.translation.cross(axis);
        data.regressor.block<1, 10>(bj.idx_v, col).noalias() =
            moment_arm.transpose() * T.topRows<3>() + axis.transpose() * T.bottomRows<3>();
      }
    });
  }
  return data.regressor;
}

const BaseLinkRegressor& base_link_regressor(const Model& model, Data& data, const ConstVectorRef& q,
                                             const ConstVectorRef& v, const ConstVectorRef& a) {
  const std::size_t nb = model.bodies.size();
  if (nb < 2 || model.bodies[1].joint_type != JointType::FreeFlyer)
    throw std::invalid_argument("base-link regressor: " + model.label() + " has a fixed base (no base-link equations)");
  for (std::size_t i = 2; i < nb; ++i)
    if (model.bodies[i].parent == 0)
      throw std::invalid_argument("base-link regressor: body '" + model.bodies[i].name + "' of " + model.label() +
                                  " is not attached to the base");
  // Every moving body descends from the base, whose rows are the sum of the bodies' wrenches in
  // the base frame: the blocks T_i themselves.
  body_regressors_in_reference_frame(model, data, q, v, a);
  for (std::size_t i = 1; i < nb; ++i)
    data.base_link_regressor.middleCols<10>(10 * static_cast<Eigen::Index>(i - 1)) = data.regressor_carry[i];
  return data.base_link_regressor;
}

}  // namespace dynid
