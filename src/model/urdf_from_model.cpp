#include "dynid/model/urdf_from_model.hpp"

#include <cmath>
#include <set>
#include <sstream>

#include "dynid/core/number_format.hpp"
#include "dynid/core/xml_escape.hpp"
#include "dynid/spatial/skew.hpp"

namespace dynid {
namespace {

void write_origin(std::ostringstream& x, const SE3& placement) {
  x << "    <origin xyz=\"" << format_exact(placement.translation) << "\" rpy=\""
    << format_exact(rpy_from_rotation(placement.rotation)) << "\"/>\n";
}

void write_link(std::ostringstream& x, const std::string& name, const Inertia& inertia) {
  x << "  <link name=\"" << xml_escape(name) << "\">\n";
  if (inertia.mass > 0.0) {
    const Matrix3 I = inertia.inertia_com();
    x << "    <inertial>\n      <origin xyz=\"" << format_exact(inertia.com()) << "\" rpy=\"0 0 0\"/>\n"
      << "      <mass value=\"" << format_exact(inertia.mass) << "\"/>\n"
      << "      <inertia ixx=\"" << format_exact(I(0, 0)) << "\" ixy=\"" << format_exact(I(0, 1)) << "\" ixz=\""
      << format_exact(I(0, 2)) << "\" iyy=\"" << format_exact(I(1, 1)) << "\" iyz=\"" << format_exact(I(1, 2))
      << "\" izz=\"" << format_exact(I(2, 2)) << "\"/>\n    </inertial>\n";
  }
  x << "  </link>\n";
}

std::string limit_value(double x) { return std::isfinite(x) ? format_exact(x) : "0"; }

}  // namespace

std::string urdf_from_model(const Model& model, const std::string& note) {
  std::ostringstream x;
  x << "<?xml version=\"1.0\"?>\n<!-- " << xml_escape(note) << " -->\n<robot name=\"" << xml_escape(model.name)
    << "\">\n";
  const std::string world = "world";
  std::set<std::string> bodies;
  for (const Body& b : model.bodies) bodies.insert(b.name);
  if (!model.floating_base) write_link(x, world, model.bodies[0].inertia);
  for (std::size_t i = 1; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    write_link(x, b.name, b.inertia);
    if (b.joint_type == JointType::FreeFlyer) continue;
    const bool limited = std::isfinite(b.limits.lower) && std::isfinite(b.limits.upper);
    const char* type = b.joint_type == JointType::Prismatic ? "prismatic" : limited ? "revolute" : "continuous";
    const std::string parent = b.parent == 0 ? world : model.bodies[static_cast<std::size_t>(b.parent)].name;
    x << "  <joint name=\"" << xml_escape(b.joint_name) << "\" type=\"" << type << "\">\n"
      << "    <parent link=\"" << xml_escape(parent) << "\"/>\n    <child link=\"" << xml_escape(b.name) << "\"/>\n";
    write_origin(x, b.joint_placement);
    x << "    <axis xyz=\"" << format_exact(b.axis) << "\"/>\n    <limit";
    if (limited)
      x << " lower=\"" << format_exact(b.limits.lower) << "\" upper=\"" << format_exact(b.limits.upper) << "\"";
    x << " effort=\"" << limit_value(b.limits.effort) << "\" velocity=\"" << limit_value(b.limits.velocity)
      << "\"/>\n  </joint>\n";
  }
  // The other links (welded bodies of an MJCF file) as massless frames: names users refer to.
  for (const LinkRecord& l : model.links) {
    if (bodies.count(l.name) || l.name == world || (l.body == 0 && model.floating_base)) continue;
    const std::string parent = l.body == 0 ? world : model.bodies[static_cast<std::size_t>(l.body)].name;
    write_link(x, l.name, Inertia::Zero());
    x << "  <joint name=\"" << xml_escape(l.name) << "_fixed\" type=\"fixed\">\n    <parent link=\""
      << xml_escape(parent) << "\"/>\n    <child link=\"" << xml_escape(l.name) << "\"/>\n";
    write_origin(x, l.placement_in_body);
    x << "  </joint>\n";
  }
  x << "</robot>\n";
  return x.str();
}

}  // namespace dynid
