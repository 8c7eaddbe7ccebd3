#include "dynid/pipeline/unexplained_residual.hpp"

#include <cmath>

#include "dynid/core/number_format.hpp"

namespace dynid {

UnexplainedResidual assess_unexplained_residual(std::optional<double> cad_data_scale,
                                                const std::vector<EquationGroupScale>& groups,
                                                double residual_rms_weighted) {
  UnexplainedResidual u;
  if (cad_data_scale) {
    u.noise_ratio = std::sqrt(std::max(*cad_data_scale, 0.0));
    u.basis =
        "the square root of the data's weight c (the CAD prior's residual variance in units of the sensors' "
        "noise variance)";
  } else if (!groups.empty()) {
    double sum = 0.0, rows = 0.0;
    for (const EquationGroupScale& g : groups) {
      sum += static_cast<double>(g.rows) * g.scale * g.scale;
      rows += static_cast<double>(g.rows);
    }
    u.noise_ratio = rows > 0.0 ? std::sqrt(sum / rows) : 0.0;
    u.basis = "the equation groups' residual scales (RMS over their rows)";
  } else {
    u.noise_ratio = residual_rms_weighted;
    u.basis = "the weighted least-squares residual RMS";
  }
  const std::string ratio = format_fixed(u.noise_ratio, 2);
  if (u.noise_ratio <= kResidualAtNoise) {
    u.level = "at-sensor-noise";
    u.explanation = "The training equations' residual is " + ratio +
                    " times what the sensors' noise alone leaves: the model and the data path explain the data "
                    "down to the noise.";
  } else if (u.noise_ratio <= kResidualFarAbove) {
    u.level = "above-sensor-noise";
    u.explanation = "The training equations' residual is " + ratio +
                    " times what the sensors' noise alone leaves: part of it comes from effects neither the "
                    "rigid-body model nor the sensors' noise model has (gear backlash and wind-up, sensor "
                    "calibration, unmodelled dynamics); parameters the motion hardly determines may have moved to "
                    "absorb it.";
  } else {
    u.level = "far-above-sensor-noise";
    u.explanation = "The training equations' residual is " + ratio +
                    " times what the sensors' noise alone leaves: look for a data-path error before trusting the "
                    "parameters — a clock offset between streams (--align-time), a sensor's sign, unit or "
                    "calibration, a contact state or sensor set that does not hold — or a model class too small "
                    "(friction, locked joints that move).";
  }
  return u;
}

}  // namespace dynid
