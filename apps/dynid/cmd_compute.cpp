// dynid compute MODEL --state STATE.json --quantity rnea|regressor|com|mass-matrix [--json] [--fixed-base]

#include <iomanip>
#include <iostream>

#include "commands.hpp"
#include "dynid/model/robot.hpp"
#include "dynid/pipeline/dynamics_at_state.hpp"

namespace dynid::cli {

void register_compute(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("compute", "Evaluate dynamics at one state: rnea, regressor, com or mass-matrix");
  struct Args {
    std::string model, state, quantity;
    bool json = false, fixed_base = false;
  };
  auto args = std::make_shared<Args>();
  cmd->add_option("MODEL", args->model, "URDF or MJCF file, or bundled robot name")->required();
  cmd->add_option("--state", args->state, "State JSON (docs/cli.md)")->required();
  cmd->add_option("--quantity", args->quantity, "rnea | regressor | com | mass-matrix")
      ->required()
      ->check(CLI::IsMember({"rnea", "regressor", "com", "mass-matrix"}));
  cmd->add_flag("--json", args->json, "Print JSON {rows, cols, values}");
  add_fixed_base_flag(*cmd, args->fixed_base);
  cmd->callback([&action, args] {
    action = [args] {
      Robot robot = load_robot(args->model, model_read_options(args->fixed_base));
      const RobotState state = read_state_json_file(robot.model, args->state);
      const QuantityTable t = compute_quantity(robot.model, state, args->quantity);
      if (args->json) {
        std::cout << quantity_table_json(t).dump(1) << "\n";
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
