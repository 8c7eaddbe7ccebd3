#pragma once
// A lab recording for static identification and its validation, read from a dynid data set
// (docs/data-format.md): markers, force plates, joint encoders, the data set's segments and, for
// simulated data, the path of the true model. Everything in SI units, world axes.

#include <string>
#include <vector>

#include "dynid/mocap/marker_trajectories.hpp"

namespace dynid {

/// A labelled time span of a data set (dataset.json `segments`).
struct TimeSegment {
  std::string label, category;
  double start = 0.0, end = 0.0;  ///< [s]
};

struct LabRecording {
  std::string directory;
  Vector3 gravity{0.0, 0.0, -9.81};
  std::string truth_urdf;  ///< absolute path when the data set has one, else empty
  std::vector<TimeSegment> segments;

  MarkerTrajectories markers;

  std::vector<std::string> plate_names;
  std::vector<Vector3> plate_origins;  ///< top centre of each plate, world [m]
  /// Corners of each plate's top surface in order around it, world [m] (3 x corners; 0 columns
  /// when dataset.json does not give them).
  std::vector<Eigen::Matrix3Xd> plate_corners;
  std::vector<double> plate_time;  ///< [s]
  /// (6 * plates) x samples: per plate the force the robot applies to it [N] and the moment about
  /// its top centre [N m], world axes (the plates stream).
  Eigen::MatrixXd plate_wrench;

  std::vector<std::string> encoder_joints;  ///< joint names of the encoder channels
  std::vector<double> encoder_time;         ///< [s]
  Eigen::MatrixXd encoder_q;                ///< joints x samples [rad]

  /// Wrench the ground applies to the robot, summed over plates, world axes, about the world
  /// origin [force; torque] at plate sample `k`.
  Force ground_reaction(Eigen::Index k) const;
  /// Same, averaged over the plate samples with time in [start, end].
  Force mean_ground_reaction(double start, double end) const;
};

/// Reads DIR (or DIR/dataset.json). Markers, plates and encoders are read when present; a missing
/// stream leaves its part empty (the caller says which it needs). Throws "PATH: reason".
LabRecording read_lab_recording(const std::string& path);

/// Centre of pressure of a ground reaction (world, about the world origin) on the horizontal plane
/// z = `ground_height` [m]. NaN when the vertical force is below `min_vertical_force` [N].
Vector3 center_of_pressure(const Force& ground_reaction_world, double ground_height, double min_vertical_force = 20.0);

}  // namespace dynid
