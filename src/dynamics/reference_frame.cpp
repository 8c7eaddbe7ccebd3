#include "dynid/dynamics/reference_frame.hpp"

namespace dynid::detail {

void reference_frame_kinematics(const Model& model, Data& data, bool with_subspace) {
  const std::size_t ref = reference_body(model);
  // The reference body hangs from the universe, so its pose in the world is its joint transform.
  data.rMi[0] = ref == 0 ? SE3::Identity() : data.liMi[ref].inverse();
  for (std::size_t i = 1; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    SE3& X = data.rMi[i];
    X = i == ref ? SE3::Identity() : data.rMi[static_cast<std::size_t>(b.parent)] * data.liMi[i];
    if (!with_subspace) continue;
    auto S = data.subspace_ref.middleCols(b.idx_v, b.nv);
    switch (b.joint_type) {
      case JointType::Revolute: {  // [p x axis; axis], the axis through the joint origin p
        const Vector3 axis = times(X.rotation, b.axis);
        S.col(0).head<3>() = X.translation.cross(axis);
        S.col(0).tail<3>() = axis;
        break;
      }
      case JointType::Prismatic:
        S.col(0).head<3>() = times(X.rotation, b.axis);
        S.col(0).tail<3>().setZero();
        break;
      case JointType::FreeFlyer:
        S = X.motion_matrix();
        break;
    }
  }
}

}  // namespace dynid::detail
