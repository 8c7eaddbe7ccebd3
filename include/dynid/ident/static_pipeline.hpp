#pragma once
// The static identification of a robot from a lab recording, end to end (paper 000), as
// `dynid identify static` and `dynid demo` run it (docs/identification-static.md):
//   settled windows -> per window the mean marker positions, marker IK (or encoders for the joints)
//   and the mean plate wrench -> COP -> identify_static -> GCOM errors on fit and held-out poses
//   -> optional validation on a dynamic recording (residual base wrench, nominal vs identified)
//   -> summary.json, the updated URDF and report.html.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "dynid/ident/residual_wrench.hpp"
#include "dynid/ident/static_identification.hpp"
#include "dynid/model/robot.hpp"

namespace dynid {

enum class PoseSource { Markers, Encoders };
enum class WindowSource { Detect, Segments };

struct StaticPipelineOptions {
  double total_mass = 0.0;            ///< weighed mass [kg]
  std::vector<std::string> segments;  ///< body or link names; empty: default_static_segments
  std::string validate;               ///< data set with a dynamic motion (squat), optional
  std::string truth_urdf;             ///< true model for per-segment errors, optional
  double heldout_fraction = 0.25;     ///< pose n is held out when floor((n+1) F) > floor(n F): F = 0.25 -> every 4th
  PoseSource pose_source = PoseSource::Markers;
  WindowSource windows = WindowSource::Detect;
  StaticPrior prior = StaticPrior::Scaled;
  double cutoff_hz = 4.0;  ///< validation: zero-phase low-pass of q and plate wrenches before differentiating [Hz]
  double validation_trim_s = 0.2;  ///< validation: dropped at each end (filter edges)
};

struct StaticPipelineResult {
  StaticIdentificationResult identification;
  std::vector<MeasuredStaticPose> poses;
  std::vector<double> gcom_error_nominal, gcom_error_identified;  ///< per pose [m]
  std::vector<double> ik_rms;                                     ///< per pose: marker RMS of its IK [m]
  bool validated = false;
  ResidualWrench residual_nominal, residual_identified;
  bool validated_truth = false;  ///< with truth_urdf: the true model's residual (the method's floor)
  ResidualWrench residual_truth;
  nlohmann::json summary;  ///< what summary.json holds
  std::string urdf;        ///< the updated URDF text
};

/// Runs the pipeline on `data` (a data set directory) for `robot` (with its sidecar markers).
/// Throws with a one-line reason on bad input.
StaticPipelineResult run_static_identification(const Robot& robot, const std::string& data,
                                               const StaticPipelineOptions& options);

/// Writes DIR/summary.json, DIR/<robot>_identified.urdf and DIR/report.html (atomically).
void write_static_identification(const StaticPipelineResult& result, const Robot& robot, const std::string& out_dir);

/// report.html of a result (paper 000 figs. 5 and 6).
std::string static_identification_report(const StaticPipelineResult& result, const Robot& robot);

}  // namespace dynid
