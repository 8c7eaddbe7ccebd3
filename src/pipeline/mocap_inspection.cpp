#include "dynid/pipeline/mocap_inspection.hpp"

#include <algorithm>
#include <cmath>

#include "dynid/mocap/c3d_reader.hpp"
#include "dynid/mocap/trc_reader.hpp"

namespace dynid {
namespace {

using json = nlohmann::json;

json vec(const Eigen::Vector3d& x) {
  if (!x.allFinite()) return nullptr;
  return {x.x(), x.y(), x.z()};
}

const char* processor_name(C3dProcessor p) {
  switch (p) {
    case C3dProcessor::Intel:
      return "Intel";
    case C3dProcessor::Dec:
      return "DEC";
    case C3dProcessor::Mips:
      return "MIPS";
  }
  return "?";
}

json sample_json(const PlateSample& s, long frame, double time) {
  return {{"frame", frame},
          {"time", time},
          {"force", vec(s.force_world)},
          {"moment", vec(s.moment_at_center_world)},
          {"cop", vec(s.cop_world)},
          {"free_moment", std::isfinite(s.free_moment) ? json(s.free_moment) : json(nullptr)}};
}

json describe_plate(const MocapRecording& rec, const ForcePlate& plate, double threshold, int first_frames) {
  json corners = json::array();
  for (int k = 0; k < 4; ++k) corners.push_back(vec(plate.corners_world.col(k)));
  json channels = json::array();
  for (int c : plate.channels) channels.push_back(rec.analog_labels[static_cast<std::size_t>(c)]);
  const PlateSeries series = ground_reaction_series(plate, rec.analogs, threshold);
  const Eigen::Index per_frame =
      std::max<Eigen::Index>(1, rec.analogs.cols() / std::max<Eigen::Index>(1, rec.frame_count()));
  auto frame_of = [&](Eigen::Index sample) { return rec.first_frame + static_cast<long>(sample / per_frame); };
  json first = json::array();
  for (Eigen::Index f = 0; f < first_frames && f * per_frame < series.free_moment.size(); ++f)
    first.push_back(sample_json(series.at(f * per_frame), frame_of(f * per_frame),
                                static_cast<double>(f * per_frame) / rec.analog_rate));
  json loaded = nullptr;
  for (Eigen::Index s = 0; s < series.free_moment.size(); ++s)
    if (series.cop_world.col(s).allFinite()) {
      loaded = sample_json(series.at(s), frame_of(s), static_cast<double>(s) / rec.analog_rate);
      break;
    }
  // Type 1 keeps its moment (Tz) in channel 6; the others start their moments at channel 4.
  const std::string& moment_unit = rec.analog_units[static_cast<std::size_t>(plate.channels[plate.type == 1 ? 5 : 3])];
  return {{"number", plate.number},
          {"type", plate.type},
          {"corners", corners},
          {"origin", vec(plate.origin_plate)},
          {"center", vec(plate.center_world())},
          {"channels", channels},
          {"units", {{"force", "N"}, {"moment", "N m"}, {"length", "m"}, {"moment_channels_in_file", moment_unit}}},
          {"cop_threshold", threshold},
          {"cop_first", first.empty() ? json(nullptr) : first[0]["cop"]},
          {"first_frames", first},
          {"first_loaded", loaded},
          {"notes", plate.notes}};
}

}  // namespace

json inspect_mocap_file(const std::string& path, double threshold, int first_frames) {
  json out;
  out["file"] = path;
  MocapRecording rec;
  if (mocap_file_type(path) == MocapFileType::Trc) {
    rec = read_trc(path);
    out["format"] = "trc";
  } else {
    const C3dFile file = read_c3d_file(path);
    rec = recording_from_c3d(file, path);
    out["format"] = "c3d";
    out["c3d"] = {{"processor", processor_name(file.processor)},
                  {"storage", file.float_storage() ? "float" : "integer"},
                  {"point_scale", file.point_scale()}};
  }
  const double valid = rec.marker_valid.size() == 0 ? 0.0 : rec.marker_valid.cast<double>().mean();
  out["points"] = {{"count", rec.marker_count()},
                   {"rate", rec.point_rate},
                   {"labels", rec.marker_labels},
                   {"units_in_file", rec.length_unit_in_file},
                   {"valid_fraction", valid}};
  out["frames"] = {{"first", rec.first_frame}, {"last", rec.last_frame()}, {"count", rec.frame_count()}};
  out["analogs"] = {{"count", rec.analogs.rows()},
                    {"rate", rec.analog_rate},
                    {"samples", rec.analogs.cols()},
                    {"labels", rec.analog_labels},
                    {"units", rec.analog_units}};
  json plates = json::array();
  for (const ForcePlate& plate : rec.force_plates)
    plates.push_back(describe_plate(rec, plate, threshold, first_frames));
  out["force_plates"] = plates;
  out["warnings"] = rec.warnings;
  return out;
}

}  // namespace dynid
