#pragma once
// Rigid-body inertia expressed in a body frame, stored as its 10 inertial parameters:
//   mass m, first moment h = m c, rotational inertia I about the frame origin (frame axes).
// This form is additive (two rigidly joined bodies: add the members) and linear in the
// identification parameters (Pinocchio order, about the frame origin, in the frame's axes):
//   pi = [m, m c_x, m c_y, m c_z, I_xx, I_xy, I_yy, I_xz, I_yz, I_zz].

#include <string>

#include "dynid/spatial/se3.hpp"

namespace dynid {

using Vector10 = Eigen::Matrix<double, 10, 1>;
using Matrix4 = Eigen::Matrix4d;

struct Inertia {
  double mass = 0.0;                  ///< [kg]
  Vector3 mc = Vector3::Zero();       ///< first moment m c [kg m]
  Matrix3 inertia = Matrix3::Zero();  ///< rotational inertia about the frame origin [kg m^2]

  Inertia() = default;
  static Inertia Zero() { return {}; }
  /// From mass, COM (frame coordinates, m) and rotational inertia about the COM (frame axes).
  static Inertia from_com(double m, const Vector3& com, const Matrix3& inertia_about_com) {
    Inertia out;
    out.mass = m;
    out.mc = m * com;
    out.inertia = inertia_about_com - m * skew(com) * skew(com);
    return out;
  }

  /// Centre of mass [m]; zero for a massless body.
  Vector3 com() const { return mass > 0.0 ? Vector3(mc / mass) : Vector3::Zero(); }
  /// Rotational inertia about the COM, frame axes.
  Matrix3 inertia_com() const {
    if (!(mass > 0.0)) return inertia;
    return inertia + skew(mc) * skew(mc) / mass;
  }

  Vector10 to_parameters() const {
    Vector10 pi;
    pi << mass, mc, inertia(0, 0), inertia(0, 1), inertia(1, 1), inertia(0, 2), inertia(1, 2), inertia(2, 2);
    return pi;
  }
  static Inertia from_parameters(const Vector10& pi) {
    Inertia out;
    out.mass = pi[0];
    out.mc = pi.segment<3>(1);
    out.inertia << pi[4], pi[5], pi[7], pi[5], pi[6], pi[8], pi[7], pi[8], pi[9];
    return out;
  }

  /// Spatial momentum of the body moving with twist v (both in this frame).
  Force operator*(const Motion& v) const {
    return {mass * v.linear - mc.cross(v.angular), times(inertia, v.angular) + mc.cross(v.linear)};
  }

  /// 6x6 spatial inertia matrix (maps [linear; angular] velocity to [linear; angular] momentum).
  Matrix6 matrix() const {
    Matrix6 M;
    M.topLeftCorner<3, 3>() = mass * Matrix3::Identity();
    M.topRightCorner<3, 3>() = -skew(mc);
    M.bottomLeftCorner<3, 3>() = skew(mc);
    M.bottomRightCorner<3, 3>() = inertia;
    return M;
  }

  /// Same body expressed in frame a, given aMb where this inertia is expressed in b.
  Inertia transformed(const SE3& aMb) const {
    Inertia out;
    out.mass = mass;
    const Vector3& p = aMb.translation;
    out.mc = aMb.rotation * mc + mass * p;
    // Parallel axis from b's origin p to a's origin, without dividing by the mass:
    // I_a = R I_b R^T - [h'][p] - [p][h'] + m [p]^2, h' the first moment in a.
    const Matrix3 P = skew(p);
    const Matrix3 H = skew(out.mc);
    out.inertia = aMb.rotation * inertia * aMb.rotation.transpose() - H * P - P * H + mass * P * P;
    return out;
  }

  Inertia operator+(const Inertia& o) const {
    Inertia out;
    out.mass = mass + o.mass;
    out.mc = mc + o.mc;
    out.inertia = inertia + o.inertia;
    return out;
  }
  Inertia& operator+=(const Inertia& o) {
    mass += o.mass;
    mc += o.mc;
    inertia += o.inertia;
    return *this;
  }
  Inertia operator-(const Inertia& o) const {
    Inertia out;
    out.mass = mass - o.mass;
    out.mc = mc - o.mc;
    out.inertia = inertia - o.inertia;
    return out;
  }

  /// Pseudo-inertia J = [[Sigma, h], [h^T, m]], Sigma = tr(I)/2 * 1 - I (Wensing, Kim, Slotine 2017);
  /// the parameters belong to a real rigid body iff J is positive definite.
  Matrix4 pseudo_inertia() const {
    Matrix4 J;
    J.topLeftCorner<3, 3>() = 0.5 * inertia.trace() * Matrix3::Identity() - inertia;
    J.topRightCorner<3, 1>() = mc;
    J.bottomLeftCorner<1, 3>() = mc.transpose();
    J(3, 3) = mass;
    return J;
  }
};

/// Result of the per-link physical-consistency test.
struct ConsistencyReport {
  bool consistent = true;
  std::string reason;  ///< empty when consistent; otherwise what fails, in words
};

/// Checks mass > 0, principal moments at the COM > 0 and the strict triangle inequality
/// (each principal moment < sum of the other two). `tolerance` is relative to the largest moment.
ConsistencyReport check_physical_consistency(const Inertia& inertia, double tolerance = 1e-12);

}  // namespace dynid
