#include "dynid/ident/lab_recording.hpp"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "dynid/io/csv_stream.hpp"

namespace dynid {
namespace {

Vector3 vec3(const nlohmann::json& j, const std::string& what, const std::string& path) {
  if (!j.is_array() || j.size() != 3) throw std::runtime_error(path + ": " + what + " must be a list of 3 numbers");
  Vector3 v;
  for (int k = 0; k < 3; ++k) {
    if (!j[static_cast<std::size_t>(k)].is_number()) throw std::runtime_error(path + ": " + what + " must be numbers");
    v[k] = j[static_cast<std::size_t>(k)].get<double>();
  }
  return v;
}

}  // namespace

Force LabRecording::ground_reaction(Eigen::Index k) const {
  Force total(Vector3::Zero(), Vector3::Zero());
  for (std::size_t p = 0; p < plate_names.size(); ++p) {
    const Eigen::Index r = 6 * static_cast<Eigen::Index>(p);
    const Vector3 f = -plate_wrench.block<3, 1>(r, k);      // on the robot
    const Vector3 m = -plate_wrench.block<3, 1>(r + 3, k);  // about the plate's top centre
    total.linear += f;
    total.angular += m + plate_origins[p].cross(f);
  }
  return total;
}

Force LabRecording::mean_ground_reaction(double start, double end) const {
  Force sum(Vector3::Zero(), Vector3::Zero());
  int n = 0;
  for (std::size_t k = 0; k < plate_time.size(); ++k)
    if (plate_time[k] >= start && plate_time[k] <= end) {
      const Force f = ground_reaction(static_cast<Eigen::Index>(k));
      sum.linear += f.linear;
      sum.angular += f.angular;
      ++n;
    }
  if (n == 0)
    throw std::runtime_error(directory + ": no force-plate samples between " + std::to_string(start) + " and " +
                             std::to_string(end) + " s");
  return Force(sum.linear / n, sum.angular / n);
}

Vector3 center_of_pressure(const Force& w, double h, double min_vertical_force) {
  const Vector3& F = w.linear;
  const Vector3& M = w.angular;
  if (!(std::abs(F.z()) >= min_vertical_force)) return Vector3::Constant(std::numeric_limits<double>::quiet_NaN());
  // M = r x F with r = (x, y, h): Mx = y Fz - h Fy, My = h Fx - x Fz.
  return {(h * F.x() - M.y()) / F.z(), (M.x() + h * F.y()) / F.z(), h};
}

LabRecording read_lab_recording(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path json_path = fs::is_directory(path) ? fs::path(path) / "dataset.json" : fs::path(path);
  if (!fs::exists(json_path)) throw std::runtime_error(path + ": not a data set (no dataset.json)");
  const std::string jp = json_path.string();
  nlohmann::json j;
  try {
    std::ifstream in(json_path);
    j = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    throw std::runtime_error(jp + ": not valid JSON (" + e.what() + ")");
  }
  if (!j.is_object()) throw std::runtime_error(jp + ": expected a JSON object");
  LabRecording rec;
  const fs::path dir = json_path.parent_path().empty() ? fs::path(".") : json_path.parent_path();
  rec.directory = dir.string();
  if (j.contains("gravity")) rec.gravity = vec3(j["gravity"], "gravity", jp);
  if (j.contains("truth") && j["truth"].is_string() && fs::exists(dir / j["truth"].get<std::string>()))
    rec.truth_urdf = fs::absolute(dir / j["truth"].get<std::string>()).string();
  else if (fs::exists(dir / "truth.urdf"))
    rec.truth_urdf = fs::absolute(dir / "truth.urdf").string();
  if (j.contains("segments")) {
    if (!j["segments"].is_array()) throw std::runtime_error(jp + ": segments must be a list");
    for (const auto& s : j["segments"]) {
      if (!s.is_object() || !s.contains("start") || !s.contains("end") || !s["start"].is_number() ||
          !s["end"].is_number())
        throw std::runtime_error(jp + ": each segment needs numeric start and end");
      TimeSegment seg;
      seg.label = s.value("label", std::string());
      seg.category = s.value("category", std::string());
      seg.start = s["start"].get<double>();
      seg.end = s["end"].get<double>();
      if (!(seg.end > seg.start)) throw std::runtime_error(jp + ": segment '" + seg.label + "' ends before it starts");
      rec.segments.push_back(seg);
    }
  }
  auto stream_file = [&](const std::string& name) -> std::string {
    if (j.contains("streams") && j["streams"].contains(name) && j["streams"][name].contains("file"))
      return (dir / j["streams"][name]["file"].get<std::string>()).string();
    return (dir / (name + ".csv")).string();
  };
  if (fs::exists(stream_file("markers"))) rec.markers = read_marker_trajectories(stream_file("markers"));
  if (fs::exists(stream_file("plates"))) {
    if (!j.contains("force_plates") || !j["force_plates"].is_array())
      throw std::runtime_error(jp + ": the plates stream needs `force_plates` with each plate's origin");
    const CsvStream csv = read_csv_stream(stream_file("plates"));
    const std::size_t plates = j["force_plates"].size();
    rec.plate_wrench.resize(6 * static_cast<Eigen::Index>(plates), csv.values.rows());
    for (std::size_t p = 0; p < plates; ++p) {
      const auto& fp = j["force_plates"][p];
      if (!fp.contains("name") || !fp["name"].is_string() || !fp.contains("origin"))
        throw std::runtime_error(jp + ": each force plate needs a name and an origin");
      rec.plate_names.push_back(fp["name"].get<std::string>());
      rec.plate_origins.push_back(vec3(fp["origin"], "force plate origin", jp));
      Eigen::Matrix3Xd corners(3, 0);
      if (fp.contains("corners")) {
        if (!fp["corners"].is_array() || fp["corners"].size() < 3)
          throw std::runtime_error(jp + ": force plate '" + rec.plate_names.back() +
                                   "': corners must list 3 or more points");
        corners.resize(3, static_cast<Eigen::Index>(fp["corners"].size()));
        for (std::size_t c = 0; c < fp["corners"].size(); ++c)
          corners.col(static_cast<Eigen::Index>(c)) = vec3(fp["corners"][c], "force plate corner", jp);
      }
      rec.plate_corners.push_back(corners);
      int k = 0;
      for (const char* c : {"fx", "fy", "fz", "mx", "my", "mz"}) {
        const Eigen::Index col = csv.column(rec.plate_names.back() + "." + c);
        rec.plate_wrench.row(6 * static_cast<Eigen::Index>(p) + k++) = csv.values.col(col).transpose();
      }
    }
    if (!rec.plate_wrench.allFinite())
      throw std::runtime_error(stream_file("plates") + ": missing force or moment values");
    rec.plate_time.assign(csv.values.col(0).data(), csv.values.col(0).data() + csv.values.rows());
  }
  if (fs::exists(stream_file("encoders"))) {
    const CsvStream csv = read_csv_stream(stream_file("encoders"));
    for (std::size_t c = 1; c < csv.header.size(); ++c) {
      if (csv.header[c].rfind("q.", 0) != 0)
        throw std::runtime_error(stream_file("encoders") + ": column '" + csv.header[c] + "': expected q.<joint>");
      rec.encoder_joints.push_back(csv.header[c].substr(2));
    }
    rec.encoder_q = csv.values.rightCols(csv.values.cols() - 1).transpose();
    rec.encoder_time.assign(csv.values.col(0).data(), csv.values.col(0).data() + csv.values.rows());
  }
  return rec;
}

}  // namespace dynid
