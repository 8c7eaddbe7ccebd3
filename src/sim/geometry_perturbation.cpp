#include "dynid/sim/geometry_perturbation.hpp"

#include <Eigen/Geometry>
#include <cmath>
#include <numbers>
#include <random>

#include "dynid/core/random_draws.hpp"

namespace dynid {
namespace {

constexpr double kShortestPartM = 0.020;  // a servo horn's bolt circle: the smallest part that places a joint

}  // namespace

double iso2768m_linear_tolerance(double length_m) {
  const double mm = 1e3 * std::max(length_m, kShortestPartM);
  if (mm <= 6.0) return 0.1e-3;
  if (mm <= 30.0) return 0.2e-3;
  if (mm <= 120.0) return 0.3e-3;
  if (mm <= 400.0) return 0.5e-3;
  if (mm <= 1000.0) return 0.8e-3;
  if (mm <= 2000.0) return 1.2e-3;
  return 2.0e-3;
}

double iso2768m_angular_tolerance(double length_m) {
  const double mm = 1e3 * std::max(length_m, kShortestPartM);
  const double arcmin = mm <= 10.0 ? 60.0 : mm <= 50.0 ? 30.0 : mm <= 120.0 ? 20.0 : mm <= 400.0 ? 10.0 : 5.0;
  return arcmin / 60.0 * std::numbers::pi / 180.0;
}

std::vector<JointGeometryError> perturb_geometry(Model& model, unsigned seed) {
  // Its own generator: the mass perturbations of the true model (true_model.hpp) stay as they were.
  std::mt19937 rng(seed * 2654435761u + 19u);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<JointGeometryError> out;
  for (std::size_t i = 1; i < model.bodies.size(); ++i) {
    Body& b = model.bodies[i];
    if (b.joint_type != JointType::Revolute && b.joint_type != JointType::Prismatic) continue;
    JointGeometryError e;
    e.joint = b.joint_name;
    e.nominal_offset_m = b.joint_placement.translation.norm();
    e.origin_tolerance_m = iso2768m_linear_tolerance(e.nominal_offset_m);
    e.axis_tolerance_rad = iso2768m_angular_tolerance(e.nominal_offset_m);
    e.origin_error = e.origin_tolerance_m * draw_vector3(u, rng);
    e.nominal_axis = b.axis.normalized();
    // A direction perpendicular to the axis, uniform about it.
    const Vector3 any = std::abs(e.nominal_axis.x()) < 0.9 ? Vector3::UnitX() : Vector3::UnitY();
    const Vector3 p1 = e.nominal_axis.cross(any).normalized(), p2 = e.nominal_axis.cross(p1);
    const double phi = std::numbers::pi * u(rng);
    const Vector3 tilt_about = std::cos(phi) * p1 + std::sin(phi) * p2;
    const double tilt = e.axis_tolerance_rad * u(rng);
    e.true_axis = (Eigen::AngleAxisd(tilt, tilt_about) * e.nominal_axis).normalized();
    e.axis_tilt_rad = std::abs(tilt);
    b.joint_placement.translation += e.origin_error;
    b.axis = e.true_axis;
    out.push_back(e);
  }
  return out;
}

}  // namespace dynid
