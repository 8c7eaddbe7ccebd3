#include "dynid/mocap/robot_log_alignment.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "dynid/core/number_format.hpp"
#include "dynid/mocap/marker_ik.hpp"

namespace dynid {

MarkerJointAngles joint_angles_from_markers(const Model& model, const MocapRecording& trial,
                                            const std::vector<std::string>& marker_names,
                                            const std::vector<std::string>& joints, int stride, double min_lever_m) {
  const std::vector<ModelMarker> markers = model_markers(model);
  if (markers.empty()) throw std::invalid_argument("model '" + model.name + "' has no markers to solve the trial with");
  // Trial column of each model marker (-1: not in the trial).
  std::vector<Eigen::Index> column(markers.size(), -1);
  for (std::size_t m = 0; m < markers.size(); ++m)
    for (std::size_t c = 0; c < marker_names.size(); ++c)
      if (marker_names[c] == markers[m].name) column[m] = static_cast<Eigen::Index>(c);
  std::vector<int> q_index;
  MarkerJointAngles out;
  for (const std::string& j : joints) {
    const std::optional<int> body = model.find_joint(j);
    if (!body || model.bodies[static_cast<std::size_t>(*body)].nq != 1) continue;
    out.joints.push_back(j);
    q_index.push_back(model.bodies[static_cast<std::size_t>(*body)].idx_q);
  }

  MarkerIk ik(model, markers);
  Eigen::Matrix3Xd measured(3, static_cast<Eigen::Index>(markers.size()));
  auto fill = [&](Eigen::Index f) {
    for (std::size_t m = 0; m < markers.size(); ++m) {
      const Eigen::Index c = column[m];
      measured.col(static_cast<Eigen::Index>(m)) = c >= 0 && trial.marker_valid(c, f)
                                                       ? Eigen::Vector3d(trial.marker_position(c, f))
                                                       : Eigen::Vector3d::Constant(std::nan(""));
    }
  };
  stride = std::max(stride, 1);
  const Eigen::Index frames = (trial.frame_count() + stride - 1) / stride;
  out.q.setConstant(static_cast<Eigen::Index>(out.joints.size()), frames, std::nan(""));
  VectorX q;
  bool started = false;
  std::vector<double> rms;
  for (Eigen::Index k = 0; k < frames; ++k) {
    const Eigen::Index f = k * stride;
    out.time.push_back(static_cast<double>(f) / trial.point_rate);
    fill(f);
    if (!started) q = ik.initial_configuration(measured);
    const MarkerIkFrame r = ik.solve(measured, q);
    if (r.markers_used < 3) continue;
    if (!started) {
      // Joints the markers hardly see (no marker on or beyond them, or all close to the axis) come
      // out of IK wherever it started them: compare only those a visible marker moves by at least
      // min_lever_m per radian (or per metre).
      const Eigen::Matrix3Xd base = ik.model_positions(q);
      std::vector<std::string> kept;
      std::vector<int> kept_index;
      for (std::size_t j = 0; j < q_index.size(); ++j) {
        VectorX moved = q;
        const double h = 1e-6;
        moved[q_index[j]] += h;
        const Eigen::Matrix3Xd shifted = ik.model_positions(moved);
        double lever = 0.0;
        for (Eigen::Index m = 0; m < measured.cols(); ++m)
          if (measured.col(m).allFinite()) lever = std::max(lever, (shifted.col(m) - base.col(m)).norm() / h);
        if (lever >= min_lever_m) {
          kept.push_back(out.joints[j]);
          kept_index.push_back(q_index[j]);
        } else {
          out.unseen_joints.push_back(out.joints[j]);
        }
      }
      if (kept.empty()) throw std::invalid_argument("the markers see none of the log's joints");
      out.joints = kept;
      q_index = kept_index;
      out.q.setConstant(static_cast<Eigen::Index>(out.joints.size()), frames, std::nan(""));
    }
    started = true;
    rms.push_back(r.rms);
    for (std::size_t j = 0; j < q_index.size(); ++j) out.q(static_cast<Eigen::Index>(j), k) = q[q_index[j]];
  }
  if (rms.empty()) throw std::invalid_argument("no frame of the trial has 3 of the model's markers");
  std::nth_element(rms.begin(), rms.begin() + static_cast<long>(rms.size() / 2), rms.end());
  out.ik_rms_m = rms[rms.size() / 2];
  return out;
}

namespace {

struct Match {
  double mean_square = std::numeric_limits<double>::infinity();
  long frames = 0;
  Eigen::VectorXd joint_square;  ///< per compared joint: sum of squared differences
};

/// Mean square of (log at offset + t - marker angle) over the frames the log covers.
Match match_at(const MarkerJointAngles& markers, const LogSeries& log, const std::vector<Eigen::Index>& log_row,
               double offset, Eigen::VectorXd& q, Eigen::VectorXd& unused) {
  Match m;
  m.joint_square.setZero(static_cast<Eigen::Index>(log_row.size()));
  double sum = 0.0;
  long terms = 0;
  for (std::size_t f = 0; f < markers.time.size(); ++f) {
    const double t = offset + markers.time[f];
    if (t < log.start_s() || t > log.end_s()) continue;
    const auto col = static_cast<Eigen::Index>(f);
    if (std::isnan(markers.q(0, col))) continue;
    log.sample(t, q, unused, unused);
    for (std::size_t j = 0; j < log_row.size(); ++j) {
      const double d = q[log_row[j]] - markers.q(static_cast<Eigen::Index>(j), col);
      sum += d * d;
      m.joint_square[static_cast<Eigen::Index>(j)] += d * d;
      ++terms;
    }
    ++m.frames;
  }
  if (terms > 0) m.mean_square = sum / static_cast<double>(terms);
  return m;
}

}  // namespace

RobotLogOffset estimate_robot_log_offset(const MarkerJointAngles& markers, const LogSeries& log,
                                         const std::string& what, const RobotLogAlignmentOptions& options) {
  auto fail = [&](const std::string& why) -> RobotLogOffset {
    throw std::invalid_argument(what + ": " + why +
                                "; give the log's time at the trial's first frame (--robot-log-offset)");
  };
  // Joints both sides have, as log rows in the marker angles' order.
  std::vector<Eigen::Index> log_row;
  for (const std::string& j : markers.joints) {
    const auto it = std::find(log.joints.begin(), log.joints.end(), j);
    if (it != log.joints.end()) log_row.push_back(static_cast<Eigen::Index>(it - log.joints.begin()));
  }
  if (log_row.size() != markers.joints.size() || log_row.empty())
    return fail("the log and the markers share no joint angle to compare");
  long valid = 0;
  for (Eigen::Index f = 0; f < markers.q.cols(); ++f) valid += std::isnan(markers.q(0, f)) ? 0 : 1;
  if (valid < 3) return fail("fewer than 3 frames solved from the markers");

  const double duration = markers.time.back() - markers.time.front();
  const double step = options.step_s > 0.0      ? options.step_s
                      : markers.time.size() > 1 ? markers.time[1] - markers.time[0]
                                                : 1.0 / log.rate_hz;
  double first = log.start_s() - (1.0 - options.min_overlap) * duration - markers.time.front();
  double last = log.end_s() - options.min_overlap * duration - markers.time.front();
  if (std::isfinite(options.search_from_s) && std::isfinite(options.search_to_s)) {
    first = std::max(first, options.search_from_s);
    last = std::min(last, options.search_to_s);
  }
  if (last < first)
    return fail("the log (" + format_fixed(log.end_s() - log.start_s(), 3) + " s) is too short to cover " +
                format_fixed(100.0 * options.min_overlap, 0) + " % of the trial (" + format_fixed(duration, 3) + " s)");
  const auto joints = static_cast<Eigen::Index>(log.joints.size());
  Eigen::VectorXd q(joints), unused(joints);
  const long count = static_cast<long>(std::floor((last - first) / step)) + 1;
  const long need = static_cast<long>(std::ceil(options.min_overlap * static_cast<double>(valid)));
  std::vector<double> cost(static_cast<std::size_t>(count), std::numeric_limits<double>::infinity());
  long best = -1;
  for (long k = 0; k < count; ++k) {
    const Match m = match_at(markers, log, log_row, first + static_cast<double>(k) * step, q, unused);
    if (m.frames < need) continue;
    cost[static_cast<std::size_t>(k)] = m.mean_square;
    if (best < 0 || m.mean_square < cost[static_cast<std::size_t>(best)]) best = k;
  }
  if (best < 0) return fail("no offset lets the log cover the trial's solved frames");
  // Sub-sample: the vertex of the parabola through the minimum and its neighbours.
  double offset = first + static_cast<double>(best) * step, sharpness = 0.0;
  if (best > 0 && best + 1 < count) {
    const double a = cost[static_cast<std::size_t>(best - 1)], b = cost[static_cast<std::size_t>(best)],
                 c = cost[static_cast<std::size_t>(best + 1)];
    const double curvature = a - 2.0 * b + c;
    if (std::isfinite(a) && std::isfinite(c) && curvature > 0.0) {
      offset += 0.5 * step * (a - c) / curvature;
      sharpness = curvature / (step * step);
    }
  }
  const Match at = match_at(markers, log, log_row, offset, q, unused);
  RobotLogOffset r;
  r.offset_s = offset;
  r.rms_rad = std::sqrt(at.mean_square);
  r.frames = at.frames;
  r.sharpness = sharpness;
  double spread = 0.0;
  long terms = 0;
  for (Eigen::Index j = 0; j < markers.q.rows(); ++j) {
    double sum = 0.0;
    long n = 0;
    for (Eigen::Index f = 0; f < markers.q.cols(); ++f)
      if (!std::isnan(markers.q(j, f))) sum += markers.q(j, f), ++n;
    const double mean = sum / static_cast<double>(n);
    for (Eigen::Index f = 0; f < markers.q.cols(); ++f)
      if (!std::isnan(markers.q(j, f))) spread += (markers.q(j, f) - mean) * (markers.q(j, f) - mean), ++terms;
  }
  r.spread_rad = std::sqrt(spread / static_cast<double>(terms));
  if (!(r.rms_rad <= options.max_rms_rad)) {
    // The joints that disagree most, so a user can look at their map entries first.
    std::vector<std::pair<double, std::string>> worst;
    for (std::size_t j = 0; j < markers.joints.size(); ++j)
      worst.emplace_back(std::sqrt(at.joint_square[static_cast<Eigen::Index>(j)] / static_cast<double>(at.frames)),
                         markers.joints[j]);
    std::sort(worst.rbegin(), worst.rend());
    std::string names;
    for (std::size_t j = 0; j < std::min<std::size_t>(3, worst.size()); ++j)
      names += (j ? ", " : "") + worst[j].second + " " + format_fixed(worst[j].first, 2) + " rad";
    return fail("the encoders differ from the markers' joint angles by " + format_fixed(r.rms_rad, 3) +
                " rad RMS even at the best offset (" + format_fixed(offset, 4) + " s; most: " + names +
                "): another motion, or a sign or unit wrong in the map");
  }
  return r;
}

}  // namespace dynid

namespace dynid {

RobotLogDrift estimate_robot_log_drift(const MarkerJointAngles& markers, const LogSeries& log, const std::string& what,
                                       const RobotLogOffset& whole, const RobotLogDriftOptions& options) {
  if (!(options.window_s > 0.0) || !(options.search_s > 0.0))
    throw std::invalid_argument(what + ": the drift's window and search span must be positive");
  std::vector<double> mid, offset, weight;
  RobotLogDrift r;
  const double end = markers.time.empty() ? 0.0 : markers.time.back();
  for (double from = markers.time.empty() ? 0.0 : markers.time.front(); from + 0.5 * options.window_s <= end;
       from += options.window_s) {
    MarkerJointAngles window;
    window.joints = markers.joints;
    std::vector<Eigen::Index> columns;
    for (std::size_t f = 0; f < markers.time.size(); ++f)
      if (markers.time[f] >= from && markers.time[f] < from + options.window_s) {
        window.time.push_back(markers.time[f]);
        columns.push_back(static_cast<Eigen::Index>(f));
      }
    window.q.resize(markers.q.rows(), static_cast<Eigen::Index>(columns.size()));
    double sum_t = 0.0;
    long solved = 0;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      window.q.col(static_cast<Eigen::Index>(c)) = markers.q.col(columns[c]);
      if (!std::isnan(markers.q(0, columns[c]))) sum_t += window.time[c], ++solved;
    }
    if (solved < 3) continue;
    RobotLogAlignmentOptions o = options.alignment;
    o.search_from_s = whole.offset_s - options.search_s;
    o.search_to_s = whole.offset_s + options.search_s;
    const RobotLogOffset found =
        estimate_robot_log_offset(window, log, what + " (window from " + format_fixed(from, 2) + " s)", o);
    if (found.spread_rad < options.min_motion_rad) {
      ++r.windows_without_motion;
      continue;
    }
    mid.push_back(sum_t / static_cast<double>(solved));
    offset.push_back(found.offset_s);
    // A window's offset is as certain as its match is sharp: weighted by the cost's curvature
    // times the frames compared (the information of a least-squares offset).
    weight.push_back(found.sharpness * static_cast<double>(found.frames));
  }
  const auto n = static_cast<double>(mid.size());
  if (mid.size() < 3)
    throw std::invalid_argument(what + ": " + std::to_string(mid.size()) + " window(s) of " +
                                format_fixed(options.window_s, 2) +
                                " s with motion, 3 are needed to estimate the clock drift; give it "
                                "(--robot-log-drift PPM)");
  // Weighted least-squares line; a window whose minimum lies at the search's edge (no curvature)
  // weighs as the weakest of the others.
  double w_min = std::numeric_limits<double>::infinity(), sw = 0.0;
  for (const double w : weight)
    if (w > 0.0) w_min = std::min(w_min, w);
  for (double& w : weight) {
    w = w > 0.0 ? w : (std::isfinite(w_min) ? w_min : 1.0);
    sw += w;
  }
  double mx = 0.0, my = 0.0;
  for (std::size_t k = 0; k < mid.size(); ++k) mx += weight[k] * mid[k] / sw, my += weight[k] * offset[k] / sw;
  double sxx = 0.0, sxy = 0.0;
  for (std::size_t k = 0; k < mid.size(); ++k)
    sxx += weight[k] * (mid[k] - mx) * (mid[k] - mx), sxy += weight[k] * (mid[k] - mx) * (offset[k] - my);
  const double slope = sxy / sxx;
  double rss = 0.0;
  for (std::size_t k = 0; k < mid.size(); ++k) {
    const double e = offset[k] - (my + slope * (mid[k] - mx));
    rss += weight[k] * e * e;
  }
  r.drift_ppm = 1e6 * slope;
  r.drift_std_ppm = 1e6 * std::sqrt(rss / (n - 2.0) / sxx);
  r.offset_s = my - slope * mx;
  r.windows = static_cast<int>(mid.size());
  return r;
}

}  // namespace dynid
