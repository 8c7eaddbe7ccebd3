#pragma once
// `dynid import c3d`: a motion-capture lab's own trials (C3D, as Vicon, Qualisys, Motion Analysis,
// BTS or Optotrak write them) turned into a dynid data set (docs/data-format.md, "Importing a
// motion-capture recording"): the markers, renamed to the robot's marker names, and every force
// plate with its corners and its wrench and COP stream, so `identify static` and `identify inertial
// --source mocap` read a lab's recording as they read a simulated one.
//
// Several trials (a lab records each static pose as its own trial) are laid end to end, each after
// a gap of `kTrialGapS` without samples, and listed as `segments` (category "trial"), so
// `identify static --windows segments` takes one pose per trial. Trials must agree on rates and
// plates.
//
// Conventions: the lab frame is kept as it is (dynid expects z up, as most labs define it); marker
// coordinates in metres; plates.csv holds the wrench the robot applies to each plate (the C3D's
// ground reaction negated) in world axes, the moment about the plate's top centre, and the COP
// (empty where the normal force is below the threshold); analog samples are read as instants.

#include <string>
#include <vector>

#include "dynid/model/model.hpp"

namespace dynid {

inline constexpr double kTrialGapS = 1.0;  ///< time between two imported trials [s]

struct C3dImportOptions {
  std::vector<std::string> trials;  ///< C3D files, in order
  std::string out_dir;
  /// Optional YAML label map: `labels: {LAB_LABEL: model_marker}` (an empty value drops the label).
  std::string labels_path;
  const Model* model = nullptr;        ///< optional: the robot, to check labels against its markers
  std::string robot_name, model_path;  ///< written into dataset.json (`robot`, `model`)
  double cop_threshold_n = 20.0;       ///< normal force [N] below which the COP is left empty
  /// TRC trials' force plates: one ground reaction file (.mot / .sto, OpenSim's layout) per trial, in
  /// order, with the plates' corners from `plate_layout_path` (YAML/JSON or a C3D of the same lab;
  /// mocap/trc_force_plates.hpp). Only with TRC trials: a C3D carries its own plates.
  std::vector<std::string> plate_files;
  std::string plate_layout_path;
  /// The vertical axis of the lab frame every file is in: "z" (kept) or "y" (OpenSim's; turned to
  /// dynid's z up, mocap/lab_up_axis.hpp).
  std::string up_axis = "z";
  /// The length unit of the ground reaction files' points, "m" or "mm" (their torques are in N times
  /// it: N m or N mm, as OpenSim's C3D export writes them); empty: what each file's header says
  /// (`units` / `Units=`), else metres.
  std::string plates_length_unit;
  /// The robot's own log(s) (`dynid import log`'s format, read with `robot_log_map`; needs `model`):
  /// one for every trial (a log running through the session), or one per trial, in order. Its
  /// encoders (and torques, velocities) join the data set on the trial's clock.
  std::vector<std::string> robot_logs;
  std::string robot_log_map;
  /// The log's time [s] at each trial's first marker frame (one per trial; a single value with a
  /// single trial). Empty: estimated from the markers (mocap/robot_log_alignment.hpp).
  std::vector<double> robot_log_offsets;
  /// The robot's clock against the lab's: log time = offset + (1 + drift 1e-6) (trial time), drift in
  /// ppm, the same for every trial (a crystal's rate error; 0: the clocks run at the same rate).
  double robot_log_drift_ppm = 0.0;
  /// Estimate each trial's drift (and offset) instead from windows along the trial
  /// (estimate_robot_log_drift; not with robot_log_offsets or robot_log_drift_ppm).
  bool estimate_robot_log_drift = false;
};

struct C3dImportResult {
  long frames = 0;          ///< marker frames written (all trials)
  long analog_samples = 0;  ///< plate samples written (all trials)
  double marker_rate_hz = 0.0, analog_rate_hz = 0.0;
  std::vector<std::string> markers;          ///< written marker names (after renaming)
  std::vector<std::string> plates;           ///< written plate names
  std::vector<std::string> unknown_labels;   ///< written markers the model does not have (with a model)
  std::vector<std::string> missing_markers;  ///< model markers no trial has (with a model)
  std::vector<std::string> warnings;         ///< what the C3D reader tolerated, per file
  std::vector<double> robot_log_offsets;     ///< per trial, with robot logs: the offset used [s]
  std::vector<double> robot_log_drifts_ppm;  ///< per trial, with robot logs: the drift used [ppm]
  std::string summary_json;                  ///< what import.json holds
};

/// Reads every trial and writes the data set into options.out_dir as a whole (staged, then moved
/// into place): markers.csv, plates.csv, with robot logs encoders.csv (torques.csv,
/// velocities.csv), dataset.json, import.json. Throws one line naming the file and what is wrong
/// (unreadable C3D, trials whose rates or plates differ, a label map naming a marker twice, neither
/// markers nor plates, a log that cannot be aligned).
C3dImportResult import_c3d(const C3dImportOptions& options);

/// The label map file (YAML), lab label -> model marker name ("" drops the label). Throws naming the
/// file and the entry at fault.
std::vector<std::pair<std::string, std::string>> read_marker_label_map(const std::string& path);

/// A DATA argument that may be motion-capture files: one or more C3D or TRC trials are imported
/// (import_c3d, no label map, checked against `model` when given) into a temporary data set that
/// lives as long as this object; a data set directory is passed through as it is. What the identify
/// commands use, so a lab's trials can be given where a data set is expected.
class DatasetOrMocapFile {
 public:
  /// One path; no force plate files (a TRC comes without plates).
  DatasetOrMocapFile(const std::string& path, const Model* model);
  /// `paths`: one data set directory, or C3D/TRC trials, imported with `import`'s force plate options
  /// (plate_files, plate_layout_path, up_axis, plates_length_unit, cop_threshold_n; its trials,
  /// out_dir and model are set here). `plates_needed_by`: the command that reads the plates ("" if
  /// none does), so a TRC without plate files is refused naming --plates. Throws one line: several
  /// paths that are not all trials, plate options beside a data set directory, a TRC without plates.
  DatasetOrMocapFile(const std::vector<std::string>& paths, const Model* model, const C3dImportOptions& import,
                     const std::string& plates_needed_by);
  ~DatasetOrMocapFile();
  DatasetOrMocapFile(const DatasetOrMocapFile&) = delete;
  DatasetOrMocapFile& operator=(const DatasetOrMocapFile&) = delete;
  /// The data set directory to read.
  const std::string& path() const { return path_; }
  /// Whether the paths were motion-capture files, imported.
  bool imported() const { return !temporary_.empty(); }
  /// `message` with the temporary data set's path replaced by the file(s) the user gave.
  std::string in_user_terms(std::string message) const;

 private:
  std::string original_, path_, temporary_;
};

}  // namespace dynid
