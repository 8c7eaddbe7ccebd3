#pragma once
// What a walking pattern needs to know about a robot's feet, read from its model and sidecar: the
// nominal foot separation, the sole size (for the support polygon) and the standing COM height.

#include <string>

#include "dynid/model/robot.hpp"

namespace dynid {

struct FootGeometry {
  double foot_separation_m = 0.0;      ///< distance between the sole origins at the neutral configuration
  double sole_length_m = 0.0;          ///< extent of the sole polygon (or contact points) along sole x
  double sole_width_m = 0.0;           ///< extent along sole y
  double standing_com_height_m = 0.0;  ///< COM height above the left sole at the neutral configuration
};

/// Reads the feet of `robot` from its sidecar contacts `left_contact` and `right_contact` (polygon
/// or points) at the neutral configuration (the bundled robots stand upright there). Throws
/// std::invalid_argument naming the robot when it has no sidecar or lacks one of the contacts.
FootGeometry foot_geometry(const Robot& robot, const std::string& left_contact = "l_sole",
                           const std::string& right_contact = "r_sole");

}  // namespace dynid
