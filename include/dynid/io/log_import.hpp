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

/// One file of a stacked log (`stacked` in the map): one value per line, a sample's values on
/// consecutive lines, named `columns` in that order.
struct StackedLogFile {
  std::string file;  ///< relative to the log's directory
  std::vector<std::string> columns;
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
  /// A log written as several files of one value per line (a MATLAB or embedded logger's dump):
  /// LOG is then the directory holding them, and their columns are the table's. Empty: LOG is one
  /// CSV or text table.
  std::vector<StackedLogFile> stacked;
};

/// Reads and checks a map file against the model; throws one line naming the file and the key or
/// joint at fault (an unknown joint, a unit dynid does not know, a sign other than +-1).
LogMap read_log_map(const std::string& path, const Model& model);

/// A log read as a table: its column names and rows (NaN for empty fields).
struct LogTable {
  std::string path;
  std::vector<std::string> header;
  std::vector<std::vector<double>> rows;
  std::vector<long> line;  ///< file line of each row (1-based); a stacked log's sample number
  bool stacked = false;    ///< read from stacked files (read_stacked_log_table)
};

/// Reads a CSV (comma or semicolon) or whitespace-separated text log whose first line that is not
/// empty or a '#' comment is the header. Throws "PATH: line N: reason" on a malformed row.
LogTable read_log_table(const std::string& path);

/// Reads a stacked log: each of `files` (in directory `dir`) holds one value per line ('#' comments
/// and empty lines skipped), each sample's values on consecutive lines in the order of its columns;
/// every file must hold the same number of samples. Throws "FILE: ..." naming the file at fault.
LogTable read_stacked_log_table(const std::string& dir, const std::vector<StackedLogFile>& files);

/// A log's joint channels in the model's units and signs, at the log's own stamps (the map's
/// window applied), before any resampling.
struct LogSeries {
  std::vector<std::string> joints;  ///< model joint names, in the map's order
  std::vector<bool> prismatic;      ///< per joint: m (and N) instead of rad (and N m)
  std::vector<double> time;         ///< [s] log time, strictly increasing
  Eigen::MatrixXd q, dq, tau;       ///< joints x rows; dq and tau have no rows when the map has none
  double rate_hz = 0.0;             ///< the map's rate, else the median stamp interval's
  double jitter_rms_s = 0.0;        ///< RMS of (stamp interval - 1 / rate) [s]
  double jitter_max_s = 0.0;        ///< largest |stamp interval - 1 / rate| [s]

  bool has_velocities() const { return dq.rows() > 0; }
  bool has_torques() const { return tau.rows() > 0; }
  double start_s() const { return time.front(); }
  double end_s() const { return time.back(); }
  /// Linear interpolation at log time `t` [s] between the bracketing rows (the end rows held
  /// outside the log). Outputs of size joints; dq_out and tau_out untouched when absent.
  void sample(double t, Eigen::Ref<Eigen::VectorXd> q_out, Eigen::Ref<Eigen::VectorXd> dq_out,
              Eigen::Ref<Eigen::VectorXd> tau_out) const;
};

/// A named warning, "time gap: LOG has no samples for S s after log time T s (...)", when two
/// consecutive rows of `series` with log times overlapping [from, to] are more than 5 of its
/// periods apart (a stalled logger: whatever resamples the log interpolates across it); empty
/// when there is none.
std::string log_time_gap_warning(const LogSeries& series, const std::string& log_path, double from, double to);

/// Reads the log the map describes. Throws one line naming the column, the joint or the log line at
/// fault (a missing column, an empty field, time that does not increase, an empty window).
LogSeries read_log_series(const Model& model, const LogMap& map, const std::string& log_path);

/// The streams a log gives a data set: dataset.json lists each under `streams` as
/// {"file": FILE, "rate_hz": the series' rate, "noise_free": false}.
struct LogStreamFiles {
  std::vector<std::pair<std::string, std::string>> streams;  ///< (stream name, file name)
  long samples = 0;
};

/// A stretch of a log to write: the series sampled at `log_time` [s], stamped `stamps` [s].
struct LogStreamSegment {
  const LogSeries* series = nullptr;
  std::vector<double> log_time, stamps;
};

/// Writes encoders.csv (q.JOINT), velocities.csv (v.JOINT) and torques.csv (tau.JOINT) into `dir`,
/// the segments one after the other (their series must have the same joints and channels; stamps
/// increasing). The streams' rate is the first series'.
LogStreamFiles write_log_streams(const std::vector<LogStreamSegment>& segments, const std::string& dir);

struct LogImportOptions {
  std::string log_path, map_path, out_dir;
  std::string model_path;  ///< written into dataset.json (`model`)
  /// Overrides of the map's window [s] (NaN: the map's).
  double from_s = std::numeric_limits<double>::quiet_NaN(), to_s = std::numeric_limits<double>::quiet_NaN();
};

struct LogImportResult {
  long rows_read = 0;                 ///< log rows in the window
  long samples = 0;                   ///< resampled samples written
  double rate_hz = 0.0;               ///< of the written streams
  double start_s = 0.0;               ///< first written stamp [s] (log time)
  double duration_s = 0.0;            ///< [s]
  double jitter_rms_s = 0.0;          ///< RMS of (stamp interval - 1 / rate) [s] over the log rows
  double jitter_max_s = 0.0;          ///< largest |stamp interval - 1 / rate| [s]
  std::vector<std::string> warnings;  ///< named warnings (a time gap in the log), also in import.json
  std::string summary_json;           ///< what was written to import.json
};

/// Imports the log into a new data set in options.out_dir (written as a whole: staged, then
/// moved into place): encoders.csv (q.JOINT, rad or m), torques.csv (tau.JOINT, N m) when the map
/// has torques, velocities.csv (v.JOINT) when it has velocities, dataset.json and import.json.
/// Throws one line naming the column, the joint or the log line at fault.
LogImportResult import_log(const Model& model, const LogImportOptions& options);

}  // namespace dynid
