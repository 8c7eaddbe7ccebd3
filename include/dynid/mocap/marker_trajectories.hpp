#pragma once
// Marker trajectories with their sample times, from any marker source dynid reads: a data set
// (directory, its dataset.json, or its markers.csv: docs/data-format.md), a C3D or a TRC file.
// What marker IK consumes; columns are matched to the model's markers by name.

#include <string>
#include <vector>

#include "dynid/mocap/marker_ik.hpp"

namespace dynid {

struct MarkerTrajectories {
  std::string source;
  std::vector<double> time;         ///< [s], one per frame (data sets may have gaps between segments)
  std::vector<std::string> labels;  ///< marker names
  Eigen::MatrixXd positions;        ///< (3 * labels) x frames, world [m], NaN = missing

  Eigen::Index frame_count() const { return positions.cols(); }
};

/// Reads markers from a data set directory (or its dataset.json / markers.csv), a .c3d or a .trc.
/// Throws "PATH: reason" when there are none or the file is malformed.
MarkerTrajectories read_marker_trajectories(const std::string& path);

/// For each model marker, the recording's label index with the same name, or -1. Throws naming
/// the source when fewer than 3 model markers are recorded.
std::vector<int> match_markers(const MarkerTrajectories& recording, const std::vector<ModelMarker>& markers);

/// Frame `frame` arranged as the model's markers (3 x markers, NaN where unmatched or missing).
/// `out` must be 3 x markers.size(); allocation free.
void model_marker_frame(const MarkerTrajectories& recording, const std::vector<int>& match, Eigen::Index frame,
                        Eigen::Ref<Eigen::Matrix3Xd> out);

/// Mean of frames [first, last] per model marker, ignoring missing samples (NaN if never seen).
Eigen::Matrix3Xd mean_model_marker_frame(const MarkerTrajectories& recording, const std::vector<int>& match,
                                         Eigen::Index first, Eigen::Index last);

}  // namespace dynid
