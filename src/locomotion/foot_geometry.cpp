#include "dynid/locomotion/foot_geometry.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "dynid/dynamics/center_of_mass.hpp"

namespace dynid {

namespace {

const ContactSurface& find_contact(const Robot& robot, const std::string& name) {
  const auto& contacts = robot.sidecar->contacts;
  const auto it =
      std::find_if(contacts.begin(), contacts.end(), [&](const ContactSurface& c) { return c.name == name; });
  if (it == contacts.end()) {
    throw std::invalid_argument("robot '" + robot.model.name + "': its sidecar has no contact named '" + name + "'");
  }
  return *it;
}

}  // namespace

FootGeometry foot_geometry(const Robot& robot, const std::string& left_contact, const std::string& right_contact) {
  if (!robot.sidecar) {
    throw std::invalid_argument("robot '" + robot.model.name + "' (" + robot.urdf_path +
                                ") has no sidecar: its sole contacts are unknown (docs/robot-sidecar.md)");
  }
  const ContactSurface& left = find_contact(robot, left_contact);
  find_contact(robot, right_contact);

  Eigen::Vector2d lo = Eigen::Vector2d::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (const auto& v : left.polygon) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  for (const auto& p : left.points) {
    lo = lo.cwiseMin(p.head<2>());
    hi = hi.cwiseMax(p.head<2>());
  }
  if (!(hi.array() > lo.array()).all()) {
    throw std::invalid_argument("robot '" + robot.model.name + "': contact '" + left_contact +
                                "' has no polygon or points spanning an area");
  }

  Data data(robot.model);
  const VectorX q = robot.model.neutral_configuration();
  const Vector3 com = center_of_mass(robot.model, data, q);
  const SE3 left_sole = frame_placement(robot.model, data, robot.model.frame_index(left_contact));
  const SE3 right_sole = frame_placement(robot.model, data, robot.model.frame_index(right_contact));

  FootGeometry feet;
  feet.foot_separation_m = (left_sole.translation - right_sole.translation).norm();
  feet.sole_length_m = hi.x() - lo.x();
  feet.sole_width_m = hi.y() - lo.y();
  feet.standing_com_height_m = left_sole.rotation.col(2).dot(com - left_sole.translation);
  return feet;
}

}  // namespace dynid
