#include "dynid/dynamics/crba.hpp"

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
  const Vector3 Rh = R * I.mc;
  out.mc = Rh + I.mass * p;
  const Matrix3 RI = R * I.inertia;
  const double d = 2.0 * Rh.dot(p) + I.mass * p.squaredNorm();
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c <= r; ++c) {
      const double e = RI.row(r).dot(R.row(c)) - p[r] * out.mc[c] - Rh[r] * p[c] + (r == c ? d : 0.0);
      out.inertia(r, c) = e;
      out.inertia(c, r) = e;
    }
  return out;
}

}  // namespace

const MatrixX& crba(const Model& model, Data& data, const ConstVectorRef& q) {
  // Composite inertias in the reference frame r (the base frame of a floating base, else the
  // world; Pinocchio's "world" convention with the base frame in place of the world): a body's
  // inertia is moved to r once, a subtree's composite is then a plain sum of 10 parameters, and
  // M(j, i) = S_j^T (Ic_i S_i) for every ancestor j of i is a 6-vector dot product with S_j in r
  // instead of carrying the force joint by joint to the root.
  const std::size_t nb = model.bodies.size();
  const std::size_t ref = detail::reference_body(model);
  forward_kinematics(model, data, q);
  detail::reference_frame_kinematics(model, data, true);
  for (std::size_t i = 1; i < nb; ++i)
    data.composite[i] = i == ref ? model.bodies[i].inertia : inertia_in_frame(model.bodies[i].inertia, data.rMi[i]);

  for (std::size_t i = nb - 1; i >= 1; --i) {
    const Body& b = model.bodies[i];
    for (int k = 0; k < b.nv; ++k) {
      const int col = b.idx_v + k;
      const auto S = data.subspace_ref.col(col);
      const Force F = data.composite[i] * Motion(S.head<3>(), S.tail<3>());
      for_each_support(model, static_cast<int>(i), [&](int j) {
        const Body& bj = model.bodies[static_cast<std::size_t>(j)];
        if (static_cast<std::size_t>(j) == ref) {  // the reference frame's own free flyer: S = identity
          for (int m = 0; m < 3; ++m) {
            data.M(bj.idx_v + m, col) = data.M(col, bj.idx_v + m) = F.linear[m];
            data.M(bj.idx_v + 3 + m, col) = data.M(col, bj.idx_v + 3 + m) = F.angular[m];
          }
          return;
        }
        for (int m = 0; m < bj.nv; ++m) {
          const auto Sj = data.subspace_ref.col(bj.idx_v + m);
          data.M(bj.idx_v + m, col) = data.M(col, bj.idx_v + m) =
              Sj.head<3>().dot(F.linear) + Sj.tail<3>().dot(F.angular);
        }
      });
    }
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
