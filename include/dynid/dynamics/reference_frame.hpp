#pragma once
// One frame for a whole recursion: the joint-torque regressor and CRBA express every body's
// quantities in the reference frame r (the base body's frame of a floating base, else the world),
// so that projecting a body's wrench on any of its ancestors' joints is a dot product with that
// joint's motion subspace in r, instead of carrying the wrench joint by joint to the root.
// Real-time safe.

#include "dynid/dynamics/data.hpp"

namespace dynid::detail {

/// Body whose frame is the reference frame: 1 for a floating base (its free-flyer body), else 0.
inline std::size_t reference_body(const Model& model) {
  return model.bodies.size() > 1 && model.bodies[1].joint_type == JointType::FreeFlyer ? 1 : 0;
}

/// After the joint transforms (data.liMi): every body's pose in the reference frame
/// (data.rMi) and, when `with_subspace`, every joint's motion subspace in it (data.subspace_ref,
/// 6 x nv; the reference body's own free flyer is the identity there).
void reference_frame_kinematics(const Model& model, Data& data, bool with_subspace);

}  // namespace dynid::detail
