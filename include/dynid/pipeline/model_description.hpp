#pragma once
// What `dynid info` reports about a robot: joints, links with their inertials and physical
// consistency, sensor frames, the reader's warnings (the JSON keys of the command-line contract:
// name, floating_base, nq, nv, total_mass, joints, links, warnings).

#include <nlohmann/json.hpp>

#include "dynid/model/robot.hpp"

namespace dynid {

/// The robot as `dynid info --json` prints it.
nlohmann::json describe_model(const Robot& robot);

}  // namespace dynid
