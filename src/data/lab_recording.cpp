#include "dynid/data/lab_recording.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "dynid/io/csv_stream.hpp"

namespace dynid {

Force LabRecording::ground_reaction(Eigen::Index k) const {
  Force total(Vector3::Zero(), Vector3::Zero());
  for (std::size_t p = 0; p < dataset.force_plates.size(); ++p) {
    const Eigen::Index r = 6 * static_cast<Eigen::Index>(p);
    const Vector3 f = -plate_wrench.block<3, 1>(r, k);      // on the robot
    const Vector3 m = -plate_wrench.block<3, 1>(r + 3, k);  // about the plate's top centre
    total.linear += f;
    total.angular += m + dataset.force_plates[p].origin.cross(f);
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
    throw std::runtime_error(dataset.directory + ": no force-plate samples between " + std::to_string(start) + " and " +
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
  LabRecording rec;
  rec.dataset = read_dataset_info(path);
  const DatasetInfo& info = rec.dataset;
  if (info.has_stream("markers")) rec.markers = read_marker_trajectories(info.stream("markers").file);
  if (info.has_stream("plates")) {
    const std::string& file = info.stream("plates").file;
    if (info.force_plates.empty())
      throw std::runtime_error(info.directory + ": the plates stream needs `force_plates` with each plate's origin");
    const CsvStream csv = read_csv_stream(file);
    rec.plate_wrench.resize(6 * static_cast<Eigen::Index>(info.force_plates.size()), csv.values.rows());
    for (std::size_t p = 0; p < info.force_plates.size(); ++p) {
      int k = 0;
      for (const char* c : {"fx", "fy", "fz", "mx", "my", "mz"}) {
        const Eigen::Index col = csv.column(info.force_plates[p].name + "." + c);
        rec.plate_wrench.row(6 * static_cast<Eigen::Index>(p) + k++) = csv.values.col(col).transpose();
      }
    }
    if (!rec.plate_wrench.allFinite()) throw std::runtime_error(file + ": missing force or moment values");
    rec.plate_time.assign(csv.values.col(0).data(), csv.values.col(0).data() + csv.values.rows());
  }
  if (info.has_stream("encoders")) {
    const std::string& file = info.stream("encoders").file;
    const CsvStream csv = read_csv_stream(file);
    for (std::size_t c = 1; c < csv.header.size(); ++c) {
      if (csv.header[c].rfind("q.", 0) != 0)
        throw std::runtime_error(file + ": column '" + csv.header[c] + "': expected q.<joint>");
      rec.encoder_joints.push_back(csv.header[c].substr(2));
    }
    rec.encoder_q = csv.values.rightCols(csv.values.cols() - 1).transpose();
    rec.encoder_time.assign(csv.values.col(0).data(), csv.values.col(0).data() + csv.values.rows());
  }
  return rec;
}

}  // namespace dynid
