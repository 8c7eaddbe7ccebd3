#include "dynid/data/dataset_info.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace dynid {

namespace fs = std::filesystem;

namespace {

/// `v` for an error message: a number's or word's text, or only the kind of a list or object
/// (printing a nested value recurses once per level, so a deeply nested one overflowed the stack).
std::string json_for_message(const nlohmann::json& v) {
  return v.is_structured() ? std::string("a JSON ") + v.type_name() : v.dump();
}

/// The list under `key` of the object `j`, by reference (a copy recurses once per nesting level
/// too), or an empty list when there is none.
const nlohmann::json& list_or_empty(const nlohmann::json& j, const char* key) {
  static const nlohmann::json empty = nlohmann::json::array();
  return j.contains(key) ? j.at(key) : empty;
}

}  // namespace

const StreamInfo& DatasetInfo::stream(const std::string& name) const {
  const auto it = streams.find(name);
  if (it == streams.end()) throw std::runtime_error(directory + ": the data set has no '" + name + "' stream");
  return it->second;
}

DatasetInfo read_dataset_info(const std::string& path) {
  fs::path file = path;
  if (!fs::exists(file)) throw std::runtime_error(path + ": no such data set (a directory with dataset.json)");
  if (fs::is_directory(file)) {
    file /= "dataset.json";
  } else if (file.extension() != ".json") {
    std::string ext = file.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (ext == ".c3d" || ext == ".trc")
      throw std::runtime_error(path + ": a motion-capture file, not a data set: `dynid import c3d " + path +
                               " --out DIR` makes one (identify static and identify inertial take it directly)");
    throw std::runtime_error(path + ": not a data set (expected a directory with dataset.json, or that file)");
  }
  std::ifstream in(file);
  if (!in) throw std::runtime_error(file.string() + ": cannot open (is this a dynid data set?)");
  nlohmann::json j;
  try {
    in >> j;
  } catch (const std::exception& e) {
    throw std::runtime_error(file.string() + ": not valid JSON (" + e.what() + ")");
  }
  const std::string where = file.string();
  DatasetInfo info;
  info.directory = file.parent_path().string();
  try {
    if (j.value("format", "") != "dynid-dataset") throw std::runtime_error("'format' is not \"dynid-dataset\"");
    info.robot = j.value("robot", "");
    info.model = j.value("model", "");
    info.scenario = j.value("scenario", "");
    if (j.contains("truth") && j["truth"].is_string()) {
      const fs::path t = fs::path(info.directory) / j["truth"].get<std::string>();
      if (fs::exists(t)) info.truth_urdf = t.string();
    }
    if (j.contains("gravity")) {
      const auto g = j["gravity"].get<std::vector<double>>();
      if (g.size() != 3) throw std::runtime_error("'gravity' needs 3 numbers");
      info.gravity = Vector3(g[0], g[1], g[2]);
    }
    if (j.contains("velocity")) {
      const std::string v =
          j["velocity"].is_string() ? j["velocity"].get<std::string>() : json_for_message(j["velocity"]);
      if (v == "period-before")
        info.velocity = VelocityConvention::PeriodBefore;
      else if (v != "instant")
        throw std::runtime_error("'velocity' must be \"instant\" or \"period-before\", not " + v);
    }
    if (!j.contains("streams") || !j["streams"].is_object()) throw std::runtime_error("no 'streams' object");
    for (const auto& [name, s] : j["streams"].items()) {
      StreamInfo si;
      si.file = (fs::path(info.directory) / s.at("file").get<std::string>()).string();
      si.rate_hz = s.at("rate_hz").get<double>();
      if (!(si.rate_hz > 0.0)) throw std::runtime_error("stream '" + name + "': rate_hz must be positive");
      if (!fs::exists(si.file)) throw std::runtime_error("stream '" + name + "': missing file " + si.file);
      if (fs::is_directory(si.file))  // "file": "" names the data set's own directory
        throw std::runtime_error("stream '" + name + "': " + si.file + " is a directory, not a stream file");
      si.noise_free = s.value("noise_free", false);
      const auto parse_stamp = [&, stream = name](const nlohmann::json& v) {
        const std::string text = v.is_string() ? v.get<std::string>() : std::string("?");
        if (text == "instant") return Stamp::Instant;
        if (text == "period-mean") return Stamp::PeriodMean;
        throw std::runtime_error("stream '" + stream + "': stamp must be \"instant\" or \"period-mean\", not " +
                                 json_for_message(v));
      };
      if (s.contains("stamp")) {
        if (s["stamp"].is_object())
          for (const auto& [quantity, v] : s["stamp"].items()) si.stamps[quantity] = parse_stamp(v);
        else
          si.stamp = parse_stamp(s["stamp"]);
      }
      info.streams[name] = si;
    }
    for (const auto& p : list_or_empty(j, "force_plates")) {
      ForcePlateInfo plate;
      plate.name = p.at("name").get<std::string>();
      const auto o = p.at("origin").get<std::vector<double>>();
      if (o.size() != 3) throw std::runtime_error("force plate '" + plate.name + "': origin needs 3 numbers");
      plate.origin = Vector3(o[0], o[1], o[2]);
      if (p.contains("corners")) {
        const auto& c = p.at("corners");
        if (!c.is_array() || c.size() < 3)
          throw std::runtime_error("force plate '" + plate.name + "': corners must list 3 or more points");
        plate.corners.resize(3, static_cast<Eigen::Index>(c.size()));
        for (std::size_t k = 0; k < c.size(); ++k) {
          const auto v = c[k].get<std::vector<double>>();
          if (v.size() != 3) throw std::runtime_error("force plate '" + plate.name + "': each corner needs 3 numbers");
          plate.corners.col(static_cast<Eigen::Index>(k)) = Vector3(v[0], v[1], v[2]);
        }
      }
      info.force_plates.push_back(plate);
    }
    for (const auto& s : list_or_empty(j, "segments")) {
      TimeSegment seg;
      seg.label = s.value("label", std::string());
      seg.category = s.value("category", std::string());
      seg.start = s.at("start").get<double>();
      seg.end = s.at("end").get<double>();
      seg.support = s.value("support", std::string());
      if (!seg.support.empty() && seg.support != "both" && seg.support != "left" && seg.support != "right")
        throw std::runtime_error("segment '" + seg.label + "' has support '" + seg.support +
                                 "', not both, left or right");
      if (!(seg.end > seg.start)) throw std::runtime_error("segment '" + seg.label + "' ends before it starts");
      info.segments.push_back(seg);
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(where + ": " + e.what());
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(where + ": " + e.what());
  }
  return info;
}

}  // namespace dynid
