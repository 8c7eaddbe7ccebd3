#pragma once
// A lab recording for static identification and its validation, read from a dynid data set
// (docs/data-format.md): what dataset.json says (data/dataset_info.hpp: segments, force plates,
// gravity, the true model of simulated data) and the lab streams themselves, markers, force plates
// and joint encoders. Everything in SI units, world axes.

#include <string>
#include <vector>

#include "dynid/data/dataset_info.hpp"
#include "dynid/mocap/marker_trajectories.hpp"

namespace dynid {

struct LabRecording {
  DatasetInfo dataset;  ///< directory, segments, force plates (names, top centres), truth_urdf

  MarkerTrajectories markers;

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

/// Reads DIR (or DIR/dataset.json). The markers, plates and encoders streams are read when the data
/// set lists them; a missing stream leaves its part empty (the caller says which it needs). Throws
/// "PATH: reason".
LabRecording read_lab_recording(const std::string& path);

/// Centre of pressure of a ground reaction (world, about the world origin) on the horizontal plane
/// z = `ground_height` [m]. NaN when the vertical force is below `min_vertical_force` [N].
Vector3 center_of_pressure(const Force& ground_reaction_world, double ground_height, double min_vertical_force = 20.0);

}  // namespace dynid
