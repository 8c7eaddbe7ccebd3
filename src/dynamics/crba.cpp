#include "dynid/dynamics/crba.hpp"

#include "dynid/dynamics/joint_motion.hpp"
#include "dynid/dynamics/reference_frame.hpp"
#include "dynid/model/topology.hpp"

namespace dynid {
namespace {

/// I.transformed(aMb) with the parallel axis written out and only the lower triangle computed:
///   I_a = R I_b R^T + d 1 - p h'^T - (R h) p^T,  d = 2 (R h).p + m p.p,  h' = R h + m p.
Inertia inertia_in_frame(const Inertia& I, const SE3& aMb) {
  Inertia out;
  out.mass = I.mass;
  const Matrix3& R = aMb.rotation;
  const Vector3& p = aMb.translation;
  const Vector3 Rh = times(R, I.mc);
  out.mc = Rh + I.mass * p;
  const Matrix3 RI = times(R, I.inertia);
  const double d = 2.0 * Rh.dot(p) + I.mass * p.squaredNorm();
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c <= r; ++c) {
      const double e = RI.row(r).dot(R.row(c)) - p[r] * out.mc[c] - Rh[r] * p[c] + (r == c ? d : 0.0);
      out.inertia(r, c) = e;
      out.inertia(c, r) = e;
    }
  return out;
}

/// Whether the bodies come in depth-first order (what the URDF and MJCF readers build): then every
/// subtree is a run of consecutive bodies, hence of velocity indices, and data.subtree_v_end[i]
/// is set to one past the last velocity index of body i's subtree. In that order a body's parent is
/// the previous body or one of its ancestors; walking up from the previous body closes the subtrees
/// that end before this body (each body is closed once, so the check is linear in the bodies).
bool depth_first_subtrees(const Model& model, Data& data) {
  const int nb = static_cast<int>(model.bodies.size());
  for (int i = 1; i < nb; ++i) {
    const Body& b = model.bodies[static_cast<std::size_t>(i)];
    int j = i - 1;
    for (; j > 0 && j != b.parent; j = model.bodies[static_cast<std::size_t>(j)].parent)
      data.subtree_v_end[static_cast<std::size_t>(j)] = b.idx_v;
    if (j != b.parent) return false;
  }
  for (int j = nb - 1; j > 0; j = model.bodies[static_cast<std::size_t>(j)].parent)
    data.subtree_v_end[static_cast<std::size_t>(j)] = model.nv;
  return true;
}

/// M(j, i) = S_j . (Ic_i S_i), written to both triangles, for body `i`'s columns and every ancestor
/// j of i (any body order): one walk to the root per column.
void columns_with_ancestors(const Model& model, Data& data, std::size_t i, std::size_t ref) {
  const Body& b = model.bodies[i];
  for (int k = 0; k < b.nv; ++k) {
    const int col = b.idx_v + k;
    const auto F = data.Fcrb.col(col);
    for_each_support(model, static_cast<int>(i), [&](int j) {
      const Body& bj = model.bodies[static_cast<std::size_t>(j)];
      if (static_cast<std::size_t>(j) == ref) {  // the reference frame's own free flyer: S = identity
        for (int m = 0; m < 6; ++m) data.M(bj.idx_v + m, col) = data.M(col, bj.idx_v + m) = F[m];
        return;
      }
      for (int m = 0; m < bj.nv; ++m)
        data.M(bj.idx_v + m, col) = data.M(col, bj.idx_v + m) = data.subspace_ref.col(bj.idx_v + m).dot(F);
    });
  }
}

/// The same entries, row by row, for depth-first bodies: body i's rows against the columns of its
/// whole subtree, a contiguous run of Fcrb already filled by the subtree's bodies (Pinocchio's
/// order). No walk, and each entry is a 6-vector dot product over contiguous memory.
void rows_with_subtree(const Model& model, Data& data, std::size_t i, std::size_t ref) {
  const Body& b = model.bodies[i];
  const int begin = b.idx_v, count = data.subtree_v_end[i] - b.idx_v;
  if (i == ref) {  // the reference frame's own free flyer: S = identity
    for (int col = begin; col < begin + count; ++col)
      for (int m = 0; m < 6; ++m) data.M(begin + m, col) = data.M(col, begin + m) = data.Fcrb(m, col);
    return;
  }
  double* M = data.M.data();
  const Eigen::Index stride = data.M.outerStride();
  for (int k = 0; k < b.nv; ++k) {
    const int row = begin + k;
    const Vector6 S = data.subspace_ref.col(row);  // a copy: the stores to M below cannot change it
    for (int col = begin; col < begin + count; ++col)
      M[col + row * stride] = M[row + col * stride] = data.Fcrb.col(col).dot(S);
  }
}

}  // namespace

const MatrixX& crba(const Model& model, Data& data, const ConstVectorRef& q) {
  // Composite inertias in the reference frame r (the base frame of a floating base, else the
  // world; Pinocchio's "world" convention with the base frame in place of the world): a body's
  // inertia is moved to r once, a subtree's composite is then a plain sum of 10 parameters, and
  // M(j, i) = S_j^T (Ic_i S_i) for every ancestor j of i is a 6-vector dot product with S_j in r
  // instead of carrying the force joint by joint to the root. Poses in the world are not needed
  // (M does not depend on the base's pose): only the joint transforms, then the poses in r.
  const std::size_t nb = model.bodies.size();
  const std::size_t ref = detail::reference_body(model);
  for (std::size_t i = 1; i < nb; ++i) data.liMi[i] = joint::transform(model.bodies[i], q);
  detail::reference_frame_kinematics(model, data, true);
  for (std::size_t i = 1; i < nb; ++i)
    data.composite[i] = i == ref ? model.bodies[i].inertia : inertia_in_frame(model.bodies[i].inertia, data.rMi[i]);

  const bool depth_first = depth_first_subtrees(model, data);
  for (std::size_t i = nb - 1; i >= 1; --i) {
    // Every descendant of i comes after it, so its composite inertia is complete here.
    const Body& b = model.bodies[i];
    for (int k = 0; k < b.nv; ++k) {
      const auto S = data.subspace_ref.col(b.idx_v + k);
      const Force F = data.composite[i] * Motion(S.head<3>(), S.tail<3>());
      data.Fcrb.col(b.idx_v + k) << F.linear, F.angular;
    }
    if (depth_first)
      rows_with_subtree(model, data, i, ref);
    else
      columns_with_ancestors(model, data, i, ref);
    if (b.parent > 0) data.composite[static_cast<std::size_t>(b.parent)] += data.composite[i];
  }
  // Entries of joints that are not on one chain to the root are never written (zero since Data's
  // construction); every other entry was written twice, M(j, i) and M(i, j).
  return data.M;
}

double kinetic_energy(const Model& model, const Data& data) {
  double T = 0.0;
  for (std::size_t i = 1; i < model.bodies.size(); ++i) T += 0.5 * (model.bodies[i].inertia * data.v[i]).dot(data.v[i]);
  return T;
}

double potential_energy(const Model& model, const Data& data) {
  double U = 0.0;
  for (std::size_t i = 1; i < model.bodies.size(); ++i) {
    const Inertia& I = model.bodies[i].inertia;
    const Vector3 mc_world = data.oMi[i].rotation * I.mc + I.mass * data.oMi[i].translation;
    U -= model.gravity.dot(mc_world);
  }
  return U;
}

}  // namespace dynid
