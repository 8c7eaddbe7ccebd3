#pragma once
// dynid's RNEA, mass matrix and centre of mass against MuJoCo's (mj_rne, mj_fullM, subtree_com) at a
// dynid state mapped into MuJoCo's coordinates: two independent implementations. Joints are matched
// by name, so any dynid model whose joints MuJoCo knows can be compared (an exported model, or one
// read from MJCF).

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "dynid/dynamics/center_of_mass.hpp"
#include "dynid/dynamics/crba.hpp"
#include "dynid/dynamics/rnea.hpp"
#include "support/test_models.hpp"

namespace dynid::test {

/// Maps a dynid state into MuJoCo's coordinates and compares the three quantities.
class MujocoComparison {
 public:
  MujocoComparison(const Model& model, const mjModel* m) : model_(model), m_(m), d_(mj_makeData(m)) {
    for (std::size_t i = 1; i < model.bodies.size(); ++i) {
      const Body& b = model.bodies[i];
      const int id = mj_name2id(m, mjOBJ_JOINT, b.joint_name.c_str());
      if (id < 0) {
        ADD_FAILURE() << "MuJoCo model has no joint '" << b.joint_name << "'";
        continue;
      }
      qpos_adr_.push_back({&b, m->jnt_qposadr[id], m->jnt_dofadr[id]});
    }
    EXPECT_EQ(m->nv, model.nv);
  }

  void compare(const State& s, double tol, bool check_com) {
    const int nv = model_.nv;
    // T maps dynid velocities to MuJoCo's: free-joint linear velocity is in world axes there.
    MatrixX T = MatrixX::Zero(nv, nv);
    for (const auto& j : qpos_adr_) {
      const Body& b = *j.body;
      if (b.joint_type == JointType::FreeFlyer) {
        const Eigen::Quaterniond quat(s.q[b.idx_q + 6], s.q[b.idx_q + 3], s.q[b.idx_q + 4], s.q[b.idx_q + 5]);
        const Matrix3 R = quat.toRotationMatrix();
        for (int k = 0; k < 3; ++k) d_->qpos[j.qadr + k] = s.q[b.idx_q + k];
        d_->qpos[j.qadr + 3] = quat.w();
        d_->qpos[j.qadr + 4] = quat.x();
        d_->qpos[j.qadr + 5] = quat.y();
        d_->qpos[j.qadr + 6] = quat.z();
        T.block<3, 3>(j.dadr, b.idx_v) = R;
        T.block<3, 3>(j.dadr + 3, b.idx_v + 3).setIdentity();
      } else {
        d_->qpos[j.qadr] = s.q[b.idx_q];
        T(j.dadr, b.idx_v) = 1.0;
      }
    }
    // MuJoCo's free-joint qacc is the classical acceleration of the origin in world axes:
    // p_ddot = R (a_lin + w x v_lin) (the spatial-to-classical term).
    VectorX qvel = T * s.v, qacc = T * s.a;
    for (const auto& j : qpos_adr_) {
      const Body& b = *j.body;
      if (b.joint_type != JointType::FreeFlyer) continue;
      const Vector3 w = s.v.segment<3>(b.idx_v + 3), vl = s.v.segment<3>(b.idx_v);
      qacc.segment<3>(j.dadr) += T.block<3, 3>(j.dadr, b.idx_v) * w.cross(vl);
    }
    for (int i = 0; i < nv; ++i) d_->qvel[i] = qvel[i];
    mj_forward(m_, d_.get());
    for (int i = 0; i < nv; ++i) d_->qacc[i] = qacc[i];
    VectorX tau_mj(nv);
    mj_rne(m_, d_.get(), 1, tau_mj.data());
    MatrixX M_mj(nv, nv);
    mj_fullM(m_, M_mj.data(), d_->qM);  // row-major in MuJoCo; symmetric, so layout does not matter

    Data data(model_);
    const VectorX tau = rnea(model_, data, s.q, s.v, s.a);
    // Generalized forces are dual to velocities: tau_dynid = T^T tau_mujoco.
    const VectorX tau_from_mj = T.transpose() * tau_mj;
    EXPECT_LT(relative_error(tau, tau_from_mj), tol) << "rnea\n" << tau.transpose() << "\n" << tau_from_mj.transpose();
    const MatrixX M = crba(model_, data, s.q);
    EXPECT_LT(relative_error(M, T.transpose() * M_mj * T), tol) << "mass matrix";
    if (check_com) {
      center_of_mass(model_, data, s.q);
      const Vector3 com_mj(d_->subtree_com[0], d_->subtree_com[1], d_->subtree_com[2]);
      EXPECT_LT((data.com - com_mj).norm() / std::max(1.0, com_mj.norm()), tol) << "com";
    }
  }

 private:
  struct JointAddress {
    const Body* body;
    int qadr, dadr;
  };
  const Model& model_;
  const mjModel* m_;
  MjDataPtr d_;
  std::vector<JointAddress> qpos_adr_;
};

}  // namespace dynid::test
