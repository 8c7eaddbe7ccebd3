#pragma once
// A URDF written from a dynid Model alone, for models that did not come from a URDF (an MJCF file,
// model/mjcf_reader.hpp): one link per dynid body (its whole inertia, in the body frame), one joint
// per moving body (origin = joint placement, axis, limits; revolute without limits -> continuous),
// the root "world" link carrying what is fixed to the world (fixed base) or the floating base link
// as root, and every other link of the model as a massless frame on a fixed joint. Read back
// (model/urdf_reader.hpp) it gives the same bodies, joints and inertias (to 17 digits).

#include <string>

#include "dynid/model/model.hpp"

namespace dynid {

/// URDF text for `model`; `note` goes into a comment at the top (where the model came from).
std::string urdf_from_model(const Model& model, const std::string& note);

}  // namespace dynid
