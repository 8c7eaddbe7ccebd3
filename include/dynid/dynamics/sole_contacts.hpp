#pragma once
// Which of a robot's sidecar contacts are its feet: the walking, posing and identification code all
// need to tell the left sole from the right one.

#include <utility>

#include "dynid/model/sidecar.hpp"

namespace dynid {

/// Indices into sidecar.contacts of the left and right soles: the contacts with the largest and the
/// smallest y (world) at the model's neutral configuration. Throws std::invalid_argument when the
/// sidecar names fewer than two contacts or they cannot be told apart.
std::pair<int, int> left_right_soles(const Model& model, const RobotSidecar& sidecar);

}  // namespace dynid
