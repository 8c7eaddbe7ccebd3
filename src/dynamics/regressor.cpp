#include "dynid/dynamics/regressor.hpp"

#include <stdexcept>

#include "dynid/dynamics/forward_recursion.hpp"
#include "dynid/dynamics/reference_frame.hpp"
#include "dynid/model/topology.hpp"

namespace dynid {
namespace {

/// The blocks of a body regressor that are not structurally zero (Newton-Euler about the frame
/// origin, h = m c, I about the origin, v and a in the body frame):
///   f = m g + A h,                    g = a_l + w x v_l, A = alpha^ + w^ w^
///   n = -g^ h + B [Ixx Ixy Iyy Ixz Iyz Izz],  B = L(alpha) + w^ L(w), I w = L(w) [I...]
/// The force has no rotational-inertia columns and the moment no mass column.
struct BodyRegressorBlocks {
  Vector3 g;
  Matrix3 A;
  Eigen::Matrix<double, 3, 6> B;

  BodyRegressorBlocks(const Motion& v, const Motion& a) {
    const Vector3& w = v.angular;
    const Vector3& al = a.angular;
    g = a.linear + w.cross(v.linear);
    A.noalias() = w * w.transpose();  // w^ w^ = w w^T - |w|^2 1
    A.diagonal().array() -= w.squaredNorm();
    A(0, 1) -= al.z();
    A(1, 0) += al.z();
    A(0, 2) += al.y();
    A(2, 0) -= al.y();
    A(1, 2) -= al.x();
    A(2, 1) += al.x();
    // w^ L(w), column by column: w^ e_x, w^ e_y, w^ e_z weighted by L(w)'s entries.
    const Vector3 cx(0.0, w.z(), -w.y()), cy(-w.z(), 0.0, w.x()), cz(w.y(), -w.x(), 0.0);
    B.col(0) = w.x() * cx + Vector3(al.x(), 0.0, 0.0);
    B.col(1) = w.y() * cx + w.x() * cy + Vector3(al.y(), al.x(), 0.0);
    B.col(2) = w.y() * cy + Vector3(0.0, al.y(), 0.0);
    B.col(3) = w.z() * cx + w.x() * cz + Vector3(al.z(), 0.0, al.x());
    B.col(4) = w.z() * cy + w.y() * cz + Vector3(0.0, al.z(), al.y());
    B.col(5) = w.z() * cz + Vector3(0.0, 0.0, al.z());
  }
};

/// T = rXi^* Y_i: the body regressor as a wrench in the frame r where the body's pose is X = rMi
/// (f' = R f, n' = R n + p x f'). Only the structurally non-zero blocks cost flops.
void reference_body_regressor(const Motion& v, const Motion& a, const SE3& X, BodyRegressor& T) {
  const BodyRegressorBlocks Y(v, a);
  const Matrix3& R = X.rotation;
  const Vector3& p = X.translation;
  const Vector3 Rg = R * Y.g;
  T.col(0).head<3>() = Rg;
  T.col(0).tail<3>() = p.cross(Rg);
  T.block<3, 3>(0, 1).noalias() = R * Y.A;
  for (int k = 0; k < 3; ++k)  // -R g^ e_k = R e_k x R g
    T.block<3, 1>(3, 1 + k) = R.col(k).cross(Rg) + p.cross(Vector3(T.block<3, 1>(0, 1 + k)));
  T.block<3, 6>(0, 4).setZero();
  T.block<3, 6>(3, 4).noalias() = R * Y.B;
}

/// Forward pass: every body's regressor in the reference frame (data.regressor_carry), and with
/// `with_subspace` every joint's motion subspace in it (data.subspace_ref).
void body_regressors_in_reference_frame(const Model& model, Data& data, const ConstVectorRef& q,
                                        const ConstVectorRef& v, const ConstVectorRef& a, bool with_subspace) {
  detail::forward_recursion<true, true, true>(model, data, q, v, a, [](std::size_t) {});
  detail::reference_frame_kinematics(model, data, with_subspace);
  for (std::size_t i = 1; i < model.bodies.size(); ++i)
    reference_body_regressor(data.v[i], data.a_gf[i], data.rMi[i], data.regressor_carry[i]);
}

}  // namespace

void body_regressor(const Motion& v, const Motion& a, BodyRegressor& Y) {
  const BodyRegressorBlocks blocks(v, a);
  Y.setZero();
  Y.block<3, 1>(0, 0) = blocks.g;
  Y.block<3, 3>(0, 1) = blocks.A;
  Y.block<3, 3>(3, 1) = -skew(blocks.g);
  Y.block<3, 6>(3, 4) = blocks.B;
}

const MatrixX& joint_torque_regressor(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v,
                                      const ConstVectorRef& a) {
  // Column block of body i lives in the rows of i and its ancestors j: S_j^T T_i with both the
  // joint's motion subspace S_j and the body's wrench regressor T_i in the reference frame, so
  // each (body, ancestor) pair costs one 6-vector times the non-zero part of a 6x10 block. All
  // other entries are structurally zero and never written (Data starts them at zero).
  body_regressors_in_reference_frame(model, data, q, v, a, true);
  const std::size_t ref = detail::reference_body(model);
  for (std::size_t i = 1; i < model.bodies.size(); ++i) {
    const Eigen::Index col = 10 * static_cast<Eigen::Index>(i - 1);
    const BodyRegressor& T = data.regressor_carry[i];
    for_each_support(model, static_cast<int>(i), [&](int j) {
      const Body& bj = model.bodies[static_cast<std::size_t>(j)];
      if (static_cast<std::size_t>(j) == ref) {  // the reference frame's own free flyer: S = identity
        data.regressor.block<6, 10>(bj.idx_v, col) = T;
        return;
      }
      for (int k = 0; k < bj.nv; ++k) {
        const auto s = data.subspace_ref.col(bj.idx_v + k);
        auto row = data.regressor.block<1, 10>(bj.idx_v + k, col);
        row.head<4>().noalias() = s.head<3>().transpose() * T.block<3, 4>(0, 0);
        row.head<4>().noalias() += s.tail<3>().transpose() * T.block<3, 4>(3, 0);
        row.tail<6>().noalias() = s.tail<3>().transpose() * T.block<3, 6>(3, 4);
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
  body_regressors_in_reference_frame(model, data, q, v, a, false);
  for (std::size_t i = 1; i < nb; ++i)
    data.base_link_regressor.middleCols<10>(10 * static_cast<Eigen::Index>(i - 1)) = data.regressor_carry[i];
  return data.base_link_regressor;
}

}  // namespace dynid
