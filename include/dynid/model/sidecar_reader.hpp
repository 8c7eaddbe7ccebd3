#pragma once
// Reading a robot sidecar (docs/robot-sidecar.md) from its YAML text, with yaml-cpp.

#include <string>

#include "dynid/model/sidecar.hpp"

namespace dynid {

/// Parses a sidecar file. Throws std::runtime_error "FILE: what is wrong" on malformed YAML, wrong
/// types or missing required keys. Names are not checked against a model here (see attach_sidecar).
RobotSidecar read_sidecar_file(const std::string& path);
RobotSidecar read_sidecar_string(const std::string& yaml, const std::string& label = "<string>");

}  // namespace dynid
