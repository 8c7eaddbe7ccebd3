#pragma once
// `dynid excite`'s outputs: the designed trajectory's JSON file (the Fourier coefficients and the
// sampled joint trajectory with the design's metadata, ident/fourier_trajectory.hpp) and the
// summary printed to the user (condition numbers of the initial, best random and optimized designs).

#include <nlohmann/json.hpp>
#include <string>

#include "dynid/ident/excitation.hpp"

namespace dynid {

/// Conditioning of one design: condition_number, log_det, rank (null where not finite), zmp_use.
nlohmann::json excitation_metrics_json(const ExcitationMetrics& metrics);

/// The trajectory file, sampled at `sample_rate` [Hz].
nlohmann::json excitation_trajectory_json(const Robot& robot, const ExcitationOptions& options,
                                          const ExcitationDesign& design, double sample_rate);

/// The summary `dynid excite` prints; `out`: where the trajectory was written.
nlohmann::json excitation_summary_json(const Robot& robot, const ExcitationDesign& design, const std::string& out);

}  // namespace dynid
