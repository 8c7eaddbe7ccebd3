#include "dynid/data/plate_zero.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dynid {

namespace {

struct Window {
  double time = 0.0;    // mean time of its samples [s]
  double length = 0.0;  // [s]
  Vector6 mean = Vector6::Zero();
};

// The unloaded windows of plate `p`: runs of |f_z| < threshold at least min_window_s long, each less
// edge_s at both ends, cut into blocks of at most block_s (a foot lifted for a minute shows the drift
// within the minute): the points the line is fitted to.
struct Unloaded {
  int windows = 0;
  double seconds = 0.0;
  std::vector<Window> blocks;
};

Unloaded unloaded_windows(const LabRecording& rec, Eigen::Index p, const PlateZeroOptions& o) {
  Unloaded out;
  const auto n = static_cast<Eigen::Index>(rec.plate_time.size());
  Eigen::Index k = 0;
  while (k < n) {
    if (std::abs(rec.plate_wrench(6 * p + 2, k)) >= o.unloaded_below_n) {
      ++k;
      continue;
    }
    Eigen::Index end = k;
    while (end < n && std::abs(rec.plate_wrench(6 * p + 2, end)) < o.unloaded_below_n) ++end;
    const double t0 = rec.plate_time[static_cast<std::size_t>(k)] + o.edge_s;
    const double t1 = rec.plate_time[static_cast<std::size_t>(end - 1)] - o.edge_s;
    if (t1 - t0 + 2.0 * o.edge_s >= o.min_window_s && t1 > t0) {
      const int blocks = std::max(1, static_cast<int>(std::floor((t1 - t0) / o.block_s)));
      const double length = (t1 - t0) / blocks;
      std::vector<Window> w(static_cast<std::size_t>(blocks));
      std::vector<int> count(static_cast<std::size_t>(blocks), 0);
      for (Eigen::Index i = k; i < end; ++i) {
        const double t = rec.plate_time[static_cast<std::size_t>(i)];
        if (t < t0 || t > t1) continue;
        const auto b = static_cast<std::size_t>(std::min(blocks - 1, static_cast<int>((t - t0) / length)));
        w[b].mean += rec.plate_wrench.block<6, 1>(6 * p, i);
        w[b].time += t;
        ++count[b];
      }
      bool any = false;
      for (std::size_t b = 0; b < w.size(); ++b) {
        if (count[b] == 0) continue;
        w[b].mean /= count[b];
        w[b].time /= count[b];
        w[b].length = length;
        out.blocks.push_back(w[b]);
        any = true;
      }
      if (any) {
        ++out.windows;
        out.seconds += t1 - t0;
      }
    }
    k = end;
  }
  return out;
}

}  // namespace

PlateZeroing estimate_plate_zero(const LabRecording& rec, const PlateZeroOptions& options) {
  const auto plates = static_cast<Eigen::Index>(rec.dataset.force_plates.size());
  if (plates == 0 || rec.plate_time.empty() || rec.plate_wrench.rows() != 6 * plates)
    throw std::runtime_error(rec.dataset.directory + ": no force-plate readings to zero");
  if (!rec.plate_wrench.allFinite())
    throw std::runtime_error(rec.dataset.directory + ": a force-plate reading is not a finite number");
  PlateZeroing out;
  out.options = options;
  const double t0 = rec.plate_time.front();
  for (Eigen::Index p = 0; p < plates; ++p) {
    PlateZero z;
    z.plate = rec.dataset.force_plates[static_cast<std::size_t>(p)].name;
    z.reference_time_s = t0;
    const Unloaded unloaded = unloaded_windows(rec, p, options);
    const std::vector<Window>& windows = unloaded.blocks;
    z.windows = unloaded.windows;
    z.unloaded_s = unloaded.seconds;
    double weight = 0.0, t_mean = 0.0, t_min = 0.0, t_max = 0.0;
    for (std::size_t i = 0; i < windows.size(); ++i) {
      const Window& w = windows[i];
      weight += w.length;
      t_mean += w.length * (w.time - t0);
      t_min = i == 0 ? w.time : std::min(t_min, w.time);
      t_max = i == 0 ? w.time : std::max(t_max, w.time);
    }
    if (!windows.empty()) {
      t_mean /= weight;
      // Weighted least squares of mean = offset + drift (t - t0), per channel, about t_mean.
      Vector6 m = Vector6::Zero();
      for (const Window& w : windows) m += w.length * w.mean;
      m /= weight;
      z.drift_estimated = windows.size() >= 2 && t_max - t_min >= options.min_drift_span_s;
      if (z.drift_estimated) {
        double stt = 0.0;
        Vector6 sty = Vector6::Zero();
        for (const Window& w : windows) {
          const double dt = w.time - t0 - t_mean;
          stt += w.length * dt * dt;
          sty += w.length * dt * (w.mean - m);
        }
        z.drift_per_s = sty / stt;
      }
      z.offset = m - z.drift_per_s * t_mean;
      Vector6 ss = Vector6::Zero();
      for (const Window& w : windows) {
        const Vector6 r = w.mean - z.offset - z.drift_per_s * (w.time - t0);
        ss += w.length * r.cwiseProduct(r);
      }
      z.residual_rms = (ss / weight).cwiseSqrt();
    }
    out.plates.push_back(z);
  }
  return out;
}

void remove_plate_zero(const PlateZeroing& zero, LabRecording& rec) {
  const std::size_t plates = rec.dataset.force_plates.size();
  bool same = plates == zero.plates.size() && rec.plate_wrench.rows() == static_cast<Eigen::Index>(6 * plates);
  for (std::size_t p = 0; same && p < plates; ++p) same = rec.dataset.force_plates[p].name == zero.plates[p].plate;
  if (!same)
    throw std::runtime_error(rec.dataset.directory + ": its force plates are not the ones the zero was estimated for");
  for (std::size_t p = 0; p < plates; ++p) {
    const PlateZero& z = zero.plates[p];
    if (z.windows == 0) continue;
    const auto row = static_cast<Eigen::Index>(6 * p);
    for (Eigen::Index k = 0; k < rec.plate_wrench.cols(); ++k)
      rec.plate_wrench.block<6, 1>(row, k) -=
          z.offset + z.drift_per_s * (rec.plate_time[static_cast<std::size_t>(k)] - z.reference_time_s);
  }
}

}  // namespace dynid
