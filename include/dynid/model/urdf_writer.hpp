#pragma once
// Writes identified inertial parameters back into the user's URDF: only <inertial> elements change;
// joints, visuals, collisions, comments, sensors and every other element stay as they were. The one
// exception is a model whose joint origins or axes differ from the file's (the simulator's true
// geometry, `simulate --perturb geometry`): those joints' <origin xyz> and <axis> are moved to the
// model's, so the written file is that model; a model read from the file changes no joint.
//
// A dynid body can hold several URDF links merged through fixed joints. The merged (fixed) links
// keep their own inertials and the body's main link takes the rest, so reading the written file
// gives back exactly the given body inertias. When that remainder is not a physical body (for
// example a heavy camera on a light link), the whole body inertia goes to the main link and the
// merged links lose their <inertial>; a note in `changes` says so.
//
// A model with locked joints (model/lock_joints.hpp) is written with those joints as fixed joints
// at their lock position (origin moved by the joint's motion there, axis and limits dropped, an
// XML comment before each), so the file reads back as the locked model with its identified bodies.
//
// A model read from MJCF has no URDF to edit: given the MJCF file as the original, the whole model
// is written as a new URDF (model/urdf_from_model.hpp).

#include <string>
#include <vector>

#include "dynid/model/model.hpp"

namespace dynid {

struct UrdfWriteReport {
  std::string urdf;                  ///< the new file's text
  std::vector<std::string> changes;  ///< one line per link whose inertial changed, and any folding
};

/// Produces URDF text: `original_urdf_path`'s file with the inertials of `model` (a model read from
/// that file, possibly with new body inertias). Throws if the file and the model do not match.
UrdfWriteReport write_urdf_inertials(const Model& model, const std::string& original_urdf_path);

/// Same, written atomically to `output_path` (never over the input).
UrdfWriteReport write_urdf_file(const Model& model, const std::string& original_urdf_path,
                                const std::string& output_path);

}  // namespace dynid
