#pragma once
// `dynid import log`: a robot controller's own log (CSV or whitespace-separated text, one column per
// channel, any column names) turned into a dynid data set (docs/data-format.md, "Importing a
// robot's own log"): a map file names the time column (or the rate) and, per joint, the columns of
// its position, velocity and torque with their units and sign. Non-uniform time stamps are
// resampled onto a uniform grid (linear interpolation) and the jitter is reported.

#include <limits>
#include <string>
#include <vector>

#include "dynid/model/model.hpp"

namespace dynid {

/// One joint of the map file: the log's columns and how to read them.
struct LogJointMap {
  std::string joint;       ///< joint name in the model
  std::string q, dq, tau;  ///< log column names (dq, tau may be empty)
  double q_scale = 1.0;    ///< to rad (rad: 1, deg: pi/180) or m for a prismatic joint
  double tau_scale = 1.0;  ///< to N m (N m: 1; A: the joint-side torque constant [N m/A])
  double sign = 1.0;       ///< +1 or -1: the log's positive direction against the model's axis
};

/// The map file (YAML; docs/data-format.md gives every key).
struct LogMap {
  std::string source_path;
  std::string time_column;  ///< empty: rate_hz gives the time
  double time_scale = 1.0;  ///< to s (s, ms, us, ns)
  double rate_hz = 0.0;     ///< without a time column: the log's rate; with one: the output rate (0: median)
  double from_s = -std::numeric_limits<double>::infinity();  ///< time window [s] (log time)
  double to_s = std::numeric_limits<double>::infinity();
  std::vector<LogJointMap> joints;
};

/// Reads and checks a map file against the model; throws one line naming the file and the key or
/// joint at fault (an unknown joint, a unit dynid does not know, a sign other than +-1).
LogMap read_log_map(const std::string& path, const Model& model);

/// A log read as a table: its column names and rows (NaN for empty fields).
struct LogTable {
  std::string path;
  std::vector<std::string> header;
  std::vector<std::vector<double>> rows;
  std::vector<long> line;  ///< file line of each row (1-based)
};

/// Reads a CSV (comma or semicolon) or whitespace-separated text log whose first line that is not
/// empty or a '#' comment is the header. Throws "PATH: line N: reason" on a malformed row.
LogTable read_log_table(const std::string& path);

struct LogImportOptions {
  std::string log_path, map_path, out_dir;
  std::string model_path;  ///< written into dataset.json (`model`)
  /// Overrides of the map's window [s] (NaN: the map's).
  double from_s = std::numeric_limits<double>::quiet_NaN(), to_s = std::numeric_limits<double>::quiet_NaN();
};

struct LogImportResult {
  long rows_read = 0;         ///< log rows in the window
  long samples = 0;           ///< resampled samples written
  double rate_hz = 0.0;       ///< of the written streams
  double start_s = 0.0;       ///< first written stamp [s] (log time)
  double duration_s = 0.0;    ///< [s]
  double jitter_rms_s = 0.0;  ///< RMS of (stamp interval - 1 / rate) [s] over the log rows
  double jitter_max_s = 0.0;  ///< largest |stamp interval - 1 / rate| [s]
  std::string summary_json;   ///< what was written to import.json
};

/// Imports the log into a new data set in options.out_dir (written as a whole: staged, then
/// moved into place): encoders.csv (q.JOINT, rad or m), torques.csv (tau.JOINT, N m) when the map
/// has torques, velocities.csv (v.JOINT) when it has velocities, dataset.json and import.json.
/// Throws one line naming the column, the joint or the log line at fault.
LogImportResult import_log(const Model& model, const LogImportOptions& options);

}  // namespace dynid
