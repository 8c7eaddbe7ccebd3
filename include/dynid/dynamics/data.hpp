#pragma once
// Mutable workspace the algorithms fill. Create one per Model (and per thread); its size is fixed at
// construction so algorithms running on it do not allocate.

#include <vector>

#include "dynid/model/model.hpp"

namespace dynid {

using BaseLinkRegressor = Eigen::Matrix<double, 6, Eigen::Dynamic>;

struct Data {
  explicit Data(const Model& model);

  // Per body (index as Model::bodies; entry 0 is the universe).
  std::vector<SE3> liMi;           ///< parent body frame -> body frame
  std::vector<SE3> oMi;            ///< world -> body frame (pose of the body in world)
  std::vector<SE3> rMi;            ///< body frame in the reference frame (regressor, CRBA; reference_frame.hpp)
  std::vector<Motion> v;           ///< body twist, body frame
  std::vector<Motion> a;           ///< body spatial acceleration, body frame (without gravity)
  std::vector<Motion> a_gf;        ///< spatial acceleration with the gravity offset (-g), body frame
  std::vector<Force> f;            ///< force transmitted through the body's joint, body frame
  std::vector<Inertia> composite;  ///< composite inertia of the subtree, body frame (CRBA)
  std::vector<Eigen::Matrix<double, 6, 10>> body_regressor;   ///< per body: wrench = Y pi (body frame)
  std::vector<Eigen::Matrix<double, 6, 10>> regressor_carry;  ///< per body: body_regressor in the reference frame
  Eigen::Matrix<double, 6, Eigen::Dynamic> subspace_ref;  ///< joint motion subspaces in the reference frame (6 x nv)

  VectorX tau;                                             ///< generalized forces (nv) from rnea
  MatrixX M;                                               ///< joint-space inertia matrix (nv x nv) from crba
  Eigen::Matrix<double, 6, Eigen::Dynamic> Fcrb;           ///< CRBA: column k is Ic S_k in the reference frame (6 x nv)
  MatrixX regressor;                                       ///< joint-torque regressor (nv x 10 nb)
  BaseLinkRegressor base_link_regressor;                   ///< its 6 base-link rows (floating base)
  Eigen::Matrix<double, 3, Eigen::Dynamic> com_regressor;  ///< 3 x 10 nb, see static_regressor.hpp

  Vector3 com = Vector3::Zero();               ///< centre of mass in world [m]
  Vector3 com_velocity = Vector3::Zero();      ///< [m/s] in world
  Vector3 com_acceleration = Vector3::Zero();  ///< [m/s^2] in world
  double mass = 0.0;                           ///< total mass [kg]
  std::vector<double> subtree_mass;            ///< per body
  std::vector<Vector3> subtree_mc;             ///< per body: sum m c of the subtree, body frame
  std::vector<int> subtree_v_end;              ///< per body: one past its subtree's last velocity index (CRBA)

  Force centroidal_momentum;       ///< [linear; angular] momentum about the COM, world axes
  Force centroidal_momentum_rate;  ///< its time derivative
};

}  // namespace dynid
