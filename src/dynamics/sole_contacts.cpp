#include "dynid/dynamics/sole_contacts.hpp"

#include <stdexcept>

#include "dynid/dynamics/kinematics.hpp"

namespace dynid {

std::pair<int, int> left_right_soles(const Model& model, const RobotSidecar& sidecar) {
  if (sidecar.contacts.size() < 2) throw std::invalid_argument("static poses need two sole contacts in the sidecar");
  Data data(model);
  forward_kinematics(model, data, model.neutral_configuration());
  int left = -1, right = -1;
  double ymax = -1e9, ymin = 1e9;
  for (std::size_t c = 0; c < sidecar.contacts.size(); ++c) {
    const double y = frame_placement(model, data, model.frame_index(sidecar.contacts[c].name)).translation.y();
    if (y > ymax) ymax = y, left = static_cast<int>(c);
    if (y < ymin) ymin = y, right = static_cast<int>(c);
  }
  if (left == right) throw std::invalid_argument("cannot tell the left sole from the right one");
  return {left, right};
}

}  // namespace dynid
