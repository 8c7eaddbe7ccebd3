#pragma once
// Marker-mount calibration from static frames (issue 19; `dynid identify static --calibrate-markers`,
// docs/identification-static.md): where each marker really sits on its body, from frames whose
// configurations marker IK solves. Alternately: solve every frame with the current offsets; set each
// marker's offset to the mean of its measured positions in its body frame (calibrate_marker_offsets);
// then keep, per body, only the part of the change that is not a rigid motion of the body's marker
// layout.
//
// The guard: a body's marker layout moved rigidly is what a joint-angle offset, a link-length error
// or the body's own pose look like — the markers cannot tell them apart, and absorbing them into the
// offsets would hide model error (or, on the floating base, shift the whole robot). So each body's
// change is projected off the 6 rigid motions (translation t and small rotation w, d_i - (t + w x p_i),
// p_i the nominal offsets about their centroid), and a body with fewer than 3 markers seen is not
// calibrated. What is left — one marker off relative to its neighbours — is what a mount error is.

#include <vector>

#include "dynid/mocap/marker_ik.hpp"

namespace dynid {

struct MarkerMountCalibration {
  std::vector<Vector3> offsets;  ///< per marker: calibrated offset, body frame [m]
  std::vector<Vector3> change;   ///< offsets minus the nominal ones [m]
  std::vector<bool> calibrated;  ///< per marker: on a body with >= 3 markers seen
  std::vector<VectorX> q;        ///< per frame: its configuration with the calibrated offsets
  double rms_before = 0.0;       ///< mean over frames of the marker RMS with the nominal offsets [m]
  double rms_after = 0.0;        ///< the same with the calibrated offsets [m]
  int rounds = 0;
};

/// `measured[f]`: 3 x markers (ik's order), world [m], NaN = missing; `start[f]`: a configuration to
/// start frame f from (e.g. the frames' IK with the nominal offsets). Leaves `ik` with the
/// calibrated offsets.
MarkerMountCalibration calibrate_marker_mounts(MarkerIk& ik, const std::vector<Eigen::Matrix3Xd>& measured,
                                               std::vector<VectorX> start, int rounds = 5);

/// `change` (per marker, body frame) with each body's rigid part removed as above; markers of bodies
/// with fewer than 3 entries marked valid get zero.
std::vector<Vector3> non_rigid_part(const std::vector<ModelMarker>& markers, const std::vector<Vector3>& change,
                                    const std::vector<bool>& valid);

}  // namespace dynid
