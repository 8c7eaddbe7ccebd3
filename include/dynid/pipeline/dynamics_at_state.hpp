#pragma once
// `dynid compute`: one dynamics quantity of a robot at one state (rnea, regressor, com,
// mass-matrix), as a table with named rows and columns; its JSON is the command-line contract's
// {"rows": [names], "cols": [names], "values": [[...]]}.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "dynid/io/state_json.hpp"

namespace dynid {

/// Values with the names of their rows and columns.
struct QuantityTable {
  std::vector<std::string> rows, cols;
  MatrixX values;
};

/// Evaluates `quantity` at `state` (the model takes the state's gravity). Throws
/// std::invalid_argument naming the known quantities for any other.
QuantityTable compute_quantity(Model& model, const RobotState& state, const std::string& quantity);

nlohmann::json quantity_table_json(const QuantityTable& table);

}  // namespace dynid
