// dynid info MODEL [--json] [--fixed-base]: what dynid reads from a URDF (and its sidecar).

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "dynid/pipeline/model_description.hpp"

namespace dynid::cli {
namespace {

using json = nlohmann::json;

/// Width of a name column: 28, or the longest name and two spaces, so that a long name (Talos has
/// 33-character joint names) never runs into the next column.
int name_column_width(const json& rows) {
  std::size_t longest = 0;
  for (const auto& r : rows) longest = std::max(longest, r["name"].get<std::string>().size());
  return static_cast<int>(std::max<std::size_t>(28, longest + 2));
}

void print_text(const Robot& robot, const json& d) {
  const Model& model = robot.model;
  std::cout << "robot " << model.name << "  (" << robot.urdf_path << ")\n"
            << "  base: " << (model.floating_base ? "floating (" + model.bodies[1].name + ")" : std::string("fixed"))
            << ", nq " << model.nq << ", nv " << model.nv << ", " << model.num_moving_bodies() << " moving bodies, "
            << 10 * model.num_moving_bodies() << " inertial parameters\n"
            << "  total mass: " << std::fixed << std::setprecision(3) << model.total_mass() << " kg\n"
            << "  sidecar: " << (robot.sidecar ? robot.sidecar->source_path : std::string("none")) << "\n\n";
  std::cout << "  joints:\n";
  const int joint_width = name_column_width(d["joints"]);
  for (const auto& j : d["joints"])
    std::cout << "    " << std::left << std::setw(joint_width) << j["name"].get<std::string>() << std::setw(11)
              << j["type"].get<std::string>() << j["parent"].get<std::string>() << " -> "
              << j["child"].get<std::string>() << "\n";
  std::cout << "\n  links (mass kg, COM m in link frame):\n";
  const int link_width = name_column_width(d["links"]);
  for (const auto& l : d["links"]) {
    const auto& c = l["com"];
    std::cout << "    " << std::left << std::setw(link_width) << l["name"].get<std::string>() << std::right
              << std::setw(9) << std::setprecision(4) << l["mass"].get<double>() << "   [" << std::setw(8)
              << c[0].get<double>() << "," << std::setw(8) << c[1].get<double>() << "," << std::setw(8)
              << c[2].get<double>() << "]"
              << (l["physically_consistent"] == false ? "   NOT physically consistent" : "") << "\n";
  }
  if (!d["frames"].empty()) {
    std::cout << "\n  sensor, contact and marker frames: " << d["frames"].size() << "\n";
  }
  for (const auto& w : model.warnings) std::cout << "  warning: " << w << "\n";
}

}  // namespace

void register_info(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("info", "Describe a robot model: joints, links, masses, sensors, warnings");
  auto model = std::make_shared<std::string>();
  auto as_json = std::make_shared<bool>(false);
  auto fixed_base = std::make_shared<bool>(false);
  cmd->add_option("MODEL", *model, "URDF or MJCF file, or bundled robot name (e.g. kid_humanoid)")->required();
  cmd->add_flag("--json", *as_json, "Print JSON");
  add_fixed_base_flag(*cmd, *fixed_base);
  cmd->callback([&action, model, as_json, fixed_base] {
    action = [model, as_json, fixed_base] {
      const Robot robot = load_robot(*model, model_read_options(*fixed_base));
      const json d = describe_model(robot);
      if (*as_json)
        std::cout << d.dump(2) << "\n";
      else
        print_text(robot, d);
      return 0;
    };
  });
}

}  // namespace dynid::cli
