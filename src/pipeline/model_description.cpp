#include "dynid/pipeline/model_description.hpp"

#include <cmath>

#include "dynid/ident/physical_consistency.hpp"

namespace dynid {
namespace {

using json = nlohmann::json;

json vec(const Vector3& x) { return {x.x(), x.y(), x.z()}; }
json mat(const Matrix3& m) {
  json rows = json::array();
  for (int r = 0; r < 3; ++r) rows.push_back({m(r, 0), m(r, 1), m(r, 2)});
  return rows;
}

}  // namespace

json describe_model(const Robot& robot) {
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

  // The dynid bodies (links merged through fixed joints; universe first): what the algorithms use.
  json bodies = json::array();
  for (const Body& b : model.bodies) {
    json j{{"name", b.name},
           {"joint", b.joint_name},
           {"type", b.parent < 0 ? "none" : to_string(b.joint_type)},
           {"parent", b.parent < 0 ? json(nullptr) : json(model.bodies[static_cast<std::size_t>(b.parent)].name)},
           {"placement", {{"xyz", vec(b.joint_placement.translation)}, {"rotation", mat(b.joint_placement.rotation)}}},
           {"axis", vec(b.axis)},
           {"mass", b.inertia.mass},
           {"com", vec(b.inertia.com())},
           {"inertia", mat(b.inertia.inertia_com())}};
    bodies.push_back(j);
  }
  out["bodies"] = bodies;

  json frames = json::array();
  for (const Frame& f : model.frames)
    if (f.kind != FrameKind::Link) frames.push_back({{"name", f.name}, {"kind", to_string(f.kind)}, {"link", f.link}});
  out["frames"] = frames;
  out["sidecar"] = robot.sidecar ? json(robot.sidecar->source_path) : json(nullptr);
  out["warnings"] = model.warnings;
  return out;
}

}  // namespace dynid
