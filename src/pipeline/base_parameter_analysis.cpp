#include "dynid/pipeline/base_parameter_analysis.hpp"

namespace dynid {

using json = nlohmann::json;

json base_parameters_json(const Robot& robot, const Model& model, const std::vector<JointLock>& locks,
                          const std::string& rows, const BaseParameters& base) {
  json out;
  out["model"] = model.name;
  out["file"] = robot.urdf_path;
  out["floating_base"] = model.floating_base;
  json locked = json::array();
  for (const JointLock& l : locks) locked.push_back({{"joint", l.joint}, {"position", l.position}});
  out["locked_joints"] = locked;
  out["rows"] = rows;
  out["equations"] = base.row_names;
  out["num_standard_parameters"] = base.num_standard();
  out["num_base_parameters"] = base.num_base();
  json params = json::array();
  for (int k = 0; k < base.num_base(); ++k) {
    json terms = json::array();
    for (const ParameterTerm& t : base.groups[static_cast<std::size_t>(k)])
      terms.push_back(
          {{"parameter", base.parameter_names[static_cast<std::size_t>(t.parameter)]}, {"coefficient", t.coefficient}});
    params.push_back({{"name", base.name(k)}, {"expression", base.expression(k)}, {"terms", terms}});
  }
  out["base_parameters"] = params;
  json regrouped = json::array();
  for (int d : base.dependent) regrouped.push_back(base.parameter_names[static_cast<std::size_t>(d)]);
  out["regrouped_parameters"] = regrouped;
  json unidentifiable = json::array();
  for (const UnidentifiableParameter& u : base.unidentifiable)
    unidentifiable.push_back(
        {{"parameter", base.parameter_names[static_cast<std::size_t>(u.parameter)]}, {"reason", u.reason}});
  out["unidentifiable_parameters"] = unidentifiable;
  out["rank_decision"] = {{"samples", base.num_samples},
                          {"seed", base.seed},
                          {"tolerance", base.rank_tolerance},
                          {"smallest_independent_distance", base.smallest_independent_distance},
                          {"largest_dependent_distance", base.largest_dependent_distance},
                          {"near_dependence_tolerance", base.near_dependence_tolerance}};
  json nearly = json::array();
  for (const auto& [parameter, distance] : base.nearly_dependent)
    nearly.push_back(
        {{"parameter", base.parameter_names[static_cast<std::size_t>(parameter)]}, {"distance", distance}});
  out["nearly_dependent_parameters"] = nearly;
  return out;
}

}  // namespace dynid
