// dynid info MODEL [--json]: what dynid reads from a URDF (and its sidecar).

#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "dynid/model/robot.hpp"

namespace dynid::cli {
namespace {

using json = nlohmann::json;

json vec(const Vector3& x) { return {x.x(), x.y(), x.z()}; }
json mat(const Matrix3& m) {
  json rows = json::array();
  for (int r = 0; r < 3; ++r) rows.push_back({m(r, 0), m(r, 1), m(r, 2)});
  return rows;
}

json describe(const Robot& robot) {
  const Model& model = robot.model;
  json out;
  out["name"] = model.name;
  out["file"] = robot.urdf_path;
  out["floating_base"] = model.floating_base;
  out["nq"] = model.nq;
  out["nv"] = model.nv;
  out["total_mass"] = model.total_mass();
  out["num_bodies"] = model.num_moving_bodies();
  out["num_parameters"] = 10 * model.num_moving_bodies();

  json joints = json::array();
  for (const LinkRecord& l : model.links) {
    if (l.parent_joint.empty()) continue;
    json j{{"name", l.parent_joint}, {"type", l.parent_joint_type}, {"parent", l.parent_link}, {"child", l.name}};
    if (const auto b = model.find_joint(l.parent_joint)) {
      const Body& body = model.bodies[static_cast<std::size_t>(*b)];
      j["axis"] = vec(body.axis);
      j["idx_q"] = body.idx_q;
      j["idx_v"] = body.idx_v;
      auto finite_or_null = [](double x) { return std::isfinite(x) ? json(x) : json(nullptr); };
      j["limits"] = {{"lower", finite_or_null(body.limits.lower)},
                     {"upper", finite_or_null(body.limits.upper)},
                     {"velocity", finite_or_null(body.limits.velocity)},
                     {"effort", finite_or_null(body.limits.effort)}};
    }
    joints.push_back(j);
  }
  out["joints"] = joints;

  json links = json::array();
  for (const LinkRecord& l : model.links) {
    const bool massive = l.has_inertial && l.inertia.mass > 0.0;
    const ConsistencyReport r = check_physical_consistency(l.inertia);
    json j{{"name", l.name},
           {"body", model.bodies[static_cast<std::size_t>(l.body)].name},
           {"mass", l.inertia.mass},
           {"com", vec(l.inertia.com())},
           {"inertia", mat(l.inertia.inertia_com())},
           {"physically_consistent", massive ? json(r.consistent) : json(nullptr)}};
    if (massive && !r.consistent) j["consistency_problem"] = r.reason;
    links.push_back(j);
  }
  out["links"] = links;

  json frames = json::array();
  for (const Frame& f : model.frames)
    if (f.kind != FrameKind::Link) frames.push_back({{"name", f.name}, {"kind", to_string(f.kind)}, {"link", f.link}});
  out["frames"] = frames;
  out["sidecar"] = robot.sidecar ? json(robot.sidecar->source_path) : json(nullptr);
  out["warnings"] = model.warnings;
  return out;
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
  for (const auto& j : d["joints"])
    std::cout << "    " << std::left << std::setw(28) << j["name"].get<std::string>() << std::setw(11)
              << j["type"].get<std::string>() << j["parent"].get<std::string>() << " -> "
              << j["child"].get<std::string>() << "\n";
  std::cout << "\n  links (mass kg, COM m in link frame):\n";
  for (const auto& l : d["links"]) {
    const auto& c = l["com"];
    std::cout << "    " << std::left << std::setw(28) << l["name"].get<std::string>() << std::right << std::setw(9)
              << std::setprecision(4) << l["mass"].get<double>() << "   [" << std::setw(8) << c[0].get<double>() << ","
              << std::setw(8) << c[1].get<double>() << "," << std::setw(8) << c[2].get<double>() << "]"
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
  cmd->add_option("MODEL", *model, "URDF file or bundled robot name (e.g. kid_humanoid)")->required();
  cmd->add_flag("--json", *as_json, "Print JSON");
  cmd->callback([&action, model, as_json] {
    action = [model, as_json] {
      const Robot robot = load_robot(*model);
      const json d = describe(robot);
      if (*as_json)
        std::cout << d.dump(2) << "\n";
      else
        print_text(robot, d);
      return 0;
    };
  });
}

}  // namespace dynid::cli
