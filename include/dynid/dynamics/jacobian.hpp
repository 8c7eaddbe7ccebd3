#pragma once
// Frame Jacobians: the twist of a frame is J(q) v. Rows [linear; angular], columns nv.

#include "dynid/dynamics/kinematics.hpp"

namespace dynid {

using Matrix6X = Eigen::Matrix<double, 6, Eigen::Dynamic>;

enum class ReferenceFrame {
  Local,              ///< frame's own axes, velocity of its origin (body twist)
  LocalWorldAligned,  ///< world axes, velocity of the frame origin (what contacts and markers use)
  World,              ///< world axes, velocity of the point at the world origin (spatial twist)
};

/// Jacobian of a model frame. Call forward_kinematics(q) first. J must be 6 x nv; it is overwritten.
/// Real-time safe: no allocation.
void frame_jacobian(const Model& model, const Data& data, int frame, ReferenceFrame reference, Eigen::Ref<Matrix6X> J);

/// Jacobian of a point fixed on `body` (body coordinates `point_in_body`), world axes: 3 x nv,
/// linear velocity of that point. Call forward_kinematics(q) first.
void point_jacobian(const Model& model, const Data& data, int body, const Vector3& point_in_body,
                    Eigen::Ref<Eigen::Matrix<double, 3, Eigen::Dynamic>> J);

}  // namespace dynid
