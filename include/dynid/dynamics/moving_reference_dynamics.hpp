#pragma once
// Newton-Euler equations about a moving reference point (MR-AD, paper 001: Giessler & Waltersberger
// 2023, eqs. 12-20), and the imaginary ZMP on the ground plane (eq. 22).
//
// The reference point P is the origin of the root (base) body frame. Everything the algorithm needs
// is what a walking robot measures on board: the joint positions, rates and accelerations (encoders
// differentiated in the actuator controllers), the root's angular velocity (gyro) and angular
// acceleration, and the specific force of P (accelerometer, moved to P). No base position, no base
// linear velocity: they cancel from the equations (eq. 11).
//
// Results are in the root frame's axes; nif_rotation() turns them into the non-inertial frame (NIF)
// of the paper: origin P, z along the ground normal, x the root's forward axis projected onto the
// ground plane (the sagittal direction).
//
// Real-time safe: no allocation. Fixed-base models are refused (std::invalid_argument).

#include <vector>

#include "dynid/dynamics/kinematics.hpp"

namespace dynid {

/// Workspace of moving_reference_wrench, per body (index as Model::bodies), without any world pose.
/// Create one per Model (and per thread); sized at construction, so the algorithm does not allocate.
struct MovingReferenceData {
  explicit MovingReferenceData(const Model& model);
  std::vector<SE3> rootMi;                     ///< root body frame -> body frame
  std::vector<Vector3> omega;                  ///< angular velocity [rad/s], body axes
  std::vector<Vector3> omega_dot;              ///< angular acceleration [rad/s^2], body axes
  std::vector<Vector3> origin_specific_force;  ///< acceleration of the body origin minus g [m/s^2], body axes
};

/// The root body's motion as the robot measures it, root axes.
struct RootMotion {
  Vector3 angular_velocity = Vector3::Zero();      ///< omega [rad/s]
  Vector3 angular_acceleration = Vector3::Zero();  ///< omega_dot [rad/s^2]
  /// Specific force of the reference point: its acceleration minus gravity [m/s^2] (what an
  /// accelerometer at P reads). With it the wrench below is the external wrench without gravity.
  Vector3 specific_force = Vector3::Zero();
};

/// Net external wrench on the robot other than gravity (the contact wrench when only the ground
/// touches it), and the robot's COM, about the moving reference point P.
struct MovingReferenceWrench {
  Force contact_wrench = Force::Zero();  ///< [force; torque about P] [N, N m], root axes
  Vector3 com = Vector3::Zero();         ///< COM relative to P [m], root axes
  double mass = 0.0;                     ///< [kg]
};

/// MR-AD: eqs. 12-13 summed over the bodies, with the relative-derivative recursion of eqs. 19-20
/// for the bodies' angular accelerations. q_joints, qd_joints, qdd_joints: the joint coordinates
/// after the free-flyer's (sizes nq - 7 and nv - 6, model order) [rad, rad/s, rad/s^2 or m ...].
/// Leaves every body's rootMi, omega, omega_dot and origin_specific_force in `data`.
MovingReferenceWrench moving_reference_wrench(const Model& model, MovingReferenceData& data,
                                              const ConstVectorRef& q_joints, const ConstVectorRef& qd_joints,
                                              const ConstVectorRef& qdd_joints, const RootMotion& root);

/// Rate of the robot's momentum about P: [dP/dt; dL^(P)/dt] = contact wrench + gravity's wrench
/// [m g; c x m g] (eqs. 12-13), in the axes of `wrench`. gravity: in the same axes [m/s^2] (for a
/// robot: the IMU's orientation estimate).
Force momentum_rate(const MovingReferenceWrench& wrench, const Vector3& gravity);

/// Rotation from root axes to NIF axes: z along `ground_normal_root` (unit or not; root axes), x the
/// root's x axis projected onto the ground plane. Throws std::invalid_argument when the normal is
/// zero, not finite, or parallel to the root's x axis (no sagittal direction).
Matrix3 nif_rotation(const Vector3& ground_normal_root);

/// The imaginary ZMP (eq. 22): the point of the plane z = plane_height (NIF coordinates, the ground
/// below P, so usually negative) about which the contact wrench has no moment parallel to the plane.
/// contact_wrench_nif: [force; torque about P], NIF axes. NaN when the normal force is below
/// min_normal_force_n (the robot is not pushing on the ground).
Vector3 izmp_on_plane(const Force& contact_wrench_nif, double plane_height, double min_normal_force_n = 1e-6);

/// Position of a frame relative to P [m], root axes (after moving_reference_wrench).
inline Vector3 frame_position_in_root(const Model& model, const MovingReferenceData& data, int frame) {
  const Frame& fr = model.frames[static_cast<std::size_t>(frame)];
  return data.rootMi[static_cast<std::size_t>(fr.body)].act(fr.placement.translation);
}

/// Orientation of a frame in root axes (frame axes -> root axes; after moving_reference_wrench).
inline Matrix3 frame_rotation_in_root(const Model& model, const MovingReferenceData& data, int frame) {
  const Frame& fr = model.frames[static_cast<std::size_t>(frame)];
  return data.rootMi[static_cast<std::size_t>(fr.body)].rotation * fr.placement.rotation;
}

}  // namespace dynid
