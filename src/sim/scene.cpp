#include "dynid/sim/scene.hpp"

#include <Eigen/Geometry>
#include <sstream>

#include "dynid/core/number_format.hpp"

namespace dynid {
namespace {

constexpr double kSoleThickness = 0.006;  // [m] contact box depth inside the foot
constexpr double kPointRadius = 0.004;    // [m] sphere radius of point contacts

std::string quat_wxyz(const Matrix3& R) {
  const Eigen::Quaterniond q(R);
  return format_exact(q.w()) + " " + format_exact(q.x()) + " " + format_exact(q.y()) + " " + format_exact(q.z());
}

const Frame& frame_named(const Model& model, const std::string& name) {
  return model.frames[static_cast<std::size_t>(model.frame_index(name))];
}

}  // namespace

std::vector<ForcePlateSpec> default_force_plates() {
  return {{"plate_left", Vector3(0.0, 0.305, 0.0), 0.9, 0.6, 0.05},
          {"plate_right", Vector3(0.0, -0.305, 0.0), 0.9, 0.6, 0.05}};
}

std::string contact_geom_name(const std::string& contact, int index) {
  return "contact:" + contact + ":" + std::to_string(index);
}

std::string plate_geom_name(const std::string& plate) { return "plate:" + plate; }

std::string scene_mjcf(const Model& truth, const RobotSidecar& sidecar, const SceneSpec& scene) {
  MjcfOptions options;
  options.timestep = scene.timestep;
  options.joint_limits = false;
  // Rotor inertia reflected through the gears: physical, and what keeps stiff servos on light
  // links stable at a 1 ms step.
  options.armature = joint_armature(truth, sidecar);
  options.damping = scene.joint_damping;
  options.welds = scene.welds;
  // Robot geoms collide with the world only (contype 1 / conaffinity 2 against world 2 / 1).
  // condim 4: torsional friction about the contact normal, as a sole's rubber patch has. Without it a
  // sole that lands a fraction of a degree tilted (a real robot's joint axes, --perturb geometry)
  // touches at one corner and spins freely about it: the kid walk yawed several degrees per step
  // and fell. The coefficient (0.005 m, MuJoCo's default) is the moment arm of a contact patch about
  // 7 mm in radius under a friction coefficient of 1.
  for (const ContactSurface& c : sidecar.contacts) {
    const Frame& f = frame_named(truth, c.name);
    std::ostringstream x;
    const std::string friction = format_exact(c.friction) + " 0.005 0.0001";
    if (!c.polygon.empty()) {
      Eigen::Vector2d lo = c.polygon.front(), hi = c.polygon.front();
      for (const auto& p : c.polygon) {
        lo = lo.cwiseMin(p);
        hi = hi.cwiseMax(p);
      }
      const Vector3 center_sole(0.5 * (lo.x() + hi.x()), 0.5 * (lo.y() + hi.y()), 0.5 * kSoleThickness);
      x << "<geom name=\"" << contact_geom_name(c.name, 0) << "\" type=\"box\" size=\""
        << format_exact(Vector3(0.5 * (hi.x() - lo.x()), 0.5 * (hi.y() - lo.y()), 0.5 * kSoleThickness)) << "\" pos=\""
        << format_exact(f.placement.act(center_sole)) << "\" quat=\"" << quat_wxyz(f.placement.rotation)
        << "\" contype=\"1\" conaffinity=\"2\" condim=\"4\" friction=\"" << friction << "\"/>";
    }
    for (std::size_t k = 0; k < c.points.size(); ++k) {
      const Vector3 center_sole = c.points[k] + Vector3(0, 0, kPointRadius);
      x << "<geom name=\"" << contact_geom_name(c.name, static_cast<int>(k + (c.polygon.empty() ? 0 : 1)))
        << "\" type=\"sphere\" size=\"" << format_exact(kPointRadius) << "\" pos=\""
        << format_exact(f.placement.act(center_sole)) << "\" contype=\"1\" conaffinity=\"2\" condim=\"4\" friction=\""
        << friction << "\"/>";
    }
    options.body_elements.push_back({f.body, x.str()});
  }
  std::ostringstream world;
  if (scene.plates.empty() && scene.floor) {
    const Matrix3 tilt = Eigen::AngleAxisd(-scene.slope_rad, Vector3::UnitY()).toRotationMatrix();
    world << "    <geom name=\"floor\" type=\"plane\" size=\"0 0 1\" quat=\"" << quat_wxyz(tilt)
          << "\" contype=\"2\" conaffinity=\"1\" condim=\"3\" friction=\"" << format_exact(scene.floor_friction)
          << " 0.005 0.0001\"/>\n";
  }
  for (const ForcePlateSpec& p : scene.plates) {
    const Vector3 center = p.top_center_world - Vector3(0, 0, 0.5 * p.thickness);
    world << "    <geom name=\"" << plate_geom_name(p.name) << "\" type=\"box\" size=\""
          << format_exact(Vector3(0.5 * p.size_x, 0.5 * p.size_y, 0.5 * p.thickness)) << "\" pos=\""
          << format_exact(center) << "\" contype=\"2\" conaffinity=\"1\" condim=\"3\" friction=\""
          << format_exact(scene.floor_friction) << " 0.005 0.0001\"/>\n";
  }
  options.world_xml = world.str();
  // Elliptic friction cones with a high impedance ratio: MuJoCo's soft friction otherwise lets
  // loaded feet creep (joint speeds ~1e-4 rad/s after seconds), and static poses must settle.
  // Solver tolerance 1e-14 (MuJoCo: 1e-8): the Newton solver also stops when its cost improves by
  // less than the tolerance, which at 1e-10 still left gradients of 5e-6 when a walking foot rocked
  // on an edge (physics check 1.7e-6); at 1e-8 the check saw relative errors up to 1e-4.
  options.option_attributes = "cone=\"elliptic\" impratio=\"100\" tolerance=\"1e-14\"";
  // Stiff, well-damped contacts: static poses settle quickly and penetrate < 1 mm.
  options.extra_xml = "  <default><geom solref=\"0.004 1\" solimp=\"0.95 0.99 0.001\"/></default>\n";
  return to_mjcf(truth, options);
}

}  // namespace dynid
