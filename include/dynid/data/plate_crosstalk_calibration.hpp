#pragma once
// Force plates' crosstalk from the vertical into the horizontal force channels, calibrated in situ
// from the static poses (issue 19; docs/identification-static.md, "Force-plate crosstalk").
//
// Standing still, the ground's horizontal force on the robot sums to zero over the plates: the legs
// may push against each other (tens of newtons on each plate), but not against the ground as a
// whole. So what the plates' horizontal channels read, summed over the plates, is their crosstalk
// and zero drift:
//   sum_p f_h,p(k) = sum_p c_h,p f_z,p(k) + r_h t_k      (h = x, y; pose k at t_k since the recording's start)
// in least squares over the poses' mean readings (f: force the robot applies to the plate).
// The split of c between plates is determined when the poses move the weight between the plates
// (paper 000's protocol has poses on one foot); otherwise every plate gets one common value. The
// drift's sum r_h is estimated with it (its split between plates cannot be observed) and is not
// removed: each recording is zeroed anew. A constant zero error would be the weight times a common
// c (the weight does not change), so the plates must be zeroed unloaded, as every lab does.

#include <string>
#include <utility>
#include <vector>

#include "dynid/core/types.hpp"
#include "dynid/data/lab_recording.hpp"

namespace dynid {

struct PlateCrosstalkCalibration {
  std::vector<std::string> plates;                          ///< the data set's plates, in its order
  std::vector<Eigen::Vector2d> crosstalk;                   ///< per plate: f_x and f_y read this fraction of f_z
  Eigen::Vector2d drift_n_per_s = Eigen::Vector2d::Zero();  ///< the plates' summed horizontal zero drift [N/s]
  bool per_plate = true;  ///< false: one value for every plate (the poses did not shift the weight between plates)
  int poses = 0;
  /// RMS over the poses of the summed horizontal force [N] as read, and after the calibration.
  Eigen::Vector2d rms_before_n = Eigen::Vector2d::Zero(), rms_after_n = Eigen::Vector2d::Zero();
};

/// From the mean plate readings over each static span {start, end} [s] of `rec`. Throws with a
/// one-line reason when there are too few poses (fewer than the unknowns + 2), a span holds no plate
/// sample, or the plates carry no vertical load.
PlateCrosstalkCalibration calibrate_plate_crosstalk(const LabRecording& rec,
                                                    const std::vector<std::pair<double, double>>& spans);

/// Removes the crosstalk from every sample of `rec`'s plates stream: f_h -= c_h f_z per plate.
/// Throws when `rec` has other plates than the calibration's.
void remove_plate_crosstalk(const PlateCrosstalkCalibration& calibration, LabRecording& rec);

}  // namespace dynid
