#pragma once
// Reading a robot sidecar (docs/robot-sidecar.md) from its YAML text, with yaml-cpp.

#include <string>

#include "dynid/model/sidecar.hpp"

namespace dynid {

/// Parses a sidecar file. Throws std::runtime_error "FILE: what is wrong" on malformed YAML, wrong
/// types or missing required keys. Names are not checked against a model here (see attach_sidecar).
RobotSidecar read_sidecar_file(const std::string& path);
RobotSidecar read_sidecar_string(const std::string& yaml, const std::string& label = "<string>");

/// The `actuators:` entries of a file: a whole sidecar, or an actuators-only file such as the
/// actuator.yaml `dynid identify actuator` writes. Throws "FILE: what is wrong" like
/// read_sidecar_file, also when the file has no actuators entry.
std::vector<ActuatorInfo> read_actuators_file(const std::string& path);

}  // namespace dynid
