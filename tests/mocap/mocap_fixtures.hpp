#pragma once
// Synthetic motion-capture data with a known truth: markers at known positions (one missing for
// a while), force plates of types 1-4 loaded at known points, an extra analog channel. Used by
// the C3D tests and by the generator of tests/fixtures/mocap/*.c3d (c3d_fixture_test.cpp).

#include <Eigen/Geometry>
#include <cmath>
#include <string>
#include <vector>

#include "dynid/mocap/c3d_file.hpp"
#include "dynid/mocap/force_plate.hpp"

namespace dynid::testing {

/// A floor plate (plate z down) centred at `center_mm`, turned by `yaw` about the lab z axis.
inline Eigen::Matrix<double, 3, 4> floor_plate_corners(const Vector3& center, double half_x, double half_y,
                                                       double yaw = 0.0) {
  const Matrix3 R = Eigen::AngleAxisd(yaw, Vector3::UnitZ()).toRotationMatrix();
  const Vector3 x = R * Vector3::UnitX(), y = R * -Vector3::UnitY();
  Eigen::Matrix<double, 3, 4> c;
  const double sx[4] = {1, -1, -1, 1}, sy[4] = {1, 1, -1, -1};  // C3D corner quadrants
  for (int k = 0; k < 4; ++k) c.col(k) = center + sx[k] * half_x * x + sy[k] * half_y * y;
  return c;
}

/// A load on the body: ground reaction `force_world` [N] through `point_world` [m] on the plate
/// surface, plus a free moment `tau` [N m] about the upward normal.
struct PointLoad {
  Vector3 force_world;
  Vector3 point_world;
  double tau = 0.0;
};

/// The wrench a plate measures for `load` (plate axes, moment about the surface centre), from
/// the definition of the moment: M_c = (p - c) x F + tau n_up.
inline PlateWrench wrench_for(const ForcePlate& plate, const PointLoad& load) {
  const Matrix3 R = plate.rotation_world_plate();
  const Vector3 n_up = -R.col(2);
  const Vector3 moment_world = (load.point_world - plate.center_world()).cross(load.force_world) + load.tau * n_up;
  return {R.transpose() * load.force_world, R.transpose() * moment_world};
}

struct SyntheticC3d {
  C3dFile file;
  std::vector<ForcePlate> plates;             ///< in SI, as the reader should find them
  std::vector<std::vector<PointLoad>> loads;  ///< [plate][frame], the truth at every analog sample of the frame
  Eigen::MatrixXd marker_positions_mm;        ///< frames x (3 markers), NaN where missing
};

constexpr int kSyntheticFrames = 12;
constexpr int kSamplesPerFrame = 2;

/// Integer storage uses POINT:SCALE 0.25 (float: -0.25); every stored value is exact in both
/// storages and in DEC floats, so a round trip is bit exact.
inline SyntheticC3d synthetic_c3d(C3dProcessor processor, bool float_storage, int first_frame = 1) {
  SyntheticC3d s;
  C3dFile& f = s.file;
  f.processor = processor;
  f.first_frame = first_frame;
  const int frames = kSyntheticFrames, spf = kSamplesPerFrame;
  const std::vector<std::string> labels = {"LASI", "RASI", "LTOE"};
  const double scale = 0.25;
  C3dParameters& p = f.parameters;
  p.set_number("POINT", "SCALE", C3dType::Float, float_storage ? -scale : scale);
  p.set_number("POINT", "RATE", C3dType::Float, 100.0);
  p.set_strings("POINT", "LABELS", labels);
  p.set_strings("POINT", "UNITS", {"mm"});
  p.find("POINT", "UNITS")->description = "length unit";
  p.groups.front().description = "3-D point parameters";

  // Markers: integer multiples of the scale; LTOE missing in frames 4 and 5 (index 3, 4).
  f.points.resize(frames, 9);
  f.point_info.resize(frames, 3);
  s.marker_positions_mm.resize(frames, 9);
  for (int fr = 0; fr < frames; ++fr)
    for (int m = 0; m < 3; ++m) {
      const bool missing = m == 2 && (fr == 3 || fr == 4);
      for (int k = 0; k < 3; ++k) {
        const double x = scale * (400 * m + 40 * k + 3 * fr - 120 * (k == 1) + 1);
        f.points(fr, 3 * m + k) = missing ? 0.0 : x;
        s.marker_positions_mm(fr, 3 * m + k) = missing ? std::nan("") : x;
      }
      f.point_info(fr, m) = missing ? -1.0 : 3 * 256 + 5;  // cameras 1 and 2, residual 5 * scale
    }

  // Plates: type 2 (AMTI-like), 3 (Kistler), 4 (with cross-talk) and 1, side by side.
  const std::vector<int> types = {2, 3, 4, 1};
  int channel = 0;
  std::vector<double> corners, origins, channels_param, cal;
  Matrix6 cal_matrix = Matrix6::Identity();
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j)
      if (i != j) cal_matrix(i, j) = (i + 2 * j) % 5 / 4096.0 - 1.0 / 2048.0;  // small cross-talk
  for (std::size_t i = 0; i < types.size(); ++i) {
    ForcePlate plate;
    plate.number = static_cast<int>(i + 1);
    plate.type = types[i];
    const Vector3 center_mm(700.0 * static_cast<double>(i) + 300.0, 250.0, 0.0);
    const Eigen::Matrix<double, 3, 4> c = floor_plate_corners(center_mm, 300.0, 200.0);
    plate.corners_world = c * 1e-3;
    const Vector3 origin_mm = types[i] == 3 ? Vector3(210.0, 160.0, -41.0) : Vector3(1.0, -0.5, -38.0);
    plate.origin_plate = origin_mm * 1e-3;
    plate.length_to_si = 1e-3;
    plate.moment_to_si = 1e-3;
    if (types[i] == 4) plate.calibration = cal_matrix;
    for (int k = 0; k < ForcePlate::channel_count(types[i]); ++k) plate.channels.push_back(channel++);
    for (int k = 0; k < 12; ++k) corners.push_back(c(k % 3, k / 3));
    for (int k = 0; k < 3; ++k) origins.push_back(origin_mm[k]);
    for (int k = 0; k < 8; ++k)
      channels_param.push_back(k < ForcePlate::channel_count(types[i]) ? plate.channels[static_cast<std::size_t>(k)] + 1
                                                                       : 0);
    for (int k = 0; k < 36; ++k) cal.push_back(types[i] == 4 ? cal_matrix(k % 6, k / 6) : (k % 7 == 0 ? 1.0 : 0.0));
    s.plates.push_back(plate);
  }
  const int plate_channels_total = channel;
  const int channels = plate_channels_total + 1;  // + an EMG channel
  p.set_number("FORCE_PLATFORM", "USED", C3dType::Int16, static_cast<double>(types.size()));
  std::vector<double> type_values(types.begin(), types.end());
  p.set_numbers("FORCE_PLATFORM", "TYPE", C3dType::Int16, type_values, {4});
  p.set_numbers("FORCE_PLATFORM", "CORNERS", C3dType::Float, corners, {3, 4, 4});
  p.set_numbers("FORCE_PLATFORM", "ORIGIN", C3dType::Float, origins, {3, 4});
  p.set_numbers("FORCE_PLATFORM", "CHANNEL", C3dType::Int16, channels_param, {8, 4});
  p.set_numbers("FORCE_PLATFORM", "CAL_MATRIX", C3dType::Float, cal, {6, 6, 4});

  // Analog scaling: value = (stored - OFFSET) * SCALE * GEN_SCALE; forces 0.25 N, moments
  // 100 N mm, COP 1 mm per count (binary fractions: exact as floats).
  std::vector<double> scales, offsets;
  std::vector<std::string> analog_labels, units;
  for (const ForcePlate& plate : s.plates)
    for (int k = 0; k < ForcePlate::channel_count(plate.type); ++k) {
      const bool moment = plate.type != 3 && (k == 5 || (plate.type != 1 && k >= 3));
      const bool cop = plate.type == 1 && (k == 3 || k == 4);
      scales.push_back(moment ? 50.0 : cop ? 0.5 : 0.125);
      offsets.push_back(k - 2.0);
      units.push_back(moment ? "Nmm" : cop ? "mm" : "N");
      analog_labels.push_back("P" + std::to_string(plate.number) + "C" + std::to_string(k + 1));
    }
  scales.push_back(1.0 / 1024);
  offsets.push_back(0.0);
  units.push_back("V");
  analog_labels.push_back("EMG1");
  p.set_number("ANALOG", "USED", C3dType::Int16, channels);
  p.set_number("ANALOG", "RATE", C3dType::Float, 100.0 * spf);
  p.set_number("ANALOG", "GEN_SCALE", C3dType::Float, 2.0);
  p.set_numbers("ANALOG", "SCALE", C3dType::Float, scales, {channels});
  p.set_numbers("ANALOG", "OFFSET", C3dType::Int16, offsets, {channels});
  p.set_strings("ANALOG", "LABELS", analog_labels);
  p.set_strings("ANALOG", "UNITS", units);

  // Loads: a subject's weight shifting over the plates; frame 0 is unloaded (below the COP
  // threshold) on every plate.
  f.analogs.resize(frames * spf, channels);
  s.loads.assign(s.plates.size(), {});
  for (std::size_t i = 0; i < s.plates.size(); ++i) {
    const ForcePlate& plate = s.plates[i];
    for (int fr = 0; fr < frames; ++fr) {
      const double w = fr == 0 ? 4.0 : 300.0 + 40.0 * fr + 25.0 * static_cast<double>(i);
      const Vector3 point = plate.center_world() + Vector3(0.01 * fr - 0.05, 0.03 - 0.004 * fr, 0.0);
      PointLoad load{Vector3(0.05 * w, -0.03 * w, w), point, 0.5 + 0.1 * fr};
      s.loads[i].push_back(load);
      const Eigen::VectorXd ch = plate_channels(plate, wrench_for(plate, load));
      for (int smp = 0; smp < spf; ++smp)
        for (int k = 0; k < ch.size(); ++k) {
          const int c = plate.channels[static_cast<std::size_t>(k)];
          f.analogs(fr * spf + smp, c) =
              std::round(ch[k] / (scales[static_cast<std::size_t>(c)] * 2.0)) + offsets[static_cast<std::size_t>(c)];
        }
    }
  }
  for (int r = 0; r < frames * spf; ++r) f.analogs(r, channels - 1) = (r * 37) % 200 - 100;
  return s;
}

}  // namespace dynid::testing
