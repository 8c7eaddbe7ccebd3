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
  std::vector<double> time;     ///< marker frame times [s]
  std::vector<VectorX> q;       ///< IK solution per frame (nq)
  std::vector<double> rms;      ///< marker RMS of each frame's fit [m]
  std::vector<double> max;      ///< largest marker distance of each frame's fit [m]
  std::vector<int> used;        ///< markers used per frame (fewer than 3: no fit, q held)
  std::vector<int> iterations;  ///< IK iterations of each frame's kept fit
  std::vector<int> dropped;     ///< markers dropped from each frame as mislabelled (outlier_m)
  int markers_recorded = 0;     ///< model markers the recording has (by name)
  int markers_in_model = 0;
};

struct MarkerConfigurationOptions {
  /// Hold the joints at the encoder readings (linearly interpolated at the frame time) and solve
  /// only the base.
  bool joints_from_encoders = false;
  /// After a gap in the frame times (over 1.5 median frame periods: a new trial or pose) or a fit
  /// worse than `restart_rms`, solve the frame again from the base markers (Kabsch) with the
  /// previous frame's joints, with the neutral joints and, when the recording has encoders, with
  /// the encoders' joints, and keep the best fit. For recordings of many separate poses or trials.
  bool restarts = false;
  double restart_rms = 2e-3;  ///< [m]
  /// Calibrate the model's marker offsets on the first N frames (a neutral static trial) first.
  int calibrate_frames = 0;
  /// A marker farther than this from the model's after a frame's fit is taken as mislabelled in
  /// that frame (the tracker swapped two labels, or a ghost): the worst one is dropped and the frame
  /// solved again, up to kMaxMislabelledMarkers per frame. 0: keep every marker. [m]
  double outlier_m = 0.02;
};

/// Most markers dropped from one frame as mislabelled (a swap takes two).
inline constexpr int kMaxMislabelledMarkers = 3;

/// Marker IK of every frame of `markers`, each frame starting from the previous solution.
/// `encoders`: a recording whose encoder stream gives the joints (joints_from_encoders) or the
/// restarts' third start; may be null. Throws when fewer than 3 model markers are recorded, or when
/// joints_from_encoders is set without an encoder stream.
MarkerConfigurations solve_marker_configurations(const Model& model, const MarkerTrajectories& markers,
                                                 const LabRecording* encoders,
                                                 const MarkerConfigurationOptions& options);

/// The configurations as CSV (`dynid ik`'s output): time, q.<coordinate>..., marker_rms,
/// marker_max [m], markers_used, iterations; numbers that read back exactly.
std::string marker_configurations_csv(const Model& model, const MarkerConfigurations& configurations);

/// The same on a lab recording's markers and encoders, without restarts. Throws naming the data set
/// when the markers (or, with `joints_from_encoders`, the encoders) are missing.
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
