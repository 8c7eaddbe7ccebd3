#include "dynid/pipeline/dynamics_at_state.hpp"

#include <stdexcept>

#include "dynid/dynamics/center_of_mass.hpp"
#include "dynid/dynamics/crba.hpp"
#include "dynid/dynamics/regressor.hpp"
#include "dynid/dynamics/rnea.hpp"

namespace dynid {

QuantityTable compute_quantity(Model& model, const RobotState& s, const std::string& quantity) {
  model.gravity = s.gravity;
  Data data(model);
  QuantityTable t;
  if (quantity == "rnea") {
    t.rows = model.velocity_names();
    t.cols = {"tau"};
    t.values = rnea(model, data, s.q, s.v, s.a);
  } else if (quantity == "regressor") {
    t.rows = model.velocity_names();
    t.cols = model.parameter_names();
    t.values = joint_torque_regressor(model, data, s.q, s.v, s.a);
  } else if (quantity == "mass-matrix") {
    t.rows = model.velocity_names();
    t.cols = t.rows;
    t.values = crba(model, data, s.q);
  } else if (quantity == "com") {
    center_of_mass(model, data, s.q, s.v, s.a);
    t.rows = {"x", "y", "z"};
    t.cols = {"com", "com_velocity", "com_acceleration", "gcom"};
    t.values.resize(3, 4);
    t.values << data.com, data.com_velocity, data.com_acceleration, ground_projected_com(model, data.com);
  } else {
    throw std::invalid_argument("unknown quantity '" + quantity + "' (rnea, regressor, com, mass-matrix)");
  }
  return t;
}

nlohmann::json quantity_table_json(const QuantityTable& t) {
  using json = nlohmann::json;
  json values = json::array();
  for (Eigen::Index r = 0; r < t.values.rows(); ++r) {
    json row = json::array();
    for (Eigen::Index c = 0; c < t.values.cols(); ++c) row.push_back(t.values(r, c));
    values.push_back(row);
  }
  return json{{"rows", t.rows}, {"cols", t.cols}, {"values", values}};
}

}  // namespace dynid
