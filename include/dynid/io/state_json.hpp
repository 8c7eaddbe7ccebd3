#pragma once
// Robot state files for `dynid compute` (docs/cli.md):
//   {"base": {"position": [3], "orientation": [x, y, z, w], "velocity": [6], "acceleration": [6]},
//    "joints": {"NAME": {"q": .., "v": .., "a": ..}}, "gravity": [3]}
// Base velocity/acceleration are [linear; angular] in the base frame (docs/conventions.md). Joints
// and fields not given are zero; an unknown joint name, a wrong length or a non-number is an error.

#include <string>

#include "dynid/model/model.hpp"

namespace dynid {

struct RobotState {
  VectorX q, v, a;
  Vector3 gravity{0.0, 0.0, -9.81};
};

/// Parses a state; `label` names the source in errors. Throws std::runtime_error "LABEL: reason".
RobotState read_state_json_string(const Model& model, const std::string& json, const std::string& label);
RobotState read_state_json_file(const Model& model, const std::string& path);

}  // namespace dynid
