#include "dynid/data/settled_windows.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dynid {
namespace {

// Mean total vertical force over plate samples in [t0, t1]; NaN without samples.
double mean_vertical_force(const LabRecording& rec, double t0, double t1) {
  const auto lo = std::lower_bound(rec.plate_time.begin(), rec.plate_time.end(), t0);
  const auto hi = std::upper_bound(rec.plate_time.begin(), rec.plate_time.end(), t1);
  double sum = 0.0;
  int n = 0;
  for (auto it = lo; it != hi; ++it) {
    const Eigen::Index k = it - rec.plate_time.begin();
    for (std::size_t p = 0; p < rec.dataset.force_plates.size(); ++p)
      sum += rec.plate_wrench(6 * static_cast<Eigen::Index>(p) + 2, k);
    ++n;
  }
  return n > 0 ? sum / n : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

std::vector<SettledWindow> detect_settled_windows(const LabRecording& rec, const SettledWindowOptions& o) {
  const MarkerTrajectories& mk = rec.markers;
  const Eigen::Index frames = mk.frame_count();
  if (frames < 3) throw std::runtime_error(rec.dataset.directory + ": settled windows need marker frames");
  // Nominal frame period: the median spacing.
  std::vector<double> dts;
  for (Eigen::Index f = 1; f < frames; ++f) dts.push_back(mk.time[f] - mk.time[f - 1]);
  std::nth_element(dts.begin(), dts.begin() + static_cast<long>(dts.size() / 2), dts.end());
  const double dt = dts[dts.size() / 2];
  if (!(dt > 0.0)) throw std::runtime_error(mk.source + ": marker times do not increase");
  const Eigen::Index half = std::max<Eigen::Index>(1, static_cast<Eigen::Index>(std::lround(o.smoothing_s / dt)));
  const Eigen::Index markers = static_cast<Eigen::Index>(mk.labels.size());

  // Runs of frames without gaps (a gap: more than 1.5 periods between frames).
  std::vector<char> still(static_cast<std::size_t>(frames), 0);
  Eigen::Index run_start = 0;
  for (Eigen::Index f = 0; f < frames; ++f) {
    if (f > 0 && mk.time[f] - mk.time[f - 1] > 1.5 * dt) run_start = f;
    Eigen::Index run_end = f;
    while (run_end + 1 < frames && mk.time[run_end + 1] - mk.time[run_end] <= 1.5 * dt && run_end < f + half) ++run_end;
    if (f - half < run_start || f + half > run_end) continue;  // span leaves the run: unknown, not still
    double sum_speed2 = 0.0;
    int seen = 0;
    for (Eigen::Index m = 0; m < markers; ++m) {
      Eigen::Vector3d before = Eigen::Vector3d::Zero(), after = Eigen::Vector3d::Zero();
      int nb = 0, na = 0;
      for (Eigen::Index k = f - half; k < f; ++k)
        if (mk.positions.block<3, 1>(3 * m, k).allFinite()) before += mk.positions.block<3, 1>(3 * m, k), ++nb;
      for (Eigen::Index k = f + 1; k <= f + half; ++k)
        if (mk.positions.block<3, 1>(3 * m, k).allFinite()) after += mk.positions.block<3, 1>(3 * m, k), ++na;
      if (nb == 0 || na == 0) continue;
      const double span = (static_cast<double>(half) + 1.0) * dt;  // distance between the two means' centres
      sum_speed2 += (after / na - before / nb).squaredNorm() / (span * span);
      ++seen;
    }
    if (seen == 0 || std::sqrt(sum_speed2 / seen) > o.max_marker_speed) continue;
    if (!rec.plate_time.empty()) {
      const double fb = mean_vertical_force(rec, mk.time[f - half], mk.time[f]);
      const double fa = mean_vertical_force(rec, mk.time[f], mk.time[f + half]);
      if (!std::isfinite(fb) || !std::isfinite(fa) || std::abs(fa - fb) > o.max_force_change * std::abs(fb)) continue;
    }
    still[static_cast<std::size_t>(f)] = 1;
  }

  std::vector<SettledWindow> out;
  for (Eigen::Index f = 0; f < frames;) {
    if (!still[static_cast<std::size_t>(f)]) {
      ++f;
      continue;
    }
    Eigen::Index g = f;
    while (g + 1 < frames && still[static_cast<std::size_t>(g + 1)] && mk.time[g + 1] - mk.time[g] <= 1.5 * dt) ++g;
    // The smoothing span hides the first and last `half` frames of a still run: they are still too.
    Eigen::Index first = f, last = g;
    while (first > 0 && f - first < half && mk.time[first] - mk.time[first - 1] <= 1.5 * dt) --first;
    while (last + 1 < frames && last - g < half && mk.time[last + 1] - mk.time[last] <= 1.5 * dt) ++last;
    SettledWindow w;
    w.start = mk.time[first] + o.trim_s;
    w.end = mk.time[last] - o.trim_s;
    if (w.end - w.start >= o.min_duration_s - 2.0 * o.trim_s) {
      w.first_frame = first;
      while (mk.time[w.first_frame] < w.start) ++w.first_frame;
      w.last_frame = last;
      while (mk.time[w.last_frame] > w.end) --w.last_frame;
      out.push_back(w);
    }
    f = g + 1;
  }
  return out;
}

int matching_segment(const std::vector<TimeSegment>& segments, const SettledWindow& w) {
  int best = -1;
  double best_overlap = 0.0;
  for (std::size_t s = 0; s < segments.size(); ++s) {
    const double overlap = std::min(w.end, segments[s].end) - std::max(w.start, segments[s].start);
    if (overlap > best_overlap) {
      best_overlap = overlap;
      best = static_cast<int>(s);
    }
  }
  return best_overlap >= 0.5 * (w.end - w.start) ? best : -1;
}

}  // namespace dynid
