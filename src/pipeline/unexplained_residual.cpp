#include "dynid/pipeline/unexplained_residual.hpp"

#include <cmath>
#include <limits>

#include "dynid/core/number_format.hpp"

namespace dynid {
namespace {

/// The level of u.noise_ratio, and the explanation: `said` (the figures) followed by the level's
/// advice.
void grade(UnexplainedResidual& u, const std::string& said, const std::string& at, const std::string& above,
           const std::string& far) {
  if (u.noise_ratio <= kResidualAtNoise) {
    u.level = "at-sensor-noise";
    u.explanation = said + at;
  } else if (u.noise_ratio <= kResidualFarAbove) {
    u.level = "above-sensor-noise";
    u.explanation = said + above;
  } else {
    u.level = "far-above-sensor-noise";
    u.explanation = said + far;
  }
}

}  // namespace

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
  grade(u, "The training equations' residual is " + ratio,
        " times what the sensors' noise alone leaves: the model and the data path explain the data "
        "down to the noise.",
        " times what the sensors' noise alone leaves: part of it comes from effects neither the "
        "rigid-body model nor the sensors' noise model has (gear backlash and wind-up, sensor "
        "calibration, unmodelled dynamics); parameters the motion hardly determines may have moved to "
        "absorb it.",
        " times what the sensors' noise alone leaves: look for a data-path error before trusting the "
        "parameters — a clock offset between streams (--align-time), a sensor's sign, unit or "
        "calibration, a contact state or sensor set that does not hold — or a model class too small "
        "(friction, locked joints that move).");
  return u;
}

UnexplainedResidual assess_static_residual(double noise_ratio, double residual_rms_m) {
  UnexplainedResidual u;
  u.noise_ratio = noise_ratio;
  u.basis =
      "the fitted poses' GCOM residual RMS over the standard error of each pose's mean that its own window gives "
      "(the window cut into blocks: the scatter of the blocks' GCOM minus COP, from marker and plate noise and "
      "sway)";
  const std::string ratio = format_fixed(noise_ratio, 2);
  const std::string residual =
      "The fitted poses' GCOM residual (" + format_fixed(1e3 * residual_rms_m, 3) + " mm RMS) is ";
  grade(u, residual + ratio,
        " times what the markers' and plates' noise leaves in each pose's mean: the segment model and "
        "the lab explain the poses down to the noise.",
        " times what the markers' and plates' noise leaves in each pose's mean: part of it is the same "
        "throughout a pose (markers mounted off their sidecar positions, a plate's centre-of-pressure "
        "error, segments the poses cannot tell apart); --calibrate-markers and --calibrate-plates take "
        "out what they can.",
        " times what the markers' and plates' noise leaves in each pose's mean: compare it with the "
        "accuracy the masses and COMs need, and look for a lab error — markers mounted off their sidecar "
        "positions or swapped, a plate's "
        "calibration or position (--calibrate-markers, --calibrate-plates), poses that were not held "
        "still — or a segment model too coarse for the poses.");
  return u;
}

UnexplainedResidual assess_actuator_residual(double residual_v, double noise_v) {
  UnexplainedResidual u;
  u.noise_ratio = residual_v / noise_v;
  u.basis =
      "the fit's RMS voltage residual over the white noise of the applied voltage itself (from its second "
      "differences: the encoder's and the supply reading's quantization through the P controller), " +
      format_fixed(1e3 * noise_v, 1) + " mV";
  const std::string said = "The fit's voltage residual (" + format_fixed(residual_v, 3) + " V RMS) is " +
                           format_fixed(u.noise_ratio, 2) + " times what the servo's own readings' noise leaves";
  grade(u, said, ": the motor and friction model explains the applied voltage down to that noise.",
        ": part of it is what the model does not have (gear backlash, friction that depends on the "
        "position or the temperature, a dead time between the grid's steps).",
        ": look for what the fit takes as given before trusting the coefficients — the P gain and "
        "k_ctrl (the servo's register), the supply reading, the joint's link model (its inertia and "
        "gravity torque) — or a model class too small (backlash, position-dependent friction).");
  return u;
}

UnexplainedResidual assess_izmp_residual(double physical_mm, double sensors_mm, std::optional<double> floor_mm) {
  UnexplainedResidual u;
  const double floor = floor_mm.value_or(0.0);
  const double expected = std::hypot(sensors_mm, floor);
  u.noise_ratio = expected > 0.0 ? physical_mm / expected : std::numeric_limits<double>::infinity();
  u.basis =
      "the IZMP's RMS distance to the physical ZMP over the root sum of squares of what the sensors put into it ("
      "its distance to the same method's IZMP from ideal signals, " +
      format_fixed(sensors_mm, 2) + " mm) and " +
      (floor_mm ? "what the method leaves with ideal signals and the true model (" + format_fixed(floor, 2) +
                      " mm, the data set's truth.urdf)"
                : std::string("nothing for the method itself (the data set has no truth.urdf)"));
  const std::string said = "The IZMP is " + format_fixed(physical_mm, 2) + " mm RMS from the physical ZMP, " +
                           format_fixed(u.noise_ratio, 2) + " times what the sensors and the method leave";
  grade(u, said,
        ": with these sensors the model's masses, COMs and inertias explain the contact wrench as well as the true "
        "robot's would.",
        ": part of it is the model's (its masses, COMs and inertias differ from the robot's); an "
        "identified model (dynid identify) takes out what the data determine.",
        ": the model's masses, COMs and inertias dominate the IZMP's error, not the sensors; identify "
        "the model (dynid identify) before trusting the IZMP near the sole's edge.");
  return u;
}

}  // namespace dynid
