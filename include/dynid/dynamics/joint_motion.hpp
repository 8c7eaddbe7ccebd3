#pragma once
// Per-joint kinematics used by every recursive algorithm: the joint transform, the motion subspace S
// and its transpose. Joints here have S constant in the body frame, so there is no bias term.

#include <Eigen/Geometry>

#include "dynid/model/model.hpp"

namespace dynid::joint {

using ConstVec = Eigen::Ref<const VectorX>;

/// parent body frame -> body frame at configuration q (dim nq).
inline SE3 transform(const Body& b, const ConstVec& q) {
  switch (b.joint_type) {
    case JointType::Revolute:
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
