#include "dynid/mocap/trc_force_plates.hpp"

#include <yaml-cpp/yaml.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "dynid/mocap/c3d_reader.hpp"

namespace dynid {
namespace {

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw std::runtime_error(where + ": " + what);
}

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

double yaml_number(const YAML::Node& n, const std::string& where) {
  try {
    const double x = n.as<double>();
    if (std::isfinite(x)) return x;
  } catch (const YAML::Exception&) {
  }
  fail(where, "not a number");
}

std::vector<PlateLayoutEntry> read_yaml_layout(const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    fail(path, "cannot open the plate layout");
  } catch (const YAML::Exception& e) {
    fail(path, std::string("not valid YAML or JSON (") + e.what() + ")");
  }
  double to_m = 1.0;
  if (const YAML::Node u = root["units"]) {
    const std::string unit = u.IsScalar() ? u.as<std::string>() : "";
    if (unit == "mm")
      to_m = 1e-3;
    else if (unit == "cm")
      to_m = 1e-2;
    else if (unit != "m")
      fail(path, "units '" + unit + "' is not m, cm or mm");
  }
  const YAML::Node plates = root["plates"];
  if (!plates || !plates.IsSequence() || plates.size() == 0)
    fail(path, "no `plates:` list (each plate: corners: [[x, y, z], [x, y, z], [x, y, z], [x, y, z]])");
  std::vector<PlateLayoutEntry> out;
  for (std::size_t i = 0; i < plates.size(); ++i) {
    const std::string where = path + ": plate " + std::to_string(i + 1);
    const YAML::Node p = plates[i];
    if (!p.IsMap()) fail(where, "must be a mapping with `corners`");
    const YAML::Node c = p["corners"];
    if (!c || !c.IsSequence() || c.size() != 4) fail(where, "`corners` must list 4 points [x, y, z]");
    PlateLayoutEntry e;
    for (std::size_t k = 0; k < 4; ++k) {
      if (!c[k].IsSequence() || c[k].size() != 3) fail(where, "corner " + std::to_string(k + 1) + " is not [x, y, z]");
      for (std::size_t a = 0; a < 3; ++a)
        e.corners(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(k)) =
            to_m * yaml_number(c[k][a], where + ": corner " + std::to_string(k + 1));
    }
    const bool named = p["force"] || p["point"] || p["torque"];
    if (named) {
      GroundReactionColumns g;
      for (auto [key, target] : {std::pair{"force", &g.force}, {"point", &g.point}, {"torque", &g.torque}}) {
        const YAML::Node v = p[key];
        if (!v || !v.IsScalar() || v.as<std::string>().empty())
          fail(where, std::string("gives the file's column identifiers: it needs `force`, `point` and `torque` (`") +
                          key + "` is missing)");
        *target = v.as<std::string>();
      }
      e.columns = g;
    }
    if (!out.empty() && out.front().columns.has_value() != named)
      fail(where, "give the column identifiers (`force`, `point`, `torque`) for every plate or for none");
    out.push_back(e);
  }
  return out;
}

/// Plate axes from the corners; throws unless they are a rectangle lying flat in z-up world.
Matrix3 checked_plate_axes(const ForcePlate& plate, const std::string& where) {
  const auto& c = plate.corners_world;
  const double diag_a = (c.col(0) - c.col(2)).norm(), diag_b = (c.col(1) - c.col(3)).norm();
  const Vector3 centre = plate.center_world();
  if (!(diag_a > 1e-3 && std::abs(diag_a - diag_b) < 1e-3 * diag_a) ||
      ((c.col(0) + c.col(2)) / 2 - centre).norm() > 1e-3 * diag_a)
    fail(where, "the corners are not a rectangle in order around the plate");
  const Matrix3 R = plate.rotation_world_plate();
  if (std::abs(R(2, 2)) < std::cos(10.0 * M_PI / 180.0))
    fail(where, "the plate is not horizontal in dynid's z-up world (its normal is (" + std::to_string(R(0, 2)) + ", " +
                    std::to_string(R(1, 2)) + ", " + std::to_string(R(2, 2)) +
                    ")): are the files y up, as OpenSim's are (--up y)?");
  return R;
}

}  // namespace

std::vector<PlateLayoutEntry> read_plate_layout(const std::string& path) {
  if (lower_extension(path) != ".c3d") {
    try {
      return read_yaml_layout(path);
    } catch (const YAML::Exception& e) {  // a node of another kind than the layout's (a scalar root, ...)
      fail(path, std::string("not a plate layout (") + e.what() + ")");
    }
  }
  const MocapRecording rec = read_c3d(path);
  if (rec.force_plates.empty()) fail(path, "the C3D describes no force plates (FORCE_PLATFORM:USED is 0)");
  std::vector<PlateLayoutEntry> out;
  for (const ForcePlate& p : rec.force_plates) out.push_back({p.corners_world, std::nullopt});
  return out;
}

TrcPlatesReport attach_trc_force_plates(MocapRecording& trial, const std::string& grf_path,
                                        const std::vector<PlateLayoutEntry>& layout, const Matrix3& world_lab,
                                        double cop_threshold_n, const std::string& length_unit) {
  TrcPlatesReport report;
  report.file = grf_path;
  const OpenSimStorage storage = read_opensim_storage(grf_path);
  const Eigen::Index rows = storage.time.size();
  if (rows < 2) fail(grf_path, "one row: a rate needs at least two");
  const std::string header_line = grf_path + ": line " + std::to_string(storage.units_line);
  const double header_m = storage.units.empty() ? 0.0 : metres_per_length_unit(storage.units);
  if (!storage.units.empty() && header_m == 0.0)
    fail(header_line, "units '" + storage.units + "' is not a length unit (m, cm or mm)");
  double metres_per_unit = 1.0;
  if (!length_unit.empty()) {
    metres_per_unit = metres_per_length_unit(length_unit);
    if (metres_per_unit == 0.0) fail(grf_path, "--plates-unit '" + length_unit + "' is not m or mm");
    if (header_m != 0.0 && header_m != metres_per_unit)
      fail(header_line, "the header says units " + storage.units + " but --plates-unit says " + length_unit);
    report.length_unit = length_unit;
    report.length_unit_from = "given";
  } else if (header_m != 0.0) {
    metres_per_unit = header_m;
    report.length_unit = storage.units;
    report.length_unit_from = "header";
  }

  // Which columns are which plate: the layout's identifiers, or the file's plates in order.
  std::vector<GroundReactionColumns> columns;
  if (!layout.empty() && layout.front().columns) {
    for (const PlateLayoutEntry& e : layout) columns.push_back(*e.columns);
  } else {
    columns = find_ground_reaction_columns(storage);
    if (columns.size() != layout.size())
      fail(grf_path, std::to_string(columns.size()) + " plates (" + columns.front().force +
                         (columns.size() > 1 ? ", ..." : "") + ") but the plate layout has " +
                         std::to_string(layout.size()) +
                         " (give each layout plate its `force`, `point`, `torque` identifiers to choose)");
  }
  std::vector<GroundReactionSeries> series;
  // Points to metres and torques to N m (N mm -> N m: the same factor).
  for (const GroundReactionColumns& g : columns) {
    series.push_back(plate_series(storage, g));
    series.back().point *= metres_per_unit;
    series.back().torque *= metres_per_unit;
  }

  // The file's clock: its mean rate (a whole number of hertz, as plates sample, when that grid
  // fits the stamps as well), its stamps on that grid or interpolated onto it.
  const double t0 = storage.time[0];
  const auto deviation = [&](double period) {
    double largest = 0.0;
    for (Eigen::Index k = 0; k < rows; ++k)
      largest = std::max(largest, std::abs(storage.time[k] - (t0 + static_cast<double>(k) * period)));
    return largest;
  };
  double period = (storage.time[rows - 1] - t0) / static_cast<double>(rows - 1);
  if (!(period > 0.0 && std::isfinite(period))) fail(grf_path, "its time column spans no time");
  const double whole_hz = std::round(1.0 / period);
  if (whole_hz >= 1.0 && deviation(1.0 / whole_hz) <= 0.25 * period) period = 1.0 / whole_hz;
  report.rate_hz = 1.0 / period;
  report.largest_stamp_deviation_s = deviation(period);
  report.resampled = report.largest_stamp_deviation_s > 0.25 * period;
  // Value of row-series `m` (3 x rows) at grid sample k.
  auto on_grid = [&](const Eigen::Matrix3Xd& m, Eigen::Index k) -> Vector3 {
    if (!report.resampled) return m.col(k);
    const double t = t0 + static_cast<double>(k) * period;
    const auto* begin = storage.time.data();
    const Eigen::Index hi = std::clamp<Eigen::Index>(
        static_cast<Eigen::Index>(std::upper_bound(begin, begin + rows, t) - begin), 1, rows - 1);
    const double w = (t - storage.time[hi - 1]) / (storage.time[hi] - storage.time[hi - 1]);
    return (1.0 - w) * m.col(hi - 1) + w * m.col(hi);
  };
  if (report.resampled)
    report.warnings.push_back(grf_path + ": stamps up to " + std::to_string(report.largest_stamp_deviation_s) +
                              " s off a uniform " + std::to_string(report.rate_hz) +
                              " Hz grid: interpolated linearly onto it");

  // The trial's span on the same clock: from its first frame to one period after its last.
  if (trial.frame_count() == 0) fail(trial.source, "no marker frames to put the plates' samples beside");
  if (!std::isfinite(trial.first_frame_time)) fail(trial.source, "the first frame's Time is not a number");
  // Frames are placed by the rate, the plates by the Time column: the two must agree.
  if (trial.frame_count() > 1) {
    const double step = (trial.last_frame_time - trial.first_frame_time) / static_cast<double>(trial.frame_count() - 1);
    if (!(std::abs(step * trial.point_rate - 1.0) <= 0.01))
      fail(trial.source, "its Time column steps " + std::to_string(step) + " s a frame but its DataRate is " +
                             std::to_string(trial.point_rate) +
                             " Hz: the plates' samples cannot be put beside the frames (correct DataRate)");
  }
  const double first = trial.first_frame_time;
  const double end = first + static_cast<double>(trial.frame_count()) / trial.point_rate;
  std::vector<Eigen::Index> kept;
  for (Eigen::Index k = 0; k < rows; ++k) {
    const double t = t0 + static_cast<double>(k) * period;
    // A quarter period either way: both files print their stamps with a few digits.
    if (t >= first - 0.25 * period && t < end - 0.25 * period)
      kept.push_back(k);
    else
      ++report.samples_dropped;
  }
  if (kept.empty())
    fail(grf_path, "its time (" + std::to_string(t0) + " to " + std::to_string(storage.time[rows - 1]) +
                       " s) does not overlap the trial's (" + std::to_string(first) + " to " + std::to_string(end) +
                       " s in " + trial.source + ")");
  report.samples_kept = static_cast<long>(kept.size());

  // The plates: type 2, channels in plate axes about the surface centre.
  const auto n = static_cast<Eigen::Index>(series.size());
  trial.force_plates.clear();
  trial.analog_labels.clear();
  trial.analog_units.clear();
  trial.analogs.resize(6 * n, static_cast<Eigen::Index>(kept.size()));
  trial.analog_rate = report.rate_hz;
  trial.analog_start = t0 + static_cast<double>(kept.front()) * period - first;
  for (Eigen::Index p = 0; p < n; ++p) {
    const std::string where = grf_path + ": plate '" + series[static_cast<std::size_t>(p)].columns.force + "'";
    ForcePlate plate;
    plate.number = static_cast<int>(p + 1);
    plate.type = 2;
    plate.corners_world = world_lab * layout[static_cast<std::size_t>(p)].corners;
    for (int k = 0; k < 6; ++k) plate.channels.push_back(static_cast<int>(6 * p) + k);
    plate.notes.push_back("from " + grf_path + " (" + series[static_cast<std::size_t>(p)].columns.force + ")");
    const Matrix3 R = checked_plate_axes(plate, where);
    const Vector3 centre = plate.center_world();
    const Eigen::Matrix<double, 3, 4> local = R.transpose() * (plate.corners_world.colwise() - centre);
    const double half_x = local.row(0).cwiseAbs().maxCoeff(), half_y = local.row(1).cwiseAbs().maxCoeff();
    const GroundReactionSeries& s = series[static_cast<std::size_t>(p)];
    long outside = 0, loaded = 0, loaded_outside = 0;
    double largest = 0.0;
    for (std::size_t i = 0; i < kept.size(); ++i) {
      const Eigen::Index k = kept[i];
      const Vector3 force = world_lab * on_grid(s.force, k), torque = world_lab * on_grid(s.torque, k);
      const Vector3 point = world_lab * on_grid(s.point, k);
      const Vector3 point_plate = R.transpose() * (point - centre);
      const bool on_plate = point.allFinite() && std::abs(point_plate.x()) <= half_x + kPointOutsidePlateM &&
                            std::abs(point_plate.y()) <= half_y + kPointOutsidePlateM;
      const double normal = std::abs(R.col(2).dot(force));
      if (normal >= cop_threshold_n) ++loaded, loaded_outside += on_plate ? 0 : 1;
      if (!on_plate) ++outside, largest = std::max(largest, normal);
      const Vector3 moment = on_plate ? Vector3((point - centre).cross(force) + torque) : torque;
      trial.analogs.block<3, 1>(6 * p, static_cast<Eigen::Index>(i)) = R.transpose() * force;
      trial.analogs.block<3, 1>(6 * p + 3, static_cast<Eigen::Index>(i)) = R.transpose() * moment;
    }
    if (loaded > 0 && 10 * loaded_outside > loaded)
      fail(where, std::to_string(loaded_outside) + " of " + std::to_string(loaded) +
                      " loaded samples are applied at a point off the plate: " +
                      (report.length_unit_from == "default"
                           ? std::string("are the file and the plate layout in the same frame (--up)? A file in "
                                         "millimetres (points in mm, torques in N mm, as OpenSim's C3D export "
                                         "writes them unconverted) says so with --plates-unit mm")
                           : "its points were read in " + report.length_unit + " (" +
                                 (report.length_unit_from == "given" ? "--plates-unit" : "its header") +
                                 "): are the file and the plate layout in the same frame (--up)?"));
    report.columns.push_back(s.columns.force);
    report.points_outside_plate.push_back(outside);
    report.largest_force_without_point.push_back(largest);
    if (outside > 0)
      report.warnings.push_back(where + ": " + std::to_string(outside) +
                                " samples without a point on the plate (the exporter's placeholder for no COP; normal "
                                "force up to " +
                                std::to_string(largest) + " N): their moment is the file's torque about the centre");
    for (const char* c : {"Fx", "Fy", "Fz", "Mx", "My", "Mz"}) {
      trial.analog_labels.push_back("plate" + std::to_string(p + 1) + "." + c);
      trial.analog_units.push_back(c[0] == 'F' ? "N" : "N m");
    }
    trial.force_plates.push_back(std::move(plate));
  }
  return report;
}

}  // namespace dynid
