#include "dynid/mocap/marker_trajectories.hpp"

#include <filesystem>
#include <stdexcept>

#include "dynid/io/csv_stream.hpp"
#include "dynid/mocap/mocap_recording.hpp"

namespace dynid {
namespace {

MarkerTrajectories from_csv(const std::string& path) {
  const CsvStream csv = read_csv_stream(path);
  MarkerTrajectories out;
  out.source = path;
  for (std::size_t c = 1; c + 2 < csv.header.size(); c += 3) {
    const std::string& h = csv.header[c];
    if (h.size() < 3 || h.compare(h.size() - 2, 2, ".x") != 0 ||
        csv.header[c + 1] != h.substr(0, h.size() - 2) + ".y" || csv.header[c + 2] != h.substr(0, h.size() - 2) + ".z")
      throw std::runtime_error(path + ": column '" + h + "': expected marker columns NAME.x NAME.y NAME.z");
    out.labels.push_back(h.substr(0, h.size() - 2));
  }
  if (out.labels.empty() || csv.header.size() != 1 + 3 * out.labels.size())
    throw std::runtime_error(path + ": expected `time` then NAME.x NAME.y NAME.z per marker");
  out.time.resize(static_cast<std::size_t>(csv.values.rows()));
  out.positions.resize(3 * static_cast<Eigen::Index>(out.labels.size()), csv.values.rows());
  for (Eigen::Index r = 0; r < csv.values.rows(); ++r) {
    out.time[static_cast<std::size_t>(r)] = csv.values(r, 0);
    if (!std::isfinite(csv.values(r, 0)))
      throw std::runtime_error(path + ": row " + std::to_string(r + 2) + ": time is missing");
    out.positions.col(r) = csv.values.row(r).tail(out.positions.rows()).transpose();
  }
  return out;
}

}  // namespace

MarkerTrajectories read_marker_trajectories(const std::string& path) {
  namespace fs = std::filesystem;
  if (!fs::exists(path)) throw std::runtime_error(path + ": no such file or directory");
  if (fs::is_directory(path)) return read_marker_trajectories((fs::path(path) / "markers.csv").string());
  const std::string name = fs::path(path).filename().string();
  if (name == "dataset.json") return read_marker_trajectories((fs::path(path).parent_path() / "markers.csv").string());
  const std::string ext = fs::path(path).extension().string();
  if (ext == ".csv") return from_csv(path);
  const MocapRecording rec = read_mocap_file(path);
  MarkerTrajectories out;
  out.source = path;
  out.labels = rec.marker_labels;
  out.positions = rec.marker_positions;
  out.time.resize(static_cast<std::size_t>(rec.frame_count()));
  for (Eigen::Index f = 0; f < rec.frame_count(); ++f)
    out.time[static_cast<std::size_t>(f)] = (rec.first_frame - 1 + static_cast<double>(f)) / rec.point_rate;
  if (out.labels.empty()) throw std::runtime_error(path + ": the file has no markers");
  return out;
}

std::vector<int> match_markers(const MarkerTrajectories& recording, const std::vector<ModelMarker>& markers) {
  std::vector<int> match(markers.size(), -1);
  int found = 0;
  for (std::size_t m = 0; m < markers.size(); ++m)
    for (std::size_t l = 0; l < recording.labels.size(); ++l)
      if (recording.labels[l] == markers[m].name) {
        match[m] = static_cast<int>(l);
        ++found;
        break;
      }
  if (found < 3)
    throw std::runtime_error(recording.source + ": only " + std::to_string(found) +
                             " of the model's markers are recorded (names must match the sidecar's `markers`)");
  return match;
}

void model_marker_frame(const MarkerTrajectories& recording, const std::vector<int>& match, Eigen::Index frame,
                        Eigen::Ref<Eigen::Matrix3Xd> out) {
  for (std::size_t m = 0; m < match.size(); ++m) {
    if (match[m] < 0)
      out.col(static_cast<Eigen::Index>(m)).setConstant(std::numeric_limits<double>::quiet_NaN());
    else
      out.col(static_cast<Eigen::Index>(m)) = recording.positions.block<3, 1>(3 * match[m], frame);
  }
}

Eigen::Matrix3Xd mean_model_marker_frame(const MarkerTrajectories& recording, const std::vector<int>& match,
                                         Eigen::Index first, Eigen::Index last) {
  Eigen::Matrix3Xd out(3, static_cast<Eigen::Index>(match.size()));
  for (std::size_t m = 0; m < match.size(); ++m) {
    Eigen::Vector3d sum = Eigen::Vector3d::Zero();
    int n = 0;
    if (match[m] >= 0)
      for (Eigen::Index f = first; f <= last; ++f) {
        const Eigen::Vector3d p = recording.positions.block<3, 1>(3 * match[m], f);
        if (!p.allFinite()) continue;
        sum += p;
        ++n;
      }
    out.col(static_cast<Eigen::Index>(m)) =
        n > 0 ? Eigen::Vector3d(sum / n) : Eigen::Vector3d::Constant(std::numeric_limits<double>::quiet_NaN());
  }
  return out;
}

}  // namespace dynid
