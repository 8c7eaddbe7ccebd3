#include "dynid/sim/simulation.hpp"

#include <mujoco/mujoco.h>

#include <Eigen/Geometry>
#include <cmath>
#include <stdexcept>

namespace dynid {

Simulation::Simulation(const Model& truth, const RobotSidecar& sidecar, const SceneSpec& scene)
    : model_(truth), mjcf_(scene_mjcf(truth, sidecar, scene)) {
  // MuJoCo 2.2 loads from files or a virtual file system; the VFS keeps the disk out of it.
  mjVFS vfs;
  mj_defaultVFS(&vfs);
  const char* name = "dynid_scene.xml";
  if (mj_makeEmptyFileVFS(&vfs, name, static_cast<int>(mjcf_.size())) != 0)
    throw std::runtime_error("MuJoCo: cannot create the in-memory model file");
  const int index = mj_findFileVFS(&vfs, name);
  std::copy(mjcf_.begin(), mjcf_.end(), static_cast<char*>(vfs.filedata[index]));
  char error[1024] = "";
  m_ = mj_loadXML(name, &vfs, error, sizeof(error));
  mj_deleteVFS(&vfs);
  if (!m_) throw std::runtime_error(std::string("MuJoCo could not compile the scene: ") + error);
  d_ = mj_makeData(m_);

  welds_ = scene.welds;
  weld_body_id_.assign(model_.bodies.size(), -1);
  for (const MjcfWeld& w : welds_) {
    const Body& b = model_.bodies.at(static_cast<std::size_t>(w.body));
    weld_body_id_[static_cast<std::size_t>(w.body)] = mj_name2id(m_, mjOBJ_BODY, b.name.c_str());
    if (weld_body_id_[static_cast<std::size_t>(w.body)] < 0)
      throw std::logic_error("MuJoCo scene lacks body '" + b.name + "'");
  }
  for (int i = 1; i < static_cast<int>(model_.bodies.size()); ++i) {
    const Body& b = model_.bodies[static_cast<std::size_t>(i)];
    if (welded(i)) continue;
    const int id = mj_name2id(m_, mjOBJ_JOINT, b.joint_name.c_str());
    if (id < 0) throw std::logic_error("MuJoCo scene lacks joint '" + b.joint_name + "'");
    joints_.push_back({i, m_->jnt_qposadr[id], m_->jnt_dofadr[id]});
  }
  geom_body_.assign(static_cast<std::size_t>(m_->ngeom), -1);
  geom_contact_.assign(static_cast<std::size_t>(m_->ngeom), -1);
  geom_plate_.assign(static_cast<std::size_t>(m_->ngeom), -1);
  for (std::size_t c = 0; c < sidecar.contacts.size(); ++c) {
    const int body = model_.frames[static_cast<std::size_t>(model_.frame_index(sidecar.contacts[c].name))].body;
    for (int k = 0;; ++k) {
      const int g = mj_name2id(m_, mjOBJ_GEOM, contact_geom_name(sidecar.contacts[c].name, k).c_str());
      if (g < 0) break;
      geom_body_[static_cast<std::size_t>(g)] = body;
      geom_contact_[static_cast<std::size_t>(g)] = static_cast<int>(c);
    }
  }
  for (std::size_t p = 0; p < scene.plates.size(); ++p) {
    const int g = mj_name2id(m_, mjOBJ_GEOM, plate_geom_name(scene.plates[p].name).c_str());
    geom_plate_[static_cast<std::size_t>(g)] = static_cast<int>(p);
    plate_origin_.push_back(scene.plates[p].top_center_world);
  }
  q_ = model_.neutral_configuration();
  for (const MjcfWeld& w : welds_) q_[model_.bodies[static_cast<std::size_t>(w.body)].idx_q] = w.position;
  v_ = VectorX::Zero(model_.nv);
  a_ = VectorX::Zero(model_.nv);
  link_tau_ = VectorX::Zero(model_.nv);
  armature_ = joint_armature(model_, sidecar);
  viscous_ = scene.joint_viscous;
  coulomb_ = scene.joint_coulomb;
  viscous_.resize(model_.bodies.size(), 0.0);
  coulomb_.resize(model_.bodies.size(), 0.0);
  coulomb_velocity_ = scene.joint_coulomb_smoothing_velocity;
  friction_tau_ = VectorX::Zero(model_.nv);
  body_wrench_world_.assign(model_.bodies.size(), Force::Zero());
  contact_wrench_world_.assign(sidecar.contacts.size(), Force::Zero());
  plate_wrench_.assign(scene.plates.size(), Force::Zero());
  set_state(q_, v_);
}

Simulation::~Simulation() {
  if (d_) mj_deleteData(d_);
  if (m_) mj_deleteModel(m_);
}

double Simulation::time() const { return d_->time; }
double Simulation::timestep() const { return m_->opt.timestep; }

void Simulation::set_state(const VectorX& q, const VectorX& v) {
  for (const JointAddress& j : joints_) {
    const Body& b = model_.bodies[static_cast<std::size_t>(j.body)];
    if (b.joint_type == JointType::FreeFlyer) {
      const Eigen::Quaterniond quat(q[b.idx_q + 6], q[b.idx_q + 3], q[b.idx_q + 4], q[b.idx_q + 5]);
      const Matrix3 R = quat.toRotationMatrix();
      for (int k = 0; k < 3; ++k) d_->qpos[j.qadr + k] = q[b.idx_q + k];
      d_->qpos[j.qadr + 3] = quat.w();
      d_->qpos[j.qadr + 4] = quat.x();
      d_->qpos[j.qadr + 5] = quat.y();
      d_->qpos[j.qadr + 6] = quat.z();
      // MuJoCo: linear velocity in world axes, angular in the body frame.
      const Vector3 lin_world = R * v.segment<3>(b.idx_v);
      for (int k = 0; k < 3; ++k) {
        d_->qvel[j.dadr + k] = lin_world[k];
        d_->qvel[j.dadr + 3 + k] = v[b.idx_v + 3 + k];
      }
    } else {
      d_->qpos[j.qadr] = q[b.idx_q];
      d_->qvel[j.dadr] = v[b.idx_v];
    }
  }
  read_state();
}

void Simulation::read_state() {
  for (const JointAddress& j : joints_) {
    const Body& b = model_.bodies[static_cast<std::size_t>(j.body)];
    if (b.joint_type == JointType::FreeFlyer) {
      Eigen::Quaterniond quat(d_->qpos[j.qadr + 3], d_->qpos[j.qadr + 4], d_->qpos[j.qadr + 5], d_->qpos[j.qadr + 6]);
      quat.normalize();
      const Matrix3 R = quat.toRotationMatrix();
      for (int k = 0; k < 3; ++k) q_[b.idx_q + k] = d_->qpos[j.qadr + k];
      q_.segment<4>(b.idx_q + 3) = quat.coeffs();
      const Vector3 lin_world(d_->qvel[j.dadr], d_->qvel[j.dadr + 1], d_->qvel[j.dadr + 2]);
      v_.segment<3>(b.idx_v) = R.transpose() * lin_world;
      for (int k = 0; k < 3; ++k) v_[b.idx_v + 3 + k] = d_->qvel[j.dadr + 3 + k];
    } else {
      q_[b.idx_q] = d_->qpos[j.qadr];
      v_[b.idx_v] = d_->qvel[j.dadr];
    }
  }
}

void Simulation::forward(const VectorX& tau) {
  mju_zero(d_->qfrc_applied, m_->nv);
  for (const JointAddress& j : joints_) {
    const Body& b = model_.bodies[static_cast<std::size_t>(j.body)];
    if (b.joint_type == JointType::FreeFlyer) continue;
    // The joint's own friction, at the velocity the step starts with (the encoders' period-before
    // velocity): what a motor-side torque measurement includes and the links do not get.
    const std::size_t body = static_cast<std::size_t>(j.body);
    const double v = v_[b.idx_v];
    friction_tau_[b.idx_v] =
        viscous_[body] * v +
        (coulomb_[body] != 0.0
             ? coulomb_[body] * (coulomb_velocity_ > 0.0 ? std::tanh(v / coulomb_velocity_) : (v > 0.0) - (v < 0.0))
             : 0.0);
    d_->qfrc_applied[j.dadr] = tau[b.idx_v] - friction_tau_[b.idx_v];
  }
  mj_forward(m_, d_);
  // The acceleration the step will make: mj_Euler integrates joint damping implicitly,
  // (M + h diag(D)) qacc' = qfrc_smooth + qfrc_constraint, so the damping it applies is -D v_{k+1}
  // (not the -D v_k of qfrc_passive) and the velocity change is h qacc', not h qacc. Everything
  // recorded at this state (truth a, link torques, accelerometers) uses qacc', the motion the
  // encoders see; the two differ only at damped joints and through the mass matrix's coupling.
  const int nv = m_->nv;
  qacc_step_.resize(nv);
  bool damped = false;
  for (int i = 0; i < nv; ++i) damped = damped || m_->dof_damping[i] > 0.0;
  for (int i = 0; i < nv; ++i) qacc_step_[i] = d_->qacc[i];
  if (damped) {
    Eigen::Matrix<mjtNum, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> M(nv, nv);
    mj_fullM(m_, M.data(), d_->qM);
    Eigen::VectorXd rhs(nv);
    for (int i = 0; i < nv; ++i) {
      M(i, i) += m_->opt.timestep * m_->dof_damping[i];
      rhs[i] = d_->qfrc_smooth[i] + d_->qfrc_constraint[i];
    }
    qacc_step_ = Eigen::MatrixXd(M).ldlt().solve(rhs);
  }
  if (!welds_.empty()) read_weld_torques();

  for (const JointAddress& j : joints_) {
    const Body& b = model_.bodies[static_cast<std::size_t>(j.body)];
    if (b.joint_type == JointType::FreeFlyer) {
      const Vector3 w = v_.segment<3>(b.idx_v + 3), lin = v_.segment<3>(b.idx_v);
      const Eigen::Quaterniond quat(q_[b.idx_q + 6], q_[b.idx_q + 3], q_[b.idx_q + 4], q_[b.idx_q + 5]);
      const Vector3 p_ddot(qacc_step_[j.dadr], qacc_step_[j.dadr + 1], qacc_step_[j.dadr + 2]);
      // Classical acceleration of the base origin -> spatial acceleration in the base frame.
      a_.segment<3>(b.idx_v) = quat.toRotationMatrix().transpose() * p_ddot - w.cross(lin);
      for (int k = 0; k < 3; ++k) a_[b.idx_v + 3 + k] = qacc_step_[j.dadr + 3 + k];
    } else {
      a_[b.idx_v] = qacc_step_[j.dadr];
      // Passive forces act on the links too: qfrc_passive's -D v_k, made -D v_{k+1} = -D (v_k + h a)
      // by the implicit step; the rotor's inertia (armature) takes its share of the acceleration.
      link_tau_[b.idx_v] = tau[b.idx_v] - friction_tau_[b.idx_v] + d_->qfrc_passive[j.dadr] -
                           m_->opt.timestep * m_->dof_damping[j.dadr] * a_[b.idx_v] -
                           armature_[static_cast<std::size_t>(j.body)] * a_[b.idx_v];
    }
  }

  std::fill(body_wrench_world_.begin(), body_wrench_world_.end(), Force::Zero());
  std::fill(contact_wrench_world_.begin(), contact_wrench_world_.end(), Force::Zero());
  std::fill(plate_wrench_.begin(), plate_wrench_.end(), Force::Zero());
  active_contacts_ = 0;
  for (int i = 0; i < d_->ncon; ++i) {
    const mjContact& c = d_->contact[i];
    if (c.exclude != 0 || c.efc_address < 0) continue;
    mjtNum local[6];
    mj_contactForce(m_, d_, i, local);
    // Contact frame rows: normal (from geom1 to geom2), then two tangents; the force acts on geom2.
    // condim 4 and 6 add torques: torsional friction about the normal, then rolling about the tangents.
    Vector3 f_on_geom2 = Vector3::Zero(), torque_on_geom2 = Vector3::Zero();
    for (int k = 0; k < 3; ++k) {
      const Vector3 axis(c.frame[3 * k], c.frame[3 * k + 1], c.frame[3 * k + 2]);
      f_on_geom2 += local[k] * axis;
      if (k < c.dim - 3) torque_on_geom2 += local[3 + k] * axis;
    }
    const Vector3 point(c.pos[0], c.pos[1], c.pos[2]);
    ++active_contacts_;
    for (int side = 0; side < 2; ++side) {
      const int geom = side == 0 ? c.geom1 : c.geom2;
      const Vector3 f = side == 0 ? Vector3(-f_on_geom2) : f_on_geom2;
      const Vector3 torque = side == 0 ? Vector3(-torque_on_geom2) : torque_on_geom2;
      const Force wrench_world(f, point.cross(f) + torque);
      const int body = geom_body_[static_cast<std::size_t>(geom)];
      if (body >= 0) body_wrench_world_[static_cast<std::size_t>(body)] += wrench_world;
      const int contact = geom_contact_[static_cast<std::size_t>(geom)];
      if (contact >= 0) contact_wrench_world_[static_cast<std::size_t>(contact)] += wrench_world;
      const int plate = geom_plate_[static_cast<std::size_t>(geom)];
      if (plate >= 0) {
        const Vector3 r = point - plate_origin_[static_cast<std::size_t>(plate)];
        plate_wrench_[static_cast<std::size_t>(plate)] += Force(f, r.cross(f) + torque);
      }
    }
  }
}

void Simulation::read_weld_torques() {
  // cfrc_int: the wrench the parent applies to a body's subtree ([torque; force], world axes, about
  // the subtree COM of the kinematic root), gravity, accelerations and contacts included. Its
  // component along the joint axis is what a joint torque sensor in the weld reads, the same
  // quantity rnea returns for that joint; for a revolute joint taken about the joint origin, which
  // is the body origin of dynid and of the exported MJCF.
  // With the step's acceleration (qacc' of forward()): what the weld carries while the motion the
  // encoders see happens. qacc is restored: the next step's warm start is MuJoCo's own.
  Eigen::VectorXd qacc_mujoco(m_->nv);
  for (int i = 0; i < m_->nv; ++i) {
    qacc_mujoco[i] = d_->qacc[i];
    d_->qacc[i] = qacc_step_[i];
  }
  mj_rnePostConstraint(m_, d_);
  for (int i = 0; i < m_->nv; ++i) d_->qacc[i] = qacc_mujoco[i];
  for (const MjcfWeld& w : welds_) {
    const Body& b = model_.bodies[static_cast<std::size_t>(w.body)];
    const int id = weld_body_id_[static_cast<std::size_t>(w.body)];
    const mjtNum* c = d_->cfrc_int + 6 * id;
    const mjtNum* center = d_->subtree_com + 3 * m_->body_rootid[id];
    const Vector3 torque(c[0], c[1], c[2]), force(c[3], c[4], c[5]);
    Matrix3 R;  // body -> world; MuJoCo's xmat is row-major
    for (int r = 0; r < 3; ++r)
      for (int k = 0; k < 3; ++k) R(r, k) = d_->xmat[9 * id + 3 * r + k];
    const Vector3 axis_world = R * b.axis;
    const Vector3 origin(d_->xpos[3 * id], d_->xpos[3 * id + 1], d_->xpos[3 * id + 2]);
    const Vector3 center_world(center[0], center[1], center[2]);
    link_tau_[b.idx_v] = b.joint_type == JointType::Prismatic
                             ? axis_world.dot(force)
                             : axis_world.dot(torque + (center_world - origin).cross(force));
  }
}

void Simulation::integrate() {
  mj_Euler(m_, d_);
  read_state();
}

}  // namespace dynid
