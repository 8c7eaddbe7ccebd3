#pragma once
// Per-joint kinematics used by every recursive algorithm: the joint transform, the motion subspace S
// and its transpose. Joints here have S constant in the body frame, so there is no bias term.

#include <Eigen/Geometry>

#include "dynid/model/model.hpp"

namespace dynid::joint {

using ConstVec = Eigen::Ref<const VectorX>;

/// b.placement_at(angle) of a revolute joint. About a coordinate axis (most URDF joints) the joint
/// rotation turns two columns of the placement's rotation into each other: 12 multiplications
/// instead of Rodrigues' matrix and a 3x3 product.
inline SE3 revolute_transform(const Body& b, double angle) {
  const Vector3& a = b.axis;
  int k = -1;
  for (int c = 0; c < 3; ++c)
    if (a[c] == 1.0 || a[c] == -1.0) k = c;
  if (k < 0 || a[(k + 1) % 3] != 0.0 || a[(k + 2) % 3] != 0.0) return b.placement_at(angle);
  const double s = a[k] * std::sin(angle), c = std::cos(angle);
  const int i = (k + 1) % 3, j = (k + 2) % 3;  // about e_k: e_i -> c e_i + s e_j, e_j -> -s e_i + c e_j
  const Matrix3& Rj = b.joint_placement.rotation;
  SE3 X;
  X.rotation.col(i) = c * Rj.col(i) + s * Rj.col(j);
  X.rotation.col(j) = c * Rj.col(j) - s * Rj.col(i);
  X.rotation.col(k) = Rj.col(k);
  X.translation = b.joint_placement.translation;
  return X;
}

/// parent body frame -> body frame at configuration q (dim nq).
inline SE3 transform(const Body& b, const ConstVec& q) {
  switch (b.joint_type) {
    case JointType::Revolute:
      return revolute_transform(b, q[b.idx_q]);
    case JointType::Prismatic:
      return b.placement_at(q[b.idx_q]);
    case JointType::FreeFlyer: {
      const Eigen::Quaterniond quat(q[b.idx_q + 6], q[b.idx_q + 3], q[b.idx_q + 4], q[b.idx_q + 5]);
      const SE3 jMb(quat.toRotationMatrix(), q.segment<3>(b.idx_q));
      return b.joint_placement * jMb;
    }
  }
  return {};
}

/// S * x for the joint's slice x of a velocity-sized vector (dim nv); result in the body frame.
inline Motion motion(const Body& b, const ConstVec& x) {
  switch (b.joint_type) {
    case JointType::Revolute:
      return {Vector3::Zero(), b.axis * x[b.idx_v]};
    case JointType::Prismatic:
      return {b.axis * x[b.idx_v], Vector3::Zero()};
    case JointType::FreeFlyer:
      return {x.segment<3>(b.idx_v), x.segment<3>(b.idx_v + 3)};
  }
  return {};
}

/// Motion subspace column k (0 <= k < nv of the joint), body frame.
inline Motion subspace_column(const Body& b, int k) {
  switch (b.joint_type) {
    case JointType::Revolute:
      return {Vector3::Zero(), b.axis};
    case JointType::Prismatic:
      return {b.axis, Vector3::Zero()};
    case JointType::FreeFlyer: {
      Motion m;
      if (k < 3)
        m.linear[k] = 1.0;
      else
        m.angular[k - 3] = 1.0;
      return m;
    }
  }
  return {};
}

/// Writes S^T f (the joint's generalized force) into out[idx_v .. idx_v + nv).
template <typename Out>
inline void project_force(const Body& b, const Force& f, Out&& out) {
  switch (b.joint_type) {
    case JointType::Revolute:
      out[b.idx_v] = b.axis.dot(f.angular);
      break;
    case JointType::Prismatic:
      out[b.idx_v] = b.axis.dot(f.linear);
      break;
    case JointType::FreeFlyer:
      out.template segment<3>(b.idx_v) = f.linear;
      out.template segment<3>(b.idx_v + 3) = f.angular;
      break;
  }
}

}  // namespace dynid::joint
