#include "dynid/data/lab_motion.hpp"

#include <algorithm>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "dynid/core/number_format.hpp"
#include "dynid/mocap/filtfilt.hpp"
#include "dynid/mocap/marker_ik.hpp"

namespace dynid {

void encoder_joints_at(const Model& model, const LabRecording& rec, double t, VectorX& q) {
  const auto it = std::lower_bound(rec.encoder_time.begin(), rec.encoder_time.end(), t);
  const Eigen::Index k1 = std::clamp<Eigen::Index>(it - rec.encoder_time.begin(), 1,
                                                   static_cast<Eigen::Index>(rec.encoder_time.size()) - 1);
  const double t0 = rec.encoder_time[static_cast<std::size_t>(k1 - 1)],
               t1 = rec.encoder_time[static_cast<std::size_t>(k1)];
  const double s = std::clamp((t - t0) / (t1 - t0), 0.0, 1.0);
  for (std::size_t c = 0; c < rec.encoder_joints.size(); ++c) {
    const auto b = model.find_joint(rec.encoder_joints[c]);
    if (!b) continue;
    const Eigen::Index row = static_cast<Eigen::Index>(c);
    q[model.bodies[static_cast<std::size_t>(*b)].idx_q] =
        (1.0 - s) * rec.encoder_q(row, k1 - 1) + s * rec.encoder_q(row, k1);
  }
}

namespace {

/// Median spacing of the frame times [s] (0 for fewer than two frames).
double median_frame_period(const std::vector<double>& time) {
  std::vector<double> steps;
  for (std::size_t k = 1; k < time.size(); ++k) steps.push_back(time[k] - time[k - 1]);
  if (steps.empty()) return 0.0;
  std::nth_element(steps.begin(), steps.begin() + static_cast<long>(steps.size() / 2), steps.end());
  return steps[steps.size() / 2];
}

}  // namespace

MarkerConfigurations solve_marker_configurations(const Model& model, const MarkerTrajectories& markers,
                                                 const LabRecording* encoders,
                                                 const MarkerConfigurationOptions& options) {
  const bool have_encoders = encoders && encoders->encoder_time.size() >= 2;
  if (options.joints_from_encoders && !have_encoders)
    throw std::runtime_error(markers.source + ": joints from the encoders need an encoders stream");
  MarkerIkOptions ik_options;
  ik_options.base_only = options.joints_from_encoders;
  MarkerIk ik(model, model_markers(model), ik_options);
  const std::vector<int> match = match_markers(markers, ik.markers());
  const Eigen::Index frames = markers.frame_count();
  const auto nm = static_cast<Eigen::Index>(ik.markers().size());
  Eigen::Matrix3Xd y(3, nm);
  if (options.calibrate_frames > 0) {
    std::vector<Eigen::Matrix3Xd> trial;
    for (Eigen::Index f = 0; f < std::min<Eigen::Index>(options.calibrate_frames, frames); ++f) {
      model_marker_frame(markers, match, f, y);
      trial.push_back(y);
    }
    calibrate_from_neutral_trial(ik, trial);
  }
  MarkerConfigurations out;
  out.markers_in_model = static_cast<int>(nm);
  out.markers_recorded = static_cast<int>(std::count_if(match.begin(), match.end(), [](int m) { return m >= 0; }));
  const double period = median_frame_period(markers.time);
  VectorX current;
  for (Eigen::Index f = 0; f < frames; ++f) {
    const double t = markers.time[static_cast<std::size_t>(f)];
    model_marker_frame(markers, match, f, y);
    if (f == 0) current = ik.initial_configuration(y);
    if (options.joints_from_encoders) encoder_joints_at(model, *encoders, t, current);
    MarkerIkFrame fit = ik.solve(y, current);
    const bool gap = f > 0 && t - markers.time[static_cast<std::size_t>(f - 1)] > 1.5 * period;
    if (options.restarts && (gap || fit.rms > options.restart_rms)) {
      for (int start = 0; start < 3; ++start) {
        VectorX q = ik.initial_configuration(y);
        if (start == 0) q.tail(model.nq - 7) = current.tail(model.nq - 7);
        if (start == 2) {
          if (!have_encoders) break;
          encoder_joints_at(model, *encoders, t, q);
        }
        const MarkerIkFrame trial = ik.solve(y, q);
        if (trial.markers_used >= 3 && trial.rms < fit.rms) current = q, fit = trial;
      }
    }
    // Mislabelled markers: a marker centimetres from the model (a swap of two labels moves each by
    // the distance between them) while the rest fit to millimetres; drop the worst, solve again.
    int dropped = 0;
    while (options.outlier_m > 0.0 && fit.max > options.outlier_m && dropped < kMaxMislabelledMarkers &&
           fit.markers_used > 3) {
      const Eigen::Matrix3Xd predicted = ik.model_positions(current);
      Eigen::Index worst = -1;
      double worst_distance = 0.0;
      for (Eigen::Index m = 0; m < nm; ++m) {
        if (!y.col(m).allFinite()) continue;
        const double d = (predicted.col(m) - y.col(m)).norm();
        if (d > worst_distance) worst_distance = d, worst = m;
      }
      if (worst < 0) break;
      y.col(worst).setConstant(std::numeric_limits<double>::quiet_NaN());
      fit = ik.solve(y, current);
      ++dropped;
    }
    out.dropped.push_back(dropped);
    out.time.push_back(t);
    out.q.push_back(current);
    out.rms.push_back(fit.rms);
    out.max.push_back(fit.max);
    out.used.push_back(fit.markers_used);
    out.iterations.push_back(fit.iterations);
  }
  return out;
}

MarkerConfigurations solve_marker_configurations(const Model& model, const LabRecording& rec,
                                                 bool joints_from_encoders) {
  if (rec.markers.frame_count() == 0)
    throw std::runtime_error(rec.dataset.directory + ": the data set has no markers stream");
  if (joints_from_encoders && rec.encoder_time.size() < 2)
    throw std::runtime_error(rec.dataset.directory + ": joints from the encoders need an encoders stream");
  MarkerConfigurationOptions options;
  options.joints_from_encoders = joints_from_encoders;
  return solve_marker_configurations(model, rec.markers, &rec, options);
}

std::string marker_configurations_csv(const Model& model, const MarkerConfigurations& c) {
  std::ostringstream out;
  out << "time";
  for (const std::string& name : model.configuration_names()) out << ",q." << name;
  out << ",marker_rms,marker_max,markers_used,iterations\n";
  for (std::size_t f = 0; f < c.time.size(); ++f) {
    out << format_exact(c.time[f]);
    for (Eigen::Index k = 0; k < c.q[f].size(); ++k) out << ',' << format_exact(c.q[f][k]);
    out << ',' << format_exact(c.rms[f]) << ',' << format_exact(c.max[f]) << ',' << c.used[f] << ',' << c.iterations[f]
        << '\n';
  }
  return out.str();
}

LabRecording plates_on_uniform_grid(const LabRecording& rec, double cutoff_hz, int order) {
  LabRecording out = rec;
  const std::size_t np = rec.plate_time.size();
  if (np < 10) throw std::runtime_error(rec.dataset.directory + ": too few force-plate samples");
  const double pdt = (rec.plate_time.back() - rec.plate_time.front()) / static_cast<double>(np - 1);
  for (std::size_t k = 0, j = 0; k < np; ++k) {
    out.plate_time[k] = rec.plate_time.front() + pdt * static_cast<double>(k);
    while (j + 2 < np && rec.plate_time[j + 1] < out.plate_time[k]) ++j;
    const double s =
        std::clamp((out.plate_time[k] - rec.plate_time[j]) / (rec.plate_time[j + 1] - rec.plate_time[j]), 0.0, 1.0);
    out.plate_wrench.col(static_cast<Eigen::Index>(k)) =
        (1.0 - s) * rec.plate_wrench.col(static_cast<Eigen::Index>(j)) +
        s * rec.plate_wrench.col(static_cast<Eigen::Index>(j + 1));
  }
  if (cutoff_hz > 0.0)
    out.plate_wrench = filtfilt_rows(butterworth_lowpass(order, cutoff_hz, 1.0 / pdt), out.plate_wrench);
  return out;
}

Eigen::Matrix<double, 6, Eigen::Dynamic> plate_reactions_at(const LabRecording& rec, double t, std::size_t& hint) {
  const std::size_t np = rec.plate_time.size();
  const std::size_t plates = rec.dataset.force_plates.size();
  Eigen::Matrix<double, 6, Eigen::Dynamic> out(6, static_cast<Eigen::Index>(plates));
  if (np < 2) throw std::runtime_error(rec.dataset.directory + ": too few force-plate samples");
  hint = std::min(hint, np - 2);
  while (hint + 2 < np && rec.plate_time[hint + 1] < t) ++hint;
  while (hint > 0 && rec.plate_time[hint] > t) --hint;
  const double s = std::clamp((t - rec.plate_time[hint]) / (rec.plate_time[hint + 1] - rec.plate_time[hint]), 0.0, 1.0);
  for (std::size_t p = 0; p < plates; ++p) {
    const Eigen::Index r = 6 * static_cast<Eigen::Index>(p);
    const Vector6 w = (1.0 - s) * rec.plate_wrench.block<6, 1>(r, static_cast<Eigen::Index>(hint)) +
                      s * rec.plate_wrench.block<6, 1>(r, static_cast<Eigen::Index>(hint + 1));
    // The plates record what the robot applies to them: the ground's reaction is its opposite,
    // moved from the plate's top centre to the world origin.
    const Vector3 force = -w.head<3>();
    out.col(static_cast<Eigen::Index>(p)) << force, -w.tail<3>() + rec.dataset.force_plates[p].origin.cross(force);
  }
  return out;
}

}  // namespace dynid
