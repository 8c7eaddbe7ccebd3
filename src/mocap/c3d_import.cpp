#include "dynid/mocap/c3d_import.hpp"

#include <yaml-cpp/yaml.h>

#include <unistd.h>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

#include "dynid/core/atomic_file.hpp"
#include "dynid/core/staged_directory.hpp"
#include "dynid/io/csv_stream.hpp"
#include "dynid/io/log_import.hpp"
#include "dynid/mocap/force_plate.hpp"
#include "dynid/mocap/lab_up_axis.hpp"
#include "dynid/mocap/marker_ik.hpp"
#include "dynid/mocap/mocap_recording.hpp"
#include "dynid/mocap/robot_log_alignment.hpp"
#include "dynid/mocap/trc_force_plates.hpp"

namespace dynid {
namespace {

using json = nlohmann::json;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw std::runtime_error(where + ": " + what);
}

/// The name a lab label gets: the map's, else the label without a "Subject:" prefix (Vicon Nexus
/// writes "Subject:LASI"). Empty: dropped.
std::string marker_name(const std::string& label, const std::map<std::string, std::string>& map) {
  if (const auto it = map.find(label); it != map.end()) return it->second;
  const auto colon = label.rfind(':');
  return colon == std::string::npos ? label : label.substr(colon + 1);
}

bool same_plate(const ForcePlate& a, const ForcePlate& b) {
  return a.number == b.number && (a.corners_world - b.corners_world).cwiseAbs().maxCoeff() < 1e-6;
}

json vec(const Vector3& v) { return json::array({v.x(), v.y(), v.z()}); }

/// The robot log's stretch for trial `t` (lab time [start, end] in the data set): the log sampled at
/// its own rate from the trial's first frame on, at log time offset + (stamp - start), where it
/// covers the trial. The offset is the given one or estimated from the markers.
LogStreamSegment align_robot_log(const C3dImportOptions& options, std::size_t t, const MocapRecording& trial,
                                 const LogSeries& log, const std::string& log_path,
                                 const std::map<std::string, std::string>& label_map, double start, double end,
                                 json& alignment, C3dImportResult& result) {
  json entry = {{"trial", options.trials[t]}, {"log", log_path}};
  double offset = 0.0, drift_ppm = options.robot_log_drift_ppm;
  if (!options.robot_log_offsets.empty()) {
    offset = options.robot_log_offsets[t];
    entry["method"] = "given";
  } else {
    std::vector<std::string> names;
    for (const std::string& label : trial.marker_labels) names.push_back(marker_name(label, label_map));
    // About 50 solved frames a second are plenty for an offset refined below a frame.
    const int stride = std::max(1, static_cast<int>(std::lround(trial.point_rate / 50.0)));
    const std::string what = options.trials[t] + " and " + log_path;
    if (trial.frame_count() < 3)
      throw std::invalid_argument(what +
                                  ": the trial has no marker frames to align the log with; give --robot-log-offset");
    MarkerJointAngles angles;
    try {
      angles = joint_angles_from_markers(*options.model, trial, names, log.joints, stride);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(what + ": " + e.what() + "; give --robot-log-offset");
    }
    const RobotLogOffset found = estimate_robot_log_offset(angles, log, what);
    offset = found.offset_s;
    entry["method"] = "markers";
    entry["rms_rad"] = found.rms_rad;
    entry["motion_rms_rad"] = found.spread_rad;
    entry["frames_compared"] = found.frames;
    entry["ik_rms_m"] = angles.ik_rms_m;
    entry["joints_compared"] = angles.joints;
    entry["joints_not_seen_by_markers"] = angles.unseen_joints;
    if (options.estimate_robot_log_drift) {
      const RobotLogDrift d = estimate_robot_log_drift(angles, log, what, found);
      offset = d.offset_s;
      drift_ppm = d.drift_ppm;
      entry["method"] = "markers, with drift";
      entry["drift_std_ppm"] = d.drift_std_ppm;
      entry["drift_windows"] = d.windows;
      entry["drift_windows_without_motion"] = d.windows_without_motion;
    }
  }
  entry["offset_s"] = offset;
  entry["drift_ppm"] = drift_ppm;
  result.robot_log_offsets.push_back(offset);
  result.robot_log_drifts_ppm.push_back(drift_ppm);
  LogStreamSegment segment{&log, {}, {}};
  const double period = 1.0 / log.rate_hz;
  for (long k = 0;; ++k) {
    const double stamp = start + static_cast<double>(k) * period;
    if (stamp > end + 1e-9) break;
    const double at = offset + (1.0 + 1e-6 * drift_ppm) * (stamp - start);
    if (at < log.start_s() - 1e-9 || at > log.end_s() + 1e-9) continue;
    segment.stamps.push_back(stamp);
    segment.log_time.push_back(at);
  }
  if (segment.stamps.empty())
    throw std::invalid_argument(log_path + ": the log (" + std::to_string(log.start_s()) + " to " +
                                std::to_string(log.end_s()) + " s) has no sample in trial " + options.trials[t] +
                                " at offset " + std::to_string(offset) + " s");
  entry["samples"] = segment.stamps.size();
  // The log is interpolated onto the trial's frames: a gap in it would be bridged without a word.
  const std::string gap = log_time_gap_warning(log, log_path, segment.log_time.front(), segment.log_time.back());
  if (!gap.empty()) result.warnings.push_back(gap + " (trial " + options.trials[t] + ")");
  alignment.push_back(entry);
  return segment;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> read_marker_label_map(const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    fail(path, "cannot open the label map");
  } catch (const YAML::Exception& e) {
    fail(path, std::string("not valid YAML (") + e.what() + ")");
  }
  if (!root.IsMap()) fail(path, "no `labels:` mapping (lab label: model marker name)");
  const YAML::Node labels = root["labels"];
  if (!labels || !labels.IsMap()) fail(path, "no `labels:` mapping (lab label: model marker name)");
  std::vector<std::pair<std::string, std::string>> out;
  std::set<std::string> seen;
  for (const auto& entry : labels) {
    if (!entry.first.IsScalar()) fail(path, "a label map key is not a label");
    const std::string from = entry.first.as<std::string>();
    const std::string to = entry.second.IsNull()     ? ""
                           : entry.second.IsScalar() ? entry.second.as<std::string>()
                                                     : "\x01";
    if (to == "\x01") fail(path, "label '" + from + "': the value must be a marker name (or empty to drop it)");
    if (!to.empty() && !seen.insert(to).second) fail(path, "marker '" + to + "' is the target of two labels");
    out.emplace_back(from, to);
  }
  return out;
}

C3dImportResult import_c3d(const C3dImportOptions& options) {
  if (options.trials.empty()) throw std::invalid_argument("import c3d: no trial given");
  std::map<std::string, std::string> label_map;
  if (!options.labels_path.empty())
    for (const auto& [from, to] : read_marker_label_map(options.labels_path)) label_map[from] = to;

  const std::size_t trial_count = options.trials.size();
  const std::size_t logs = options.robot_logs.size(), offsets = options.robot_log_offsets.size();
  if (logs > 0) {
    if (!options.model) throw std::invalid_argument("--robot-log needs --model (the map names its joints)");
    if (options.robot_log_map.empty()) throw std::invalid_argument("--robot-log needs --map (the log's columns)");
    if (logs != 1 && logs != trial_count)
      throw std::invalid_argument(std::to_string(logs) + " robot logs for " + std::to_string(trial_count) +
                                  " trials: give one log for all trials or one per trial");
  } else if (offsets > 0 || !options.robot_log_map.empty() || options.robot_log_drift_ppm != 0.0 ||
             options.estimate_robot_log_drift) {
    throw std::invalid_argument("--robot-log-offset, --robot-log-drift and --map need --robot-log");
  }
  if (!std::isfinite(options.robot_log_drift_ppm) || std::abs(options.robot_log_drift_ppm) >= 1e5)
    throw std::invalid_argument("--robot-log-drift: a clock's rate error in ppm, |drift| < 100000");
  if (options.estimate_robot_log_drift && (offsets > 0 || options.robot_log_drift_ppm != 0.0))
    throw std::invalid_argument(
        "--robot-log-drift estimate finds the offset and the drift from the markers: give neither "
        "--robot-log-offset nor a drift with it");
  if (offsets > 0 && offsets != trial_count)
    throw std::invalid_argument(std::to_string(offsets) + " robot log offsets for " + std::to_string(trial_count) +
                                " trials: give one per trial");
  std::vector<LogSeries> robot_logs;
  if (logs > 0) {
    const LogMap map = read_log_map(options.robot_log_map, *options.model);
    for (const std::string& path : options.robot_logs) robot_logs.push_back(read_log_series(*options.model, map, path));
  }

  const Matrix3 world_lab = rotation_to_z_up(options.up_axis);
  if (!options.plate_files.empty()) {
    if (options.plate_files.size() != trial_count)
      throw std::invalid_argument(std::to_string(options.plate_files.size()) + " plate files for " +
                                  std::to_string(trial_count) + " trials: give one per trial, in order");
    if (options.plate_layout_path.empty())
      throw std::invalid_argument(
          "--plates needs --plate-layout (the plates' corners: a YAML/JSON file or a C3D of the same lab)");
    for (const std::string& path : options.trials)
      if (mocap_file_type(path) != MocapFileType::Trc)
        fail(path, "--plates goes with TRC trials (a C3D carries its own force plates)");
  } else if (!options.plate_layout_path.empty()) {
    throw std::invalid_argument("--plate-layout needs --plates (the trials' ground reaction files)");
  } else if (!options.plates_length_unit.empty()) {
    throw std::invalid_argument("--plates-unit needs --plates (the unit of the trials' ground reaction files)");
  }
  const std::vector<PlateLayoutEntry> layout = options.plate_layout_path.empty()
                                                   ? std::vector<PlateLayoutEntry>{}
                                                   : read_plate_layout(options.plate_layout_path);

  std::vector<MocapRecording> trials;
  json plate_files = json::array();
  for (std::size_t t = 0; t < trial_count; ++t) {
    trials.push_back(read_mocap_file(options.trials[t]));
    rotate_lab_frame(trials.back(), world_lab);
    if (options.plate_files.empty()) continue;
    const TrcPlatesReport r = attach_trc_force_plates(trials.back(), options.plate_files[t], layout, world_lab,
                                                      options.cop_threshold_n, options.plates_length_unit);
    trials.back().warnings.insert(trials.back().warnings.end(), r.warnings.begin(), r.warnings.end());
    plate_files.push_back({{"trial", options.trials[t]},
                           {"file", r.file},
                           {"rate_hz", r.rate_hz},
                           {"largest_stamp_deviation_s", r.largest_stamp_deviation_s},
                           {"resampled", r.resampled},
                           {"length_unit", r.length_unit},
                           {"length_unit_from", r.length_unit_from},
                           {"samples_kept", r.samples_kept},
                           {"samples_outside_trial", r.samples_dropped},
                           {"plates", r.columns},
                           {"samples_without_point_on_plate", r.points_outside_plate}});
  }

  C3dImportResult result;
  const MocapRecording& first = trials.front();
  result.marker_rate_hz = first.point_rate;
  result.analog_rate_hz = first.force_plates.empty() ? 0.0 : first.analog_rate;
  // Trials must agree on what a data set holds once: rates and plates.
  for (std::size_t t = 1; t < trials.size(); ++t) {
    const MocapRecording& r = trials[t];
    if (r.marker_count() > 0 && first.marker_count() > 0 && std::abs(r.point_rate - first.point_rate) > 1e-9)
      fail(options.trials[t], "marker rate " + std::to_string(r.point_rate) + " Hz differs from " +
                                  options.trials.front() + "'s " + std::to_string(first.point_rate) + " Hz");
    if (r.force_plates.size() != first.force_plates.size())
      fail(options.trials[t], std::to_string(r.force_plates.size()) + " force plates, " + options.trials.front() +
                                  " has " + std::to_string(first.force_plates.size()));
    for (std::size_t p = 0; p < r.force_plates.size(); ++p)
      if (!same_plate(r.force_plates[p], first.force_plates[p]))
        fail(options.trials[t], "force plate " + std::to_string(r.force_plates[p].number) + " is not where it is in " +
                                    options.trials.front() + " (corners differ)");
    if (!r.force_plates.empty() && std::abs(r.analog_rate - first.analog_rate) > 1e-9)
      fail(options.trials[t], "analog rate differs from " + options.trials.front() + "'s");
  }

  // Marker names: the union over the trials, in order of first appearance; each trial's column.
  std::vector<std::vector<Eigen::Index>> column(trials.size());  // per trial, per written marker
  for (std::size_t t = 0; t < trials.size(); ++t) {
    std::set<std::string> in_trial;
    for (Eigen::Index m = 0; m < trials[t].marker_count(); ++m) {
      const std::string& label = trials[t].marker_labels[static_cast<std::size_t>(m)];
      const std::string name = marker_name(label, label_map);
      if (name.empty()) continue;
      if (!in_trial.insert(name).second)
        fail(options.trials[t], "two labels become marker '" + name + "' (give them names in --labels)");
      if (std::find(result.markers.begin(), result.markers.end(), name) == result.markers.end())
        result.markers.push_back(name);
    }
  }
  for (std::size_t t = 0; t < trials.size(); ++t) {
    column[t].assign(result.markers.size(), -1);
    for (Eigen::Index m = 0; m < trials[t].marker_count(); ++m) {
      const std::string name = marker_name(trials[t].marker_labels[static_cast<std::size_t>(m)], label_map);
      const auto it = std::find(result.markers.begin(), result.markers.end(), name);
      if (!name.empty() && it != result.markers.end())
        column[t][static_cast<std::size_t>(it - result.markers.begin())] = m;
    }
  }
  if (options.model) {
    std::set<std::string> known;
    for (const ModelMarker& m : model_markers(*options.model)) known.insert(m.name);
    for (const std::string& n : result.markers)
      if (!known.count(n)) result.unknown_labels.push_back(n);
    for (const std::string& n : known)
      if (std::find(result.markers.begin(), result.markers.end(), n) == result.markers.end())
        result.missing_markers.push_back(n);
  }
  for (const ForcePlate& p : first.force_plates) result.plates.push_back("plate" + std::to_string(p.number));
  if (result.markers.empty() && result.plates.empty())
    fail(options.trials.front(), "neither markers nor force plates to import");
  for (std::size_t t = 0; t < trials.size(); ++t)
    for (const std::string& w : trials[t].warnings) result.warnings.push_back(options.trials[t] + ": " + w);

  StagedDirectory out(options.out_dir, "import c3d");
  std::unique_ptr<CsvStreamWriter> markers_csv, plates_csv;
  if (!result.markers.empty()) {
    std::vector<Channel> channels;
    for (const std::string& n : result.markers)
      for (const char* axis : {".x", ".y", ".z"}) channels.push_back({n + axis, "m"});
    markers_csv = std::make_unique<CsvStreamWriter>(out.path() + "/markers.csv", channels, 10);
  }
  if (!result.plates.empty()) {
    std::vector<Channel> channels;
    for (const std::string& n : result.plates) {
      for (const char* c : {".fx", ".fy", ".fz"}) channels.push_back({n + c, "N"});
      for (const char* c : {".mx", ".my", ".mz"}) channels.push_back({n + c, "N m"});
      for (const char* c : {".copx", ".copy"}) channels.push_back({n + c, "m"});
    }
    plates_csv = std::make_unique<CsvStreamWriter>(out.path() + "/plates.csv", channels, 10);
  }

  json segments = json::array(), files = json::array(), log_alignment = json::array();
  std::vector<LogStreamSegment> log_segments;
  double start = 0.0;
  std::vector<double> row;
  for (std::size_t t = 0; t < trials.size(); ++t) {
    const MocapRecording& r = trials[t];
    double end = start;
    if (markers_csv && r.frame_count() > 0) {
      row.assign(3 * result.markers.size(), kNaN);
      for (Eigen::Index f = 0; f < r.frame_count(); ++f) {
        for (std::size_t m = 0; m < result.markers.size(); ++m) {
          const Eigen::Index c = column[t][m];
          const Vector3 p = c >= 0 && r.marker_valid(c, f) ? Vector3(r.marker_position(c, f)) : Vector3::Constant(kNaN);
          for (int k = 0; k < 3; ++k) row[3 * m + static_cast<std::size_t>(k)] = p[k];
        }
        const double time = start + static_cast<double>(f) / r.point_rate;
        markers_csv->write(time, row);
        end = std::max(end, time);
        ++result.frames;
      }
    }
    if (plates_csv && r.analogs.cols() > 0) {
      std::vector<PlateSeries> series;
      for (const ForcePlate& p : r.force_plates)
        series.push_back(ground_reaction_series(p, r.analogs, options.cop_threshold_n));
      row.assign(8 * result.plates.size(), kNaN);
      for (Eigen::Index k = 0; k < r.analogs.cols(); ++k) {
        for (std::size_t p = 0; p < series.size(); ++p) {
          // plates.csv: the wrench the robot applies to the plate, the C3D's ground reaction negated.
          const Vector3 f = -series[p].force_world.col(k), m = -series[p].moment_at_center_world.col(k);
          const Vector3 cop = series[p].cop_world.col(k);
          for (int i = 0; i < 3; ++i) {
            row[8 * p + static_cast<std::size_t>(i)] = f[i] + 0.0;
            row[8 * p + 3 + static_cast<std::size_t>(i)] = m[i] + 0.0;
          }
          row[8 * p + 6] = cop.x();
          row[8 * p + 7] = cop.y();
        }
        const double time = start + r.analog_start + static_cast<double>(k) / r.analog_rate;
        plates_csv->write(time, row);
        end = std::max(end, time);
        ++result.analog_samples;
      }
    }
    if (!robot_logs.empty()) {
      const std::size_t which = robot_logs.size() == 1 ? 0 : t;
      log_segments.push_back(align_robot_log(options, t, r, robot_logs[which], options.robot_logs[which], label_map,
                                             start, end, log_alignment, result));
    }
    const std::string stem = std::filesystem::path(options.trials[t]).stem().string();
    segments.push_back({{"label", stem}, {"category", "trial"}, {"start", start}, {"end", end}});
    files.push_back({{"file", options.trials[t]},
                     {"frames", r.frame_count()},
                     {"first_frame", r.first_frame},
                     {"start", start},
                     {"end", end},
                     {"length_unit_in_file", r.length_unit_in_file}});
    start = end + kTrialGapS;
  }
  if (markers_csv) markers_csv->close();
  if (plates_csv) plates_csv->close();
  std::vector<std::pair<std::string, std::string>> log_streams;
  if (!log_segments.empty()) log_streams = write_log_streams(log_segments, out.path()).streams;

  json streams = json::object();
  if (markers_csv)
    streams["markers"] = {
        {"file", "markers.csv"}, {"rate_hz", result.marker_rate_hz}, {"noise_free", false}, {"stamp", "instant"}};
  if (plates_csv)
    streams["plates"] = {
        {"file", "plates.csv"}, {"rate_hz", result.analog_rate_hz}, {"noise_free", false}, {"stamp", "instant"}};
  for (const auto& [name, file] : log_streams)
    streams[name] = {{"file", file}, {"rate_hz", robot_logs.front().rate_hz}, {"noise_free", false}};
  json plates = json::array();
  for (std::size_t p = 0; p < first.force_plates.size(); ++p) {
    const ForcePlate& plate = first.force_plates[p];
    json corners = json::array();
    for (int c = 0; c < 4; ++c) corners.push_back(vec(plate.corners_world.col(c)));
    plates.push_back({{"name", result.plates[p]},
                      {"origin", vec(plate.center_world())},
                      {"corners", corners},
                      {"type", plate.type},
                      {"channels", "force on the plate [N] and moment about origin [N m], world axes; COP world [m]"}});
  }
  const json dataset = {{"format", "dynid-dataset"},   {"version", 1},
                        {"robot", options.robot_name}, {"model", options.model_path},
                        {"scenario", "import c3d"},    {"gravity", {0.0, 0.0, -9.81}},
                        {"velocity", "instant"},       {"streams", streams},
                        {"force_plates", plates},      {"segments", segments}};
  write_file_atomically(out.path() + "/dataset.json", dataset.dump(2) + "\n");
  json summary = {{"trials", files},
                  {"frames", result.frames},
                  {"analog_samples", result.analog_samples},
                  {"marker_rate_hz", result.marker_rate_hz},
                  {"analog_rate_hz", result.analog_rate_hz},
                  {"markers", result.markers},
                  {"plates", result.plates},
                  {"unknown_labels", result.unknown_labels},
                  {"missing_model_markers", result.missing_markers},
                  {"warnings", result.warnings}};
  if (!plate_files.empty()) {
    summary["plate_files"] = plate_files;
    summary["plate_layout"] = options.plate_layout_path;
  }
  if (options.up_axis != "z") summary["up_axis"] = options.up_axis;
  if (!log_alignment.empty()) summary["robot_log"] = {{"map", options.robot_log_map}, {"trials", log_alignment}};
  result.summary_json = summary.dump(2) + "\n";
  write_file_atomically(out.path() + "/import.json", result.summary_json);
  out.commit();
  return result;
}

namespace {

/// Whether `path` names a C3D or TRC file (by its extension; a directory is a data set).
bool is_mocap_file(const std::string& path) {
  if (path.empty() || std::filesystem::is_directory(path)) return false;
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".c3d" || ext == ".trc";
}

}  // namespace

DatasetOrMocapFile::DatasetOrMocapFile(const std::string& path, const Model* model)
    : DatasetOrMocapFile(std::vector<std::string>{path}, model, C3dImportOptions{}, "") {}

DatasetOrMocapFile::DatasetOrMocapFile(const std::vector<std::string>& paths, const Model* model,
                                       const C3dImportOptions& import, const std::string& plates_needed_by) {
  if (paths.empty()) throw std::invalid_argument("no data set or trial given");
  original_ = path_ = paths.front();
  const bool plate_options = !import.plate_files.empty() || !import.plate_layout_path.empty() ||
                             !import.plates_length_unit.empty() || import.up_axis != "z";
  if (paths.size() == 1 && !is_mocap_file(paths.front())) {
    if (plate_options)
      fail(paths.front(),
           "--plates, --plate-layout, --plates-unit and --up go with TRC trials; a data set holds its plates in "
           "plates.csv already");
    return;
  }
  for (const std::string& p : paths)
    if (!is_mocap_file(p))
      fail(p, "is not a .c3d or .trc trial: give one data set directory, or one or more C3D/TRC trials");
  if (!plates_needed_by.empty() && import.plate_files.empty())
    for (const std::string& p : paths)
      if (mocap_file_type(p) == MocapFileType::Trc)
        fail(p, "a TRC holds markers only and " + plates_needed_by +
                    " needs force plates: give the trial's ground reaction file with --plates FILE.mot (one per "
                    "trial, in order) and where the plates are with --plate-layout plates.yaml|lab.c3d");
  if (paths.size() > 1) original_ = paths.front() + " ... " + paths.back();
  static int count = 0;
  temporary_ = (std::filesystem::temp_directory_path() /
                ("dynid-imported-" + std::to_string(::getpid()) + "-" + std::to_string(++count)))
                   .string();
  std::error_code ec;
  std::filesystem::remove_all(temporary_, ec);
  C3dImportOptions o = import;
  o.trials = paths;
  o.out_dir = temporary_;
  o.model = model;
  import_c3d(o);
  path_ = temporary_;
}

std::string DatasetOrMocapFile::in_user_terms(std::string message) const {
  if (temporary_.empty()) return message;
  for (std::size_t at = message.find(temporary_); at != std::string::npos; at = message.find(temporary_, at))
    message.replace(at, temporary_.size(), original_), at += original_.size();
  return message;
}

DatasetOrMocapFile::~DatasetOrMocapFile() {
  if (temporary_.empty()) return;
  std::error_code ec;
  std::filesystem::remove_all(temporary_, ec);
}

}  // namespace dynid
