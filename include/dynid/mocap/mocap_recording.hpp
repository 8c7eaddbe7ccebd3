#pragma once
// A motion-capture recording in SI units: marker trajectories in the lab (world) frame, analog
// channels and the force plates that read them. What the C3D and TRC readers return.
//
// Marker positions are in metres in the lab frame as the capture system defined it (dynid does not
// re-orient it; most labs use z up, as dynid does). A missing marker is NaN with valid = false.

#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

#include "dynid/mocap/force_plate.hpp"

namespace dynid {

struct MocapRecording {
  std::string source;  ///< the file it came from

  double point_rate = 0.0;  ///< marker frames per second [Hz]
  int first_frame = 1;      ///< number of the first frame, as the file numbers them
  /// Time of the first frame on the file's own clock [s] (a TRC's Time column; C3D: 0). What a
  /// separate force-plate file (mocap/ground_reaction_file.hpp) is aligned by.
  double first_frame_time = 0.0;
  double last_frame_time = 0.0;  ///< a TRC's Time at its last frame [s] (C3D: 0)
  std::vector<std::string> marker_labels;
  /// (3 * markers) x frames [m]: marker m of frame f is marker_positions.block<3, 1>(3 * m, f).
  Eigen::MatrixXd marker_positions;
  /// markers x frames: false where the marker is missing (its position is NaN).
  Eigen::Array<bool, Eigen::Dynamic, Eigen::Dynamic> marker_valid;
  std::string length_unit_in_file;  ///< "mm", "m", ...: what the readers converted from

  double analog_rate = 0.0;  ///< analog samples per second [Hz]; 0 without analog data
  /// Time of the first analog sample after the first marker frame [s] (0 in a C3D, where both start
  /// together; a separate plate file's samples fall between the frames).
  double analog_start = 0.0;
  std::vector<std::string> analog_labels;
  std::vector<std::string> analog_units;  ///< as the file says (ANALOG:UNITS); values are not converted
  /// channels x samples, scaled as the file prescribes ((stored - OFFSET) * SCALE * GEN_SCALE).
  Eigen::MatrixXd analogs;

  std::vector<ForcePlate> force_plates;
  std::vector<std::string> warnings;  ///< what the reader tolerated

  Eigen::Index frame_count() const { return marker_positions.cols(); }
  Eigen::Index marker_count() const { return static_cast<Eigen::Index>(marker_labels.size()); }
  int last_frame() const { return first_frame + static_cast<int>(frame_count()) - 1; }
  /// Position of `marker` at frame index `frame` (0-based) [m]; NaN if missing.
  Eigen::Vector3d marker_position(Eigen::Index marker, Eigen::Index frame) const {
    return marker_positions.block<3, 1>(3 * marker, frame);
  }
  std::optional<Eigen::Index> find_marker(const std::string& label) const;
};

enum class MocapFileType { C3d, Trc };

/// The type of a motion-capture file by its extension (.c3d or .trc, any case). Throws
/// std::runtime_error "PATH: unknown motion-capture file type ..." for anything else.
MocapFileType mocap_file_type(const std::string& path);

/// Reads a C3D or TRC file (mocap_file_type). Throws std::runtime_error "PATH: reason".
MocapRecording read_mocap_file(const std::string& path);

}  // namespace dynid
