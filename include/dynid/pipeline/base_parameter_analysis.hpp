#pragma once
// What `dynid analyze base-parameters --json` prints: the base parameters of a (locked) model for a
// set of equation rows, their groupings, the regrouped and unidentifiable parameters and how the
// numerical rank was decided (docs/base-parameters.md).

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "dynid/ident/base_parameters.hpp"
#include "dynid/model/lock_joints.hpp"
#include "dynid/model/robot.hpp"

namespace dynid {

/// `rows`: the row set's name as the user gave it ("all" or "base").
nlohmann::json base_parameters_json(const Robot& robot, const Model& model, const std::vector<JointLock>& locks,
                                    const std::string& rows, const BaseParameters& base);

}  // namespace dynid
