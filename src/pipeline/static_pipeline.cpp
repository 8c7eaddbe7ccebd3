#include "dynid/pipeline/static_pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <random>
#include <stdexcept>

#include "dynid/core/atomic_file.hpp"
#include "dynid/core/number_format.hpp"
#include "dynid/data/input_checks.hpp"
#include "dynid/data/lab_motion.hpp"
#include "dynid/data/lab_recording.hpp"
#include "dynid/data/settled_windows.hpp"
#include "dynid/dynamics/center_of_mass.hpp"
#include "dynid/mocap/marker_ik.hpp"
#include "dynid/model/urdf_reader.hpp"
#include "dynid/model/urdf_writer.hpp"

namespace dynid {
namespace {

using nlohmann::json;

json stats_mm(const std::vector<double>& errors_m) {
  if (errors_m.empty()) return json{{"mean", nullptr}, {"std", nullptr}, {"max", nullptr}};
  double sum = 0.0, mx = 0.0;
  for (double e : errors_m) sum += e, mx = std::max(mx, e);
  const double mean = sum / static_cast<double>(errors_m.size());
  double var = 0.0;
  for (double e : errors_m) var += (e - mean) * (e - mean);
  const double sd = errors_m.size() > 1 ? std::sqrt(var / static_cast<double>(errors_m.size() - 1)) : 0.0;
  return json{{"mean", 1e3 * mean}, {"std", 1e3 * sd}, {"max", 1e3 * mx}};
}

json vec(const Vector3& v) { return json::array({v.x(), v.y(), v.z()}); }
json vec6(const Vector6& v) { return json::array({v[0], v[1], v[2], v[3], v[4], v[5]}); }

// Joint coordinate index in q of each encoder channel (-1: not a model joint).
std::vector<int> encoder_columns(const Model& model, const LabRecording& rec) {
  std::vector<int> out;
  for (const std::string& j : rec.encoder_joints) {
    const auto b = model.find_joint(j);
    out.push_back(b ? model.bodies[static_cast<std::size_t>(*b)].idx_q : -1);
  }
  return out;
}

// Mean encoder reading over [t0, t1] written into the joint entries of q.
void encoder_joints_into(const Model& model, const LabRecording& rec, double t0, double t1, VectorX& q) {
  const std::vector<int> cols = encoder_columns(model, rec);
  VectorX sum = VectorX::Zero(static_cast<Eigen::Index>(cols.size()));
  int n = 0;
  for (std::size_t k = 0; k < rec.encoder_time.size(); ++k)
    if (rec.encoder_time[k] >= t0 && rec.encoder_time[k] <= t1) {
      sum += rec.encoder_q.col(static_cast<Eigen::Index>(k));
      ++n;
    }
  if (n == 0)
    throw std::runtime_error(rec.dataset.directory + ": no encoder samples between " + std::to_string(t0) + " and " +
                             std::to_string(t1) + " s");
  for (std::size_t c = 0; c < cols.size(); ++c)
    if (cols[c] >= 0) q[cols[c]] = sum[static_cast<Eigen::Index>(c)] / n;
}

double ground_height(const LabRecording& rec) {
  double h = 0.0;
  for (const ForcePlateInfo& p : rec.dataset.force_plates) h += p.origin.z();
  return h / static_cast<double>(rec.dataset.force_plates.size());
}

}  // namespace

void require_markers_and_plates(const LabRecording& rec, bool encoders) {
  if (rec.markers.frame_count() == 0)
    throw std::runtime_error(rec.dataset.directory + ": the data set has no markers stream");
  if (rec.plate_time.empty()) throw std::runtime_error(rec.dataset.directory + ": the data set has no plates stream");
  if (encoders && rec.encoder_time.empty())
    throw std::runtime_error(rec.dataset.directory + ": --pose-source encoders needs an encoders stream");
}

StaticWindows find_static_windows(const LabRecording& rec, const StaticPipelineOptions& options) {
  const std::string& data = rec.dataset.directory;
  StaticWindows out;
  std::vector<StaticWindow>& spans = out.windows;
  json& windows_json = out.description;
  if (options.windows == WindowSource::Detect) {
    const std::vector<SettledWindow> found = detect_settled_windows(rec);
    int matched = 0;
    for (const SettledWindow& w : found) {
      const int s = matching_segment(rec.dataset.segments, w);
      if (s >= 0) ++matched;
      spans.push_back(
          {s >= 0 ? rec.dataset.segments[static_cast<std::size_t>(s)].label : "window " + std::to_string(spans.size()),
           w.start, w.end, w.first_frame, w.last_frame});
    }
    windows_json = {{"source", "detected"},
                    {"detected", found.size()},
                    {"segments", rec.dataset.segments.size()},
                    {"matched", matched}};
  } else {
    if (rec.dataset.segments.empty())
      throw std::runtime_error(data + ": --windows segments needs `segments` in dataset.json");
    for (const TimeSegment& s : rec.dataset.segments) {
      StaticWindow span{s.label, s.start + 0.05, s.end - 0.05, -1, -1};
      for (Eigen::Index f = 0; f < rec.markers.frame_count(); ++f) {
        const double t = rec.markers.time[static_cast<std::size_t>(f)];
        if (t < span.start || t > span.end) continue;
        if (span.first < 0) span.first = f;
        span.last = f;
      }
      if (span.first < 0) throw std::runtime_error(data + ": segment '" + s.label + "' has no marker frames");
      spans.push_back(span);
    }
    windows_json = {{"source", "segments"}, {"segments", rec.dataset.segments.size()}};
  }
  if (spans.size() < 2)
    throw std::runtime_error(data + ": found " + std::to_string(spans.size()) + " static poses; need at least 2");
  return out;
}

namespace {

constexpr double kIkGoodFitM = 2e-3;  // marker RMS of a pose IK has found (noise and mounting: < 1 mm)
// Blocks per pose window for the noise of its mean (batch means): enough for a scatter, each block
// still many frames of a held pose.
constexpr int kStaticNoiseBlocks = 5;
constexpr int kIkRandomStarts = 24;

/// `start` with every joint drawn uniformly within its limits (within +-pi where it has none).
VectorX random_joints(const Model& model, VectorX start, std::mt19937& rng) {
  for (std::size_t b = 1; b < model.bodies.size(); ++b) {
    const Body& body = model.bodies[b];
    if (body.joint_type != JointType::Revolute && body.joint_type != JointType::Prismatic) continue;
    const double lo = std::isfinite(body.limits.lower) ? body.limits.lower : -M_PI;
    const double hi = std::isfinite(body.limits.upper) ? body.limits.upper : M_PI;
    start[body.idx_q] = std::uniform_real_distribution<double>(lo, hi)(rng);
  }
  return start;
}

}  // namespace

void measure_static_poses(const Robot& robot, const LabRecording& rec, const StaticWindows& windows,
                          const StaticPipelineOptions& options, StaticPipelineResult& out) {
  const Model& model = robot.model;
  const std::string& data = rec.dataset.directory;
  const bool encoders = options.pose_source == PoseSource::Encoders;
  MarkerIkOptions ik_options;
  ik_options.base_only = encoders;
  MarkerIk ik(model, model_markers(model), ik_options);
  const std::vector<int> match = match_markers(rec.markers, ik.markers());
  const double h = ground_height(rec);
  // The plates' crosstalk from the poses themselves (standing still, the horizontal forces sum to
  // zero), removed before the centres of pressure are taken; validation removes it too.
  out.plate_calibration.reset();
  out.plate_zero.reset();
  std::optional<LabRecording> calibrated;
  if (options.zero_plates) {
    // First the plates' zero (a drifting zero would read as crosstalk and as centres of pressure).
    out.plate_zero = estimate_plate_zero(rec);
    for (const PlateZero& z : out.plate_zero->plates)
      if (z.windows == 0)
        out.warnings.push_back("plate zero: " + z.plate + " never carries less than " +
                               format_fixed(out.plate_zero->options.unloaded_below_n, 0) + " N for " +
                               format_fixed(out.plate_zero->options.min_window_s, 1) +
                               " s in the poses: its zero is left as recorded (zero it unloaded before the session)");
    calibrated = rec;
    remove_plate_zero(*out.plate_zero, *calibrated);
  }
  if (options.calibrate_plates) {
    std::vector<std::pair<double, double>> spans;
    for (const StaticWindow& w : windows.windows) spans.emplace_back(w.start, w.end);
    out.plate_calibration = calibrate_plate_crosstalk(calibrated ? *calibrated : rec, spans);
    if (!calibrated) calibrated = rec;
    remove_plate_crosstalk(*out.plate_calibration, *calibrated);
  }
  const LabRecording& plates = calibrated ? *calibrated : rec;
  VectorX previous = model.neutral_configuration();
  std::size_t index = 0;
  out.poses.clear();
  out.ik_rms.clear();
  std::vector<Eigen::Matrix3Xd> pose_markers;  // each pose's mean marker positions, for the calibration
  for (const StaticWindow& span : windows.windows) {
    const Eigen::Matrix3Xd y = mean_model_marker_frame(rec.markers, match, span.first, span.last);
    VectorX q = ik.initial_configuration(y);
    MarkerIkFrame fr;
    if (encoders) {
      encoder_joints_into(model, rec, span.start, span.end, q);
      fr = ik.solve(y, q);
    } else {
      // Poses far apart: start from the base markers (Kabsch) with the joints of the previous pose,
      // of the neutral pose and, when the data set has them, of the encoders; keep the best fit.
      const VectorX base_start = q;
      std::vector<VectorX> starts{previous, model.neutral_configuration()};
      if (!rec.encoder_time.empty()) {
        starts.push_back(base_start);
        encoder_joints_into(model, rec, span.start, span.end, starts.back());
      }
      fr.rms = std::numeric_limits<double>::infinity();
      auto try_start = [&](VectorX start) {
        start.head(7) = base_start.head(7);
        const MarkerIkFrame trial = ik.solve(y, start);
        if (trial.markers_used >= 3 && trial.rms < fr.rms) {
          fr = trial;
          q = start;
        }
      };
      for (const VectorX& start : starts) try_start(start);
      // Without encoders a limb can settle in a mirror solution (an elbow bent the other way) that
      // leaves centimetres of marker residual: then the earlier poses' joints, and seeded random
      // joints within the limits, until one fits to marker precision.
      for (auto it = out.poses.rbegin(); it != out.poses.rend() && fr.rms > kIkGoodFitM; ++it) try_start(it->q);
      std::mt19937 rng(static_cast<unsigned>(index) + 1u);
      for (int k = 0; k < kIkRandomStarts && fr.rms > kIkGoodFitM; ++k)
        try_start(random_joints(model, base_start, rng));
    }
    if (fr.markers_used < 3) throw std::runtime_error(data + ": pose '" + span.label + "' has fewer than 3 markers");
    previous = q;
    MeasuredStaticPose pose;
    pose.label = span.label;
    pose.q = q;
    pose.cop = center_of_pressure(plates.mean_ground_reaction(span.start, span.end), h);
    if (!pose.cop.allFinite())
      throw std::runtime_error(data + ": pose '" + span.label + "': too little vertical force for a COP");
    const double F = options.heldout_fraction;
    pose.heldout = std::floor((static_cast<double>(index) + 1.0) * F) > std::floor(static_cast<double>(index) * F);
    out.poses.push_back(pose);
    out.ik_rms.push_back(fr.rms);
    pose_markers.push_back(y);
    ++index;
  }
  out.marker_names.clear();
  for (const ModelMarker& m : ik.markers()) out.marker_names.push_back(m.name);
  out.marker_calibration.reset();
  if (options.calibrate_markers) {
    std::vector<VectorX> starts;
    for (const MeasuredStaticPose& p : out.poses) starts.push_back(p.q);
    out.marker_calibration = calibrate_marker_mounts(ik, pose_markers, starts);
    for (std::size_t i = 0; i < out.poses.size(); ++i) {
      out.poses[i].q = out.marker_calibration->q[i];
      out.ik_rms[i] = ik.solve(pose_markers[i], out.poses[i].q).rms;
    }
  }
  // Each pose's window in blocks, solved like the pose (the same IK, its markers calibrated or not).
  out.pose_blocks.assign(out.poses.size(), {});
  for (std::size_t i = 0; i < out.poses.size(); ++i) {
    const StaticWindow& w = windows.windows[i];
    const Eigen::Index frames = w.last - w.first + 1;
    if (frames < 2 * kStaticNoiseBlocks) continue;
    for (int b = 0; b < kStaticNoiseBlocks; ++b) {
      const Eigen::Index f0 = w.first + frames * b / kStaticNoiseBlocks;
      const Eigen::Index f1 = w.first + frames * (b + 1) / kStaticNoiseBlocks - 1;
      const double t0 = w.start + (w.end - w.start) * b / kStaticNoiseBlocks;
      const double t1 = w.start + (w.end - w.start) * (b + 1) / kStaticNoiseBlocks;
      VectorX q = out.poses[i].q;
      if (ik.solve(mean_model_marker_frame(rec.markers, match, f0, f1), q).markers_used < 3) continue;
      const Vector3 cop = center_of_pressure(plates.mean_ground_reaction(t0, t1), h);
      if (cop.allFinite()) out.pose_blocks[i].push_back({q, cop});
    }
  }
}

void fit_static_model(const Robot& robot, const StaticPipelineOptions& options, StaticPipelineResult& out) {
  const Model& model = robot.model;
  StaticIdentificationOptions id;
  id.total_mass = options.total_mass;
  id.prior = options.prior;
  for (const std::string& name : options.segments) {
    const auto b = model.find_body(name);
    if (!b || *b == 0)
      throw std::runtime_error(model.label() + ": no moving body or link named '" + name + "' (--segments)");
    id.segments.push_back(*b);
  }
  out.identification = identify_static(model, out.poses, id);
  const Model& identified = out.identification.identified;
  out.gcom_error_nominal.clear();
  out.gcom_error_identified.clear();
  for (const MeasuredStaticPose& p : out.poses) {
    out.gcom_error_nominal.push_back(gcom_error(model, p.q, p.cop));
    out.gcom_error_identified.push_back(gcom_error(identified, p.q, p.cop));
  }
  // What the fit leaves against what noise leaves in the poses' means: per fitted pose, the
  // standard error of its mean GCOM-minus-COP from its blocks' scatter.
  double residual2 = 0.0, noise2 = 0.0;
  int with_blocks = 0;
  Data data(identified);
  for (std::size_t i = 0; i < out.poses.size(); ++i) {
    const std::vector<StaticPipelineResult::PoseBlock>& blocks = out.pose_blocks[i];
    if (out.poses[i].heldout || blocks.size() < 3) continue;
    std::vector<Eigen::Vector2d> d;
    Eigen::Vector2d mean = Eigen::Vector2d::Zero();
    for (const StaticPipelineResult::PoseBlock& b : blocks) {
      center_of_mass(identified, data, b.q);
      d.push_back((ground_projected_com(identified, data.com) - b.cop).head<2>());
      mean += d.back();
    }
    mean /= static_cast<double>(d.size());
    double scatter = 0.0;
    for (const Eigen::Vector2d& x : d) scatter += (x - mean).squaredNorm();
    const double n = static_cast<double>(d.size());
    noise2 += scatter / (n - 1.0) / n;
    residual2 += out.gcom_error_identified[i] * out.gcom_error_identified[i];
    ++with_blocks;
  }
  out.gcom_noise_m = with_blocks > 0 ? std::sqrt(noise2 / with_blocks) : 0.0;
  out.unexplained = out.gcom_noise_m > 0.0
                        ? assess_static_residual(std::sqrt(residual2 / with_blocks) / out.gcom_noise_m,
                                                 std::sqrt(residual2 / with_blocks))
                        : UnexplainedResidual{};
  out.urdf = write_urdf_inertials(identified, robot.urdf_path).urdf;
}

// Residual base wrench of the validation motion for the nominal and the identified model.
// With the true model (a simulation's truth.urdf) also its residual: what the pipeline itself leaves
// (marker noise through IK and two derivatives, the filter, plate noise), the floor of the method.
void validate_static_identification(const Robot& robot, const Model* truth, const StaticPipelineOptions& options,
                                    StaticPipelineResult& out) {
  const Model& model = robot.model;
  const Model& identified = out.identification.identified;
  LabRecording rec = read_lab_recording(options.validate);
  const bool encoders = options.pose_source == PoseSource::Encoders;
  require_markers_and_plates(rec, encoders);
  // Its own zero where it has unloaded windows (its clock and drift start anew), then the same
  // plates' crosstalk as the poses' (one lab session).
  out.validation_plate_zero.reset();
  if (options.zero_plates) {
    out.validation_plate_zero = estimate_plate_zero(rec);
    remove_plate_zero(*out.validation_plate_zero, rec);
  }
  if (out.plate_calibration) remove_plate_crosstalk(*out.plate_calibration, rec);
  const MarkerConfigurations configurations = solve_marker_configurations(model, rec, encoders);
  const SampledMotion motion =
      differentiate_configurations(model, configurations.time, configurations.q, options.cutoff_hz);
  const std::vector<double>& grid = motion.time;  // the frame times resampled uniformly
  out.plate_clock.reset();
  if (options.align_time && grid.size() >= 10) {
    // The plates' total force against the markers' kinematics: each limb's COM acceleration, the
    // limbs' weights refitted at every lag (gravity and the plates' zero: constants).
    const LabRecording smoothed = plates_on_uniform_grid(rec, options.cutoff_hz);
    const Eigen::Index n = static_cast<Eigen::Index>(grid.size());
    Eigen::VectorXd times(n);
    Eigen::MatrixXd force(3, n);
    std::size_t at = 0;
    for (Eigen::Index k = 0; k < n; ++k) {
      times[k] = grid[static_cast<std::size_t>(k)];
      // The whole 6-vector first: Eigen 3.4's "data is not aligned" assertion fails on
      // `.rowwise().sum().head<3>()` of a 6 x N matrix (the sanitizer build keeps Eigen's
      // assertions and aborted here; docs/reliability.md).
      const Vector6 total = plate_reactions_at(smoothed, times[k], at).rowwise().sum();
      force.col(k) = total.head<3>();
    }
    const double dt = (times[n - 1] - times[0]) / static_cast<double>(n - 1);
    const std::vector<Eigen::MatrixXd> limbs = limb_com_accelerations(model, motion.q, dt, options.cutoff_hz);
    TimeAlignmentOptions alignment;
    alignment.cutoff_hz = options.cutoff_hz;
    out.plate_clock = estimate_stream_clock(Eigen::MatrixXd(), force, times, alignment,
                                            "plate force against the markers' limb COM accelerations", &limbs);
    // A plate sample stamped s happened at marker time s - offset.
    if (out.plate_clock->warning.empty())
      for (double& t : rec.plate_time) t -= out.plate_clock->clock.offset_s;
  }
  // Plate wrenches through the same zero-phase filter, interpolated at the motion's times.
  const LabRecording filtered = plates_on_uniform_grid(rec, options.cutoff_hz);
  SampledMotion kept;
  std::vector<Force> reaction;
  std::size_t hint = 0;
  for (std::size_t k = 0; k < grid.size(); ++k) {
    const double tk = grid[k];
    if (tk < grid.front() + options.validation_trim_s || tk > grid.back() - options.validation_trim_s) continue;
    const Vector6 total = plate_reactions_at(filtered, tk, hint).rowwise().sum();
    reaction.emplace_back(total.head<3>(), total.tail<3>());
    kept.time.push_back(tk);
    kept.q.push_back(motion.q[k]);
    kept.v.push_back(motion.v[k]);
    kept.a.push_back(motion.a[k]);
  }
  if (kept.time.empty()) throw std::runtime_error(options.validate + ": the validation motion is too short");
  out.residual_nominal = residual_base_wrench(model, kept, reaction);
  out.residual_identified = residual_base_wrench(identified, kept, reaction);
  if (truth) {
    out.residual_truth = residual_base_wrench(*truth, kept, reaction);
    out.validated_truth = true;
  }
  out.validated = true;
}

nlohmann::json static_summary_json(const Robot& robot, const std::string& data, const StaticWindows& windows,
                                   const Robot* truth, const StaticPipelineOptions& options,
                                   const StaticPipelineResult& out) {
  const Model& model = robot.model;
  const Model& identified = out.identification.identified;
  const bool encoders = options.pose_source == PoseSource::Encoders;
  const json& windows_json = windows.description;
  // Summary.
  auto split = [&](const std::vector<double>& e, bool heldout) {
    std::vector<double> s;
    for (std::size_t n = 0; n < e.size(); ++n)
      if (out.poses[n].heldout == heldout) s.push_back(e[n]);
    return s;
  };
  int fit_count = 0;
  for (const MeasuredStaticPose& p : out.poses) fit_count += p.heldout ? 0 : 1;
  json s;
  s["robot"] = model.name;
  s["data"] = data;
  s["pose_source"] = encoders ? "encoders" : "markers";
  s["prior"] = options.prior == StaticPrior::Scaled ? "scaled" : "nominal";
  s["windows"] = windows_json;
  s["poses"] = {{"fit", fit_count}, {"heldout", static_cast<int>(out.poses.size()) - fit_count}};
  s["total_mass"] = {
      {"measured", options.total_mass}, {"nominal", model.total_mass()}, {"identified", identified.total_mass()}};
  s["gcom_error_mm"] = {{"nominal",
                         {{"fit", stats_mm(split(out.gcom_error_nominal, false))},
                          {"heldout", stats_mm(split(out.gcom_error_nominal, true))}}},
                        {"identified",
                         {{"fit", stats_mm(split(out.gcom_error_identified, false))},
                          {"heldout", stats_mm(split(out.gcom_error_identified, true))}}}};
  s["ik_marker_rms_mm"] = stats_mm(out.ik_rms);
  // The fitted poses' residual against what noise leaves in their means (null: no window long
  // enough to cut into blocks).
  s["unexplained_residual"] = out.gcom_noise_m > 0.0 ? nlohmann::json{{"noise_ratio", out.unexplained.noise_ratio},
                                                                      {"gcom_noise_mm", 1e3 * out.gcom_noise_m},
                                                                      {"level", out.unexplained.level},
                                                                      {"basis", out.unexplained.basis},
                                                                      {"explanation", out.unexplained.explanation}}
                                                     : nlohmann::json(nullptr);
  s["marker_calibration"] = nullptr;
  if (out.marker_calibration) {
    const MarkerMountCalibration& c = *out.marker_calibration;
    json changes = json::object(), skipped = json::array();
    double largest = 0.0;
    for (std::size_t m = 0; m < out.marker_names.size(); ++m) {
      if (!c.calibrated[m]) {
        skipped.push_back(out.marker_names[m]);
        continue;
      }
      const Vector3 mm = 1e3 * c.change[m];
      changes[out.marker_names[m]] = {mm.x(), mm.y(), mm.z()};
      largest = std::max(largest, mm.norm());
    }
    s["marker_calibration"] = {{"change_mm", changes},
                               {"not_calibrated", skipped},
                               {"max_change_mm", largest},
                               {"ik_rms_mm_before", 1e3 * c.rms_before},
                               {"ik_rms_mm_after", 1e3 * c.rms_after},
                               {"rounds", c.rounds}};
  }
  s["plate_zero"] = nullptr;
  if (out.plate_zero) {
    auto plates_json = [](const PlateZeroing& z) {
      json j = json::object();
      for (const PlateZero& p : z.plates)
        j[p.plate] = {
            {"windows", p.windows},     {"unloaded_s", p.unloaded_s},         {"drift_estimated", p.drift_estimated},
            {"offset", vec6(p.offset)}, {"drift_per_s", vec6(p.drift_per_s)}, {"residual_rms", vec6(p.residual_rms)}};
      return j;
    };
    s["plate_zero"] = {{"unloaded_below_n", out.plate_zero->options.unloaded_below_n},
                       {"min_window_s", out.plate_zero->options.min_window_s},
                       {"axes", {"Fx", "Fy", "Fz", "Tx", "Ty", "Tz"}},
                       {"plates", plates_json(*out.plate_zero)},
                       {"validation", out.validation_plate_zero ? plates_json(*out.validation_plate_zero) : json()}};
  }
  s["warnings"] = out.warnings;
  s["plate_calibration"] = nullptr;
  if (out.plate_calibration) {
    const PlateCrosstalkCalibration& c = *out.plate_calibration;
    json crosstalk = json::object();
    for (std::size_t p = 0; p < c.plates.size(); ++p) crosstalk[c.plates[p]] = {c.crosstalk[p].x(), c.crosstalk[p].y()};
    s["plate_calibration"] = {
        {"crosstalk_fz_to_fx_fy", crosstalk},
        {"split", c.per_plate ? "per plate" : "one value for every plate (the poses did not shift the weight)"},
        {"summed_drift_n_per_s", {c.drift_n_per_s.x(), c.drift_n_per_s.y()}},
        {"poses", c.poses},
        {"horizontal_force_rms_n_before", {c.rms_before_n.x(), c.rms_before_n.y()}},
        {"horizontal_force_rms_n_after", {c.rms_after_n.x(), c.rms_after_n.y()}}};
  }
  json segs = json::array();
  double worst_mass_error = 0.0;
  for (const SegmentEstimate& e : out.identification.segments) {
    json j = {{"name", e.name},
              {"mass_before", e.mass_before},
              {"mass_after", e.mass_after},
              {"com_before", vec(e.com_before)},
              {"com_after", vec(e.com_after)}};
    if (truth) {
      const auto b = truth->model.find_body(e.name);
      if (!b)
        throw std::runtime_error(options.truth_urdf + ": no body '" + e.name + "' (--truth must be the same robot)");
      const Inertia& t = truth->model.bodies[static_cast<std::size_t>(*b)].inertia;
      const double err = 100.0 * (e.mass_after - t.mass) / t.mass;
      worst_mass_error = std::max(worst_mass_error, std::abs(err));
      j["mass_true"] = t.mass;
      j["com_true"] = vec(t.com());
      j["mass_error_percent"] = err;
      j["mass_error_percent_nominal"] = 100.0 * (e.mass_before - t.mass) / t.mass;
      j["com_error_mm"] = 1e3 * (e.com_after - t.com()).norm();
      j["com_error_mm_nominal"] = 1e3 * (e.com_before - t.com()).norm();
    }
    segs.push_back(j);
  }
  s["segments"] = segs;
  if (truth)
    s["truth"] = {{"urdf", options.truth_urdf},
                  {"total_mass", truth->model.total_mass()},
                  {"max_abs_mass_error_percent", worst_mass_error}};
  json dirs = json::array();
  for (const UnobservableDirection& d : out.identification.directions) {
    json comps = json::object();
    for (const auto& [name, w] : d.parameters) comps[name] = w;
    dirs.push_back({{"information", d.information}, {"parameters", comps}});
  }
  s["observability"] = {{"parameters", out.identification.parameter_names.size()},
                        {"observable_combinations", out.identification.rank},
                        {"unobservable", out.identification.unobservable},
                        {"unobservable_directions", dirs}};
  s["solver"] = {{"iterations", out.identification.iterations}, {"converged", out.identification.converged}};
  if (out.validated) {
    s["residual_wrench"] = {
        {"axes", {"Tx", "Ty", "Tz", "Fx", "Fy", "Fz"}},
        {"frame", "base frame, about its origin [N m, N]"},
        {"samples", out.residual_nominal.time.size()},
        {"data", options.validate},
        {"nominal", {{"mean_abs", vec6(out.residual_nominal.mean_abs)}, {"std", vec6(out.residual_nominal.std_abs)}}},
        {"identified",
         {{"mean_abs", vec6(out.residual_identified.mean_abs)}, {"std", vec6(out.residual_identified.std_abs)}}}};
    if (out.validated_truth)
      s["residual_wrench"]["truth"] = {{"mean_abs", vec6(out.residual_truth.mean_abs)},
                                       {"std", vec6(out.residual_truth.std_abs)}};
    s["residual_wrench"]["plate_time_alignment"] = nullptr;
    if (out.plate_clock)
      s["residual_wrench"]["plate_time_alignment"] = {{"offset_s", out.plate_clock->clock.offset_s},
                                                      {"correlation", out.plate_clock->correlation},
                                                      {"compared", out.plate_clock->compared},
                                                      {"applied", out.plate_clock->warning.empty()},
                                                      {"warning", out.plate_clock->warning}};
  }
  // The streams' clocks against the markers', in the key every identification summary shares
  // ({stream: {offset_s, drift_ppm}}): the poses are static, so only the validation's plates are read
  // on another clock; their drift is not estimated over one short motion (0).
  s["time_alignment"] = json::object();
  if (out.plate_clock)
    s["time_alignment"]["force_plates"] = {{"offset_s", out.plate_clock->clock.offset_s},
                                           {"drift_ppm", out.plate_clock->clock.drift_ppm},
                                           {"reference", "markers"},
                                           {"data", options.validate},
                                           {"applied", out.plate_clock->warning.empty()}};
  s["input_warnings"] = input_warnings(model, read_dataset_info(data));
  return s;
}

StaticPipelineResult run_static_identification(const Robot& robot, const std::string& data,
                                               const StaticPipelineOptions& options) {
  const Model& model = robot.model;
  if (!model.floating_base)
    throw std::runtime_error(model.label() + ": static identification needs a floating-base robot");
  if (!(options.heldout_fraction >= 0.0 && options.heldout_fraction < 1.0))
    throw std::runtime_error("--heldout-fraction must be in [0, 1)");
  const LabRecording rec = read_lab_recording(data);
  require_markers_and_plates(rec, options.pose_source == PoseSource::Encoders);
  const StaticWindows windows = find_static_windows(rec, options);
  StaticPipelineResult out;
  measure_static_poses(robot, rec, windows, options, out);
  fit_static_model(robot, options, out);
  std::optional<Robot> truth;
  if (!options.truth_urdf.empty()) truth = load_robot(options.truth_urdf);
  if (!options.validate.empty()) validate_static_identification(robot, truth ? &truth->model : nullptr, options, out);
  out.summary = static_summary_json(robot, data, windows, truth ? &*truth : nullptr, options, out);
  apply_user_terms(out.summary, options.user_terms);
  return out;
}

void write_static_identification(const StaticPipelineResult& result, const Robot& robot, const std::string& out_dir) {
  const std::string stem = std::filesystem::path(robot.urdf_path).stem().string();
  write_file_atomically(out_dir + "/" + stem + "_identified.urdf", result.urdf);
  write_file_atomically(out_dir + "/report.html", static_identification_report(result, robot));
  nlohmann::json summary = result.summary;
  summary["urdf"] = stem + "_identified.urdf";
  write_file_atomically(out_dir + "/summary.json", summary.dump(2) + "\n");
}

}  // namespace dynid
