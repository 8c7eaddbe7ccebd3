#include "dynid/dynamics/static_regressor.hpp"

namespace dynid {

const Eigen::Matrix<double, 3, Eigen::Dynamic>& com_regressor(const Model& model, Data& data, const ConstVectorRef& q) {
  forward_kinematics(model, data, q);
  for (std::size_t i = 1; i < model.bodies.size(); ++i) {
    const Eigen::Index col = 10 * static_cast<Eigen::Index>(i - 1);
    // m c_world = m p_i + R_i (m c): column m gets p_i, columns m c get R_i.
    data.com_regressor.col(col) = data.oMi[i].translation;
    data.com_regressor.block<3, 3>(0, col + 1) = data.oMi[i].rotation;
  }
  return data.com_regressor;
}

}  // namespace dynid
