#pragma once
// What the identified model leaves unexplained (issue 19, docs/identification.md, "What the model
// leaves unexplained"): the training equations' residual against what their sensors' noise alone
// would leave. The rows are weighted by their sensors' noise (sensor_noise / sidecar), so a model
// class and a data path that explain everything but the noise leave a residual of about one noise
// standard deviation; more is what neither the rigid-body model nor the noise model has — backlash,
// a sensor's calibration, a clock offset, unmodelled dynamics — and a user should look there before
// trusting parameters the fit moved to absorb it.

#include <optional>
#include <string>
#include <vector>

#include "dynid/ident/residual_weighting.hpp"

namespace dynid {

inline constexpr double kResidualAtNoise = 1.5;   ///< noise ratio up to which the residual is the sensors' noise
inline constexpr double kResidualFarAbove = 5.0;  ///< above it, far above the noise

struct UnexplainedResidual {
  double noise_ratio = 0.0;  ///< residual RMS / the sensors' noise alone (training equations)
  std::string basis;         ///< how the ratio was obtained, for the report
  std::string level;         ///< "at-sensor-noise", "above-sensor-noise" or "far-above-sensor-noise"
  std::string explanation;   ///< one sentence for the report and the summary
};

/// From the CAD prior's data scale c (the residual variance in units of the sensors' noise
/// variance, the fit's own absorption counted): ratio sqrt(c); else, with residual weighting, the
/// equation groups' scales (RMS over their rows); else the weighted residual RMS of the fit.
UnexplainedResidual assess_unexplained_residual(std::optional<double> cad_data_scale,
                                                const std::vector<EquationGroupScale>& groups,
                                                double residual_rms_weighted);

/// The static identification's (paper 000): `noise_ratio` = the fitted poses' GCOM residual RMS over
/// the standard error their own windows give their means (the windows cut into blocks, the blocks'
/// GCOM-minus-COP scattered by marker and plate noise and sway: batch means). What stays above it is
/// the same in every block of a pose: marker mounting, a plate's COP calibration, a segment model too
/// coarse for the poses.
UnexplainedResidual assess_static_residual(double noise_ratio, double residual_rms_m);

/// The actuator fit's (paper 002, `identify actuator`): `noise_ratio` = the fit's RMS voltage
/// residual over the white noise of the applied voltage itself (its second differences: the
/// encoder's and the supply reading's quantization through eq. 16), which a complete model would
/// leave. `residual_v`, `noise_v` [V] for the sentence.
UnexplainedResidual assess_actuator_residual(double residual_v, double noise_v);

/// The IZMP's (paper 001, `dynid izmp`, simulated data sets): `noise_ratio` = the IZMP's RMS distance
/// to the physical ZMP (`physical_mm`) over what a perfect model would leave: the root sum of squares
/// of what the sensors put in (`sensors_mm`: its distance to the same method's IZMP from ideal
/// signals) and what the method leaves with ideal signals and the true model (`floor_mm`, the data
/// set's truth.urdf; without one, the sensors' part alone). All [mm]. Above the noise is the model's
/// (its masses, COMs and inertias).
UnexplainedResidual assess_izmp_residual(double physical_mm, double sensors_mm, std::optional<double> floor_mm);

}  // namespace dynid
