#pragma once
// Settled windows of a static-pose recording: the spans where the robot holds still, found from
// the data alone (markers and plates), so a lab need not log when each pose was held.
//
// A marker frame is still when the RMS over the visible markers of their speed, taken between
// means over `smoothing_s` before and after it (so 0.5 mm of marker noise does not look like
// motion), is below `max_marker_speed`, and the plates' total vertical force over the same span
// stays within `max_force_change` of its value at the frame. Windows are maximal runs of still
// frames without a gap in the recording (data sets may record only the held poses) that last at
// least `min_duration_s`; `trim_s` is dropped at each end.

#include <vector>

#include "dynid/data/lab_recording.hpp"

namespace dynid {

struct SettledWindowOptions {
  double smoothing_s = 0.1;        ///< half-span of the position means [s]
  double max_marker_speed = 0.01;  ///< [m/s], RMS over markers
  double max_force_change = 0.02;  ///< relative change of the total vertical force over the span
  double min_duration_s = 0.5;     ///< shortest window kept [s]
  double trim_s = 0.05;            ///< dropped at each end of a window [s]
};

struct SettledWindow {
  double start = 0.0, end = 0.0;                 ///< [s]
  Eigen::Index first_frame = 0, last_frame = 0;  ///< marker frames, inclusive
};

/// Needs markers; uses the plates when the recording has them. Throws naming the recording when it has no markers.
std::vector<SettledWindow> detect_settled_windows(const LabRecording& recording,
                                                  const SettledWindowOptions& options = {});

/// Index of the segment that contains most of `window`, or -1 when none overlaps it by half.
int matching_segment(const std::vector<TimeSegment>& segments, const SettledWindow& window);

}  // namespace dynid
