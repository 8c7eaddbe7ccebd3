#include "dynid/sim/mjcf_export.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "dynid/core/number_format.hpp"
#include "dynid/core/xml_escape.hpp"

namespace dynid {
namespace {

std::string quat_wxyz(const Matrix3& R) {
  const Eigen::Quaterniond q(R);
  return format_exact(q.w()) + " " + format_exact(q.x()) + " " + format_exact(q.y()) + " " + format_exact(q.z());
}

void write_inertial(std::ostringstream& x, const Inertia& I, const std::string& indent) {
  // Principal axes computed here to double precision: MuJoCo's own decomposition of fullinertia
  // stops at a looser tolerance (relative errors ~1e-9 seen on rotated inertias).
  Eigen::SelfAdjointEigenSolver<Matrix3> eig(I.inertia_com());
  Matrix3 axes = eig.eigenvectors();
  if (axes.determinant() < 0.0) axes.col(2) = -axes.col(2);
  x << indent << "<inertial pos=\"" << format_exact(I.com()) << "\" mass=\"" << format_exact(I.mass) << "\" quat=\""
    << quat_wxyz(axes) << "\" diaginertia=\"" << format_exact(eig.eigenvalues()) << "\"/>\n";
}

/// The weld of body `index`, or null when its joint is exported as a joint.
const MjcfWeld* weld_of(const MjcfOptions& options, int index) {
  for (const MjcfWeld& w : options.welds)
    if (w.body == index) return &w;
  return nullptr;
}

void write_body(std::ostringstream& x, const Model& model, int index, int depth, const MjcfOptions& options) {
  const Body& b = model.bodies[static_cast<std::size_t>(index)];
  const std::string indent(static_cast<std::size_t>(2 * depth + 4), ' ');
  const MjcfWeld* weld = weld_of(options, index);
  if (weld && b.joint_type == JointType::FreeFlyer)
    throw std::invalid_argument("MJCF export: cannot weld the floating base '" + b.name + "'");
  const SE3 placement = weld ? b.placement_at(weld->position) : b.joint_placement;
  x << indent << "<body name=\"" << xml_escape(b.name) << "\" pos=\"" << format_exact(placement.translation)
    << "\" quat=\"" << quat_wxyz(placement.rotation) << "\">\n";
  if (b.inertia.mass > 0.0) write_inertial(x, b.inertia, indent + "  ");
  if (!weld) switch (b.joint_type) {
      case JointType::FreeFlyer:
        x << indent << "  <freejoint name=\"" << xml_escape(b.joint_name) << "\"/>\n";
        break;
      case JointType::Revolute:
      case JointType::Prismatic: {
        x << indent << "  <joint name=\"" << xml_escape(b.joint_name) << "\" type=\""
          << (b.joint_type == JointType::Revolute ? "hinge" : "slide") << "\" axis=\"" << format_exact(b.axis) << "\"";
        if (static_cast<std::size_t>(index) < options.armature.size() &&
            options.armature[static_cast<std::size_t>(index)] > 0.0)
          x << " armature=\"" << format_exact(options.armature[static_cast<std::size_t>(index)]) << "\"";
        if (static_cast<std::size_t>(index) < options.damping.size() &&
            options.damping[static_cast<std::size_t>(index)] > 0.0)
          x << " damping=\"" << format_exact(options.damping[static_cast<std::size_t>(index)]) << "\"";
        if (options.joint_limits && std::isfinite(b.limits.lower) && std::isfinite(b.limits.upper))
          x << " limited=\"true\" range=\"" << format_exact(b.limits.lower) << " " << format_exact(b.limits.upper)
            << "\"";
        x << "/>\n";
        break;
      }
    }
  for (const MjcfBodyElement& e : options.body_elements)
    if (e.body == index) x << indent << "  " << e.xml << "\n";
  for (std::size_t c = 1; c < model.bodies.size(); ++c)
    if (model.bodies[c].parent == index) write_body(x, model, static_cast<int>(c), depth + 1, options);
  x << indent << "</body>\n";
}

}  // namespace

std::string to_mjcf(const Model& model, const MjcfOptions& options) {
  std::ostringstream x;
  x << "<mujoco model=\"" << xml_escape(model.name) << "\">\n"
    << "  <compiler angle=\"radian\" inertiafromgeom=\"false\" boundmass=\"0\" boundinertia=\"0\"/>\n"
    << "  <option timestep=\"" << format_exact(options.timestep) << "\" gravity=\"" << format_exact(model.gravity)
    << "\" " << options.option_attributes << "/>\n"
    << options.extra_xml << "  <worldbody>\n"
    << options.world_xml;
  const Inertia& fixed = model.bodies[0].inertia;
  if (fixed.mass > 0.0) {
    // Links welded to the world: a static body so total mass and COM match dynid's.
    x << "    <body name=\"dynid_links_fixed_to_world\">\n";
    write_inertial(x, fixed, "      ");
    x << "    </body>\n";
  }
  for (std::size_t c = 1; c < model.bodies.size(); ++c)
    if (model.bodies[c].parent == 0) write_body(x, model, static_cast<int>(c), 0, options);
  x << "  </worldbody>\n</mujoco>\n";
  return x.str();
}

}  // namespace dynid
