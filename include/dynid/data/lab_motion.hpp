#pragma once
// The motion and ground reaction of a lab recording as the dynamics need them, shared by the
// validation of `identify static` and the motion-capture source of `identify inertial`:
//
//  - configurations per marker frame by marker IK (mocap/marker_ik.hpp): the whole configuration,
//    or only the floating base with the joints read from the encoders (interpolated at the frame);
//  - the plate wrenches on a uniform time grid at their mean rate (a recorder's time stamps
//    jitter), zero-phase low-passed there, so they can be interpolated at any time.

#include <string>
#include <vector>

#include "dynid/data/lab_recording.hpp"

namespace dynid {

struct MarkerConfigurations {
  std::vector<double> time;  ///< marker frame times [s]
  std::vector<VectorX> q;    ///< IK solution per frame (nq)
  std::vector<double> rms;   ///< marker RMS of each frame's fit [m]
  std::vector<int> used;     ///< markers used per frame (fewer than 3: no fit, q held)
};

/// Marker IK of every marker frame of `recording`, each frame starting from the previous solution.
/// `joints_from_encoders`: the joints are held at the encoder readings (linearly interpolated at
/// the frame time) and only the base is solved. Throws naming the data set when the markers (or,
/// with `joints_from_encoders`, the encoders) are missing or fewer than 3 model markers are recorded.
MarkerConfigurations solve_marker_configurations(const Model& model, const LabRecording& recording,
                                                 bool joints_from_encoders);

/// Encoder readings linearly interpolated at time `t` [s] written into the joint entries of `q`
/// (channels matched by joint name; channels of joints the model does not have are ignored).
void encoder_joints_at(const Model& model, const LabRecording& recording, double t, VectorX& q);

/// `recording` with its plate samples moved onto a uniform grid at their mean rate (linear
/// interpolation) and low-passed there (zero-phase Butterworth, `order` per pass, -3 dB at
/// `cutoff_hz`; no filter when cutoff_hz <= 0). Throws when there are fewer than 10 plate samples.
LabRecording plates_on_uniform_grid(const LabRecording& recording, double cutoff_hz, int order = 2);

/// Ground reaction (wrench on the robot, world axes, about the world origin) of every plate of
/// `recording` linearly interpolated at time `t` [s] (clamped to the recording): 6 x plates,
/// rows force [N] then torque [N m]. `hint`: index of the plate sample to start searching from.
Eigen::Matrix<double, 6, Eigen::Dynamic> plate_reactions_at(const LabRecording& recording, double t, std::size_t& hint);

}  // namespace dynid
