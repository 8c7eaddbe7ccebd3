#include "dynid/data/time_alignment.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "dynid/data/stream_resampling.hpp"
#include "dynid/dynamics/center_of_mass.hpp"
#include "dynid/dynamics/kinematics.hpp"
#include "dynid/mocap/butterworth.hpp"

namespace dynid {
namespace {

/// The peak of a score over lags -m..m (samples of `dt_s`), refined below a sample by a parabola
/// through it and its neighbours.
LagEstimate peak_of(const Eigen::VectorXd& score, Eigen::Index m, double dt_s) {
  Eigen::Index best = 0;
  score.maxCoeff(&best);
  LagEstimate out;
  out.correlation = score[best];
  out.at_limit = best == 0 || best == 2 * m;
  double frac = 0.0;
  if (!out.at_limit) {
    const double cm = score[best - 1], c0 = score[best], cp = score[best + 1];
    const double curvature = cm - 2.0 * c0 + cp;
    if (curvature < 0.0) frac = 0.5 * (cm - cp) / curvature;
    out.curvature_per_s2 = std::max(0.0, -curvature) / (dt_s * dt_s);
  }
  out.lag_s = (static_cast<double>(best - m) + frac) * dt_s;
  return out;
}

struct DriftLine {
  double slope = 0.0, slope_std = 0.0;
};

/// A line through the windows' lags `l` [s] against their times `t` [s], each window weighted by
/// its lag's information `w`, and by Huber's weights (1.345 robust standard deviations) against a
/// window whose lag the motion biases more than the others' (the walk's last stop, its first
/// weight shift): a least-squares line tilts by tens of ppm for one such window at an end.
DriftLine robust_drift_line(const Eigen::ArrayXd& t, const Eigen::ArrayXd& l, const Eigen::ArrayXd& w0) {
  const Eigen::Index n = t.size();
  Eigen::ArrayXd w = w0;
  DriftLine out;
  double intercept = 0.0;
  for (int iteration = 0; iteration < 20; ++iteration) {
    const double tm = (w * t).sum() / w.sum(), lm = (w * l).sum() / w.sum();
    const double stt = (w * (t - tm).square()).sum();
    out.slope = (w * (t - tm) * (l - lm)).sum() / stt;
    intercept = lm - out.slope * tm;
    const double residual = (w * (l - intercept - out.slope * t).square()).sum();
    out.slope_std = std::sqrt(residual / static_cast<double>(n - 2) / stt);
    const Eigen::ArrayXd scaled = (l - intercept - out.slope * t) * w0.sqrt();
    const Eigen::ArrayXd absolute = scaled.abs();  // one object: begin and end of the same expression
    std::vector<double> magnitudes(absolute.begin(), absolute.end());
    std::nth_element(magnitudes.begin(), magnitudes.begin() + n / 2, magnitudes.end());
    const double threshold = 1.345 * 1.4826 * magnitudes[static_cast<std::size_t>(n / 2)];
    if (!(threshold > 0.0)) break;
    const Eigen::ArrayXd huber = (threshold / scaled.abs().max(1e-300)).min(1.0);
    const Eigen::ArrayXd next = w0 * huber;
    const bool settled = ((next - w).abs() < 1e-6).all();
    w = next;
    if (settled) break;
  }
  return out;
}

Eigen::MatrixXd lowpassed(const Eigen::MatrixXd& x, const IirFilter& f) {
  Eigen::MatrixXd out(x.rows(), x.cols());
  for (Eigen::Index r = 0; r < x.rows(); ++r) out.row(r) = filtfilt(f, x.row(r).transpose()).transpose();
  return out;
}

/// Offset of `signal` against `reference` (or `columns`), both at `times`.
/// Lag of `signal` against `reference` (estimate_lag), or against a least-squares combination of
/// several references (estimate_lag_regressed) when `columns` is given.
LagEstimate lag_of(const Eigen::MatrixXd& reference, const std::vector<Eigen::MatrixXd>* columns,
                   const Eigen::MatrixXd& signal, Eigen::Index c0, Eigen::Index count, double dt, double max_lag) {
  if (!columns) return estimate_lag(reference.middleCols(c0, count), signal.middleCols(c0, count), dt, max_lag);
  std::vector<Eigen::MatrixXd> part;
  for (const Eigen::MatrixXd& c : *columns) part.push_back(c.middleCols(c0, count));
  return estimate_lag_regressed(part, signal.middleCols(c0, count), dt, max_lag);
}

}  // namespace

StreamAlignment estimate_stream_clock(const Eigen::MatrixXd& reference, const Eigen::MatrixXd& signal,
                                      const Eigen::VectorXd& times, const TimeAlignmentOptions& o,
                                      const std::string& compared, const std::vector<Eigen::MatrixXd>* columns) {
  StreamAlignment out;
  out.compared = compared;
  const Eigen::Index n = times.size();
  if (n < 10 || signal.cols() != n)
    throw std::invalid_argument("estimate_stream_clock: too few samples or sizes differ");
  const double dt = (times[n - 1] - times[0]) / static_cast<double>(n - 1);
  const LagEstimate whole = lag_of(reference, columns, signal, 0, n, dt, o.max_offset_s);
  out.correlation = whole.correlation;
  char buf[200];
  if (whole.at_limit) {
    std::snprintf(buf, sizeof buf, "the best match lies at the search limit (%.0f ms): offset not estimated",
                  1e3 * o.max_offset_s);
    out.warning = buf;
    return out;
  }
  if (whole.correlation < o.min_correlation) {
    std::snprintf(buf, sizeof buf, "%s correlate at only %.2f (< %.2f): offset not estimated", compared.c_str(),
                  whole.correlation, o.min_correlation);
    out.warning = buf;
    return out;
  }
  out.clock.reference_time_s = 0.5 * (times[0] + times[n - 1]);
  out.clock.offset_s = whole.lag_s;

  // Drift: windows along the recording, the signal taken a whole number of samples later (the
  // whole recording's lag) so that each window compares the same stretch of motion; each window's
  // lag searched near that one; a line through the lags against the windows' middle times.
  if (!o.estimate_drift) return out;
  const Eigen::Index shift = std::lround(whole.lag_s / dt);
  const Eigen::Index margin = std::abs(shift);
  const Eigen::Index usable = n - 2 * margin;
  const double usable_s = static_cast<double>(usable) * dt;
  const int windows =
      std::min(o.max_drift_windows, static_cast<int>(std::floor(usable_s / std::max(o.drift_window_s, 1e-9))));
  if (windows < 3) return out;
  const Eigen::Index width = usable / windows;
  Eigen::VectorXd mid(windows), lag(windows), weight(windows);
  int kept = 0;
  for (int w = 0; w < windows; ++w) {
    const Eigen::Index c0 = margin + static_cast<Eigen::Index>(w) * width;
    // The reference over [c0, c0 + width), the signal over the same stretch `shift` samples later.
    LagEstimate e;
    if (columns) {
      std::vector<Eigen::MatrixXd> part;
      for (const Eigen::MatrixXd& c : *columns) part.push_back(c.middleCols(c0, width));
      e = estimate_lag_regressed(part, signal.middleCols(c0 + shift, width), dt, o.drift_search_s);
    } else {
      e = estimate_lag(reference.middleCols(c0, width), signal.middleCols(c0 + shift, width), dt, o.drift_search_s);
    }
    if (e.at_limit || e.correlation < o.min_correlation || !(e.curvature_per_s2 > 0.0))
      continue;  // a stretch with too little motion
    mid[kept] = times[c0 + width / 2] - out.clock.reference_time_s;
    lag[kept] = static_cast<double>(shift) * dt + e.lag_s;
    // The lag's variance goes as the unexplained share over the peak's sharpness (the Fisher
    // information of a shift): a slow stretch (standing, shifting the weight) has a flat, noisy peak
    // and must not tilt the line as much as a stretch of steps.
    const double r2 = e.correlation * e.correlation;
    weight[kept] = e.curvature_per_s2 / std::max(1e-6, 1.0 - r2);
    ++kept;
  }
  if (kept < 3) return out;
  const Eigen::ArrayXd t = mid.head(kept), l = lag.head(kept), w0 = weight.head(kept) / weight.head(kept).maxCoeff();
  const DriftLine line = robust_drift_line(t, l, w0);
  out.clock.drift_ppm = 1e6 * line.slope;
  out.drift_std_ppm = 1e6 * line.slope_std;
  out.drift_windows = kept;
  return out;
}

LagEstimate estimate_lag(const Eigen::MatrixXd& reference, const Eigen::MatrixXd& signal, double dt_s,
                         double max_lag_s) {
  if (reference.rows() != signal.rows() || reference.cols() != signal.cols())
    throw std::invalid_argument("estimate_lag: reference and signal differ in size");
  const Eigen::Index n = reference.cols();
  const Eigen::Index m = std::min<Eigen::Index>(static_cast<Eigen::Index>(std::lround(max_lag_s / dt_s)), n / 4);
  if (m < 1) throw std::invalid_argument("estimate_lag: too few samples for the searched lags");
  const Eigen::MatrixXd r = reference.colwise() - reference.rowwise().mean();
  const Eigen::MatrixXd s = signal.colwise() - signal.rowwise().mean();
  // c(L) = sum r(k) s(k + L) / sqrt(sum r(k)^2 sum s(k + L)^2) over the overlap.
  Eigen::VectorXd c(2 * m + 1);
  for (Eigen::Index lag = -m; lag <= m; ++lag) {
    const Eigen::Index k0 = std::max<Eigen::Index>(0, -lag), k1 = std::min<Eigen::Index>(n, n - lag);
    const auto rr = r.middleCols(k0, k1 - k0);
    const auto ss = s.middleCols(k0 + lag, k1 - k0);
    const double den = std::sqrt(rr.squaredNorm() * ss.squaredNorm());
    c[lag + m] = den > 0.0 ? rr.cwiseProduct(ss).sum() / den : 0.0;
  }
  return peak_of(c, m, dt_s);
}

LagEstimate estimate_lag_regressed(const std::vector<Eigen::MatrixXd>& references, const Eigen::MatrixXd& signal,
                                   double dt_s, double max_lag_s) {
  const Eigen::Index channels = signal.rows(), n = signal.cols();
  const Eigen::Index m = std::min<Eigen::Index>(static_cast<Eigen::Index>(std::lround(max_lag_s / dt_s)), n / 4);
  if (m < 1 || references.empty()) throw std::invalid_argument("estimate_lag_regressed: too few samples or references");
  for (const Eigen::MatrixXd& r : references)
    if (r.rows() != channels || r.cols() != n)
      throw std::invalid_argument("estimate_lag_regressed: a reference differs in size from the signal");
  // Rows: the samples m .. n-m-1 (every lag sees the same ones, so A^T A is fixed), every
  // `stride`-th (the signals are low-passed well below the sample rate), each channel; columns:
  // the references plus a constant per channel.
  const Eigen::Index stride = std::max<Eigen::Index>(1, (n - 2 * m) / 4000);
  std::vector<Eigen::Index> rows;
  for (Eigen::Index k = m; k < n - m; k += stride) rows.push_back(k);
  const Eigen::Index p = static_cast<Eigen::Index>(references.size()) + channels;
  const Eigen::Index nr = static_cast<Eigen::Index>(rows.size()) * channels;
  MatrixX A = MatrixX::Zero(nr, p);
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (Eigen::Index c = 0; c < channels; ++c) {
      const Eigen::Index row = static_cast<Eigen::Index>(i) * channels + c;
      for (std::size_t j = 0; j < references.size(); ++j)
        A(row, static_cast<Eigen::Index>(j)) = references[j](c, rows[i]);
      A(row, static_cast<Eigen::Index>(references.size()) + c) = 1.0;
    }
  // Column-pivoted QR: references that move together (trunk and pelvis) make A^T A near singular.
  const Eigen::ColPivHouseholderQR<MatrixX> qr(A);
  const Eigen::Index rank = qr.rank();
  const MatrixX Q = (qr.householderQ() * MatrixX::Identity(nr, rank));
  // Explained fraction of the signal's variance (its per-channel means removed) at each lag.
  Eigen::VectorXd explained(2 * m + 1);
  VectorX b(nr);
  for (Eigen::Index lag = -m; lag <= m; ++lag) {
    for (std::size_t i = 0; i < rows.size(); ++i)
      for (Eigen::Index c = 0; c < channels; ++c)
        b[static_cast<Eigen::Index>(i) * channels + c] = signal(c, rows[i] + lag);
    VectorX centred = b;
    for (Eigen::Index c = 0; c < channels; ++c) {
      double mean = 0.0;
      for (std::size_t i = 0; i < rows.size(); ++i) mean += b[static_cast<Eigen::Index>(i) * channels + c];
      mean /= static_cast<double>(rows.size());
      for (std::size_t i = 0; i < rows.size(); ++i) centred[static_cast<Eigen::Index>(i) * channels + c] -= mean;
    }
    const double total = centred.squaredNorm();
    const double residual = b.squaredNorm() - (Q.transpose() * b).squaredNorm();
    explained[lag + m] = total > 0.0 ? 1.0 - residual / total : 0.0;
  }
  LagEstimate out = peak_of(explained, m, dt_s);
  out.correlation = std::sqrt(std::max(0.0, out.correlation));
  return out;
}

namespace {

/// Samples of the kinematic reference pass: the sensor path without the IMU, the F/T streams on
/// `ft_clock` (the contact loads choose the anchor foot, so the F/T clock shifts the kinematics a
/// little around every touch-down).
std::vector<MotionSample> kinematic_pass(const Model& model, const RobotSidecar& sidecar, const DatasetInfo& dataset,
                                         const SensorSourceOptions& sensor_options, TimeWindow window,
                                         const std::vector<JointLock>& locks, const StreamClock* ft_clock) {
  SensorSourceOptions kinematic = sensor_options;
  kinematic.use_gyro = false;
  kinematic.use_accelerometer = false;
  kinematic.clocks.clear();
  if (ft_clock) kinematic.clocks["ft"] = *ft_clock;
  SensorSource source(model, sidecar, dataset, kinematic, window, locks);
  std::vector<MotionSample> samples;
  for (MotionSample s; source.next(s);) samples.push_back(s);
  return samples;
}

}  // namespace

std::vector<Eigen::MatrixXd> limb_com_accelerations(const Model& model, const std::vector<VectorX>& q, double dt_s,
                                                    double cutoff_hz) {
  const Eigen::Index n = static_cast<Eigen::Index>(q.size());
  // One reference per limb (the base, and each subtree hanging from it): the limb's nominal mass
  // times its COM acceleration. A fit that weighs the limbs absorbs a CAD model's mass error between
  // limbs; finer (a weight per body) is too flexible: body accelerations combine into a shifted
  // copy of the force.
  std::vector<int> limb_of(model.bodies.size(), -1);
  int limbs = 1;
  for (std::size_t b = 1; b < model.bodies.size(); ++b) {
    const int parent = model.bodies[b].parent;
    limb_of[b] = parent <= 0 ? 0 : parent == 1 ? limbs++ : limb_of[static_cast<std::size_t>(parent)];
  }
  std::vector<Eigen::MatrixXd> out(static_cast<std::size_t>(limbs), Eigen::MatrixXd::Zero(3, n));
  if (n < 3) return out;
  Data data(model);
  for (Eigen::Index k = 0; k < n; ++k) {
    forward_kinematics(model, data, q[static_cast<std::size_t>(k)]);
    for (std::size_t b = 1; b < model.bodies.size(); ++b) {
      const Inertia& in = model.bodies[b].inertia;
      out[static_cast<std::size_t>(limb_of[b])].col(k) += in.mass * data.oMi[b].act(in.com());
    }
  }
  // Second differences, low-passed zero-phase.
  const IirFilter f = butterworth_lowpass(2, cutoff_hz, 1.0 / dt_s);
  for (Eigen::MatrixXd& c : out) {
    Eigen::MatrixXd acc = Eigen::MatrixXd::Zero(3, n);
    for (Eigen::Index k = 1; k + 1 < n; ++k)
      acc.col(k) = (c.col(k + 1) - 2.0 * c.col(k) + c.col(k - 1)) / (dt_s * dt_s);
    acc.col(0) = acc.col(1);
    acc.col(n - 1) = acc.col(n - 2);
    c = lowpassed(acc, f);
  }
  return out;
}

std::map<std::string, StreamAlignment> estimate_stream_clocks(const Model& model, const RobotSidecar& sidecar,
                                                              const DatasetInfo& dataset,
                                                              const SensorSourceOptions& sensor_options,
                                                              TimeWindow window, const std::vector<JointLock>& locks,
                                                              const TimeAlignmentOptions& options) {
  std::map<std::string, StreamAlignment> out;
  if (!model.floating_base) return out;
  const bool ft = dataset.has_stream("ft") && !sidecar.contacts.empty() && !sidecar.ft_sensors.empty();
  // The kinematics are read low-passed even where the identification reads them raw (noise-free
  // data, --no-lowpass): from raw encoders the second differences carry each touch-down's
  // jolt, which the comparison's own low-pass smears into a lag (4.5 ms on a noise-free kid walk,
  // against 0.4 ms with the streams filtered).
  SensorSourceOptions filtered = sensor_options;
  filtered.raw_when_noise_free = false;
  if (!(filtered.cutoff_hz > 0.0)) filtered.cutoff_hz = options.cutoff_hz;
  std::vector<MotionSample> samples = kinematic_pass(model, sidecar, dataset, filtered, window, locks, nullptr);
  const Eigen::Index n = static_cast<Eigen::Index>(samples.size());
  if (n < 10) return out;
  Eigen::VectorXd times(n);
  for (Eigen::Index k = 0; k < n; ++k) times[k] = samples[static_cast<std::size_t>(k)].time;
  const double rate = static_cast<double>(n - 1) / (times[n - 1] - times[0]), dt = 1.0 / rate;
  const IirFilter f = butterworth_lowpass(2, options.cutoff_hz, rate);
  const double mass = model.total_mass();

  // F/T: total contact force (world) against m c'' of the nominal model's kinematic COM. The
  // kinematics depend on the F/T clock through the anchor foot: estimate, re-run on that clock, again.
  Eigen::MatrixXd force_base;      // total contact force in base axes at `times`, on the F/T clock
  Eigen::MatrixXd com_base(3, n);  // COM relative to the base origin, base axes
  if (ft) {
    Data data(model);
    for (int pass = 0; pass < 8; ++pass) {
      Eigen::MatrixXd com(3, n), force(3, n);
      std::vector<VectorX> q;
      for (const MotionSample& s : samples) q.push_back(s.q);
      const std::vector<Eigen::MatrixXd> body_com = limb_com_accelerations(model, q, dt, options.cutoff_hz);
      force_base.resize(3, n);
      for (Eigen::Index k = 0; k < n; ++k) {
        const MotionSample& s = samples[static_cast<std::size_t>(k)];
        com.col(k) = center_of_mass(model, data, s.q);
        Vector3 total = Vector3::Zero();
        for (const Force& w : s.contact_wrenches) total += w.linear;
        force.col(k) = total;
        const Eigen::Quaterniond quat(s.q[6], s.q[3], s.q[4], s.q[5]);
        force_base.col(k) = quat.toRotationMatrix().transpose() * total;
        com_base.col(k) = quat.toRotationMatrix().transpose() * (com.col(k) - s.q.head<3>());
      }
      // The force is the limbs' mass-weighted COM accelerations' sum, up to the limbs' mass errors,
      // which the fit at every lag finds (gravity: the constants).
      const StreamAlignment previous = out["ft"];
      // The forces were read on the previous pass's clock: the lag found is on top of it.
      // The first passes compare forces on a clock that may be far off: accept a weak peak there,
      // judge the converged one.
      TimeAlignmentOptions searching = options;
      searching.min_correlation = std::min(0.2, options.min_correlation);
      StreamAlignment a =
          estimate_stream_clock(Eigen::MatrixXd(), lowpassed(force, f), times, searching,
                                "contact force against the limbs' kinematic COM accelerations", &body_com);
      a.clock.offset_s += previous.clock.offset_s;
      a.clock.drift_ppm += previous.clock.drift_ppm;
      out["ft"] = a;
      const double half_span = 0.5 * (times[n - 1] - times[0]);
      if (!a.warning.empty() || (std::abs(a.clock.offset_s - previous.clock.offset_s) < 0.1 * dt &&
                                 1e-6 * std::abs(a.clock.drift_ppm - previous.clock.drift_ppm) * half_span < 0.1 * dt))
        break;
      samples = kinematic_pass(model, sidecar, dataset, filtered, window, locks, &a.clock);
    }
    StreamAlignment& a = out["ft"];
    if (a.warning.empty() && a.correlation < options.min_correlation) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "%s correlate at only %.2f (< %.2f): offset not estimated", a.compared.c_str(),
                    a.correlation, options.min_correlation);
      a.warning = buf;
    }
    if (!a.warning.empty()) a.clock = StreamClock{};
  }
  // IMU on the base: with aligned F/T, the accelerometer against the contact force over the mass
  // (both base axes; they differ by the legs' share of the COM acceleration, which leaves the peak
  // where it is), the lag found relative to the F/T clock; otherwise the gyro against the leg
  // kinematics' base rate (biased by the flat-foot assumption: the sole's roll, the contact's
  // compliance).
  if (sidecar.imu && dataset.has_stream("imu")) {
    const Frame& fr = model.frames[static_cast<std::size_t>(model.frame_index(sidecar.imu->name))];
    if (fr.body == 1) {
      const CsvStream imu = read_csv_stream(dataset.stream("imu").file);
      const StreamInfo& info = dataset.stream("imu");
      const std::string& nm = sidecar.imu->name;
      const IirFilter f_imu = butterworth_lowpass(2, options.cutoff_hz, info.rate_hz);
      const auto read = [&](const char* quantity) {
        // Where a sample of `quantity` belongs (period means: half a period before the stamp).
        const double delay = info.stamp_of(quantity) == Stamp::PeriodMean ? 0.5 / info.rate_hz : 0.0;
        const std::string q = quantity;
        return Eigen::MatrixXd(fr.placement.rotation *
                               resampled(imu, {nm + "." + q + ".x", nm + "." + q + ".y", nm + "." + q + ".z"}, f_imu,
                                         (times.array() + delay).matrix()));
      };
      const bool have_acc = std::find(imu.header.begin(), imu.header.end(), nm + ".acc.x") != imu.header.end();
      const auto ft_clock = out.find("ft");
      if (have_acc && ft_clock != out.end() && ft_clock->second.warning.empty()) {
        // F/m = c'' - g. In base axes, with the IMU on the base at r: c'' = a_imu + (c_rel - r)'' (the
        // legs' share, from the joints; robot clock) + w' x d + w x (w x d) (d = c - r, its mean;
        // IMU clock, from the gyro). The robot-clock terms go to the reference, the IMU's to the signal.
        const Vector3 r = fr.placement.translation;
        const Vector3 d = com_base.rowwise().mean() - r;
        Eigen::MatrixXd reference = force_base / mass, legs = Eigen::MatrixXd::Zero(3, n);
        for (Eigen::Index k = 1; k + 1 < n; ++k)
          legs.col(k) = (com_base.col(k + 1) - 2.0 * com_base.col(k) + com_base.col(k - 1)) / (dt * dt);
        reference -= legs;
        const Eigen::MatrixXd gyro = read("gyro");
        Eigen::MatrixXd signal = read("acc");
        for (Eigen::Index k = 1; k + 1 < n; ++k) {
          const Vector3 w = gyro.col(k), wd = (gyro.col(k + 1) - gyro.col(k - 1)) / (2.0 * dt);
          signal.col(k) += wd.cross(d) + w.cross(w.cross(d));
        }
        // The F/T were read on their estimated clock: the lag found is the IMU's own.
        StreamAlignment a = estimate_stream_clock(lowpassed(reference, f), signal, times, options,
                                                  "accelerometer against the contact force over the mass");
        out["imu"] = a;
      } else {
        Eigen::MatrixXd w_kin(3, n);
        for (Eigen::Index k = 0; k < n; ++k) w_kin.col(k) = samples[static_cast<std::size_t>(k)].v.segment<3>(3);
        out["imu"] = estimate_stream_clock(lowpassed(w_kin, f), read("gyro"), times, options,
                                           "gyro against the leg kinematics' base rate");
      }
    }
  }

  return out;
}

}  // namespace dynid
