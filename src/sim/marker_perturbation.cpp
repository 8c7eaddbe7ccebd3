#include "dynid/sim/marker_perturbation.hpp"

#include <limits>

#include "dynid/core/random_draws.hpp"

namespace dynid {

MarkerPerturbation perturb_markers(const RobotSidecar& sidecar, unsigned seed, double swap_window_start_s,
                                   double swap_window_end_s) {
  // Its own generator: every other perturbation and the sensor noise drawn from the seed stay as they were.
  std::mt19937 rng(seed * 3266489917u + 29u);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  MarkerPerturbation p;
  for (std::size_t m = 0; m < sidecar.markers.size(); ++m)
    p.mount_error.push_back(kMarkerMountToleranceM * draw_vector3(u, rng));
  // The swap: the two closest markers on one link.
  double closest = std::numeric_limits<double>::infinity();
  for (std::size_t a = 0; a < sidecar.markers.size(); ++a)
    for (std::size_t b = a + 1; b < sidecar.markers.size(); ++b) {
      if (sidecar.markers[a].link != sidecar.markers[b].link) continue;
      const double d = (sidecar.markers[a].placement.translation - sidecar.markers[b].placement.translation).norm();
      if (d < closest) {
        closest = d;
        p.swap_a = static_cast<int>(a);
        p.swap_b = static_cast<int>(b);
      }
    }
  p.swap_start_s = swap_window_start_s + 0.5 * (1.0 + u(rng)) * (swap_window_end_s - swap_window_start_s);
  p.gap_seed = static_cast<unsigned>(rng());
  return p;
}

bool MarkerGaps::hidden(std::size_t m, double time, double dt) {
  if (time < gap_end_[m]) {
    hidden_s_ += dt;
    return true;
  }
  if (std::uniform_real_distribution<double>(0.0, 1.0)(rng_) < kMarkerGapRatePerS * dt) {
    gap_end_[m] = time + std::uniform_real_distribution<double>(kMarkerGapMinS, kMarkerGapMaxS)(rng_);
    ++gaps_;
    hidden_s_ += dt;
    return true;
  }
  return false;
}

}  // namespace dynid
