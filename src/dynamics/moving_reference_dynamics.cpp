#include "dynid/dynamics/moving_reference_dynamics.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace dynid {

MovingReferenceData::MovingReferenceData(const Model& model) {
  const std::size_t nb = model.bodies.size();
  rootMi.assign(nb, SE3::Identity());
  omega.assign(nb, Vector3::Zero());
  omega_dot.assign(nb, Vector3::Zero());
  origin_specific_force.assign(nb, Vector3::Zero());
}

MovingReferenceWrench moving_reference_wrench(const Model& model, MovingReferenceData& data,
                                              const ConstVectorRef& q_joints, const ConstVectorRef& qd_joints,
                                              const ConstVectorRef& qdd_joints, const RootMotion& root) {
  if (!model.floating_base)
    throw std::invalid_argument(model.label() + ": moving-reference dynamics needs a floating base (the root moves)");
  const Eigen::Index n_joints = model.nv - 6;
  if (q_joints.size() != model.nq - 7 || qd_joints.size() != n_joints || qdd_joints.size() != n_joints)
    throw std::invalid_argument(model.label() + ": moving-reference dynamics takes " + std::to_string(n_joints) +
                                " joint positions, rates and accelerations");

  data.rootMi[1] = SE3::Identity();
  data.omega[1] = root.angular_velocity;
  data.omega_dot[1] = root.angular_acceleration;
  data.origin_specific_force[1] = root.specific_force;

  MovingReferenceWrench out;
  Vector3 force = Vector3::Zero(), moment = Vector3::Zero(), first_moment = Vector3::Zero();
  const std::size_t nb = model.bodies.size();
  for (std::size_t i = 1; i < nb; ++i) {
    const Body& b = model.bodies[i];
    if (i > 1) {
      const std::size_t p = static_cast<std::size_t>(b.parent);
      const double q = q_joints[b.idx_q - 7], qd = qd_joints[b.idx_v - 6], qdd = qdd_joints[b.idx_v - 6];
      const SE3 X = b.placement_at(q);  // parent frame -> body frame
      const Matrix3& R = X.rotation;
      const Vector3& r = X.translation;  // body origin, parent axes
      const Vector3& w_p = data.omega[p];
      const Vector3& wd_p = data.omega_dot[p];
      // Acceleration of a point fixed to the parent at the body origin (eq. 7 without mass).
      Vector3 a_origin = data.origin_specific_force[p] + wd_p.cross(r) + w_p.cross(w_p.cross(r));
      const Vector3 w_p_body = R.transpose() * w_p;
      if (b.joint_type == JointType::Revolute) {
        const Vector3 w_rel = qd * b.axis;
        data.omega[i] = w_p_body + w_rel;
        // Eq. 20: the relative derivative in the body frame adds omega_parent x qd n.
        data.omega_dot[i] = R.transpose() * wd_p + w_p_body.cross(w_rel) + qdd * b.axis;
      } else {
        // Prismatic: no relative rotation; the origin slides along the axis (Coriolis 2 w x r_dot).
        const Vector3 axis_parent = R * b.axis;
        a_origin += 2.0 * w_p.cross(qd * axis_parent) + qdd * axis_parent;
        data.omega[i] = w_p_body;
        data.omega_dot[i] = R.transpose() * wd_p;
      }
      data.origin_specific_force[i] = R.transpose() * a_origin;
      data.rootMi[i] = data.rootMi[p] * X;
    }
    // Eqs. 12 and 13 for body i in its own axes: m s_i is the first moment h, Theta the rotational
    // inertia about the body origin O_i.
    const Inertia& I = b.inertia;
    const Vector3& w = data.omega[i];
    const Vector3& wd = data.omega_dot[i];
    const Vector3& a = data.origin_specific_force[i];
    const Vector3 f_body = I.mass * a + wd.cross(I.mc) + w.cross(w.cross(I.mc));
    const Vector3 n_body = I.mc.cross(a) + I.inertia * wd + w.cross(I.inertia * w);
    const SE3& rootM = data.rootMi[i];
    const Vector3 f_root = rootM.rotation * f_body;
    force += f_root;
    moment += rootM.translation.cross(f_root) + rootM.rotation * n_body;
    first_moment += rootM.rotation * I.mc + I.mass * rootM.translation;
    out.mass += I.mass;
  }
  out.contact_wrench = Force(force, moment);
  out.com = out.mass > 0.0 ? Vector3(first_moment / out.mass) : Vector3::Zero();
  return out;
}

Force momentum_rate(const MovingReferenceWrench& wrench, const Vector3& gravity) {
  const Vector3 weight = wrench.mass * gravity;
  return {wrench.contact_wrench.linear + weight, wrench.contact_wrench.angular + wrench.com.cross(weight)};
}

Matrix3 nif_rotation(const Vector3& ground_normal_root) {
  const double norm = ground_normal_root.norm();
  if (!std::isfinite(norm) || norm < 1e-12)
    throw std::invalid_argument("ground normal must be a finite, non-zero vector");
  const Vector3 z = ground_normal_root / norm;
  Vector3 x = Vector3::UnitX() - z.x() * z;  // the root's x axis projected onto the ground plane
  if (x.norm() < 1e-6)
    throw std::invalid_argument("ground normal is along the root's x axis: no sagittal direction for the NIF");
  x.normalize();
  Matrix3 nif_R_root;  // rows: NIF axes in root coordinates
  nif_R_root.row(0) = x.transpose();
  nif_R_root.row(1) = z.cross(x).transpose();
  nif_R_root.row(2) = z.transpose();
  return nif_R_root;
}

Vector3 izmp_on_plane(const Force& contact_wrench_nif, double plane_height, double min_normal_force_n) {
  const Vector3& f = contact_wrench_nif.linear;
  const Vector3& m = contact_wrench_nif.angular;
  if (!(f.z() > min_normal_force_n)) return Vector3::Constant(std::numeric_limits<double>::quiet_NaN());
  // Moment about p = (x, y, h): m - p x f; its x and y components vanish at the IZMP.
  return {(plane_height * f.x() - m.y()) / f.z(), (plane_height * f.y() + m.x()) / f.z(), plane_height};
}

}  // namespace dynid
