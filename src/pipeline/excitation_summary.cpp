#include "dynid/pipeline/excitation_summary.hpp"

#include <cmath>

namespace dynid {

using json = nlohmann::json;

json excitation_metrics_json(const ExcitationMetrics& m) {
  json out{{"condition_number", std::isfinite(m.condition_number) ? json(m.condition_number) : json(nullptr)},
           {"log_det", std::isfinite(m.log_det) ? json(m.log_det) : json(nullptr)},
           {"rank", m.rank}};
  if (m.zmp_use > 0.0) out["zmp_use"] = m.zmp_use;
  return out;
}

json excitation_trajectory_json(const Robot& robot, const ExcitationOptions& options, const ExcitationDesign& d,
                                double sample_rate) {
  json extra{{"robot", robot.model.name},
             {"model", robot.urdf_path},
             {"mode", d.mode},
             {"sensors", d.sensors},
             {"criterion", d.criterion},
             {"num_base_parameters", d.num_base_parameters},
             {"regressor_samples", d.samples},
             {"iterations", d.iterations},
             {"seed", options.seed},
             {"limits",
              {{"velocity_fraction", options.velocity_fraction},
               {"max_acceleration", options.max_acceleration},
               {"position_margin", options.position_margin}}},
             {"initial", excitation_metrics_json(d.initial)},
             {"best_random", excitation_metrics_json(d.best_random)},
             {"optimized", excitation_metrics_json(d.optimized)}};
  if (d.base_configuration.size() == 7) {
    const VectorX& b = d.base_configuration;
    extra["base"] = {{"position", {b[0], b[1], b[2]}}, {"quaternion_xyzw", {b[3], b[4], b[5], b[6]}}};
  }
  if (d.mode == "fixed-feet") extra["zmp_margin"] = d.zmp_margin;
  return to_json(d.trajectory, d.duration_s, sample_rate, extra);
}

json excitation_summary_json(const Robot& robot, const ExcitationDesign& d, const std::string& out) {
  json summary{{"robot", robot.model.name},
               {"mode", d.mode},
               {"sensors", d.sensors},
               {"criterion", d.criterion},
               {"joints", d.trajectory.num_joints()},
               {"num_base_parameters", d.num_base_parameters},
               {"initial", excitation_metrics_json(d.initial)},
               {"best_random", excitation_metrics_json(d.best_random)},
               {"optimized", excitation_metrics_json(d.optimized)},
               {"out", out}};
  return summary;
}

}  // namespace dynid
