#include "dynid/dynamics/data.hpp"

namespace dynid {

Data::Data(const Model& model) {
  const std::size_t nb = model.bodies.size();
  liMi.assign(nb, SE3::Identity());
  oMi.assign(nb, SE3::Identity());
  rMi.assign(nb, SE3::Identity());
  v.assign(nb, Motion::Zero());
  a.assign(nb, Motion::Zero());
  a_gf.assign(nb, Motion::Zero());
  f.assign(nb, Force::Zero());
  composite.assign(nb, Inertia::Zero());
  body_regressor.assign(nb, Eigen::Matrix<double, 6, 10>::Zero());
  regressor_carry.assign(nb, Eigen::Matrix<double, 6, 10>::Zero());
  subspace_ref = Eigen::Matrix<double, 6, Eigen::Dynamic>::Zero(6, model.nv);
  tau = VectorX::Zero(model.nv);
  M = MatrixX::Zero(model.nv, model.nv);
  Fcrb = Eigen::Matrix<double, 6, Eigen::Dynamic>::Zero(6, model.nv);
  regressor = MatrixX::Zero(model.nv, 10 * model.num_moving_bodies());
  base_link_regressor = BaseLinkRegressor::Zero(6, 10 * model.num_moving_bodies());
  com_regressor = Eigen::Matrix<double, 3, Eigen::Dynamic>::Zero(3, 10 * model.num_moving_bodies());
  subtree_mass.assign(nb, 0.0);
  subtree_mc.assign(nb, Vector3::Zero());
  subtree_v_end.assign(nb, 0);
}

}  // namespace dynid
