#include "dynid/dynamics/crba.hpp"

#include "dynid/dynamics/joint_motion.hpp"

namespace dynid {

const MatrixX& crba(const Model& model, Data& data, const ConstVectorRef& q) {
  const std::size_t nb = model.bodies.size();
  forward_kinematics(model, data, q);
  for (std::size_t i = 1; i < nb; ++i) data.composite[i] = model.bodies[i].inertia;

  for (std::size_t i = nb - 1; i >= 1; --i) {
    const Body& b = model.bodies[i];
    // F = Ic_i S_i, carried toward the root; each ancestor j gets M(j, i) = S_j^T F.
    for (int k = 0; k < b.nv; ++k) {
      Force F = data.composite[i] * joint::subspace_column(b, k);
      const int col = b.idx_v + k;
      std::size_t j = i;
      while (true) {
        const Body& bj = model.bodies[j];
        auto column = data.M.col(col).segment(bj.idx_v, bj.nv);
        switch (bj.joint_type) {
          case JointType::Revolute:
            column(0) = bj.axis.dot(F.angular);
            break;
          case JointType::Prismatic:
            column(0) = bj.axis.dot(F.linear);
            break;
          case JointType::FreeFlyer:
            column.head<3>() = F.linear;
            column.tail<3>() = F.angular;
            break;
        }
        if (bj.parent <= 0) break;
        F = data.liMi[j].act(F);
        j = static_cast<std::size_t>(bj.parent);
      }
    }
    if (b.parent > 0) data.composite[static_cast<std::size_t>(b.parent)] += data.composite[i].transformed(data.liMi[i]);
  }
  // Only entries (ancestor row, descendant column) were written; mirror them.
  data.M.triangularView<Eigen::StrictlyLower>() = data.M.transpose().triangularView<Eigen::StrictlyLower>();
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
