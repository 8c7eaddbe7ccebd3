#pragma once
// The static identification of a robot from a lab recording, end to end (paper 000), as
// `dynid identify static` and `dynid demo` run it (docs/identification-static.md). Each stage is a
// public function over loaded objects; run_static_identification chains them:
//   find_static_windows      settled windows (or the data set's segments)
//   measure_static_poses     per window the mean marker positions, marker IK (or encoders for the
//                            joints) and the mean plate wrench -> COP
//   fit_static_model         identify_static -> GCOM errors on fit and held-out poses, updated URDF
//   validate_static_identification   optional: residual base wrench on a dynamic recording
//   static_summary_json, write_static_identification   summary.json, the URDF and report.html

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "dynid/data/lab_recording.hpp"
#include "dynid/data/plate_crosstalk_calibration.hpp"
#include "dynid/data/plate_zero.hpp"
#include "dynid/data/residual_wrench.hpp"
#include "dynid/data/time_alignment.hpp"
#include "dynid/ident/static_identification.hpp"
#include "dynid/mocap/marker_mount_calibration.hpp"
#include "dynid/model/robot.hpp"
#include "dynid/pipeline/unexplained_residual.hpp"
#include "dynid/pipeline/user_terms.hpp"

namespace dynid {

enum class PoseSource { Markers, Encoders };
enum class WindowSource { Detect, Segments };

struct StaticPipelineOptions {
  double total_mass = 0.0;  ///< weighed mass [kg]
  /// Names an imported lab trial as the user gave it in the summary (pipeline/user_terms.hpp).
  UserTerms user_terms;
  std::vector<std::string> segments;  ///< body or link names; empty: default_static_segments
  std::string validate;               ///< data set with a dynamic motion (squat), optional
  std::string truth_urdf;             ///< true model for per-segment errors, optional
  double heldout_fraction = 0.25;     ///< pose n is held out when floor((n+1) F) > floor(n F): F = 0.25 -> every 4th
  PoseSource pose_source = PoseSource::Markers;
  WindowSource windows = WindowSource::Detect;
  StaticPrior prior = StaticPrior::Scaled;
  double cutoff_hz = 4.0;  ///< validation: zero-phase low-pass of q and plate wrenches before differentiating [Hz]
  double validation_trim_s = 0.2;  ///< validation: dropped at each end (filter edges)
  /// Calibrate where the markers sit on their bodies from the poses before the fit
  /// (mocap/marker_mount_calibration.hpp); the poses' IK then uses the calibrated offsets.
  bool calibrate_markers = false;
  /// Calibrate the force plates' vertical-to-horizontal crosstalk from the static poses and remove
  /// it from the poses' and the validation motion's plates (data/plate_crosstalk_calibration.hpp).
  bool calibrate_plates = false;
  /// Zero each force plate from the windows where it carries no foot (offset and drift,
  /// data/plate_zero.hpp), in the poses and, where it has such windows, the validation motion;
  /// before the crosstalk calibration.
  bool zero_plates = false;
  /// Validation: the plates run on their own clock; estimate its offset against the markers' (the
  /// plates' total force against the limbs' COM accelerations of the markers' configurations) and
  /// read the plates on the markers' clock (data/time_alignment.hpp).
  bool align_time = false;
};

struct StaticPipelineResult {
  StaticIdentificationResult identification;
  std::vector<MeasuredStaticPose> poses;
  std::vector<double> gcom_error_nominal, gcom_error_identified;  ///< per pose [m]
  std::vector<double> ik_rms;                                     ///< per pose: marker RMS of its IK [m]
  /// Per pose, its window cut into blocks (kStaticNoiseBlocks): each block's configuration (its mean
  /// markers solved from the pose's) and its plates' centre of pressure [m], for the noise the pose's
  /// mean carries (the unexplained residual's yardstick). Empty for a window too short to cut.
  struct PoseBlock {
    VectorX q;
    Vector3 cop;
  };
  std::vector<std::vector<PoseBlock>> pose_blocks;
  /// The fitted poses' GCOM residual against that noise (assess_static_residual).
  UnexplainedResidual unexplained;
  double gcom_noise_m = 0.0;  ///< RMS over the fitted poses of their means' standard error [m]
  std::optional<MarkerMountCalibration> marker_calibration;    ///< with options.calibrate_markers
  std::optional<PlateCrosstalkCalibration> plate_calibration;  ///< with options.calibrate_plates
  std::optional<PlateZeroing> plate_zero;                      ///< with options.zero_plates: the poses' plates
  std::optional<PlateZeroing> validation_plate_zero;           ///< with options.zero_plates and a validation
  std::vector<std::string> warnings;                           ///< named in summary.json "warnings" and the report
  std::vector<std::string> marker_names;                       ///< the IK's markers, in its order
  bool validated = false;
  ResidualWrench residual_nominal, residual_identified;
  bool validated_truth = false;  ///< with truth_urdf: the true model's residual (the method's floor)
  ResidualWrench residual_truth;
  std::optional<StreamAlignment> plate_clock;  ///< with options.align_time: the validation plates' clock
  nlohmann::json summary;                      ///< what summary.json holds
  std::string urdf;                            ///< the updated URDF text
};

/// A static pose's time span in the recording and its marker frames.
struct StaticWindow {
  std::string label;                 ///< the data set's segment label, or "window N"
  double start = 0.0, end = 0.0;     ///< [s]
  Eigen::Index first = 0, last = 0;  ///< marker frames
};

struct StaticWindows {
  std::vector<StaticWindow> windows;
  nlohmann::json description;  ///< summary.json's "windows": how they were found
};

/// Throws "DIR: the data set has no markers stream" (or plates; or encoders when `encoders`) unless
/// the recording holds what the stages read: what run_static_identification checks first.
void require_markers_and_plates(const LabRecording& recording, bool encoders);

/// Stage 1: the held poses, detected where the markers and plates settle (WindowSource::Detect) or
/// the data set's segments. Throws when fewer than two are found.
StaticWindows find_static_windows(const LabRecording& recording, const StaticPipelineOptions& options);

/// Stage 2: each window's configuration (marker IK; the joints from the encoders with
/// PoseSource::Encoders) and centre of pressure; held-out poses marked. Fills result.poses, ik_rms.
void measure_static_poses(const Robot& robot, const LabRecording& recording, const StaticWindows& windows,
                          const StaticPipelineOptions& options, StaticPipelineResult& result);

/// Stage 3: segment masses and COMs from the poses, GCOM errors before/after, the updated URDF.
void fit_static_model(const Robot& robot, const StaticPipelineOptions& options, StaticPipelineResult& result);

/// Stage 4: residual base wrench of `options.validate`'s motion for the nominal and identified
/// models (and the true one, the method's floor, when given).
void validate_static_identification(const Robot& robot, const Model* truth, const StaticPipelineOptions& options,
                                    StaticPipelineResult& result);

/// Stage 5: what summary.json holds (`truth`: the simulation's true robot, may be null).
nlohmann::json static_summary_json(const Robot& robot, const std::string& data, const StaticWindows& windows,
                                   const Robot* truth, const StaticPipelineOptions& options,
                                   const StaticPipelineResult& result);

/// All the stages on `data` (a data set directory) for `robot` (with its sidecar markers).
/// Throws with a one-line reason on bad input.
StaticPipelineResult run_static_identification(const Robot& robot, const std::string& data,
                                               const StaticPipelineOptions& options);

/// Writes DIR/summary.json, DIR/<robot>_identified.urdf and DIR/report.html (atomically).
void write_static_identification(const StaticPipelineResult& result, const Robot& robot, const std::string& out_dir);

/// report.html of a result (paper 000 figs. 5 and 6).
std::string static_identification_report(const StaticPipelineResult& result, const Robot& robot);

}  // namespace dynid
