#pragma once
// A C3D file as stored: processor format, parameter section and the raw 3-D point and analog data
// (C3D User Guide, c3d.org). Nothing here is scaled or converted; MocapRecording (c3d_reader.hpp)
// is the SI view of it. Keeping the stored values lets the writer reproduce a file bit for bit and
// lets tests build exact fixtures.

#include <Eigen/Core>

#include "dynid/mocap/c3d_parameters.hpp"

namespace dynid {

/// Byte order and float format, the 4th byte of the parameter section minus 83.
enum class C3dProcessor : int {
  Intel = 84,  ///< little-endian integers, IEEE floats
  Dec = 85,    ///< little-endian integers, VAX F floats
  Mips = 86,   ///< big-endian integers and IEEE floats (SGI/MIPS)
};

struct C3dFile {
  C3dProcessor processor = C3dProcessor::Intel;
  C3dParameters parameters;
  int first_frame = 1;                ///< number of the first frame (header word 4, or TRIAL:ACTUAL_START_FIELD)
  int max_interpolation_gap = 0;      ///< header word 6
  double header_frame_rate = 0.0;     ///< header words 11-12; POINT:RATE takes precedence (the writer uses it)
  std::vector<std::string> warnings;  ///< what the reader tolerated (counts that disagree, ...)

  /// Coordinates as stored, in POINT:UNITS: (frames x 3 points). Integer storage keeps the
  /// integer times |POINT:SCALE|; invalid points keep whatever the file holds.
  Eigen::MatrixXd points;
  /// The 4th word of each point as stored (frames x points): negative means invalid; otherwise
  /// its high byte is the camera mask and its low byte the residual in units of |POINT:SCALE|.
  Eigen::MatrixXd point_info;
  /// Analog values as stored, not scaled, signed 16-bit for integer files:
  /// (frames * samples per frame) x channels.
  Eigen::MatrixXd analogs;

  Eigen::Index frame_count() const { return points.rows(); }
  Eigen::Index point_count() const { return point_info.cols(); }
  Eigen::Index analog_channel_count() const { return analogs.cols(); }
  /// Analog samples per 3-D frame (0 without analog channels).
  Eigen::Index analog_samples_per_frame() const;
  /// POINT:SCALE; a negative scale means float storage (C3D User Guide, "POINT:SCALE").
  double point_scale() const;
  bool float_storage() const { return point_scale() < 0.0; }
};

}  // namespace dynid
