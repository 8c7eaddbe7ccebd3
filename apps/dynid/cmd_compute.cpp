// dynid compute MODEL --state STATE.json --quantity rnea|regressor|com|mass-matrix [--json]

#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "dynid/dynamics/center_of_mass.hpp"
#include "dynid/dynamics/crba.hpp"
#include "dynid/dynamics/regressor.hpp"
#include "dynid/dynamics/rnea.hpp"
#include "dynid/io/state_json.hpp"
#include "dynid/model/robot.hpp"

namespace dynid::cli {
namespace {

using json = nlohmann::json;

struct Table {
  std::vector<std::string> rows, cols;
  MatrixX values;
};

Table compute(Model& model, const RobotState& s, const std::string& quantity) {
  model.gravity = s.gravity;
  Data data(model);
  Table t;
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

}  // namespace

void register_compute(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("compute", "Evaluate dynamics at one state: rnea, regressor, com or mass-matrix");
  struct Args {
    std::string model, state, quantity;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  cmd->add_option("MODEL", args->model, "URDF file or bundled robot name")->required();
  cmd->add_option("--state", args->state, "State JSON (docs/cli.md)")->required();
  cmd->add_option("--quantity", args->quantity, "rnea | regressor | com | mass-matrix")
      ->required()
      ->check(CLI::IsMember({"rnea", "regressor", "com", "mass-matrix"}));
  cmd->add_flag("--json", args->json, "Print JSON {rows, cols, values}");
  cmd->callback([&action, args] {
    action = [args] {
      Robot robot = load_robot(args->model);
      const RobotState state = read_state_json_file(robot.model, args->state);
      const Table t = compute(robot.model, state, args->quantity);
      if (args->json) {
        json values = json::array();
        for (Eigen::Index r = 0; r < t.values.rows(); ++r) {
          json row = json::array();
          for (Eigen::Index c = 0; c < t.values.cols(); ++c) row.push_back(t.values(r, c));
          values.push_back(row);
        }
        std::cout << json{{"rows", t.rows}, {"cols", t.cols}, {"values", values}}.dump(1) << "\n";
        return 0;
      }
      std::cout << std::setprecision(10);
      const bool wide = t.cols.size() > 8;
      if (wide) {
        for (Eigen::Index r = 0; r < t.values.rows(); ++r)
          for (Eigen::Index c = 0; c < t.values.cols(); ++c)
            if (t.values(r, c) != 0.0)
              std::cout << t.rows[static_cast<std::size_t>(r)] << "  " << t.cols[static_cast<std::size_t>(c)] << "  "
                        << t.values(r, c) << "\n";
        return 0;
      }
      std::cout << std::setw(28) << "";
      for (const auto& c : t.cols) std::cout << std::setw(18) << c;
      std::cout << "\n";
      for (Eigen::Index r = 0; r < t.values.rows(); ++r) {
        std::cout << std::left << std::setw(28) << t.rows[static_cast<std::size_t>(r)] << std::right;
        for (Eigen::Index c = 0; c < t.values.cols(); ++c) std::cout << std::setw(18) << t.values(r, c);
        std::cout << "\n";
      }
      return 0;
    };
  });
}

}  // namespace dynid::cli
