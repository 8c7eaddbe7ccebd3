#pragma once
// The lab's markers are not where the robot's sidecar says (issue 19, `--perturb markers`,
// docs/scenarios.md): what a motion-capture session on a real robot gives besides the cameras'
// noise.
//   - Mounting: every marker sits off its sidecar position by a seeded offset in its link frame,
//     each component uniform within ±kMarkerMountToleranceM (a base stuck on the shell by hand
//     against a CAD-defined spot, without a fixture: a few millimetres).
//   - Occlusion gaps: each marker, while visible, starts a gap with probability
//     kMarkerGapRatePerS · dt per frame; a gap lasts a seeded time uniform in
//     [kMarkerGapMinS, kMarkerGapMaxS] (an arm passing in front of the pelvis, a camera's view
//     blocked by the robot's own body: tenths of a second).
//   - One swapped-label event: two markers of one link (the two nearest to each other) exchange
//     their labels for kMarkerSwapS of recorded frames, from the first frame recorded after a
//     seeded time (labelling software swapping neighbours after a gap).
// The recorded positions of each marker are its true mounted position (plus the cameras' noise);
// the sidecar, the model and the controllers keep the nominal positions.

#include <random>
#include <string>
#include <vector>

#include "dynid/model/sidecar.hpp"

namespace dynid {

inline constexpr double kMarkerMountToleranceM = 3e-3;  ///< per component, link frame [m]
inline constexpr double kMarkerGapRatePerS = 0.05;      ///< gap starts per visible second, per marker
inline constexpr double kMarkerGapMinS = 0.05, kMarkerGapMaxS = 0.5;
inline constexpr double kMarkerSwapS = 0.5;  ///< how long the labels stay swapped [s]

struct MarkerPerturbation {
  std::vector<Vector3> mount_error;  ///< per sidecar marker: true minus sidecar position, link frame [m]
  int swap_a = -1, swap_b = -1;      ///< sidecar marker indices whose labels swap (-1: none)
  double swap_start_s = 0.0;         ///< [s], simulation time
  unsigned gap_seed = 0;             ///< the occlusion gaps' own generator
};

/// The seeded perturbation for `sidecar`'s markers; the swap starts uniformly within
/// [swap_window_start_s, swap_window_end_s].
MarkerPerturbation perturb_markers(const RobotSidecar& sidecar, unsigned seed, double swap_window_start_s,
                                   double swap_window_end_s);

/// The occlusion gaps as they happen, frame by frame (the recorder asks at each marker frame).
class MarkerGaps {
 public:
  MarkerGaps(std::size_t markers, unsigned seed) : gap_end_(markers, -1.0), rng_(seed) {}
  /// Whether marker `m` is hidden at `time` [s], the frames `dt` [s] apart.
  bool hidden(std::size_t m, double time, double dt);
  /// Gaps started so far and their total length [s] (for dataset.json).
  long gaps() const { return gaps_; }
  double hidden_time_s() const { return hidden_s_; }

 private:
  std::vector<double> gap_end_;
  std::mt19937 rng_;
  long gaps_ = 0;
  double hidden_s_ = 0.0;
};

}  // namespace dynid
