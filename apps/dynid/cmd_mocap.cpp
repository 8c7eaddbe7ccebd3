// dynid mocap inspect FILE [--json]: what dynid reads from a C3D or TRC file.

#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "dynid/mocap/c3d_reader.hpp"
#include "dynid/mocap/trc_reader.hpp"

namespace dynid::cli {
namespace {

using json = nlohmann::json;

json vec(const Eigen::Vector3d& x) {
  if (!x.allFinite()) return nullptr;
  return {x.x(), x.y(), x.z()};
}

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
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

json describe(const std::string& path, double threshold, int first_frames) {
  json out;
  out["file"] = path;
  MocapRecording rec;
  const std::string ext = lower_extension(path);
  if (ext == ".trc") {
    rec = read_trc(path);
    out["format"] = "trc";
  } else if (ext == ".c3d") {
    const C3dFile file = read_c3d_file(path);
    rec = recording_from_c3d(file, path);
    out["format"] = "c3d";
    out["c3d"] = {{"processor", processor_name(file.processor)},
                  {"storage", file.float_storage() ? "float" : "integer"},
                  {"point_scale", file.point_scale()}};
  } else {
    throw std::runtime_error(path + ": unknown motion-capture file type (expected .c3d or .trc)");
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

std::string text_vec(const json& v) {
  if (v.is_null()) return "-";
  std::ostringstream s;
  s << std::fixed << std::setprecision(4) << "[" << v[0].get<double>() << ", " << v[1].get<double>() << ", "
    << v[2].get<double>() << "]";
  return s.str();
}

void print_text(const json& d) {
  std::cout << d["file"].get<std::string>() << " (" << d["format"].get<std::string>();
  if (d.contains("c3d"))
    std::cout << ", " << d["c3d"]["processor"].get<std::string>() << ", " << d["c3d"]["storage"].get<std::string>();
  std::cout << ")\n"
            << "  frames " << d["frames"]["first"] << ".." << d["frames"]["last"] << " (" << d["frames"]["count"]
            << ") at " << d["points"]["rate"] << " Hz\n"
            << "  markers " << d["points"]["count"] << " (in " << d["points"]["units_in_file"].get<std::string>()
            << ", " << std::setprecision(3) << 100.0 * d["points"]["valid_fraction"].get<double>() << " % present)";
  for (const auto& l : d["points"]["labels"]) std::cout << " " << l.get<std::string>();
  std::cout << "\n  analog channels " << d["analogs"]["count"] << " at " << d["analogs"]["rate"] << " Hz\n";
  for (const auto& p : d["force_plates"]) {
    std::cout << "  force plate " << p["number"] << ": type " << p["type"] << ", centre " << text_vec(p["center"])
              << " m, origin " << text_vec(p["origin"]) << " m, moments in file as '"
              << p["units"]["moment_channels_in_file"].get<std::string>() << "'\n";
    for (const auto& s : p["first_frames"])
      std::cout << "    frame " << s["frame"] << ": force " << text_vec(s["force"]) << " N, moment "
                << text_vec(s["moment"]) << " N m, COP " << text_vec(s["cop"]) << " m\n";
    if (!p["first_loaded"].is_null())
      std::cout << "    first loaded frame " << p["first_loaded"]["frame"] << ": force "
                << text_vec(p["first_loaded"]["force"]) << " N, COP " << text_vec(p["first_loaded"]["cop"]) << " m\n";
    for (const auto& n : p["notes"]) std::cout << "    note: " << n.get<std::string>() << "\n";
  }
  for (const auto& w : d["warnings"]) std::cout << "  warning: " << w.get<std::string>() << "\n";
}

}  // namespace

void register_mocap(CLI::App& app, Action& action) {
  auto* mocap = app.add_subcommand("mocap", "Motion-capture files (C3D, TRC)");
  mocap->require_subcommand(1);
  auto* inspect = mocap->add_subcommand(
      "inspect", "Rates, frames, markers, analog channels and force plates (first wrenches and COP) of a C3D or TRC");
  auto file = std::make_shared<std::string>();
  auto as_json = std::make_shared<bool>(false);
  auto threshold = std::make_shared<double>(kDefaultCopThreshold);
  auto frames = std::make_shared<int>(3);
  inspect->add_option("FILE", *file, "C3D or TRC file")->required();
  inspect->add_flag("--json", *as_json, "Print JSON");
  inspect->add_option("--cop-threshold", *threshold, "Vertical force [N] below which the COP is undefined (default 20)")
      ->check(CLI::NonNegativeNumber);
  inspect->add_option("--frames", *frames, "How many first frames to show per force plate (default 3)")
      ->check(CLI::Range(0, 1000));
  inspect->callback([&action, file, as_json, threshold, frames] {
    action = [file, as_json, threshold, frames] {
      const json d = describe(*file, *threshold, *frames);
      if (*as_json)
        std::cout << d.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
      else
        print_text(d);
      return 0;
    };
  });
}

}  // namespace dynid::cli
