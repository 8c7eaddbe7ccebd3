#pragma once
// How far two lab recordings of the same frames and plate samples are apart (a simulated data set
// and the same data written as a lab's files and imported back): the largest marker, plate force and
// plate moment differences, and the marker samples missing in one but not the other.

#include <algorithm>
#include <cmath>

#include "dynid/data/lab_recording.hpp"

namespace dynid::test {

struct LabRecordingDifference {
  double marker = 0.0;        ///< [m]
  double force = 0.0;         ///< [N]
  double moment = 0.0;        ///< [N m]
  long missing_mismatch = 0;  ///< marker coordinates NaN in one recording only
};

/// Both recordings must have the same marker frames and plate samples (the caller checks the counts).
inline LabRecordingDifference lab_recording_difference(const LabRecording& a, const LabRecording& b) {
  LabRecordingDifference d;
  for (Eigen::Index f = 0; f < a.markers.frame_count(); ++f)
    for (Eigen::Index k = 0; k < a.markers.positions.rows(); ++k) {
      const double x = a.markers.positions(k, f), y = b.markers.positions(k, f);
      if (std::isnan(x) != std::isnan(y))
        ++d.missing_mismatch;
      else if (!std::isnan(x))
        d.marker = std::max(d.marker, std::abs(x - y));
    }
  for (Eigen::Index s = 0; s < a.plate_wrench.cols(); ++s)
    for (Eigen::Index k = 0; k < a.plate_wrench.rows(); ++k) {
      double& largest = k % 6 < 3 ? d.force : d.moment;
      largest = std::max(largest, std::abs(a.plate_wrench(k, s) - b.plate_wrench(k, s)));
    }
  return d;
}

}  // namespace dynid::test
