#include "dynid/dynamics/jacobian.hpp"

#include "dynid/dynamics/joint_motion.hpp"
#include "dynid/model/topology.hpp"

namespace dynid {
namespace {

/// Calls fn(column index, S column as a world-frame spatial motion about the world origin) for
/// every joint column on the path from `body` to the root.
template <typename Fn>
void for_each_ancestor_column(const Model& model, const Data& data, int body, Fn&& fn) {
  for_each_support(model, body, [&](int j) {
    const Body& b = model.bodies[static_cast<std::size_t>(j)];
    for (int k = 0; k < b.nv; ++k)
      fn(b.idx_v + k, data.oMi[static_cast<std::size_t>(j)].act(joint::subspace_column(b, k)));
  });
}

}  // namespace

void frame_jacobian(const Model& model, const Data& data, int frame, ReferenceFrame reference, Eigen::Ref<Matrix6X> J) {
  J.setZero();
  const Frame& fr = model.frames[static_cast<std::size_t>(frame)];
  const SE3 oMf = data.oMi[static_cast<std::size_t>(fr.body)] * fr.placement;
  for_each_ancestor_column(model, data, fr.body, [&](int col, const Motion& S_world) {
    Motion m;
    switch (reference) {
      case ReferenceFrame::World:
        m = S_world;
        break;
      case ReferenceFrame::Local:
        m = oMf.act_inv(S_world);
        break;
      case ReferenceFrame::LocalWorldAligned:
        m = Motion(S_world.linear + S_world.angular.cross(oMf.translation), S_world.angular);
        break;
    }
    J.col(col).head<3>() = m.linear;
    J.col(col).tail<3>() = m.angular;
  });
}

void point_jacobian(const Model& model, const Data& data, int body, const Vector3& point_in_body,
                    Eigen::Ref<Eigen::Matrix<double, 3, Eigen::Dynamic>> J) {
  J.setZero();
  const Vector3 p = data.oMi[static_cast<std::size_t>(body)].act(point_in_body);
  for_each_ancestor_column(model, data, body, [&](int col, const Motion& S_world) {
    J.col(col) = S_world.linear + S_world.angular.cross(p);
  });
}

}  // namespace dynid
