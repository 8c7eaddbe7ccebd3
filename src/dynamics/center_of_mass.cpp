#include "dynid/dynamics/center_of_mass.hpp"

#include <stdexcept>

#include "dynid/dynamics/joint_motion.hpp"

namespace dynid {

const Vector3& center_of_mass(const Model& model, Data& data, const ConstVectorRef& q) {
  forward_kinematics(model, data, q);
  double mass = 0.0;
  Vector3 mc = Vector3::Zero();
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const Inertia& I = model.bodies[i].inertia;
    mass += I.mass;
    mc += data.oMi[i].rotation * I.mc + I.mass * data.oMi[i].translation;
  }
  data.mass = mass;
  data.com = mass > 0.0 ? Vector3(mc / mass) : Vector3::Zero();
  return data.com;
}

const Vector3& center_of_mass(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v,
                              const ConstVectorRef& a) {
  forward_kinematics(model, data, q, v, a);
  double mass = 0.0;
  Vector3 mc = Vector3::Zero(), mcd = Vector3::Zero(), mcdd = Vector3::Zero();
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const Inertia& I = model.bodies[i].inertia;
    const SE3& oMi = data.oMi[i];
    const Motion& vi = data.v[i];
    const Motion& ai = data.a[i];
    mass += I.mass;
    mc += oMi.rotation * I.mc + I.mass * oMi.translation;
    // m * (velocity of the body's COM) = m v + w x mc, body axes.
    const Vector3 momentum = I.mass * vi.linear + vi.angular.cross(I.mc);
    mcd += oMi.rotation * momentum;
    // m * (classical acceleration of the COM) = m a + alpha x mc + w x (m v + w x mc), body axes.
    mcdd += oMi.rotation * (I.mass * ai.linear + ai.angular.cross(I.mc) + vi.angular.cross(momentum));
  }
  data.mass = mass;
  if (mass > 0.0) {
    data.com = mc / mass;
    data.com_velocity = mcd / mass;
    data.com_acceleration = mcdd / mass;
  }
  return data.com;
}

void com_jacobian(const Model& model, Data& data, Eigen::Ref<Eigen::Matrix<double, 3, Eigen::Dynamic>> J) {
  J.setZero();
  const double mass = model.total_mass();
  if (!(mass > 0.0)) return;
  // Each joint moves the COM of its subtree: column = S (world) applied at the subtree COM, times
  // the subtree mass. Subtree first moments are accumulated leaf to root in world coordinates.
  const std::size_t nb = model.bodies.size();
  std::vector<double>& m_sub = data.subtree_mass;
  std::vector<Vector3>& mc_sub = data.subtree_mc;
  for (std::size_t i = 0; i < nb; ++i) {
    const Inertia& I = model.bodies[i].inertia;
    m_sub[i] = I.mass;
    mc_sub[i] = data.oMi[i].rotation * I.mc + I.mass * data.oMi[i].translation;
  }
  for (std::size_t i = nb - 1; i >= 1; --i) {
    const std::size_t p = static_cast<std::size_t>(model.bodies[i].parent);
    m_sub[p] += m_sub[i];
    mc_sub[p] += mc_sub[i];
  }
  for (std::size_t i = 1; i < nb; ++i) {
    const Body& b = model.bodies[i];
    for (int k = 0; k < b.nv; ++k) {
      const Motion S = data.oMi[i].act(joint::subspace_column(b, k));  // world, about the origin
      // Velocity of the subtree's mass-weighted points: m v_O + w x (m c).
      J.col(b.idx_v + k) = (m_sub[i] * S.linear + S.angular.cross(mc_sub[i])) / mass;
    }
  }
}

Vector3 ground_projected_com(const Model& model, const Vector3& com_world, const Vector3& ground_point,
                             const Vector3& ground_normal) {
  const Vector3 down = model.gravity.normalized();
  const Vector3 n = ground_normal.normalized();
  const double along = n.dot(down);
  if (std::abs(along) < 1e-9) throw std::invalid_argument("ground plane is parallel to gravity");
  const double t = n.dot(ground_point - com_world) / along;
  return com_world + t * down;
}

}  // namespace dynid
