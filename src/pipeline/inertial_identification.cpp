#include "dynid/pipeline/inertial_identification.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <iomanip>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "dynid/core/atomic_file.hpp"
#include "dynid/core/number_format.hpp"
#include "dynid/data/contact_states.hpp"
#include "dynid/data/input_checks.hpp"
#include "dynid/data/mocap_source.hpp"
#include "dynid/data/parallel_filter.hpp"
#include "dynid/data/truth_source.hpp"
#include "dynid/dynamics/sole_contacts.hpp"
#include "dynid/ident/bounded_least_squares.hpp"
#include "dynid/ident/identification_rows.hpp"
#include "dynid/ident/minimal_sensor_sets.hpp"
#include "dynid/ident/physical_consistency.hpp"
#include "dynid/ident/quadratic_search.hpp"
#include "dynid/ident/sensor_projection.hpp"
#include "dynid/ident/streaming_least_squares.hpp"
#include "dynid/model/random_state.hpp"
#include "dynid/model/robot.hpp"
#include "dynid/model/sidecar_reader.hpp"
#include "dynid/model/topology.hpp"
#include "dynid/model/urdf_writer.hpp"
#include "dynid/pipeline/identification_report.hpp"
#include "dynid/pipeline/user_terms.hpp"

namespace dynid {
namespace {

using json = nlohmann::json;

/// Unit class of a standard parameter from its suffix: 0 mass [kg], 1 first moment [kg m], 2 inertia [kg m^2].
int unit_class(const std::string& name) {
  const std::string suffix = name.substr(name.rfind('.') + 1);
  if (suffix == "m") return 0;
  if (suffix.rfind("mc", 0) == 0) return 1;
  return 2;
}

/// One line naming the way out when the data set lacks the streams the chosen source reads: a
/// simulated set with only its truth stream names the oracle option rather than a missing file.
void require_source_streams(const std::string& source, const DatasetInfo& dataset) {
  if (source == "truth" && !dataset.has_stream("truth"))
    throw std::runtime_error(dataset.directory +
                             ": no truth stream (--source truth is the simulator's oracle; recorded data: "
                             "--source sensors)");
  if (source == "sensors" && !dataset.has_stream("encoders"))
    throw std::runtime_error(dataset.directory + ": no sensor streams (encoders) for --source sensors" +
                             (dataset.has_stream("truth")
                                  ? "; it has only the simulator's noise-free stream: --source truth reads it "
                                    "as an oracle"
                                  : ""));
}

std::unique_ptr<MotionSource> make_source(const InertialIdentificationOptions& o, const Model& model,
                                          const RobotSidecar& sidecar, const DatasetInfo& dataset, TimeWindow window) {
  require_source_streams(o.source, dataset);
  if (o.source == "truth") {
    return std::make_unique<TruthSource>(model, sidecar, dataset, window, o.locks);
  }
  if (o.source == "sensors") {
    // The source says how much of its sensors' noise the rows' own filter lets through.
    SensorSourceOptions sensor_options = o.sensor_options;
    if (o.parallel_filter_all_rows) {
      sensor_options.row_filter_cutoff_hz = o.parallel_filter.cutoff_hz;
      sensor_options.row_filter_order = o.parallel_filter.order;
    }
    return std::make_unique<SensorSource>(model, sidecar, dataset, sensor_options, window, o.locks);
  }
  if (o.source == "mocap")
    return std::make_unique<MocapSource>(model, sidecar, dataset, o.mocap_options, window, o.locks);
  throw std::invalid_argument("unknown source '" + o.source + "' (truth, sensors or mocap)");
}

/// Sample rate of the stream the source's samples follow: the encoders' for the sensor path, the
/// truth stream's for the truth source. The parallel filter needs it; the mocap path resamples
/// its own way and is refused.
double source_sample_rate(const InertialIdentificationOptions& o, const DatasetInfo& dataset) {
  if (o.source == "sensors") return dataset.stream("encoders").rate_hz;
  if (o.source == "truth") return dataset.stream("truth").rate_hz;
  throw std::invalid_argument("--parallel-filter works on --source sensors or truth, not " + o.source);
}

/// `--sensors minimal`: the smallest sensor set that identifies the base in every contact state of
/// the data set (data_contact_states).
SensorSet minimal_sensor_set(const Model& model, const RobotSidecar& sidecar, const DatasetInfo& data) {
  std::vector<ContactState> states;
  for (const DataContactState& d : data_contact_states(model, sidecar, data)) states.push_back(d.state);
  const MinimalSensorReport report = minimal_sensor_sets(model, states);
  if (report.union_set.empty())
    throw std::runtime_error("--sensors minimal: no sensor set identifies " + model.name +
                             " in every contact state of " + data.directory);
  std::string names;
  for (const std::string& n : report.union_set) names += (names.empty() ? "" : ",") + n;
  SensorSet set = parse_sensor_set(model, sidecar, names);
  set.label = "minimal: " + names;
  return set;
}

/// Refuses, before any sample is read, a sensor set that cannot identify the base in one of the
/// data set's contact states, naming the state and where it first occurs.
void check_sensor_set_against_contact_states(const Model& model, const RobotSidecar& sidecar, const DatasetInfo& data,
                                             const SensorSet& set) {
  std::vector<std::string> names;
  for (int f : set.contact_frames) names.push_back(model.frames[static_cast<std::size_t>(f)].name);
  for (int b : set.torque_joints) names.push_back(model.bodies[static_cast<std::size_t>(b)].joint_name);
  for (const auto& [state, segments] : data_contact_states(model, sidecar, data)) {
    const TimeSegment& segment = segments.front();
    if (!sensors_identify_base(model, state, names))
      throw std::runtime_error("sensor set '" + set.label + "' cannot identify the base (rank(S_b V_x) < 6) while " +
                               state.label + " carr" + (state.contacts.size() == 1 ? "ies" : "y") +
                               " the robot, first in '" + segment.label + "' (t = " + format_fixed(segment.start, 2) +
                               "-" + format_fixed(segment.end, 2) +
                               " s); `dynid analyze sensors` lists the sets that can");
  }
}

/// Time range of the stream the source reads (for the held-out split).
std::pair<double, double> source_time_range(const InertialIdentificationOptions& o, const DatasetInfo& dataset) {
  if (o.source == "mocap") return stream_time_range(dataset.stream("markers").file);
  return stream_time_range(dataset.stream(o.source == "truth" ? "truth" : "encoders").file);
}

/// What was held out, in words (summary.json validation_data, the report).
std::string validation_data_text(const InertialIdentificationOptions& o) {
  if (!o.validate.empty()) return o.validate;
  if (!o.validation_window.empty()) return "window " + o.validation_window + " of " + o.data;
  return "last " + std::to_string(static_cast<int>(100 * o.holdout_fraction)) + " % of " + o.data;
}

/// `--validate-window`: "FROM:TO" [s], or a segment's label; within the data's [t0, t1], not all of it.
TimeWindow parse_validation_window(const std::string& text, const DatasetInfo& data, double t0, double t1) {
  TimeWindow w;
  const std::size_t colon = text.find(':');
  bool numbers = false;
  if (colon != std::string::npos) {
    try {
      std::size_t a = 0, b = 0;
      w.start = std::stod(text.substr(0, colon), &a);
      w.end = std::stod(text.substr(colon + 1), &b);
      numbers = a == colon && b == text.size() - colon - 1 && std::isfinite(w.start) && std::isfinite(w.end);
    } catch (const std::exception&) {
      numbers = false;
    }
  }
  if (!numbers) {
    std::vector<const TimeSegment*> found;
    std::string labels;
    for (const TimeSegment& seg : data.segments) {
      if (seg.label == text) found.push_back(&seg);
      labels += (labels.empty() ? "" : ", ") + seg.label;
    }
    if (found.size() != 1)
      throw std::invalid_argument("--validate-window '" + text + "': " +
                                  (found.empty() ? "neither FROM:TO in seconds nor a segment of " + data.directory +
                                                       " (segments: " + (labels.empty() ? "none" : labels) + ")"
                                                 : std::to_string(found.size()) + " segments of " + data.directory +
                                                       " have that label; give FROM:TO in seconds"));
    w.start = found.front()->start;
    w.end = found.front()->end;
  }
  if (!(w.end > w.start))
    throw std::invalid_argument("--validate-window '" + text + "': the window ends before it starts");
  if (w.end <= t0 || w.start >= t1)
    throw std::invalid_argument("--validate-window '" + text + "': outside the data (" + format_fixed(t0, 3) + " to " +
                                format_fixed(t1, 3) + " s)");
  if (w.start <= t0 && w.end >= t1)
    throw std::invalid_argument("--validate-window '" + text + "' holds out all of the data: nothing is left to fit");
  return w;
}

struct RmsAccumulator {
  double force2 = 0.0, moment2 = 0.0, torque2 = 0.0, projected2 = 0.0;
  long samples = 0, torque_count = 0, projected_count = 0, projected_samples = 0;
  std::vector<double> coordinate2;  // per generalized coordinate: sum of squares, and count
  std::vector<long> coordinate_count;
  /// `projector`: V_c^T of the contacts, or empty when a joint torque is not measured.
  void add(const VectorX& residual, bool floating, const MatrixX& projector) {
    if (projector.size() > 0) {
      projected2 += (projector * residual).squaredNorm();
      projected_count += projector.rows();
      ++projected_samples;
    }
    const int j0 = floating ? 6 : 0;
    if (floating) {
      force2 += residual.head<3>().squaredNorm();
      moment2 += residual.segment<3>(3).squaredNorm();
    }
    coordinate2.resize(static_cast<std::size_t>(residual.size()), 0.0);
    coordinate_count.resize(static_cast<std::size_t>(residual.size()), 0);
    for (Eigen::Index i = j0; i < residual.size(); ++i)
      if (std::isfinite(residual[i])) {
        torque2 += residual[i] * residual[i];
        ++torque_count;
        coordinate2[static_cast<std::size_t>(i)] += residual[i] * residual[i];
        ++coordinate_count[static_cast<std::size_t>(i)];
      }
    ++samples;
  }
  /// A projected residual V_c^T (Y pi - f) already formed (the parallel filter's output).
  void add_projected(const VectorX& projected) {
    projected2 += projected.squaredNorm();
    projected_count += projected.rows();
    ++projected_samples;
  }
  ValidationRms rms() const {
    ValidationRms r;
    if (samples == 0) return r;
    r.force = std::sqrt(force2 / static_cast<double>(samples));
    r.moment = std::sqrt(moment2 / static_cast<double>(samples));
    if (torque_count > 0) r.torque = std::sqrt(torque2 / static_cast<double>(torque_count));
    if (projected_samples == samples && projected_count > 0)
      r.projected = std::sqrt(projected2 / static_cast<double>(projected_count));
    r.per_coordinate.resize(coordinate2.size());
    for (std::size_t i = 0; i < coordinate2.size(); ++i)
      if (coordinate_count[i] > 0)
        r.per_coordinate[i] = std::sqrt(coordinate2[i] / static_cast<double>(coordinate_count[i]));
    return r;
  }
};

json rms_json(const std::optional<double>& nominal, const std::optional<double>& identified) {
  json j;
  j["nominal"] = nominal ? json(*nominal) : json(nullptr);
  j["identified"] = identified ? json(*identified) : json(nullptr);
  return j;
}

std::string base_parameters_text(const InertialIdentificationResult& r) {
  std::ostringstream s;
  s << "Base parameters of " << r.base.model_name << " (" << r.base.num_base() << ", " << r.base.rows_label
    << "), sensors '" << r.sensors << "', " << r.samples << " samples\n";
  s << "  value, standard deviation (and relative), nominal" << (r.base_truth ? ", truth" : "") << "; grouping\n";
  for (int k = 0; k < r.base.num_base(); ++k) {
    const double v = r.base_values[k], sd = r.base_std[k];
    s << std::setw(4) << k << "  " << std::left << std::setw(26) << r.base.name(k) << std::right << std::setw(14)
      << std::setprecision(6) << v << " +- " << std::setw(10) << std::setprecision(3) << sd << " ("
      << std::setprecision(2) << (std::abs(v) > 0 ? 100.0 * sd / std::abs(v) : 0.0) << " %)  nominal "
      << std::setprecision(6) << r.base_nominal[k];
    if (r.base_truth) s << "  truth " << (*r.base_truth)[k];
    s << "\n        = " << r.base.expression(k) << "\n";
  }
  if (!r.torque_offsets.empty()) {
    s << "Joint torque sensor offsets (the sensor reads the joint torque plus this) [N m], standard deviation\n";
    for (const TorqueOffset& t : r.torque_offsets)
      s << "      " << std::left << std::setw(26) << t.joint << std::right << std::setw(14) << std::setprecision(6)
        << t.value << " +- " << std::setprecision(3) << t.std << "\n";
  }
  if (!r.torque_gains.empty()) {
    s << "Joint torque sensor gains (the sensor reads this times the joint torque), standard deviation\n";
    for (const TorqueGain& t : r.torque_gains)
      s << "      " << std::left << std::setw(26) << t.joint << std::right << std::setw(14) << std::setprecision(6)
        << t.value << " +- " << std::setprecision(3) << t.std << "\n";
  }
  if (!r.friction.empty()) {
    s << "Joint friction and drive terms, standard deviation (docs/identification.md, \"Joint friction and "
         "armature\")\n";
    for (const JointFrictionTerm& f : r.friction) {
      s << "      " << std::left << std::setw(26) << f.joint << std::setw(10) << f.term << std::right;
      if (f.grouped_with.empty())
        s << std::setw(14) << std::setprecision(6) << f.value << " +- " << std::setprecision(3) << f.std;
      else
        s << "  grouped with " << f.grouped_with;
      if (f.truth) s << "  truth " << std::setprecision(6) << *f.truth;
      s << "\n";
    }
  }
  return s.str();
}

/// The input checks of the training data set with the model, and the time gaps of a --validate set.
std::vector<std::string> inertial_input_warnings(const InertialProblem& p) {
  std::vector<std::string> out =
      input_warnings(p.model, p.train_set, p.options.source == "truth" ? "truth" : "encoders");
  if (!p.options.validate.empty())
    for (std::string& w : time_gap_warnings(p.validation_set)) out.push_back(std::move(w));
  if (!p.base.nearly_dependent.empty()) {
    std::string names;
    for (const auto& [parameter, distance] : p.base.nearly_dependent)
      names += (names.empty() ? "" : ", ") + p.base.parameter_names[static_cast<std::size_t>(parameter)];
    out.push_back(std::to_string(p.base.nearly_dependent.size()) +
                  " inertial parameter(s) regrouped as if dependent (joint axes within a fraction of a degree of "
                  "parallel; no motion identifies them apart): " +
                  names + " (dynid analyze base-parameters MODEL lists them)");
  }
  return out;
}

/// Joints off the chains from the contacts to the base, at their neutral value.
std::vector<JointLock> upper_body_locks(const Model& model, const RobotSidecar& sidecar) {
  std::vector<int> contact_bodies;
  for (const ContactSurface& c : sidecar.contacts)
    contact_bodies.push_back(model.frames[static_cast<std::size_t>(model.frame_index(c.name))].body);
  const std::vector<bool> leg = on_chains_to_root(model, contact_bodies);
  const VectorX neutral = model.neutral_configuration();
  std::vector<JointLock> locks;
  for (std::size_t b = 1; b < model.bodies.size(); ++b) {
    const Body& body = model.bodies[b];
    if (body.joint_type != JointType::FreeFlyer && !leg[b]) locks.push_back({body.joint_name, neutral[body.idx_q]});
  }
  return locks;
}

}  // namespace

VectorX base_parameter_relative_errors(const BaseParameters& base, const VectorX& identified, const VectorX& truth) {
  double scale[3] = {0.0, 0.0, 0.0};
  for (int k = 0; k < base.num_base(); ++k) {
    const int c = unit_class(base.name(k));
    scale[c] = std::max(scale[c], std::abs(truth[k]));
  }
  VectorX e(base.num_base());
  for (int k = 0; k < base.num_base(); ++k) {
    const double floor = 0.01 * scale[unit_class(base.name(k))];
    e[k] = std::abs(identified[k] - truth[k]) / std::max({std::abs(truth[k]), floor, 1e-300});
  }
  return e;
}

/// The classes of base parameter the comparisons with the truth report, by name suffix.
const std::vector<std::pair<std::string, std::vector<std::string>>>& truth_comparison_classes() {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> classes = {
      {"mass", {"m"}},
      {"first_moment", {"mcx", "mcy", "mcz"}},
      {"inertia", {"Ixx", "Ixy", "Ixz", "Iyy", "Iyz", "Izz"}},
      {"Ixx_Ixy_Ixz", {"Ixx", "Ixy", "Ixz"}},
      {"Iyy_Iyz", {"Iyy", "Iyz"}},
      {"Izz", {"Izz"}}};
  return classes;
}

bool in_class(const std::string& name, const std::vector<std::string>& suffixes) {
  const std::string suffix = name.substr(name.rfind('.') + 1);
  return std::find(suffixes.begin(), suffixes.end(), suffix) != suffixes.end();
}

/// Per class, how many base parameters are closer to the truth than CAD's value, farther, or as far
/// (within 1e-6 of CAD's error: held at CAD, or not moved): the ratio of medians above hides these.
std::vector<ParameterCountsVsNominal> parameter_counts_vs_nominal(const BaseParameters& base, const VectorX& identified,
                                                                  const VectorX& nominal, const VectorX& truth) {
  std::vector<ParameterCountsVsNominal> out;
  for (const auto& [label, suffixes] : truth_comparison_classes()) {
    ParameterCountsVsNominal c;
    c.label = label;
    for (int k = 0; k < base.num_base(); ++k) {
      if (!in_class(base.name(k), suffixes)) continue;
      const double id = std::abs(identified[k] - truth[k]), nom = std::abs(nominal[k] - truth[k]);
      if (std::abs(id - nom) <= 1e-6 * std::max(nom, 1e-300)) {
        ++c.as_cad;
      } else if (id < nom) {
        ++c.closer;
      } else {
        ++c.farther;
      }
    }
    if (c.closer + c.farther + c.as_cad > 0) out.push_back(c);
  }
  return out;
}

/// Over the base parameters `counted` selects (all when empty).
std::vector<std::pair<std::string, double>> parameter_error_vs_nominal(const BaseParameters& base,
                                                                       const VectorX& identified,
                                                                       const VectorX& nominal, const VectorX& truth,
                                                                       const std::vector<bool>& counted = {}) {
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  };
  std::vector<std::pair<std::string, double>> out;
  for (const auto& [label, suffixes] : truth_comparison_classes()) {
    std::vector<double> id, nom;
    for (int k = 0; k < base.num_base(); ++k) {
      if (!in_class(base.name(k), suffixes)) continue;
      if (!counted.empty() && !counted[static_cast<std::size_t>(k)]) continue;
      id.push_back(std::abs(identified[k] - truth[k]));
      nom.push_back(std::abs(nominal[k] - truth[k]));
    }
    if (id.empty()) continue;
    const double denominator = median(nom);
    out.emplace_back(label, denominator > 0.0 ? median(id) / denominator : std::numeric_limits<double>::infinity());
  }
  return out;
}

double default_prior(const std::string& source) { return source == "mocap" ? 3e-4 : 0.0; }

namespace {

void report_progress(const InertialIdentificationOptions& o, double fraction, const std::string& what) {
  if (o.progress) o.progress(fraction, what);
}

}  // namespace

namespace {

/// Information that holds an unknown at its prior mean (0) against any data: the joint torque sensor
/// gains of `torque_gain_std`, counted in the standard deviations instead of estimated.
constexpr double kHeldUnknownInformation = 1e18;

/// The joint torque sensor gains of `--torque-gains`, after the offsets. A sensor reading g tau + o
/// enters the equations as Y pi + o' + d tau_m = tau_m with d = 1 - 1/g and o' = o / g: linear, its
/// column the offset's column times the measured torque. A set without measured contact wrenches
/// cannot tell the gains from the inertial parameters: every gain halved and every mass doubled read
/// the same joint torques.
void add_torque_gain_unknowns(InertialProblem& p) {
  const InertialIdentificationOptions& o = p.options;
  if (!(o.torque_gain_std >= 0.0) || !std::isfinite(o.torque_gain_std))
    throw std::invalid_argument("--torque-gain-std must be a fraction, 0 or more");
  if (o.torque_gain_std > 0.0) {
    // Counted, not estimated: the columns are folded, the unknowns held at g = 1.
    if (o.torque_gains)
      throw std::invalid_argument(
          "--torque-gain-std with --torque-gains: the gains are either estimated or counted in the standard "
          "deviations, not both");
    if (p.set.torque_joints.empty())
      throw std::invalid_argument("--torque-gain-std: sensor set '" + o.sensors + "' uses no joint torque sensor");
    if (p.fixed_part) throw std::invalid_argument("--torque-gain-std with --fix-mass-com: not yet");
    p.torque_gains_held = true;
  } else if (!o.torque_gains) {
    return;
  }
  if (p.set.torque_joints.empty())
    throw std::invalid_argument("--torque-gains: sensor set '" + o.sensors + "' uses no joint torque sensor");
  if (p.set.contact_frames.empty() && !p.torque_gains_held)
    throw std::invalid_argument(
        "--torque-gains: sensor set '" + o.sensors +
        "' measures no contact wrench, so the joint torque sensors' gains and the inertial parameters scale "
        "together (every gain halved and every mass doubled read the same torques); use a set with the contacts' "
        "force/torque sensors (full)");
  if (p.fixed_part) throw std::invalid_argument("--torque-gains with --fix-mass-com: not yet");
  for (int b : p.set.torque_joints)
    p.unknown_names.push_back("gain." + p.model.bodies[static_cast<std::size_t>(b)].joint_name);
  p.num_torque_gains = static_cast<int>(p.set.torque_joints.size());
  p.num_offsets += p.num_torque_gains;
}

/// The contact wrench calibration unknowns of `--ft-calibration`, after friction: 18 per measured
/// contact (IdentificationRows::wrench_calibration_columns), named "ft_calibration.CONTACT.force.ROWCOL"
/// / ".moment.ROWCOL" (rows and columns x, y, z). They need the CAD prior, which gives them theirs.
void add_wrench_calibration_unknowns(InertialProblem& p) {
  const InertialIdentificationOptions& o = p.options;
  if (!o.ft_calibration) return;
  if (p.set.contact_frames.empty())
    throw std::invalid_argument("--ft-calibration: sensor set '" + o.sensors + "' measures no contact wrench");
  if (!p.cad_prior)
    throw std::invalid_argument(
        "--ft-calibration needs the CAD prior (--prior auto, the default): it gives the corrections their prior");
  if (p.fixed_part) throw std::invalid_argument("--ft-calibration with --fix-mass-com: not yet");
  if (!p.friction.empty()) throw std::invalid_argument("--ft-calibration with --friction or --armature: not yet");
  if (!(o.ft_calibration_std > 0.0))
    throw std::invalid_argument("--ft-calibration-std must be positive (a fraction, e.g. 0.02)");
  static const char* const kAxes[3] = {"x", "y", "z"};
  for (int frame : p.set.contact_frames)
    for (const char* block : {"force", "moment"})
      for (const char* row : kAxes)
        for (const char* col : kAxes)
          p.unknown_names.push_back("ft_calibration." + p.model.frames[static_cast<std::size_t>(frame)].name + "." +
                                    block + "." + row + col);
  p.num_wrench_calibration = 18 * static_cast<int>(p.set.contact_frames.size());
  p.num_offsets += p.num_wrench_calibration;
}

/// With options.gear_backlash_from_sidecar: each sidecar actuator's `backlash` [rad] by joint.
/// Throws naming a play that is not a small non-negative angle, or a sidecar that has none.
std::map<std::string, double> gear_plays_from_sidecar(const InertialProblem& p) {
  std::map<std::string, double> out;
  if (!p.options.gear_backlash_from_sidecar) return out;
  for (const ActuatorInfo& a : p.sidecar().actuators)
    if (a.backlash) {
      if (!(*a.backlash >= 0.0 && *a.backlash < 0.2))
        throw std::invalid_argument("--gear-backlash sidecar: actuator '" + a.joint +
                                    "' has a backlash that is not an angle between 0 and 0.2 rad");
      out[a.joint] = *a.backlash;
    }
  if (out.empty())
    throw std::invalid_argument("--gear-backlash sidecar: no actuator of " + p.model.label() +
                                "'s sidecar has a backlash (docs/robot-sidecar.md)");
  return out;
}

/// Per moving joint of the model whose gear wind-up is corrected: its compliance [rad per N m] and
/// where it came from: `gear_stiffness` by name, else `gear_windup_deg` at the joint's effort limit.
/// Throws naming a stiffness for a joint the model does not move, or a bad value.
std::vector<std::tuple<std::string, double, std::string>> gear_compliances(const InertialProblem& p) {
  const InertialIdentificationOptions& o = p.options;
  std::vector<std::tuple<std::string, double, std::string>> out;
  if (o.gear_stiffness.empty() && !o.gear_stiffness_from_sidecar && o.gear_windup_deg == 0.0 &&
      o.gear_backlash_deg == 0.0 && !o.gear_backlash_from_sidecar)
    return out;
  const std::map<std::string, double> declared_play = gear_plays_from_sidecar(p);
  if (o.gear_backlash_deg < 0.0 || !std::isfinite(o.gear_backlash_deg) || o.gear_backlash_deg > 10.0)
    throw std::invalid_argument(
        "--gear-backlash must be an angle in degrees between 0 and 10 (a gear's total play as its "
        "motor-side encoder sees it, joint side; catalogues: arcmin to a few tenths of a degree)");
  std::map<std::string, double> from_sidecar;
  if (o.gear_stiffness_from_sidecar) {
    for (const ActuatorInfo& a : p.sidecar().actuators)
      if (a.torsional_stiffness) {
        if (!(*a.torsional_stiffness > 0.0) || !std::isfinite(*a.torsional_stiffness))
          throw std::invalid_argument("--gear-stiffness sidecar: actuator '" + a.joint +
                                      "' has a torsional_stiffness that is not positive [N m/rad]");
        from_sidecar[a.joint] = *a.torsional_stiffness;
      }
    if (from_sidecar.empty())
      throw std::invalid_argument("--gear-stiffness sidecar: no actuator of " + p.model.label() +
                                  "'s sidecar has a torsional_stiffness (docs/robot-sidecar.md)");
  }
  for (const auto& [joint, k] : o.gear_stiffness) {
    const std::string& name = joint;  // a structured binding cannot be captured before C++20 in clang 14
    const auto body =
        std::find_if(p.model.bodies.begin(), p.model.bodies.end(), [&](const Body& b) { return b.joint_name == name; });
    if (body == p.model.bodies.end() || body->joint_type == JointType::FreeFlyer)
      throw std::invalid_argument("--gear-stiffness: '" + joint + "' is not a moving joint of " + p.model.label() +
                                  (p.options.locks.empty() ? "" : " (a locked joint carries no correction)"));
    if (!(k > 0.0) || !std::isfinite(k))
      throw std::invalid_argument("--gear-stiffness: " + joint + "'s stiffness must be positive [N m/rad]");
  }
  if (o.gear_windup_deg < 0.0 || !std::isfinite(o.gear_windup_deg) || o.gear_windup_deg > 10.0)
    throw std::invalid_argument(
        "--gear-windup must be an angle in degrees between 0 and 10 (a gear's twist at its "
        "joint's effort limit; catalogues: a few arcmin)");
  for (std::size_t b = 1; b < p.model.bodies.size(); ++b) {
    const Body& body = p.model.bodies[b];
    if (body.joint_type == JointType::FreeFlyer) continue;
    const auto given = o.gear_stiffness.find(body.joint_name);
    const auto declared = from_sidecar.find(body.joint_name);
    if (given != o.gear_stiffness.end()) {
      out.emplace_back(body.joint_name, 1.0 / given->second, "--gear-stiffness");
    } else if (declared != from_sidecar.end()) {
      out.emplace_back(body.joint_name, 1.0 / declared->second, "sidecar");
    } else if (o.gear_windup_deg > 0.0 && std::isfinite(body.limits.effort) && body.limits.effort > 0.0) {
      out.emplace_back(body.joint_name, o.gear_windup_deg * M_PI / 180.0 / body.limits.effort, "--gear-windup");
    } else if (o.gear_backlash_deg > 0.0 || declared_play.count(body.joint_name)) {
      out.emplace_back(body.joint_name, 0.0, "");  // the play alone
    }
  }
  if (out.empty())
    throw std::invalid_argument("--gear-windup: no moving joint of " + p.model.label() +
                                " has an effort limit (URDF <limit effort>) to scale the twist by; give "
                                "--gear-stiffness JOINT=K");
  if (o.source != "sensors")
    throw std::invalid_argument(
        "--gear-windup / --gear-stiffness / --gear-backlash correct the robot's encoders: --source sensors only");
  if (p.model.floating_base && p.set.contact_frames.size() != p.sidecar().contacts.size())
    throw std::invalid_argument(
        "--gear-windup / --gear-stiffness / --gear-backlash: the link torques come from inverse dynamics with "
        "every contact's wrench, and sensor set '" +
        o.sensors + "' does not measure all " + std::to_string(p.sidecar().contacts.size()) + " contacts");
  return out;
}

/// The weighed total mass as a row r on the base parameters, r x = sum of the masses for every
/// model with these base parameters (r K = the masses' selector), or an error when the sensor
/// set's base parameters do not determine the total mass.
VectorX total_mass_row(const InertialProblem& p) {
  const MatrixX& K = p.base.K;
  VectorX masses = VectorX::Zero(K.cols());
  for (Eigen::Index i = 0; i < K.cols(); i += 10) masses[i] = 1.0;
  const VectorX r = K.transpose().colPivHouseholderQr().solve(masses);
  if ((K.transpose() * r - masses).norm() > 1e-9 * std::sqrt(static_cast<double>(K.cols() / 10)))
    throw std::invalid_argument("--total-mass: sensor set '" + p.options.sensors +
                                "' does not determine the total mass (no base parameter is the sum of the masses)");
  VectorX row = VectorX::Zero(p.num_offsets + K.rows());
  row.tail(K.rows()) = r;
  return row;
}

/// The joint friction and drive unknowns of `--friction` / `--armature`, after the torque sensors' offsets and gains:
/// one per joint with a torque sensor in the set and term, except the terms whose column the base
/// parameters already have (found at random states: an armature grouped with a link inertia), which
/// go to grouped_friction. Appends their names ("friction.TERM.JOINT") to unknown_names.
void add_friction_unknowns(InertialProblem& p) {
  const InertialIdentificationOptions& o = p.options;
  p.friction_terms = parse_joint_friction_terms(o.friction, o.armature, o.coulomb_smoothing_velocity);
  // Each joint's terms: --friction-joint's where given, --friction / --armature otherwise.
  std::map<std::string, JointFrictionTerms> per_joint;
  for (const auto& [joint, list] : o.friction_joints) {
    if (!p.model.find_joint(joint))
      throw std::invalid_argument("--friction-joint " + joint + "=...: the model " + p.model.label() +
                                  " has no joint '" + joint + "'");
    per_joint[joint] =
        parse_joint_friction_terms(list, false, o.coulomb_smoothing_velocity, "--friction-joint " + joint);
  }
  const auto terms_of = [&](const std::string& joint) -> const JointFrictionTerms& {
    const auto it = per_joint.find(joint);
    return it == per_joint.end() ? p.friction_terms : it->second;
  };
  bool any = p.friction_terms.any();
  for (const auto& [joint, t] : per_joint) any = any || t.any();
  if (!any) return;
  if (p.set.torque_joints.empty())
    throw std::invalid_argument("--friction / --armature: sensor set '" + o.sensors +
                                "' uses no joint torque sensor (friction shows in measured joint torques)");
  if (p.fixed_part) throw std::invalid_argument("--friction / --armature with --fix-mass-com: not yet");
  for (const auto& [named_joint, t] : per_joint) {
    const std::string& joint = named_joint;  // a lambda may not capture a structured binding in clang 14
    if (t.any() && std::find_if(p.set.torque_joints.begin(), p.set.torque_joints.end(), [&](int b) {
                     return p.model.bodies[static_cast<std::size_t>(b)].joint_name == joint;
                   }) == p.set.torque_joints.end())
      throw std::invalid_argument("--friction-joint " + joint + "=...: sensor set '" + o.sensors +
                                  "' measures no torque of joint '" + joint +
                                  "' (friction shows in measured joint torques)");
  }
  std::vector<InertialProblem::FrictionUnknown> candidates;
  for (std::size_t k = 0; k < p.set.torque_joints.size(); ++k) {
    const Body& b = p.model.bodies[static_cast<std::size_t>(p.set.torque_joints[k])];
    const JointFrictionTerms& t = terms_of(b.joint_name);
    if (o.torque_offsets && (t.offset || t.coulomb_asymmetric))
      throw std::invalid_argument(std::string(t.offset ? "--friction offset" : "--friction coulomb-asymmetric") +
                                  " and --torque-offsets are the same unknown on joint '" + b.joint_name +
                                  "': use one");
    for (const std::string& term : t.names()) candidates.push_back({b.joint_name, term, b.idx_v, static_cast<int>(k)});
  }
  // The equations at random states (unit-scale velocities and accelerations), base and friction
  // columns side by side.
  IdentificationRows rows(p.model, p.sidecar(), p.base, p.set, ForceNoise{});
  std::mt19937 rng(20260514);
  MatrixX base_rows, friction_rows;
  const int states = 30;
  for (int i = 0; i < states; ++i) {
    const StateSample state = random_state(p.model, rng);
    MotionSample s;
    s.q = state.q;
    s.v = state.v;
    s.a = state.a;
    s.joint_torques = VectorX::Zero(p.model.nv);
    s.contact_wrenches.assign(p.sidecar().contacts.size(), Force::Zero());
    rows.build(s);
    const Eigen::Index m = rows.rows().rows(), r0 = base_rows.rows();
    base_rows.conservativeResize(r0 + m, p.base.num_base());
    friction_rows.conservativeResize(r0 + m, static_cast<Eigen::Index>(candidates.size()));
    base_rows.bottomRows(m) = rows.rows();
    for (std::size_t c = 0; c < candidates.size(); ++c)
      friction_rows.block(r0, static_cast<Eigen::Index>(c), m, 1) =
          rows.torque_offset_columns().col(candidates[c].sensor) *
          joint_friction_regressor(candidates[c].term, s.v[candidates[c].velocity_index],
                                   s.a[candidates[c].velocity_index], p.friction_terms.coulomb_smoothing_velocity);
  }
  const FrictionGrouping grouping = group_friction_columns(base_rows, friction_rows);
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    if (grouping.separable[c]) {
      p.friction.push_back(candidates[c]);
      p.unknown_names.push_back("friction." + candidates[c].term + "." + candidates[c].joint);
      continue;
    }
    const VectorX g = grouping.base_coefficients.col(static_cast<Eigen::Index>(c));
    if (candidates[c].term != "armature" || !g.allFinite() || g.norm() == 0.0)
      throw std::runtime_error("the " + candidates[c].term + " friction of joint '" + candidates[c].joint +
                               "' cannot be told from the inertial parameters with sensor set '" + p.set.label +
                               "'; leave it out of --friction");
    p.grouped_friction.emplace_back(candidates[c], g);
  }
  p.num_offsets += static_cast<int>(p.friction.size());
}

}  // namespace

namespace {

/// The validation data read on the training data's clocks: a held-out window of the same recording,
/// or a separate recording whose devices keep their offsets (`validate_clocks` "training").
bool validation_reads_training_clocks(const InertialIdentificationOptions& o) {
  return o.validate.empty() || o.validate_clocks == "training";
}

/// The clocks the sensor path reads `dataset`'s streams on: given offsets as they are; estimated
/// ones (with `align_time`) applied when they move a stream by at least half an encoder period
/// somewhere in the recording (below that the stamps already agree to the sampling's resolution).
/// Each stream's clock on `dataset`: as given (--time-offset) or estimated (--align-time) against the
/// encoders, corrected by `gear_windup` when given (the wound-up kinematics bias the estimate).
std::map<std::string, AppliedStreamClock> stream_clocks(const InertialProblem& p, const DatasetInfo& dataset,
                                                        std::shared_ptr<const GearWindup> gear_windup = nullptr) {
  const InertialIdentificationOptions& o = p.options;
  std::map<std::string, AppliedStreamClock> out;
  for (const auto& [stream, offset] : o.time_offsets) {
    if (!dataset.has_stream(stream))
      throw std::invalid_argument("--time-offset " + stream + "=...: " + dataset.directory + " has no stream '" +
                                  stream + "'");
    if (stream == "encoders")
      throw std::invalid_argument("--time-offset: the encoders are the time reference; offset the other streams");
    AppliedStreamClock c;
    c.estimate.clock.offset_s = offset;
    c.estimate.compared = "given (--time-offset)";
    c.given = c.applied = true;
    out[stream] = c;
  }
  if (o.align_drift && !o.align_time)
    throw std::invalid_argument("--align-drift goes with --align-time (the drift is estimated with the offset)");
  if (!o.align_time_by_fit && !o.align_time)
    throw std::invalid_argument("--align-kinematics-only goes with --align-time (it keeps the kinematic estimate)");
  if (!o.align_time || !p.model.floating_base) return out;
  report_progress(o, 0.01, "time alignment of " + dataset.directory);
  TimeAlignmentOptions alignment;
  alignment.estimate_drift = o.align_drift;
  const double half_period = 0.5 / dataset.stream("encoders").rate_hz;
  const auto [t0, t1] = source_time_range(o, dataset);
  SensorSourceOptions sensor_options = o.sensor_options;
  sensor_options.gear_windup = std::move(gear_windup);
  for (auto& [stream, estimate] :
       estimate_stream_clocks(p.model, p.sidecar(), dataset, sensor_options, {}, o.locks, alignment)) {
    if (out.count(stream)) continue;
    AppliedStreamClock c;
    c.estimate = estimate;
    const StreamClock& k = estimate.clock;
    const double largest = std::max(std::abs(k.stream_time(t0) - t0), std::abs(k.stream_time(t1) - t1));
    c.applied = estimate.warning.empty() && largest >= half_period;
    out[stream] = c;
  }
  return out;
}

/// `--imu-axes SUMMARY`: the sensor axes an earlier `identify inertial --imu-calibration` took (none
/// when `path` is empty).
std::optional<Matrix3> imu_axes_from_summary(const std::string& path) {
  if (path.empty()) return std::nullopt;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("--imu-axes " + path + ": cannot read the file");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error("--imu-axes " + path + ": malformed JSON: " + e.what());
  }
  const auto* c = j.is_object() && j.contains("imu_calibration") ? &j["imu_calibration"] : nullptr;
  if (!c || !c->is_object())
    throw std::runtime_error("--imu-axes " + path +
                             ": no imu_calibration (the summary.json of an identify inertial --imu-calibration run)");
  if (!c->value("axes_determined", false))
    throw std::runtime_error("--imu-axes " + path + ": its still windows did not fix the axes (" +
                             c->value("axes_note", std::string("no note")) + ")");
  Matrix3 axes;
  try {
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) axes(i, k) = c->at("sensor_axes_in_frame").at(i).at(k).get<double>();
  } catch (const nlohmann::json::exception&) {
    throw std::runtime_error("--imu-axes " + path +
                             ": imu_calibration.sensor_axes_in_frame is not 3 rows of 3 numbers");
  }
  if (!axes.allFinite() || (axes.transpose() * axes - Matrix3::Identity()).norm() > 1e-6 || axes.determinant() < 0.0)
    throw std::runtime_error("--imu-axes " + path + ": imu_calibration.sensor_axes_in_frame is not a rotation");
  return axes;
}

/// `--imu-calibration`: the base IMU calibrated from the still windows of `dataset` read on
/// `clocks`; on `axes` when given (the training data's, for a validation data set).
ImuCalibration calibrated_imu(const InertialProblem& p, const DatasetInfo& dataset,
                              const std::map<std::string, AppliedStreamClock>& clocks,
                              const std::optional<Matrix3>& axes = std::nullopt) {
  const InertialIdentificationOptions& o = p.options;
  report_progress(o, 0.02, "IMU calibration on " + dataset.directory);
  SensorSourceOptions sensor_options = o.sensor_options;
  for (const auto& [stream, clock] : clocks)
    if (clock.applied) sensor_options.clocks[stream] = clock.estimate.clock;
  sensor_options.still_detection = o.imu_calibration_options;
  if (!p.sidecar().imu || !dataset.has_stream("imu") || !p.model.floating_base)
    throw std::runtime_error("--imu-calibration: " + dataset.directory + " has no base IMU stream to calibrate");
  const SensorSource source(p.model, p.sidecar(), dataset, sensor_options, TimeWindow{}, o.locks);
  if (source.description().find("accelerometer") == std::string::npos)
    throw std::runtime_error("--imu-calibration: the sensor path reads no gyro and accelerometer of the IMU '" +
                             p.sidecar().imu->name + "' on the base body in " + dataset.directory);
  try {
    return calibrate_imu(source.imu_still_windows(), o.imu_calibration_options, axes);
  } catch (const std::exception& e) {
    std::string what = e.what();
    if (what.rfind("IMU calibration: ", 0) == 0) what = what.substr(17);
    throw std::runtime_error("--imu-calibration on " + dataset.directory + ": " + what);
  }
}

}  // namespace

namespace {

/// The estimated (not given) clocks of `clocks` on `dataset` moved to the minimum of `fit(clocks)`
/// = {cost, weighted residual RMS}, by quadratic_search from their current offsets (the
/// kinematic estimate). `what` names the data in the progress lines.
void refine_clocks(std::map<std::string, AppliedStreamClock>& clocks, const DatasetInfo& dataset,
                   const InertialIdentificationOptions& o, const std::string& what,
                   const std::function<std::pair<double, double>()>& fit,
                   const std::function<void(double, const std::string&)>& progress) {
  std::vector<std::string> streams;
  for (const auto& [stream, c] : clocks)
    if (!c.given) streams.push_back(stream);
  if (streams.empty()) return;
  const int n = static_cast<int>(streams.size());
  std::string names;
  for (const std::string& s : streams) names += (names.empty() ? "" : ", ") + s;
  VectorX start(n);
  for (int i = 0; i < n; ++i) start[i] = clocks[streams[static_cast<std::size_t>(i)]].estimate.clock.offset_s;
  const std::map<std::string, AppliedStreamClock> kinematic = clocks;
  int fits = 0;
  std::vector<std::pair<VectorX, double>> residual_rms;  // each fit's weighted residual RMS
  auto residual_rms_at = [&](const VectorX& offsets) {
    for (const auto& [x, rms] : residual_rms)
      if ((x - offsets).cwiseAbs().maxCoeff() < 1e-12) return rms;
    return std::numeric_limits<double>::quiet_NaN();
  };
  auto cost = [&](const VectorX& offsets) {
    std::string text;
    for (int i = 0; i < n; ++i) {
      AppliedStreamClock& c = clocks[streams[static_cast<std::size_t>(i)]];
      c.estimate.clock.offset_s = offsets[i];
      c.applied = true;
      text += (i ? ", " : "") + format_fixed(1e3 * offsets[i], 2);
    }
    ++fits;
    // One line per fit (the fits' own progress kept quiet), 1-5 % of the whole job.
    if (progress)
      progress(0.01 + 0.04 * std::min(1.0, fits / 25.0), "time alignment (" + what + "): the fit's residual at " +
                                                             names + " offsets " + text + " ms (fit " +
                                                             std::to_string(fits) + ")");
    const auto [c, rms] = fit();
    residual_rms.emplace_back(offsets, rms);
    return c;
  };
  // 3 ms first steps, 0.5 ms last (the quadratic through a 1 ms stencil puts the minimum well within
  // that), within +-30 ms of the kinematics.
  QuadraticSearchOptions search;
  search.final_step = 5e-4;
  const QuadraticSearchResult found = quadratic_search(cost, start, search);
  clocks = kinematic;
  const double half_period = 0.5 / dataset.stream("encoders").rate_hz;
  const auto [t0, t1] = source_time_range(o, dataset);
  for (int i = 0; i < n; ++i) {
    AppliedStreamClock& c = clocks[streams[static_cast<std::size_t>(i)]];
    AppliedStreamClock::FitRefinement r;
    r.kinematic_offset_s = start[i];
    r.residual_rms_kinematic = residual_rms_at(start);
    r.residual_rms_refined = residual_rms_at(found.x);
    r.fits = fits;
    r.converged = found.converged;
    r.warning = found.warning;
    c.refined = r;
    c.estimate.clock.offset_s = found.x[i];
    const StreamClock& k = c.estimate.clock;
    const double largest = std::max(std::abs(k.stream_time(t0) - t0), std::abs(k.stream_time(t1) - t1));
    c.applied = largest >= half_period;
    // The fit decides: a kinematic estimate the comparison distrusted is kept when the residual says so.
    if (found.converged) c.estimate.warning.clear();
  }
}

bool refines_clocks(const InertialProblem& p) {
  const InertialIdentificationOptions& o = p.options;
  return o.align_time && o.align_time_by_fit && o.source == "sensors" && p.model.floating_base;
}

}  // namespace

void refine_stream_clocks(InertialProblem& p) {
  if (!refines_clocks(p)) return;
  // The fits report per fit, not per sample.
  const auto progress = std::move(p.options.progress);
  p.options.progress = nullptr;
  if (progress) progress(0.01, "time alignment (training): the CAD prior at the kinematic offsets");
  // The CAD prior as the fit at the kinematic offsets learns it, held while the offsets move (its
  // learning would change the cost's scale from fit to fit).
  {
    const InertialEstimate first = estimate_inertial_parameters(p);
    if (first.cad_prior)
      p.held_cad_prior = InertialProblem::HeldCadPrior{first.prior_information, first.cad_prior->data_scale};
  }
  // The fit's cost (the weighted residual's sum of squares, plus the prior's share when there is
  // one): quadratic in the offsets near the true ones, where the contact forces and the IMU meet the
  // kinematics they belong to.
  refine_clocks(
      p.train_clocks, p.train_set, p.options, "training",
      [&] {
        const InertialEstimate e = estimate_inertial_parameters(p);
        return std::make_pair(e.residual_sum_of_squares, e.solution.residual_rms);
      },
      progress);
  p.options.progress = progress;
  p.held_cad_prior.reset();
  for (auto& [stream, c] : p.train_clocks)
    if (c.refined) ++c.refined->fits;  // and the fit that learned the CAD prior
  if (validation_reads_training_clocks(p.options)) p.validation_clocks = p.train_clocks;
}

InertialProblem prepare_inertial_identification(const InertialIdentificationOptions& options) {
  InertialProblem p;
  p.options = options;
  InertialIdentificationOptions& o = p.options;
  UrdfReadOptions read_options;
  if (o.fixed_base) read_options.floating_base = false;
  p.robot = load_robot(o.model, read_options);
  if (!p.robot.sidecar && o.fixed_base) {
    // A fixed-base arm without a sidecar: no contacts, no IMU, a torque measurement at every joint.
    RobotSidecar arm;
    arm.source_path = "(--fixed-base without a sidecar: every joint's torque measured)";
    arm.robot = p.robot.model.name;
    arm.base_link = p.robot.model.links[0].name;
    arm.floating_base = false;
    arm.joint_torque_sensors = {"all"};
    arm.actuators = p.robot.file_actuators;  // an MJCF file's joint armature, damping, frictionloss
    attach_sidecar(p.robot.model, arm);
    p.robot.sidecar = arm;
  }
  if (!p.robot.sidecar)
    throw std::runtime_error(p.robot.urdf_path + ": identification needs the robot's sidecar (contacts, sensors)" +
                             (p.robot.model.floating_base ? "; a fixed-base arm can go without: --fixed-base" : ""));
  const RobotSidecar& sidecar = *p.robot.sidecar;
  if (o.lock_upper_body) {
    for (const JointLock& l : upper_body_locks(p.robot.model, sidecar)) o.locks.push_back(l);
    o.lock_upper_body = false;
  }
  p.model = o.locks.empty() ? p.robot.model : lock_joints(p.robot.model, o.locks);
  Model& model = p.model;
  p.train_set = read_dataset_info(o.data);
  require_source_streams(o.source, p.train_set);
  model.gravity = p.train_set.gravity;
  if (!(o.holdout_fraction > 0.0 && o.holdout_fraction < 1.0))
    throw std::invalid_argument("held-out fraction must lie in (0, 1)");

  // The truth stream is exact (the simulation's check of the estimator): no prior unless asked.
  p.cad_prior = !o.prior.has_value() && o.source != "truth";
  p.prior = o.prior.value_or(0.0);
  if (p.prior < 0.0 || !std::isfinite(p.prior)) throw std::invalid_argument("--prior must be a weight >= 0");
  if (p.cad_prior && !(o.cad_prior_fraction > 0.0 && o.cad_prior_block_s > 0.0))
    throw std::invalid_argument("the CAD prior needs a positive fraction and block length");
  if (o.parallel_filter.cutoff_hz < 0.0 || !std::isfinite(o.parallel_filter.cutoff_hz))
    throw std::invalid_argument("--parallel-filter must be a cut-off in Hz (0: off)");
  if (o.parallel_filter_all_rows && !(o.parallel_filter.cutoff_hz > 0.0))
    throw std::invalid_argument("--parallel-filter-all-rows needs --parallel-filter HZ");
  if (o.parallel_filter.cutoff_hz > 0.0)  // early: a bad source or cut-off fails before any work
    ParallelRowFilter(source_sample_rate(o, p.train_set), o.parallel_filter, [](auto&&...) {});
  p.set = o.sensors == "minimal" ? minimal_sensor_set(model, sidecar, p.train_set)
                                 : parse_sensor_set(model, sidecar, o.sensors);
  if (model.floating_base && o.sensors != "minimal")
    check_sensor_set_against_contact_states(model, sidecar, p.train_set, p.set);
  BaseParameterOptions bo;
  // Without a joint torque sensor only the base-link equations carry information (paper 003).
  if (p.set.torque_joints.empty() && model.floating_base) bo.rows = base_link_rows(model);
  report_progress(o, 0.0, "base parameters");
  p.base = compute_base_parameters(model, bo);
  const BaseParameters& base = p.base;
  p.pi_nominal = model.inertial_parameters();
  p.base_nominal = base_parameter_values(base, p.pi_nominal);

  // Training and validation windows.
  p.validation_set = p.train_set;
  if (!o.validation_window.empty() && !o.validate.empty())
    throw std::invalid_argument(
        "--validate-window holds out part of DATA; --validate gives another data set: "
        "give one of them");
  if (!o.validation_window.empty()) {
    const auto [t0, t1] = source_time_range(o, p.train_set);
    const TimeWindow w = parse_validation_window(o.validation_window, p.train_set, t0, t1);
    p.validation_window = w;
    p.train_window.end = w.start;
    if (w.start <= t0) {
      p.train_window = {w.end, 1e300};
    } else if (w.end < t1) {
      p.train_window_after = TimeWindow{w.end, 1e300};
      if (o.parallel_filter.cutoff_hz > 0.0)
        throw std::invalid_argument(
            "--validate-window inside the data leaves two training stretches, which "
            "--parallel-filter would filter as one: hold out the start or the end, or "
            "leave out --parallel-filter");
    }
  } else if (o.validate.empty()) {
    const auto [t0, t1] = source_time_range(o, p.train_set);
    const double split = t0 + (1.0 - o.holdout_fraction) * (t1 - t0);
    p.train_window.end = split;
    p.validation_window.start = split;
  } else {
    p.validation_set = read_dataset_info(o.validate);
    require_source_streams(o.source, p.validation_set);
  }

  if (o.validate_clocks != "estimate" && o.validate_clocks != "training")
    throw std::invalid_argument("--validate-clocks '" + o.validate_clocks + "': expected estimate or training");
  if (o.validate_clocks == "training" && o.validate.empty())
    throw std::invalid_argument(
        "--validate-clocks training goes with --validate (a held-out window reads the training clocks anyway)");
  if (o.source == "sensors") {
    p.train_clocks = stream_clocks(p, p.train_set);
    p.validation_clocks = validation_reads_training_clocks(o) ? p.train_clocks : stream_clocks(p, p.validation_set);
    if (!o.imu_axes_from.empty() && !o.imu_calibration)
      throw std::invalid_argument("--imu-axes goes with --imu-calibration (the axes are read, the biases calibrated)");
    if (o.imu_calibration) {
      p.train_imu = calibrated_imu(p, p.train_set, p.train_clocks, imu_axes_from_summary(o.imu_axes_from));
      // The validation data set's biases from its own still windows (a power cycle draws new ones),
      // on the training's axes (the mounting is the robot's); a held-out window shares the training's.
      if (!o.validate.empty()) {
        const std::optional<Matrix3> axes = p.train_imu->sensor_axes_in_frame;
        try {
          p.validation_imu = calibrated_imu(p, p.validation_set, p.validation_clocks, axes);
        } catch (const std::exception&) {
          // No still window there: the training's axes, the biases the default way.
          p.validation_imu = ImuCalibration{};
          p.validation_imu->sensor_axes_in_frame = p.train_imu->sensor_axes_in_frame;
          p.validation_imu->axes_note = "no still window: the training's axes, biases against the kinematics";
        }
      } else {
        p.validation_imu = p.train_imu;
      }
    }
  } else if (!o.time_offsets.empty()) {
    throw std::invalid_argument("--time-offset applies to the sensor path (--source sensors), not " + o.source);
  } else if (o.imu_calibration) {
    throw std::invalid_argument("--imu-calibration applies to the sensor path (--source sensors), not " + o.source);
  }

  // Two-phase mode: masses and first moments from a static identification move to the measured side
  // and only the rotational inertias are estimated, as standard parameters (with a small pull toward
  // the nominal model for the combinations the data cannot see).
  if (!o.fix_mass_com.empty()) {
    UrdfReadOptions ro;
    ro.floating_base = p.robot.model.floating_base;
    Model fixed = read_urdf_file(resolve_model_path(o.fix_mass_com), ro);
    if (!o.locks.empty()) fixed = lock_joints(fixed, o.locks);
    if (fixed.nv != model.nv || fixed.parameter_names() != model.parameter_names())
      throw std::runtime_error(o.fix_mass_com + ": its tree differs from the model " + model.label());
    p.fixed_part = fixed.inertial_parameters();
    for (int i = 0; i < base.num_standard(); ++i)
      if (i % 10 >= 4) {
        p.free_params.push_back(i);
        (*p.fixed_part)[i] = 0.0;
      }
  }
  const int nx = p.num_inertial_unknowns();
  std::vector<std::string> names;
  for (int k = 0; k < nx; ++k)
    names.push_back(p.fixed_part
                        ? base.parameter_names[static_cast<std::size_t>(p.free_params[static_cast<std::size_t>(k)])]
                        : base.name(k));
  p.x_nominal.resize(nx);
  for (int k = 0; k < nx; ++k)
    p.x_nominal[k] = p.fixed_part ? p.pi_nominal[p.free_params[static_cast<std::size_t>(k)]] : p.base_nominal[k];

  if (o.weighting != "sensors" && o.weighting != "residual")
    throw std::invalid_argument("unknown weighting '" + o.weighting + "' (sensors or residual)");
  // Joint torque sensor offsets, estimated with the inertial parameters: their columns come first,
  // so the trailing block of the factor is that of the parameters with the offsets profiled out.
  p.num_offsets = o.torque_offsets ? static_cast<int>(p.set.torque_joints.size()) : 0;
  if (o.torque_offsets && p.num_offsets == 0)
    throw std::invalid_argument("--torque-offsets: sensor set '" + o.sensors + "' uses no joint torque sensor");
  for (int k = 0; k < p.num_offsets; ++k)
    p.unknown_names.push_back(
        "offset." +
        model.bodies[static_cast<std::size_t>(p.set.torque_joints[static_cast<std::size_t>(k)])].joint_name);
  p.num_torque_offsets = p.num_offsets;
  add_torque_gain_unknowns(p);
  add_friction_unknowns(p);
  add_wrench_calibration_unknowns(p);
  p.unknown_names.insert(p.unknown_names.end(), names.begin(), names.end());
  if (o.total_mass_kg != 0.0) {
    if (!(o.total_mass_kg > 0.0) || !std::isfinite(o.total_mass_kg))
      throw std::invalid_argument("--total-mass must be a positive mass in kg");
    if (o.total_mass_std_kg < 0.0 || !std::isfinite(o.total_mass_std_kg))
      throw std::invalid_argument("--total-mass-std must be a mass in kg, 0 or more");
    if (p.fixed_part) throw std::invalid_argument("--total-mass with --fix-mass-com: the masses are kept there");
    if (o.weighting == "residual") throw std::invalid_argument("--total-mass with --weighting residual: not yet");
    p.total_mass_row = total_mass_row(p);
  }
  if (p.cad_prior) {
    // N(0, D) on the prior coordinates' change dp, pi = pi_0 + J dp; on base parameters
    // N(K pi_0, K J D J^T K^T). Two-phase mode keeps masses and COMs: its prior is on the others.
    p.cad_coordinates = p.fixed_part ? CadPriorCoordinates::Origin : o.cad_prior_coordinates;
    p.cad_jacobian = cad_prior_jacobian(model, p.cad_coordinates);
    p.cad_scales = cad_parameter_scales(model, o.cad_prior_fraction, p.cad_coordinates);
    const int np = p.num_offsets + nx;
    p.prior_information = MatrixX::Zero(np, np);
    p.prior_mean = VectorX::Zero(np);
    p.prior_mean.tail(nx) = p.x_nominal;
    for (int k = 0; k < p.num_wrench_calibration; ++k) {
      const int i = p.first_wrench_calibration_unknown() + k;
      p.prior_information(i, i) = 1.0 / (o.ft_calibration_std * o.ft_calibration_std);
    }
    for (int k = 0; k < p.num_torque_gains && p.torque_gains_held; ++k)
      p.prior_information(p.num_torque_offsets + k, p.num_torque_offsets + k) = kHeldUnknownInformation;
    if (p.fixed_part) {
      for (int k = 0; k < nx; ++k) {
        const double sd = p.cad_scales[p.free_params[static_cast<std::size_t>(k)]];
        p.prior_information(p.num_offsets + k, p.num_offsets + k) = 1.0 / (sd * sd);
      }
    } else {
      const MatrixX KJ = base.K * p.cad_jacobian;
      const MatrixX covariance = KJ * p.cad_scales.array().square().matrix().asDiagonal() * KJ.transpose();
      p.prior_information.bottomRightCorner(nx, nx) = covariance.ldlt().solve(MatrixX::Identity(nx, nx));
    }
  }
  gear_compliances(p);  // the options' checks, before the long work
  p.input_warnings = inertial_input_warnings(p);
  return p;
}

namespace {

/// Two sources read one after the other: the training before and after a held-out window.
class ConcatenatedSource : public MotionSource {
 public:
  ConcatenatedSource(std::unique_ptr<MotionSource> first, std::unique_ptr<MotionSource> second)
      : first_(std::move(first)), second_(std::move(second)) {}
  bool next(MotionSample& sample) override {
    if (!in_second_ && first_->next(sample)) return true;
    in_second_ = true;
    return second_->next(sample);
  }
  void rewind() override {
    first_->rewind();
    second_->rewind();
    in_second_ = false;
  }
  long size_hint() const override {
    const long a = first_->size_hint(), b = second_->size_hint();
    return a < 0 || b < 0 ? -1 : a + b;
  }
  std::string description() const override { return first_->description() + ", around the held-out window"; }
  ForceNoise noise() const override { return first_->noise(); }

 private:
  std::unique_ptr<MotionSource> first_, second_;
  bool in_second_ = false;
};

}  // namespace

std::unique_ptr<MotionSource> open_motion_source(const InertialProblem& p, bool validation, bool whole_recording) {
  InertialIdentificationOptions o = p.options;
  for (const auto& [stream, clock] : validation ? p.validation_clocks : p.train_clocks)
    if (clock.applied) o.sensor_options.clocks[stream] = clock.estimate.clock;
  o.sensor_options.gear_windup = validation ? p.validation_gear_windup : p.train_gear_windup;
  if (const auto& imu = validation ? p.validation_imu : p.train_imu) {
    // The gyro's bias from the still windows; the accelerometer's stays the whole motion's mean
    // against the kinematics: it also carries the kinematic attitude's mean error during the
    // motion, which the equations need (with the still windows' bias the true model's held-out base
    // force triples on biped16's paper-004 set; docs/identification.md, "IMU calibration").
    o.sensor_options.imu_sensor_axes = imu->sensor_axes_in_frame;
    if (!imu->windows.empty()) o.sensor_options.imu_gyro_bias = imu->gyro_bias_rad_s;
  }
  if (whole_recording) return make_source(o, p.model, p.sidecar(), validation ? p.validation_set : p.train_set, {});
  if (!validation && p.train_window_after)
    return std::make_unique<ConcatenatedSource>(
        make_source(o, p.model, p.sidecar(), p.train_set, p.train_window),
        make_source(o, p.model, p.sidecar(), p.train_set, *p.train_window_after));
  return make_source(o, p.model, p.sidecar(), validation ? p.validation_set : p.train_set,
                     validation ? p.validation_window : p.train_window);
}

namespace {

/// Rows U with U^T U = P for a positive semidefinite P (zero rows where P has none).
MatrixX information_rows(const MatrixX& P) {
  const Eigen::SelfAdjointEigenSolver<MatrixX> eig(P);
  return eig.eigenvalues().cwiseMax(0.0).cwiseSqrt().asDiagonal() * eig.eigenvectors().transpose();
}

/// Condition number of the data's factor (infinite when it is singular: the prior decides there).
double factor_condition(const MatrixX& R) {
  const Eigen::JacobiSVD<MatrixX> svd(R);
  const VectorX& sv = svd.singularValues();
  return sv[sv.size() - 1] > 0.0 ? sv[0] / sv[sv.size() - 1] : std::numeric_limits<double>::infinity();
}

}  // namespace

namespace {

/// What gain errors of the joint torque sensors, each within options.torque_gain_std (1 sigma,
/// independent), do to the estimate, added to e.solution.standard_deviation. The estimate holds the
/// gains' unknowns d = 1 - 1/g at 0; were the sensors' true d not 0, the estimate would move by B d,
/// B = M_rr^-1 D_rg (M: the information the estimate solves with, the data's over their scale plus
/// the prior's; D: the data's alone; r: the other unknowns; g: the gains'), so its covariance gains
/// std^2 B B^T. d is g - 1 to first order.
void add_torque_gain_std(const InertialProblem& p, const MatrixX& M, const MatrixX& D, InertialEstimate& e) {
  const Eigen::Index n = M.rows(), first = p.num_torque_offsets, ng = p.num_torque_gains;
  std::vector<Eigen::Index> rest;
  for (Eigen::Index i = 0; i < n; ++i)
    if (i < first || i >= first + ng) rest.push_back(i);
  const auto nr = static_cast<Eigen::Index>(rest.size());
  MatrixX Mrr(nr, nr), Drg(nr, ng);
  for (Eigen::Index a = 0; a < nr; ++a) {
    for (Eigen::Index b = 0; b < nr; ++b) Mrr(a, b) = M(rest[a], rest[b]);
    Drg.row(a) = D.row(rest[a]).segment(first, ng);
  }
  const MatrixX B = Mrr.ldlt().solve(Drg);
  e.torque_gain_std_contribution = VectorX::Zero(n);
  for (Eigen::Index a = 0; a < nr; ++a)
    e.torque_gain_std_contribution[rest[a]] = p.options.torque_gain_std * B.row(a).norm();
  e.solution.standard_deviation =
      (e.solution.standard_deviation.array().square() + e.torque_gain_std_contribution.array().square()).sqrt();
}

}  // namespace

InertialEstimate estimate_inertial_parameters(const InertialProblem& p) {
  const InertialIdentificationOptions& o = p.options;
  const Model& model = p.model;
  const RobotSidecar& sidecar = p.sidecar();
  const int nx = p.num_inertial_unknowns(), n_off = p.num_offsets, np = n_off + nx;
  InertialEstimate e;
  StreamingLeastSquares ls(np);
  auto train = open_motion_source(p, false);
  e.source_description = train->description();
  const ForceNoise train_noise = train->noise();
  IdentificationRows rows(model, sidecar, p.base, p.set, train_noise);
  rows.set_support(model, sidecar, p.train_set.segments);
  rows.set_wrench_calibration(p.num_wrench_calibration > 0);
  const bool residual_weighting = o.weighting == "residual";
  // The CAD prior's weight comes from the scores of contiguous blocks of samples (not with residual
  // weighting: that already puts each equation group in units of its own residual).
  const bool cad_blocks = p.cad_prior && !residual_weighting;
  InformationBlockFold blocks(ls, o.cad_prior_block_s);  // bounded: long recordings get longer blocks
  ResidualWeighting by_equation(residual_weighting ? np : 0);
  const long expected = std::max(1L, train->size_hint());
  auto fold = [&](const MatrixX& A_in, const VectorX& b_in, const VectorX& w_in, double t_in) {
    if (cad_blocks) {
      blocks.add(A_in, b_in, w_in, t_in);
    } else if (residual_weighting) {
      by_equation.add(A_in, b_in, w_in);
    } else {
      ls.add(A_in, b_in, w_in);
    }
  };
  std::optional<ParallelRowFilter> parallel;
  if (o.parallel_filter.cutoff_hz > 0.0) {
    parallel.emplace(source_sample_rate(o, p.train_set), o.parallel_filter, fold);
    report_progress(o, 0.05,
                    "parallel filter: both sides of the equations low-passed at " +
                        format_fixed(o.parallel_filter.cutoff_hz, 1) + " Hz, one sample in " +
                        std::to_string(parallel->decimation()) + " kept");
  }
  // Errors in variables: noise in the accelerations the data path derived (ForceNoise::acceleration)
  // adds E[dA^T W dA] to the normal equations, which pulls the estimate toward zero along the
  // directions those accelerations excite (the whole body's inertia about the base, for the gyro's
  // noise). It is summed over the samples (every 10 ms: it changes with the posture only) and taken
  // off the data's information before the CAD prior's fit.
  const bool errors_in_variables = rows.has_acceleration_noise() && cad_blocks;
  const long eiv_stride =
      errors_in_variables ? std::max(1L, std::lround(0.01 * source_sample_rate(o, p.train_set))) : 1L;
  MatrixX eiv_bias = MatrixX::Zero(errors_in_variables ? np : 0, errors_in_variables ? np : 0), B_unknowns;
  if (rows.has_acceleration_noise() && model.floating_base)
    e.acceleration_noise = InertialIdentificationResult::AccelerationNoiseUse{
        .base_linear = train_noise.acceleration.topRows<3>().rowwise().norm().maxCoeff(),
        .base_angular = train_noise.acceleration.middleRows<3>(3).rowwise().norm().maxCoeff(),
        .gyro_noise_density = train_noise.gyro_noise_density,
        .accelerometer_noise_density = train_noise.accelerometer_noise_density,
        .densities_from_data = train_noise.imu_noise_from_data,
        .bias_removed = errors_in_variables};
  MotionSample s;
  MatrixX A_all;
  VectorX b_free, unit_weights;
  while (train->next(s)) {
    rows.build(s);
    if (errors_in_variables && e.samples % eiv_stride == 0) {
      // A kept row stands for `decimation` samples: filtered, it weighs information_weight() of them;
      // passed unfiltered (its weights change at every sample), one.
      const double share =
          static_cast<double>(eiv_stride) *
          (parallel && rows.fixed_projection()
               ? (o.parallel_filter_all_rows ? parallel->information_weight() : 1.0) / parallel->decimation()
               : 1.0);
      for (const MatrixX& B : rows.acceleration_noise_rows()) {
        B_unknowns.setZero(B.rows(), np);
        if (p.fixed_part) {
          for (int k = 0; k < nx; ++k) B_unknowns.col(n_off + k) = B.col(p.free_params[static_cast<std::size_t>(k)]);
        } else {
          B_unknowns.rightCols(nx) = base_regressor(p.base, B);
        }
        eiv_bias.noalias() += share * B_unknowns.transpose() * rows.weights().asDiagonal() * B_unknowns;
      }
    }
    const MatrixX* A = &rows.rows();
    const VectorX* b = &rows.measured();
    if (p.fixed_part || n_off > 0) {
      const Eigen::Index m = rows.rows().rows();
      A_all.resize(m, np);
      const int n_torque = p.num_torque_offsets;
      if (n_torque > 0) A_all.leftCols(n_torque) = rows.torque_offset_columns();
      for (int k = 0; k < p.num_torque_gains; ++k) {
        const int joint_body = p.set.torque_joints[static_cast<std::size_t>(k)];
        A_all.col(n_torque + k) = rows.torque_offset_columns().col(k) *
                                  s.joint_torques[model.bodies[static_cast<std::size_t>(joint_body)].idx_v];
      }
      for (std::size_t f = 0; f < p.friction.size(); ++f) {
        const InertialProblem::FrictionUnknown& u = p.friction[f];
        A_all.col(p.first_friction_unknown() + static_cast<Eigen::Index>(f)) =
            rows.torque_offset_columns().col(u.sensor) *
            joint_friction_regressor(u.term, s.v[u.velocity_index], s.a[u.velocity_index],
                                     p.friction_terms.coulomb_smoothing_velocity);
      }
      // f = (I + E) f_m: the equations P Y pi - sum E_ij col_ij = P A_m f_m.
      if (p.num_wrench_calibration > 0)
        A_all.middleCols(p.first_wrench_calibration_unknown(), p.num_wrench_calibration) =
            -rows.wrench_calibration_columns();
      if (p.fixed_part) {
        const MatrixX& PY = rows.projected_regressor();
        for (int k = 0; k < nx; ++k) A_all.col(n_off + k) = PY.col(p.free_params[static_cast<std::size_t>(k)]);
        b_free = rows.measured() - PY * *p.fixed_part;
        b = &b_free;
      } else {
        A_all.rightCols(nx) = rows.rows();
      }
      A = &A_all;
    }
    if (parallel && rows.fixed_projection()) {
      // Whitened by their own weights, rows make runs while the weights follow the posture;
      // otherwise a run ends where the measured channels' noise map changes.
      if (o.parallel_filter_all_rows) unit_weights.setOnes(A->rows());
      parallel->add(s.time, *A, *b, rows.weights(),
                    o.parallel_filter_all_rows ? unit_weights : rows.structure_weights());
    } else {
      if (parallel) parallel->flush();
      fold(*A, *b, rows.weights(), s.time);
    }
    if (++e.samples % 500 == 0)
      report_progress(o, 0.05 + 0.6 * std::min(1.0, static_cast<double>(e.samples) / static_cast<double>(expected)),
                      "estimation: " + std::to_string(e.samples) + " samples");
  }
  if (parallel) {
    parallel->flush();
    e.parallel_filter =
        ParallelFilterUse{parallel->cutoff_hz(),   parallel->decimation(), parallel->samples_in(),
                          parallel->samples_out(), parallel->runs(),       parallel->standard_deviation_factor()};
  }
  if (e.samples == 0) throw std::runtime_error(o.data + ": no training samples");
  if (cad_blocks) blocks.finish();
  // The weighed total mass: one equation, sum of the masses = M, weighted by the scale's accuracy.
  // With the CAD prior it stays out of the data's blocks: the data's scale c describes the data
  // path's errors, not the scale's.
  InformationBlock weighed;
  const double sd = o.total_mass_std_kg > 0.0 ? o.total_mass_std_kg : 1e-3 * o.total_mass_kg;
  if (p.total_mass_row.size() > 0) {
    if (cad_blocks) {
      weighed.H = p.total_mass_row * p.total_mass_row.transpose() / (sd * sd);
      weighed.g = p.total_mass_row * (o.total_mass_kg / (sd * sd));
    } else {
      ls.add(p.total_mass_row.transpose(), VectorX::Constant(1, o.total_mass_kg),
             VectorX::Constant(1, 1.0 / (sd * sd)));
    }
  }
  const double prior = p.fixed_part ? std::max(p.prior, 1e-6) : p.prior;
  auto add_prior = [&](StreamingLeastSquares& data) {
    if (p.cad_prior) {
      const MatrixX U = information_rows(p.prior_information);
      data.add(U, U * p.prior_mean);
      return;
    }
    if (p.torque_gains_held) {
      MatrixX held = MatrixX::Zero(p.num_torque_gains, np);
      held.middleCols(p.num_torque_offsets, p.num_torque_gains).setIdentity();
      data.add(held, VectorX::Zero(p.num_torque_gains), VectorX::Constant(p.num_torque_gains, kHeldUnknownInformation));
    }
    if (prior <= 0.0) return;
    const MatrixX& R = data.information_factor();
    const double lambda = prior * R.bottomRightCorner(nx, nx).squaredNorm() / static_cast<double>(nx);
    MatrixX pull = MatrixX::Zero(nx, np);  // on the inertial parameters only
    pull.rightCols(nx).setIdentity();
    data.add(pull, p.x_nominal, VectorX::Constant(nx, lambda));
  };
  if (residual_weighting) {
    report_progress(o, 0.65, "residual weighting");
    ls = by_equation.fit(add_prior, 3, p.unknown_names);
    e.weighting_scales = by_equation.scales();
    // Labels: the generalized coordinate when nothing is projected out (all rows, or the base rows
    // of `contact`), else the projected equation's index.
    const std::vector<std::string> coordinates = model.velocity_names();
    for (EquationGroupScale& g : e.weighting_scales) {
      const bool direct = g.equations_per_sample == model.nv || (o.sensors == "contact" && g.equations_per_sample == 6);
      g.label = direct
                    ? coordinates[static_cast<std::size_t>(g.equation)]
                    : "projected " + std::to_string(g.equation + 1) + " of " + std::to_string(g.equations_per_sample);
    }
  } else if (cad_blocks) {
    report_progress(o, 0.65, "CAD prior: the data's weight from " + std::to_string(blocks.blocks().size()) + " blocks");
    std::vector<InformationBlock>& information = blocks.blocks();
    long folded = 0;
    for (long n : blocks.samples()) folded += n;
    if (errors_in_variables) {
      // The bias is an expectation from the declared sensor noise. Where the data hold less noise
      // than declared (a better IMU than its datasheet class, or noise-free streams), taking all of
      // it off could remove more information than the data have: in no direction is more than 90 %
      // of the data's information taken off (the bias whitened by the information, its eigenvalues
      // capped at 0.9).
      const MatrixX& R = ls.information_factor();
      MatrixX H = R.transpose() * R;
      H.diagonal().array() += 1e-12 * std::max(1e-300, H.diagonal().maxCoeff());
      const Eigen::LLT<MatrixX> llt(H);
      const MatrixX L = llt.matrixL();
      MatrixX whitened = L.triangularView<Eigen::Lower>().solve(eiv_bias);
      whitened = L.triangularView<Eigen::Lower>().solve(whitened.transpose()).eval();
      const Eigen::SelfAdjointEigenSolver<MatrixX> eig(0.5 * (whitened + whitened.transpose()));
      const VectorX capped = eig.eigenvalues().cwiseMax(0.0).cwiseMin(0.9);
      e.acceleration_noise->capped_directions = static_cast<int>((eig.eigenvalues().array() > 0.9).count());
      eiv_bias = L * (eig.eigenvectors() * capped.asDiagonal() * eig.eigenvectors().transpose()) * L.transpose();
      e.errors_in_variables = eiv_bias;
    }
    // The bias is a sum over samples; each block takes its samples' share.
    for (std::size_t b = 0; b < information.size() && errors_in_variables; ++b)
      information[b].H -= eiv_bias * (static_cast<double>(blocks.samples()[b]) / static_cast<double>(folded));
    if (p.held_cad_prior) {
      e.cad_prior = fit_with_cad_prior(information, p.held_cad_prior->prior_information, p.prior_mean, 0,
                                       p.held_cad_prior->data_scale, weighed);
      e.cad_scales = p.cad_scales;
      e.prior_information = p.held_cad_prior->prior_information;
    } else if (o.learn_cad_prior_scale && !p.fixed_part) {
      report_progress(o, 0.67, "CAD prior: its scale per class of parameter from the data");
      LearnedCadPrior learned = fit_with_learned_cad_prior(
          information, p.base.K * p.cad_jacobian, cad_parameter_scales(model, 1.0, p.cad_coordinates), p.x_nominal,
          p.num_offsets, o.cad_prior_fraction, 200, p.prior_information.diagonal().head(p.num_offsets), weighed);
      e.cad_prior = std::move(learned.fit);
      e.cad_scales = std::move(learned.scales);
      e.prior_information = std::move(learned.prior_information);
      e.cad_prior_fractions = learned.fraction;
      e.cad_prior_wanted_fractions = learned.wanted_fraction;
      // A class the data wanted looser than the ceiling: which coordinates moved it, largest first.
      const std::vector<std::string> standard_names = model.parameter_names();
      for (CadParameterClass c : classes_above_ceiling(learned, o.cad_prior_fraction)) {
        InertialIdentificationResult::PriorCeiling ceiling{c, learned.wanted_fraction[static_cast<std::size_t>(c)], {}};
        std::vector<Eigen::Index> members;
        for (Eigen::Index i = 0; i < learned.coordinate_moves.size(); ++i)
          if (cad_parameter_class(i) == c) members.push_back(i);
        std::sort(members.begin(), members.end(), [&](Eigen::Index a, Eigen::Index b) {
          return learned.coordinate_moves[a] > learned.coordinate_moves[b];
        });
        for (std::size_t k = 0; k < std::min<std::size_t>(3, members.size()); ++k)
          ceiling.largest_moves.emplace_back(
              cad_prior_coordinate_name(standard_names[static_cast<std::size_t>(members[k])], p.cad_coordinates),
              std::sqrt(learned.coordinate_moves[members[k]]));
        e.cad_prior_above_ceiling.push_back(std::move(ceiling));
      }
    } else {
      e.cad_prior = fit_with_cad_prior(information, p.prior_information, p.prior_mean, 30, 1.0, weighed);
      e.cad_scales = p.cad_scales;
      e.prior_information = p.prior_information;
    }
    if (o.keep_at_cad)
      e.kept_at_cad = keep_undetermined_at_prior(*e.cad_prior, information, e.prior_information, p.prior_mean, weighed,
                                                 p.num_offsets, o.keep_below);
    const double c = e.cad_prior->data_scale;
    // The factor of data / c plus the prior, for the stages that work on (R, z): the consistent
    // fit, the offsets, the standard deviations of two-phase mode.
    const MatrixX& R = ls.information_factor();
    const VectorX z = ls.factor_rhs();
    const MatrixX U = information_rows(e.prior_information);
    const bool has_weighed = weighed.H.size() > 0;
    const auto num_kept = static_cast<Eigen::Index>(e.kept_at_cad.size());
    MatrixX stacked(2 * np + (has_weighed ? 1 : 0) + num_kept, np);
    VectorX rhs(stacked.rows());
    // A parameter kept at CAD holds there in the stages after this one (the consistent fit): a row
    // 1e4 times its posterior standard deviation's inverse.
    MatrixX keep = MatrixX::Zero(num_kept, np);
    VectorX keep_rhs(num_kept);
    for (Eigen::Index k = 0; k < num_kept; ++k) {
      const Eigen::Index i = e.kept_at_cad[static_cast<std::size_t>(k)];
      const double w = 1e4 / std::sqrt(e.cad_prior->posterior_variance[i]);
      keep(k, i) = w;
      keep_rhs[k] = w * p.prior_mean[i];
    }
    if (has_weighed) {
      stacked << R / std::sqrt(c), U, p.total_mass_row.transpose() / sd, keep;
      rhs << z / std::sqrt(c), U * p.prior_mean, o.total_mass_kg / sd, keep_rhs;
    } else {
      stacked << R / std::sqrt(c), U, keep;
      rhs << z / std::sqrt(c), U * p.prior_mean, keep_rhs;
    }
    const Eigen::HouseholderQR<MatrixX> qr(stacked);
    const VectorX qtb = qr.householderQ().transpose() * rhs;
    e.information_factor = qr.matrixQR().topRows(np).triangularView<Eigen::Upper>();
    e.factor_rhs = qtb.head(np);
    e.residual_sum_of_squares = ls.residual_sum_of_squares() / c + qtb.tail(stacked.rows() - np).squaredNorm();
    if (errors_in_variables) {
      // The same factor of the corrected information: F^T F = R^T R / c + U^T U - bias / c.
      const MatrixX H = e.information_factor.transpose() * e.information_factor - eiv_bias / c;
      const VectorX g = e.information_factor.transpose() * e.factor_rhs;
      const Eigen::LLT<MatrixX> llt(H);
      if (llt.info() == Eigen::Success) {
        e.information_factor = llt.matrixU();
        e.factor_rhs = llt.matrixU().transpose().solve(g);
      }
    }
    e.rows = ls.rows() + np;
    LeastSquaresSolution& sol = e.solution;
    sol.x = e.cad_prior->x;
    sol.standard_deviation = e.cad_prior->posterior_variance.cwiseSqrt();
    if (p.torque_gains_held) {
      MatrixX H = MatrixX::Zero(np, np);
      for (const InformationBlock& block : information) H += block.H;
      MatrixX M = H / c + e.prior_information;
      if (weighed.H.size() > 0) M += weighed.H;  // the weighed total mass, as the fit took it
      add_torque_gain_std(p, M, H / c, e);
    }
    sol.rows = ls.rows();
    sol.residual_rms =
        std::sqrt(((R * sol.x - z).squaredNorm() + ls.residual_sum_of_squares()) / static_cast<double>(ls.rows()));
    sol.condition_number = factor_condition(R);
    return e;
  } else {
    add_prior(ls);
  }
  e.solution = ls.solve(p.unknown_names);
  // Rows of low-passed noise kept faster than twice its bandwidth are not independent.
  if (e.parallel_filter) e.solution.standard_deviation *= e.parallel_filter->standard_deviation_factor;
  if (p.torque_gains_held) {
    const MatrixX& R = ls.information_factor();
    const MatrixX H = R.transpose() * R;
    add_torque_gain_std(p, H, H, e);
  }
  e.information_factor = ls.information_factor();
  e.factor_rhs = ls.factor_rhs();
  e.residual_sum_of_squares = ls.residual_sum_of_squares();
  e.rows = ls.rows();
  return e;
}

/// The gears' play (options.gear_backlash_deg) on every joint of `windup`'s track, crossed against
/// each sidecar actuator's armature and damping.
void add_gear_play(const InertialProblem& p, const LinkTorqueTrack& unfiltered, GearWindup& windup) {
  if (p.options.gear_backlash_deg <= 0.0 && !p.options.gear_backlash_from_sidecar) return;
  const std::map<std::string, double> declared = gear_plays_from_sidecar(p);
  const std::vector<double> armature_per_body = joint_armature(p.model, p.sidecar());
  std::vector<double> play, armature, damping;
  for (const std::string& joint : windup.link_torque.joints) {
    const auto given = declared.find(joint);
    play.push_back(given != declared.end() ? given->second : p.options.gear_backlash_deg * M_PI / 180.0);
    const auto body = p.model.find_joint(joint);
    armature.push_back(body ? armature_per_body[static_cast<std::size_t>(*body)] : 0.0);
    double d = 0.0;
    for (const ActuatorInfo& a : p.sidecar().actuators)
      if (a.joint == joint && a.damping) d = *a.damping;
    damping.push_back(d);
  }
  // When the play is crossed matters more than how large the torques are: the torques low-passed
  // at the encoders' own cut-off, not the wind-up's (on biped16's realistic set the 3 Hz torques
  // put the inertias at 1.26 x CAD's error, 20 Hz at 0.98).
  windup.play_offset =
      gear_play_offsets(lowpassed(unfiltered, p.options.sensor_options.cutoff_hz), play, armature, damping);
}

InertialEstimate correct_gear_windup(InertialProblem& p, const InertialEstimate& first,
                                     std::vector<InertialIdentificationResult::GearWindupCorrection>& corrections) {
  const auto compliances = gear_compliances(p);
  corrections.clear();
  if (compliances.empty()) return first;
  report_progress(p.options, 0.66, "gear wind-up / play: the link torques of the first fit's model");
  auto windup = std::make_shared<GearWindup>();
  std::vector<std::string> joints;
  for (const auto& [joint, c, from] : compliances) {
    joints.push_back(joint);
    windup->compliance.push_back(c);
  }
  const InertialIdentificationResult first_model = identified_parameters(p, first);
  {
    // Over the whole recording, held-out window included: the sensor path's IMU biases are means over
    // all of it, against the corrected kinematics.
    const std::unique_ptr<MotionSource> source = open_motion_source(p, false, true);
    const LinkTorqueTrack unfiltered =
        link_torque_track(first_model.identified_model, p.sidecar(), *source, joints, 0.0);
    windup->link_torque = lowpassed(unfiltered, p.options.gear_windup_torque_cutoff_hz);
    add_gear_play(p, unfiltered, *windup);
  }
  const MatrixX& tau = windup->link_torque.torque;
  for (std::size_t j = 0; j < compliances.size(); ++j) {
    const auto row = tau.row(static_cast<Eigen::Index>(j));
    const double c = windup->compliance[j];
    if (c == 0.0) continue;  // the gear's play alone
    corrections.push_back({std::get<0>(compliances[j]), std::get<2>(compliances[j]), 1.0 / c,
                           c * row.cwiseAbs().maxCoeff(),
                           c * std::sqrt(row.squaredNorm() / static_cast<double>(row.size()))});
  }
  p.train_gear_windup = std::move(windup);
  // The clocks again, on the links' kinematics (the encoders' wind-up moves the alignment's estimate).
  if (p.options.align_time) {
    p.train_clocks = stream_clocks(p, p.train_set, p.train_gear_windup);
    refine_stream_clocks(p);
  }
  report_progress(p.options, 0.68, "gear wind-up / play: the fit again on the corrected encoders");
  return estimate_inertial_parameters(p);
}

void correct_validation_gear_windup(InertialProblem& p, const InertialIdentificationResult& r) {
  if (!p.train_gear_windup) return;
  p.validation_gear_windup = nullptr;
  auto windup = std::make_shared<GearWindup>();
  windup->compliance = p.train_gear_windup->compliance;
  const std::unique_ptr<MotionSource> source = open_motion_source(p, true, true);
  const LinkTorqueTrack unfiltered =
      link_torque_track(r.identified_model, p.sidecar(), *source, p.train_gear_windup->link_torque.joints, 0.0);
  windup->link_torque = lowpassed(unfiltered, p.options.gear_windup_torque_cutoff_hz);
  add_gear_play(p, unfiltered, *windup);
  p.validation_gear_windup = std::move(windup);
  if (p.options.align_time)
    p.validation_clocks = validation_reads_training_clocks(p.options)
                              ? p.train_clocks
                              : stream_clocks(p, p.validation_set, p.validation_gear_windup);
}

InertialIdentificationResult identified_parameters(const InertialProblem& p, const InertialEstimate& e) {
  const InertialIdentificationOptions& o = p.options;
  const Model& model = p.model;
  const BaseParameters& base = p.base;
  const VectorX& pi_nominal = p.pi_nominal;
  const int nx = p.num_inertial_unknowns(), n_off = p.num_offsets, np = n_off + nx;
  const LeastSquaresSolution& sol = e.solution;
  InertialIdentificationResult r;
  r.base = base;
  r.input_warnings = p.input_warnings;
  if (p.train_gear_windup && p.train_gear_windup->play_offset.size() > 0) {
    // Per joint, its play is twice its largest offset (the rotors start on a flank).
    const MatrixX& s = p.train_gear_windup->play_offset;
    long crossing = 0;
    for (Eigen::Index j = 0; j < s.rows(); ++j) {
      const double half = s.row(j).cwiseAbs().maxCoeff();
      crossing += (s.row(j).array().abs() < (1.0 - 1e-9) * half).count();
      r.gear_plays_deg.emplace_back(p.train_gear_windup->link_torque.joints[static_cast<std::size_t>(j)],
                                    2.0 * half * 180.0 / M_PI);
    }
    r.gear_backlash_deg = o.gear_backlash_deg;
    r.gear_play_crossing_fraction = static_cast<double>(crossing) / static_cast<double>(s.size());
  }
  r.sensors = p.set.label;
  r.prior = p.prior;
  r.base_nominal = p.base_nominal;
  r.nominal_total_mass = model.total_mass();
  r.total_mass_kg = o.total_mass_kg;
  r.ft_calibration_prior_std = o.ft_calibration ? o.ft_calibration_std : 0.0;
  r.total_mass_std_kg =
      o.total_mass_kg > 0.0 ? (o.total_mass_std_kg > 0.0 ? o.total_mass_std_kg : 1e-3 * o.total_mass_kg) : 0.0;
  r.source_description = e.source_description;
  r.validation_data = validation_data_text(p.options);
  r.samples = e.samples;
  r.parallel_filter = e.parallel_filter;
  r.acceleration_noise = e.acceleration_noise;
  r.time_alignment = p.train_clocks;
  r.imu_calibration = p.train_imu;
  r.validation_imu_calibration = !o.validate.empty() ? p.validation_imu : std::nullopt;
  r.weighting_scales = e.weighting_scales;
  r.residual_rms_weighted = sol.residual_rms;
  if (e.cad_prior) {
    r.cad_data_scale = e.cad_prior->data_scale;
    r.held_at_cad = static_cast<int>(e.kept_at_cad.size());
    r.held_below = o.keep_below;
    r.cad_prior_fractions = e.cad_prior_fractions;
    r.cad_prior_wanted_fractions = e.cad_prior_wanted_fractions;
    r.cad_prior_above_ceiling = e.cad_prior_above_ceiling;
    r.cad_prior_coordinates = p.cad_coordinates;
    r.prior_std = e.cad_prior->prior_variance.tail(nx).cwiseSqrt();
    r.determination = determination(*e.cad_prior).tail(nx);
  }
  r.unexplained = assess_unexplained_residual(r.cad_data_scale, r.weighting_scales, r.residual_rms_weighted);
  // The inertial parameters' factor with the offsets profiled out: ||R x - z||^2 + const.
  const MatrixX R_x = e.information_factor.bottomRightCorner(nx, nx);
  const VectorX z_x = e.factor_rhs.tail(nx);
  const VectorX x_hat = sol.x.tail(nx), x_std = sol.standard_deviation.tail(nx);
  r.condition_number = sol.condition_number;
  report_progress(o, 0.7, "standard parameters");

  // Standard parameters: the closest to the nominal model that have the identified base parameters,
  // the physically consistent fit, or (two-phase) the kept masses and COMs with the estimated rest.
  const MatrixX& K = base.K;
  if (p.fixed_part) {
    const VectorX& fixed_part = *p.fixed_part;
    const std::vector<int>& free_params = p.free_params;
    r.standard_parameters = fixed_part;
    for (int k = 0; k < nx; ++k) r.standard_parameters[free_params[static_cast<std::size_t>(k)]] = x_hat[k];
    if (o.consistent) {
      // Start: the kept masses and COMs with the nominal rotational inertias about each COM (a real
      // body whenever the nominal one is), then only the rotational inertias move.
      VectorX start = fixed_part;
      ConsistentFitOptions fit_options = o.consistent_fit;
      fit_options.fixed.assign(static_cast<std::size_t>(start.size()), false);
      for (int b = 0; b < start.size() / 10; ++b) {
        const Inertia nominal = Inertia::from_parameters(pi_nominal.segment<10>(10 * b));
        const double m = start[10 * b];
        if (!(m > 0.0))
          throw std::runtime_error(o.fix_mass_com + ": " + base.parameter_names[static_cast<std::size_t>(10 * b)] +
                                   " is not positive; --consistent needs every body real");
        start.segment<10>(10 * b) =
            Inertia::from_com(m, start.segment<3>(10 * b + 1) / m, nominal.inertia_com()).to_parameters();
        start.segment<4>(10 * b) = fixed_part.segment<4>(10 * b);  // exactly the kept values
        for (int k = 0; k < 4; ++k) fit_options.fixed[static_cast<std::size_t>(10 * b + k)] = true;
      }
      MatrixX select = MatrixX::Zero(nx, start.size());
      for (int k = 0; k < nx; ++k) select(k, free_params[static_cast<std::size_t>(k)]) = 1.0;
      r.consistent_fit = fit_physically_consistent(R_x, z_x, select, start, fit_options);
      r.standard_parameters = r.consistent_fit->pi;
    }
    r.base_values = K * r.standard_parameters;
    // Standard deviations of the base parameters from the covariance of the free parameters.
    const MatrixX R_inv = R_x.triangularView<Eigen::Upper>().solve(MatrixX::Identity(nx, nx));
    const double sigma2 = e.residual_sum_of_squares / static_cast<double>(std::max(1L, e.rows - np));
    MatrixX K_free(K.rows(), nx);
    for (int k = 0; k < nx; ++k) K_free.col(k) = K.col(free_params[static_cast<std::size_t>(k)]);
    const MatrixX KR = K_free * R_inv;
    r.base_std = (sigma2 * KR.rowwise().squaredNorm()).cwiseSqrt();
  } else {
    r.base_values = x_hat;
    r.base_std = x_std;
    if (e.torque_gain_std_contribution.size() > 0)
      r.base_std_from_torque_gains = e.torque_gain_std_contribution.tail(nx);
    if (o.consistent) {
      r.consistent_fit = fit_physically_consistent(R_x, z_x, K, pi_nominal, o.consistent_fit);
      r.standard_parameters = r.consistent_fit->pi;
      // Reported base parameters (and their error against the truth) are the consistent model's.
      r.base_values = K * r.standard_parameters;
    } else if (p.cad_prior) {
      // The CAD prior's most likely standard parameters with these base parameters:
      // pi_0 + S K^T (K S K^T)^-1 (x - K pi_0), S = J D J^T, each body moved on its own scale.
      const MatrixX& J = p.cad_jacobian;
      const MatrixX SKt = J * (e.cad_scales.array().square().matrix().asDiagonal() * (K * J).transpose());
      r.standard_parameters = pi_nominal + SKt * (K * SKt).ldlt().solve(r.base_values - K * pi_nominal);
    } else {
      r.standard_parameters =
          pi_nominal + K.transpose() * (K * K.transpose()).ldlt().solve(r.base_values - K * pi_nominal);
    }
  }
  if (n_off > 0) {
    // Offsets at the final inertial parameters (they move with a consistent fit):
    // o = R_oo^-1 (z_o - R_ox x).
    VectorX x_final(nx);
    for (int k = 0; k < nx; ++k)
      x_final[k] = p.fixed_part ? r.standard_parameters[p.free_params[static_cast<std::size_t>(k)]] : r.base_values[k];
    const MatrixX& R = e.information_factor;
    const VectorX& z = e.factor_rhs;
    VectorX rhs = z.head(n_off) - R.topRightCorner(n_off, nx) * x_final;
    VectorX offsets = R.topLeftCorner(n_off, n_off).triangularView<Eigen::Upper>().solve(rhs);
    if (const int n_sensor = p.first_friction_unknown(); n_sensor > 0 && !p.fixed_part) {
      r.sensor_factor_rows = R.topRows(n_sensor);
      r.sensor_factor_rhs = z.head(n_sensor);
    }
    // With --consistent the friction and drive terms are physical too: viscous, Coulomb and
    // armature at or above zero (the torque offsets, gains and friction offsets stay free).
    std::vector<bool> friction_at_bound(p.friction.size(), false);
    if (o.consistent && !p.friction.empty()) {
      std::vector<bool> nonnegative(static_cast<std::size_t>(n_off), false);
      for (std::size_t f = 0; f < p.friction.size(); ++f)
        nonnegative[static_cast<std::size_t>(p.first_friction_unknown()) + f] = p.friction[f].term != "offset";
      const MatrixX R_oo = R.topLeftCorner(n_off, n_off).triangularView<Eigen::Upper>();
      BoundedLeastSquares bounded = solve_bounded_least_squares(R_oo, rhs, nonnegative);
      // The inertial parameters refitted jointly with the bounded terms: with the terms held at
      // zero dropped from the factor (the rest profiled out again), the consistent fit again, the
      // bounded terms at its result, until the held set repeats.
      for (int pass = 0; pass < 8 && !p.fixed_part &&
                         std::find(bounded.at_bound.begin(), bounded.at_bound.end(), true) != bounded.at_bound.end();
           ++pass) {
        std::vector<Eigen::Index> keep;
        for (Eigen::Index c = 0; c < np; ++c)
          if (c >= n_off || !bounded.at_bound[static_cast<std::size_t>(c)]) keep.push_back(c);
        const Eigen::Index m = static_cast<Eigen::Index>(keep.size());
        const MatrixX R_full = R.triangularView<Eigen::Upper>();
        MatrixX A(np, m);
        for (Eigen::Index c = 0; c < m; ++c) A.col(c) = R_full.col(keep[static_cast<std::size_t>(c)]);
        const Eigen::HouseholderQR<MatrixX> qr(A);
        const MatrixX R_kept = qr.matrixQR().topRows(m).triangularView<Eigen::Upper>();
        const VectorX z_kept = (qr.householderQ().transpose() * z).head(m);
        r.consistent_fit = fit_physically_consistent(R_kept.bottomRightCorner(nx, nx), z_kept.tail(nx), K, pi_nominal,
                                                     o.consistent_fit);
        r.standard_parameters = r.consistent_fit->pi;
        r.base_values = K * r.standard_parameters;
        x_final = r.base_values;
        rhs = z.head(n_off) - R.topRightCorner(n_off, nx) * x_final;
        const BoundedLeastSquares next = solve_bounded_least_squares(R_oo, rhs, nonnegative);
        const bool same = next.at_bound == bounded.at_bound;
        bounded = next;
        if (same) break;
      }
      offsets = bounded.x;
      for (std::size_t f = 0; f < p.friction.size(); ++f)
        friction_at_bound[f] = bounded.at_bound[static_cast<std::size_t>(p.first_friction_unknown()) + f];
    }
    for (std::size_t f = 0; f < p.friction.size(); ++f) {
      const Eigen::Index k = p.first_friction_unknown() + static_cast<Eigen::Index>(f);
      r.friction.push_back({p.friction[f].joint, p.friction[f].term, p.friction[f].velocity_index, offsets[k],
                            sol.standard_deviation[k], std::nullopt, ""});
      r.friction.back().at_bound = friction_at_bound[f];
    }
    for (int k = 0; k < p.num_torque_offsets; ++k) {
      const int b = p.set.torque_joints[static_cast<std::size_t>(k)];
      r.torque_offsets.push_back({model.bodies[static_cast<std::size_t>(b)].joint_name,
                                  model.bodies[static_cast<std::size_t>(b)].idx_v, offsets[k],
                                  sol.standard_deviation[k]});
    }
    for (int k = 0; k < p.num_torque_gains && !p.torque_gains_held; ++k) {
      const int b = p.set.torque_joints[static_cast<std::size_t>(k)];
      const Eigen::Index i = p.num_torque_offsets + k;
      const double g = 1.0 / (1.0 - offsets[i]);  // d = 1 - 1/g; dg/dd = g^2
      r.torque_gains.push_back({model.bodies[static_cast<std::size_t>(b)].joint_name,
                                model.bodies[static_cast<std::size_t>(b)].idx_v, g, g * g * sol.standard_deviation[i]});
    }
    for (std::size_t c = 0; c < p.set.contact_frames.size() && p.num_wrench_calibration > 0; ++c) {
      InertialIdentificationResult::WrenchCalibration w;
      w.contact = model.frames[static_cast<std::size_t>(p.set.contact_frames[c])].name;
      w.sensor = w.contact;
      for (const ContactSurface& surface : p.sidecar().contacts)
        if (surface.name == w.contact)
          for (const ForceTorqueSensor& f : p.sidecar().ft_sensors)
            if (f.link == surface.link && f.measures == WrenchMeasured::External) w.sensor = f.name;
      const Eigen::Index first = p.first_wrench_calibration_unknown() + 18 * static_cast<Eigen::Index>(c);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          w.force(i, j) += offsets[first + 3 * i + j];
          w.moment(i, j) += offsets[first + 9 + 3 * i + j];
          w.force_std(i, j) = sol.standard_deviation[first + 3 * i + j];
          w.moment_std(i, j) = sol.standard_deviation[first + 9 + 3 * i + j];
        }
      r.ft_calibration.push_back(w);
    }
  }
  if (!p.friction.empty() && !p.fixed_part) {
    // The fit without the friction columns: the folded problem ||R x - z||^2 with those columns
    // dropped is the least squares of the same rows without them.
    const int n_sensor = p.first_friction_unknown(), nf = static_cast<int>(p.friction.size());
    MatrixX R_keep(np, np - nf);
    R_keep << e.information_factor.leftCols(n_sensor), e.information_factor.rightCols(nx);
    const VectorX y = R_keep.colPivHouseholderQr().solve(e.factor_rhs);
    r.torque_offsets_without_friction = y.head(n_sensor);
    r.base_values_without_friction = y.tail(nx);
  }
  for (const auto& [u, g] : p.grouped_friction) {
    Eigen::Index largest = 0;
    g.cwiseAbs().maxCoeff(&largest);
    r.friction.push_back({u.joint, u.term, u.velocity_index, std::numeric_limits<double>::quiet_NaN(), 0.0,
                          std::nullopt, base.name(static_cast<int>(largest))});
  }
  r.identified_model = model;
  r.identified_model.set_inertial_parameters(r.standard_parameters);
  r.total_mass = r.identified_model.total_mass();
  r.physically_consistent = true;
  for (std::size_t b = 1; b < model.bodies.size(); ++b) {
    const ConsistencyReport c = check_physical_consistency(r.identified_model.bodies[b].inertia);
    if (!c.consistent) {
      r.physically_consistent = false;
      r.inconsistent_links.push_back(model.bodies[b].name + ": " + c.reason);
    }
  }
  // What writing it into the user's URDF changes (model/urdf_writer.hpp): each link's inertial,
  // locked joints made fixed, a body folded onto its main link.
  r.identified_urdf_changes = write_urdf_inertials(r.identified_model, p.robot.urdf_path).changes;
  r.torque_gain_std = p.torque_gains_held ? p.options.torque_gain_std : 0.0;
  return r;
}

std::optional<Model> load_truth_model(const InertialProblem& p) {
  const InertialIdentificationOptions& o = p.options;
  if (o.truth_urdf.empty()) return std::nullopt;
  UrdfReadOptions ro;
  ro.floating_base = p.robot.model.floating_base;
  Model truth = read_urdf_file(o.truth_urdf, ro);
  if (!o.locks.empty()) truth = lock_joints(truth, o.locks);
  if (truth.nv != p.model.nv || truth.num_moving_bodies() != p.model.num_moving_bodies())
    throw std::runtime_error(o.truth_urdf + ": its tree differs from the model " + p.model.label());
  truth.gravity = p.model.gravity;
  return truth;
}

namespace {

/// The true friction and drive terms of a simulation: the `actuators:` of the sidecar next to the
/// truth URDF (damping -> viscous, coulomb_friction -> coulomb and both asymmetric levels, armature or gear_ratio^2
/// rotor_inertia -> armature; offsets are not in a sidecar). Unset where it has none.
void attach_friction_truth(const InertialProblem& p, InertialIdentificationResult& r) {
  namespace fs = std::filesystem;
  const fs::path sidecar_path = fs::path(p.options.truth_urdf).replace_extension(".yaml");
  std::error_code ec;
  if (r.friction.empty() || !fs::is_regular_file(sidecar_path, ec)) return;
  const RobotSidecar truth = read_sidecar_file(sidecar_path.string());
  for (JointFrictionTerm& f : r.friction)
    for (const ActuatorInfo& a : truth.actuators) {
      if (a.joint != f.joint) continue;
      if (f.term == "viscous" && a.damping) f.truth = *a.damping;
      // A symmetric level is both levels of an asymmetric pair.
      if (f.term.rfind("coulomb", 0) == 0 && a.coulomb_friction) f.truth = *a.coulomb_friction;
      if (f.term == "armature" && a.armature) f.truth = *a.armature;
      if (f.term == "armature" && !a.armature && a.gear_ratio && a.rotor_inertia)
        f.truth = *a.gear_ratio * *a.gear_ratio * *a.rotor_inertia;
    }
}

}  // namespace

void compare_with_truth(const InertialProblem& p, const Model& truth, InertialIdentificationResult& r) {
  r.base_truth = base_parameter_values(p.base, truth.inertial_parameters());
  attach_friction_truth(p, r);
  // A grouped armature adds to the base parameters it groups with: the truth the data can show.
  for (const auto& [u, g] : p.grouped_friction)
    for (const JointFrictionTerm& f : r.friction)
      if (f.joint == u.joint && f.term == u.term && f.truth) *r.base_truth += g * *f.truth;
  std::map<std::string, double> largest;
  for (const JointFrictionTerm& f : r.friction)
    if (f.truth && f.grouped_with.empty()) largest[f.term] = std::max(largest[f.term], std::abs(*f.truth));
  for (const JointFrictionTerm& f : r.friction)
    if (f.truth && f.grouped_with.empty()) {
      const double e = std::abs(f.value - *f.truth) / std::max({std::abs(*f.truth), 0.01 * largest[f.term], 1e-300});
      r.friction_max_rel_error = std::max(r.friction_max_rel_error.value_or(0.0), e);
    }
  // The torque sensors' calibration that suits the true model: its rows of the folded least squares
  // with the friction at the truth (or the fit where the truth has none) and the base parameters at
  // the truth's, o_s = R_ss^-1 (z_s - R_s,rest x_rest). Without it the true model would be read
  // through a calibration fitted together with the identified model, which favours the latter.
  if (const Eigen::Index n_sensor = r.sensor_factor_rows.rows(); n_sensor > 0) {
    const Eigen::Index nf = static_cast<Eigen::Index>(p.friction.size()), nx = r.base_truth->size();
    VectorX rest(nf + nx);
    for (Eigen::Index f = 0; f < nf; ++f) {
      const JointFrictionTerm& term = r.friction[static_cast<std::size_t>(f)];
      rest[f] = term.truth ? *term.truth : term.value;
    }
    rest.tail(nx) = *r.base_truth;
    const VectorX rhs = r.sensor_factor_rhs - r.sensor_factor_rows.rightCols(nf + nx) * rest;
    r.truth_sensor_calibration = r.sensor_factor_rows.leftCols(n_sensor).triangularView<Eigen::Upper>().solve(rhs);
  }
  r.truth_total_mass = truth.total_mass();
  r.base_param_max_rel_error = base_parameter_relative_errors(p.base, r.base_values, *r.base_truth).maxCoeff();
  r.total_mass_error = r.total_mass - *r.truth_total_mass;
  r.parameter_error_vs_nominal = parameter_error_vs_nominal(p.base, r.base_values, r.base_nominal, *r.base_truth);
  r.parameter_counts_vs_nominal = parameter_counts_vs_nominal(p.base, r.base_values, r.base_nominal, *r.base_truth);
  if (r.determination.size() == p.base.num_base()) {
    std::vector<bool> determined(static_cast<std::size_t>(p.base.num_base()));
    for (int k = 0; k < p.base.num_base(); ++k) determined[static_cast<std::size_t>(k)] = r.determination[k] >= 0.75;
    r.parameter_error_vs_nominal_determined =
        parameter_error_vs_nominal(p.base, r.base_values, r.base_nominal, *r.base_truth, determined);
  }
}

void validate_identification(const InertialProblem& p, const Model* truth, InertialIdentificationResult& r) {
  const InertialIdentificationOptions& o = p.options;
  if (!o.validate.empty()) r.validation_time_alignment = p.validation_clocks;
  const Model& model = p.model;
  const RobotSidecar& sidecar = p.sidecar();
  const VectorX& pi_nominal = p.pi_nominal;
  std::optional<VectorX> pi_truth;
  if (truth) pi_truth = truth->inertial_parameters();
  // Every equation the data measure, nominal vs identified.
  auto validation = open_motion_source(p, true);
  IdentificationRows vrows(model, sidecar, p.base, p.set, validation->noise());
  vrows.set_support(model, sidecar, p.validation_set.segments);
  // The F/T sensors read as the fit calibrated them: a property of the sensors, so every model's
  // prediction is compared with the same corrected wrenches.
  if (!r.ft_calibration.empty()) {
    std::vector<std::pair<Matrix3, Matrix3>> correction;
    for (const InertialIdentificationResult::WrenchCalibration& w : r.ft_calibration)
      correction.emplace_back(w.force, w.moment);
    vrows.set_wrench_correction(std::move(correction));
  }
  RmsAccumulator acc_nominal, acc_identified, acc_truth, acc_without_friction;
  // Standard parameters with the base parameters of the fit without friction (any such vector
  // predicts the same generalized forces).
  std::optional<VectorX> pi_without_friction;
  if (r.base_values_without_friction) {
    const MatrixX& K = p.base.K;
    pi_without_friction =
        pi_nominal + K.transpose() * (K * K.transpose()).ldlt().solve(*r.base_values_without_friction - K * pi_nominal);
  }
  // Projection that removes every contact force (the `joints` set), for the projected RMS.
  const SensorSet contacts_unmeasured = parse_sensor_set(model, sidecar, "joints");
  std::vector<int> contact_frames;
  for (const ContactSurface& c : sidecar.contacts) contact_frames.push_back(model.frame_index(c.name));
  Data projection_data(model);
  MatrixX contact_projector;
  const long vexpected = std::max(1L, validation->size_hint());
  const long stride = std::max(1L, vexpected / 2000);
  const int j0 = model.floating_base ? 6 : 0;
  std::vector<int> plot_joints;
  for (int j = j0; j < model.nv && static_cast<int>(plot_joints.size()) < 4; j += std::max(1, (model.nv - j0) / 4))
    plot_joints.push_back(j);
  const auto vnames = model.velocity_names();
  r.series = ValidationSeries{};
  r.validation_samples = 0;
  for (int j : plot_joints) r.series.torque_joints.push_back(vnames[static_cast<std::size_t>(j)]);
  const std::size_t nj = plot_joints.size();
  r.series.measured_torque.resize(nj);
  r.series.nominal_torque.resize(nj);
  r.series.identified_torque.resize(nj);
  // With the parallel filter, the residuals are compared in the band the fit used: each model's
  // residual series (nominal, identified, truth: the columns) low-passed and decimated the same way.
  // Unmeasured torques (NaN) ride as a zero with a zero mask; a change of mask starts a new run.
  std::optional<ParallelRowFilter> residual_filter, projected_filter;
  // Columns: nominal, identified, then the truth and the fit without friction when there are.
  std::vector<RmsAccumulator*> column_acc = {&acc_nominal, &acc_identified};
  if (pi_truth) column_acc.push_back(&acc_truth);
  if (pi_without_friction) column_acc.push_back(&acc_without_friction);
  const int models = static_cast<int>(column_acc.size());
  if (o.parallel_filter.cutoff_hz > 0.0) {
    const double rate = source_sample_rate(o, p.validation_set);
    residual_filter.emplace(rate, o.parallel_filter,
                            [&](const MatrixX& R, const VectorX&, const VectorX& measured, double) {
                              for (int m = 0; m < models; ++m) {
                                VectorX residual = R.col(m);
                                for (Eigen::Index i = 0; i < residual.size(); ++i)
                                  if (measured[i] == 0.0) residual[i] = std::numeric_limits<double>::quiet_NaN();
                                column_acc[static_cast<std::size_t>(m)]->add(residual, model.floating_base, MatrixX());
                              }
                            });
    projected_filter.emplace(rate, o.parallel_filter, [&](const MatrixX& R, const VectorX&, const VectorX&, double) {
      for (int m = 0; m < models; ++m) column_acc[static_cast<std::size_t>(m)]->add_projected(R.col(m));
    });
  }
  // The torque sensors' unknowns c (offsets, then d = 1 - 1/g) as the training rows have them,
  // Y pi + o + d tau_m = f, added to a prediction.
  const auto add_sensor_calibration = [&](const VectorX& c, const MotionSample& sample, VectorX& prediction) {
    const auto velocity = [&](int k) {
      return model.bodies[static_cast<std::size_t>(p.set.torque_joints[static_cast<std::size_t>(k)])].idx_v;
    };
    for (int k = 0; k < p.num_torque_offsets; ++k) prediction[velocity(k)] += c[k];
    for (int k = 0; k < p.num_torque_gains; ++k)
      prediction[velocity(k)] += c[p.num_torque_offsets + k] * sample.joint_torques[velocity(k)];
  };
  MatrixX residuals, projected;
  VectorX measured_mask;
  MotionSample s;
  while (validation->next(s)) {
    vrows.build(s);
    const VectorX& f = vrows.generalized_forces();
    const VectorX pred_nominal = vrows.regressor() * pi_nominal;
    VectorX pred_identified = vrows.regressor() * r.standard_parameters;
    // What the joint torque sensors read as the fit calibrated them (offsets; gains below): a
    // property of the sensors, not of the rigid-body model, so the true model is given it too.
    VectorX sensor_terms = VectorX::Zero(model.nv);
    for (const TorqueOffset& t : r.torque_offsets) sensor_terms[t.velocity_index] += t.value;
    VectorX pred_without_friction;
    if (pi_without_friction) {
      pred_without_friction = vrows.regressor() * *pi_without_friction;
      add_sensor_calibration(*r.torque_offsets_without_friction, s, pred_without_friction);
    }
    VectorX truth_friction = VectorX::Zero(model.nv);
    for (const JointFrictionTerm& fr : r.friction) {
      const double x = joint_friction_regressor(fr.term, s.v[fr.velocity_index], s.a[fr.velocity_index],
                                                p.friction_terms.coulomb_smoothing_velocity);
      if (fr.grouped_with.empty()) pred_identified[fr.velocity_index] += fr.value * x;
      if (fr.truth) truth_friction[fr.velocity_index] += *fr.truth * x;
    }
    // A gain enters as the training rows have it, Y pi + o' + d tau_m = f with d = 1 - 1/g: the
    // measured joint torque, not the whole generalized force (which carries the contacts' share).
    for (const TorqueGain& g : r.torque_gains)
      sensor_terms[g.velocity_index] += (1.0 - 1.0 / g.value) * s.joint_torques[g.velocity_index];
    pred_identified += sensor_terms;
    // The true model read through its own calibration of the sensors (compare_with_truth).
    if (r.truth_sensor_calibration) {
      sensor_terms.setZero();
      add_sensor_calibration(*r.truth_sensor_calibration, s, sensor_terms);
    }
    contact_projector.resize(0, 0);
    if (f.allFinite())
      contact_projector = project_sensors(model, projection_data, s.q, contacts_unmeasured, contact_frames).projector;
    if (residual_filter) {
      residuals.resize(model.nv, models);
      residuals.col(0) = pred_nominal - f;
      residuals.col(1) = pred_identified - f;
      if (pi_truth) residuals.col(2) = vrows.regressor() * *pi_truth + truth_friction + sensor_terms - f;
      if (pi_without_friction) residuals.col(models - 1) = pred_without_friction - f;
      measured_mask = f.array().isFinite().cast<double>();
      for (Eigen::Index i = 0; i < f.size(); ++i)
        if (!std::isfinite(f[i])) residuals.row(i).setZero();
      residual_filter->add(s.time, residuals, VectorX::Zero(model.nv), measured_mask);
      if (contact_projector.size() > 0) {
        projected.noalias() = contact_projector * residuals;
        projected_filter->add(s.time, projected, VectorX::Zero(projected.rows()), VectorX::Ones(projected.rows()));
      }
    } else {
      acc_nominal.add(pred_nominal - f, model.floating_base, contact_projector);
      acc_identified.add(pred_identified - f, model.floating_base, contact_projector);
      if (pi_truth)
        acc_truth.add(vrows.regressor() * *pi_truth + truth_friction + sensor_terms - f, model.floating_base,
                      contact_projector);
      if (pi_without_friction) acc_without_friction.add(pred_without_friction - f, model.floating_base, MatrixX());
    }
    if (r.validation_samples++ % stride == 0) {
      r.series.time.push_back(s.time);
      if (model.floating_base) {
        r.series.measured_wrench.push_back(f.head<6>());
        r.series.nominal_wrench.push_back(pred_nominal.head<6>());
        r.series.identified_wrench.push_back(pred_identified.head<6>());
      }
      for (std::size_t i = 0; i < nj; ++i) {
        const int j = plot_joints[i];
        r.series.measured_torque[i].push_back(f[j]);
        r.series.nominal_torque[i].push_back(pred_nominal[j]);
        r.series.identified_torque[i].push_back(pred_identified[j]);
      }
    }
    if (r.validation_samples % 500 == 0)
      report_progress(
          o, 0.75 + 0.2 * std::min(1.0, static_cast<double>(r.validation_samples) / static_cast<double>(vexpected)),
          "validation: " + std::to_string(r.validation_samples) + " samples");
  }
  if (residual_filter) {
    residual_filter->flush();
    projected_filter->flush();
  }
  if (r.validation_samples == 0) throw std::runtime_error("no validation samples (held-out window empty)");
  r.nominal_rms = acc_nominal.rms();
  r.identified_rms = acc_identified.rms();
  if (pi_truth) r.truth_rms = acc_truth.rms();
  if (pi_without_friction) {
    r.without_friction_rms = acc_without_friction.rms();
    r.torque_rms_without_friction = r.without_friction_rms->torque;
  }
  r.warnings.clear();
  // The learned prior's ceiling already allows a CAD error of its fraction of every body's scale;
  // data that ask for more move some parameters by more than any CAD model is off, which errors
  // of the sensors or unknowns that leave these parameters to such errors do (ident/cad_prior.hpp).
  for (const InertialIdentificationResult::PriorCeiling& c : r.cad_prior_above_ceiling) {
    std::string moves;
    for (const auto& [name, move] : c.largest_moves)
      moves += (moves.empty() ? "" : ", ") + name + " " + format_fixed(move, 2);
    r.warnings.push_back(std::string("CAD prior: the data moved the ") + to_string(c.parameter_class) + " class by " +
                         format_fixed(100.0 * c.wanted, 0) + " % of each body's scale (RMS), more than the " +
                         format_fixed(100.0 * o.cad_prior_fraction, 0) +
                         " % the prior allows; largest moves in body scales: " + moves +
                         ". Errors the sensors' noise model does not explain pull these parameters (check the "
                         "sensors' calibration and clocks; compare them with the CAD model before using them)");
  }
  const auto worse = [&](const char* what, const char* unit, double nominal, double identified) {
    if (identified > nominal)
      r.warnings.push_back(std::string("held-out ") + what + " RMS: identified " + format_fixed(identified, 3) + " " +
                           unit + " > nominal " + format_fixed(nominal, 3) + " " + unit +
                           ": the data do not support the fit of these rows (try --prior, more excitation)");
  };
  worse("base force", "N", r.nominal_rms.force, r.identified_rms.force);
  worse("base moment", "N m", r.nominal_rms.moment, r.identified_rms.moment);
  if (r.nominal_rms.torque && r.identified_rms.torque)
    worse("joint torque", "N m", *r.nominal_rms.torque, *r.identified_rms.torque);
  // In simulation: a model that explains the held-out data better than the true one has absorbed the
  // data path's own errors (filtering, base estimation) into its parameters.
  if (r.truth_rms) {
    const auto beats = [&](const char* what, const char* unit, double floor, double identified) {
      if (identified < 0.95 * floor)
        r.warnings.push_back(std::string("held-out ") + what + " RMS: identified " + format_fixed(identified, 4) + " " +
                             unit + " < the true model's " + format_fixed(floor, 4) + " " + unit +
                             ": the fit absorbed errors of the data path (compare parameter_error_vs_nominal)");
    };
    beats("base force", "N", r.truth_rms->force, r.identified_rms.force);
    beats("base moment", "N m", r.truth_rms->moment, r.identified_rms.moment);
    if (r.truth_rms->torque && r.identified_rms.torque)
      beats("joint torque", "N m", *r.truth_rms->torque, *r.identified_rms.torque);
  }
}

namespace {
/// File name of the identified URDF in the output directory: the model file's stem + "_identified.urdf".
std::string identified_urdf_name(const InertialProblem& p) {
  return std::filesystem::path(p.robot.urdf_path).stem().string() + "_identified.urdf";
}
}  // namespace

std::string inertial_summary_json(const InertialProblem& p, const InertialIdentificationResult& r) {
  const InertialIdentificationOptions& o = p.options;
  json j;
  j["model"] = p.model.label();
  j["data"] = o.data;
  j["source"] = r.source_description;
  j["sensors"] = p.set.label;
  j["locked_joints"] = o.locks.size();
  j["samples"] = r.samples;
  j["validation_samples"] = r.validation_samples;
  j["validation_data"] = validation_data_text(o);
  j["base_parameters"] = p.base.num_base();
  // What writing the identified model into the user's URDF changed: each link's inertial, locked
  // joints made fixed, a body folded onto its main link (model/urdf_writer.hpp).
  j["identified_urdf"] = {{"file", identified_urdf_name(p)}, {"changes", r.identified_urdf_changes}};
  j["parallel_filter"] = r.parallel_filter
                             ? json{{"cutoff_hz", r.parallel_filter->cutoff_hz},
                                    {"decimation", r.parallel_filter->decimation},
                                    {"samples_in", r.parallel_filter->samples_in},
                                    {"samples_out", r.parallel_filter->samples_out},
                                    {"runs", r.parallel_filter->runs},
                                    {"all_rows", o.parallel_filter_all_rows},
                                    {"standard_deviation_factor", r.parallel_filter->standard_deviation_factor}}
                             : json(nullptr);
  j["acceleration_noise"] =
      r.acceleration_noise ? json{{"base_linear_m_s2", r.acceleration_noise->base_linear},
                                  {"base_angular_rad_s2", r.acceleration_noise->base_angular},
                                  {"bias_removed", r.acceleration_noise->bias_removed},
                                  {"capped_directions", r.acceleration_noise->capped_directions},
                                  {"gyro_noise_density", r.acceleration_noise->gyro_noise_density},
                                  {"accelerometer_noise_density", r.acceleration_noise->accelerometer_noise_density},
                                  {"densities_from", r.acceleration_noise->densities_from_data ? "data" : "options"}}
                           : json(nullptr);
  // Per stream: its clock against the encoders, as estimated (or given) and whether it was applied.
  auto clocks_json = [](const std::map<std::string, AppliedStreamClock>& clocks) {
    json alignment = json::object();
    for (const auto& [stream, c] : clocks) {
      json a = {{"offset_s", c.estimate.clock.offset_s},
                {"drift_ppm", c.estimate.clock.drift_ppm},
                {"reference_time_s", c.estimate.clock.reference_time_s},
                {"source", c.given ? "given" : "estimated"},
                {"applied", c.applied}};
      if (!c.given) {
        a["correlation"] = c.estimate.correlation;
        a["compared"] = c.estimate.compared;
        // The windows the drift was fitted to (0: too short a recording, drift 0) and its std.
        a["drift_windows"] = c.estimate.drift_windows;
        a["drift_std_ppm"] = c.estimate.drift_std_ppm;
      }
      if (c.refined) {
        // The kinematic estimate it started from and the fit's residual at both (--align-time).
        const AppliedStreamClock::FitRefinement& f = *c.refined;
        json refined = {{"kinematic_offset_s", f.kinematic_offset_s},
                        {"residual_rms_kinematic", f.residual_rms_kinematic},
                        {"residual_rms_refined", f.residual_rms_refined},
                        {"fits", f.fits},
                        {"converged", f.converged}};
        if (!f.warning.empty()) refined["warning"] = f.warning;
        a["refined_by_fit"] = refined;
      }
      if (!c.estimate.warning.empty()) a["warning"] = c.estimate.warning;
      alignment[stream] = a;
    }
    return alignment;
  };
  j["time_alignment"] = clocks_json(r.time_alignment);
  // A separate validation data set's own clocks (its held-out window reads the training's).
  if (!r.validation_time_alignment.empty()) j["validation_time_alignment"] = clocks_json(r.validation_time_alignment);
  const auto imu_json = [](const ImuCalibration& c) {
    const auto vec = [](const Vector3& v) { return std::vector<double>{v.x(), v.y(), v.z()}; };
    nlohmann::json rows = nlohmann::json::array(), windows = nlohmann::json::array();
    for (int i = 0; i < 3; ++i) rows.push_back(vec(c.sensor_axes_in_frame.row(i).transpose()));
    for (const ImuStillWindow& w : c.windows) windows.push_back({w.start, w.end});
    return nlohmann::json{
        {"still_windows", windows},
        {"still_seconds", c.still_seconds},
        {"gyro_bias_rad_s", vec(c.gyro_bias_rad_s)},
        {"accel_bias_m_s2", vec(c.accel_bias_m_s2)},
        {"axes_determined", c.axes_determined},
        {"axes_note", c.axes_note},
        {"sensor_axes_in_frame", rows},
        {"misalignment_deg", c.misalignment_deg},
        {"misalignment_axis", vec(c.misalignment_axis)},
        {"std_deg", vec(c.std_deg)},
        {"attitude_spread_deg", c.attitude_spread_deg},
        {"residual_rms_m_s2", c.residual_rms_m_s2},
        {"applied",
         "the gyro bias, and the axes when determined; the accelerometer's bias used is the whole motion's mean "
         "against the kinematics (it also carries the kinematic attitude's error)"},
        {"basis",
         "the windows where the robot holds still (every joint and the kinematic base rate slow): "
         "mean gyro = bias; mean accelerometer against the kinematic gravity in the IMU's sidecar "
         "frame = axes (when the windows' attitudes fix them) and bias; biases in the sensor's axes"}};
  };
  if (r.imu_calibration) j["imu_calibration"] = imu_json(*r.imu_calibration);
  if (r.validation_imu_calibration) j["validation_imu_calibration"] = imu_json(*r.validation_imu_calibration);
  j["condition_number"] = r.condition_number;
  j["residual_rms_weighted"] = r.residual_rms_weighted;
  j["unexplained_residual"] = {{"noise_ratio", r.unexplained.noise_ratio},
                               {"level", r.unexplained.level},
                               {"basis", r.unexplained.basis},
                               {"explanation", r.unexplained.explanation}};
  if (p.cad_prior) {
    j["prior"] = "cad";
    const DeterminationCounts counts = count_determination(r.determination);
    j["cad_prior"] = {{"fraction", o.cad_prior_fraction},
                      {"coordinates", to_string(p.cad_coordinates)},
                      {"block_s", o.cad_prior_block_s},
                      {"data_scale", r.cad_data_scale ? json(*r.cad_data_scale) : json(nullptr)},
                      {"determined_by_motion", counts.determined},
                      {"kept_at_cad", counts.kept_at_cad},
                      {"partly", counts.partly},
                      {"keep_at_cad", o.keep_at_cad},
                      {"keep_below", o.keep_at_cad ? json(o.keep_below) : json(nullptr)},
                      {"held_at_cad", r.held_at_cad}};
    if (r.cad_prior_fractions) {
      json learned;
      for (int c = 0; c < kCadParameterClasses; ++c)
        learned[to_string(static_cast<CadParameterClass>(c))] = (*r.cad_prior_fractions)[static_cast<std::size_t>(c)];
      j["cad_prior"]["learned_fraction"] = learned;
    }
    if (r.cad_prior_wanted_fractions) {
      json wanted;
      for (int c = 0; c < kCadParameterClasses; ++c)
        wanted[to_string(static_cast<CadParameterClass>(c))] =
            (*r.cad_prior_wanted_fractions)[static_cast<std::size_t>(c)];
      j["cad_prior"]["wanted_fraction"] = wanted;
      json above = json::array();
      for (const InertialIdentificationResult::PriorCeiling& c : r.cad_prior_above_ceiling) {
        json moves = json::array();
        for (const auto& [name, move] : c.largest_moves) moves.push_back({{"coordinate", name}, {"move", move}});
        above.push_back({{"class", to_string(c.parameter_class)}, {"wanted", c.wanted}, {"largest_moves", moves}});
      }
      j["cad_prior"]["above_ceiling"] = above;
    }
  } else {
    j["prior"] = r.prior;
  }
  json weighting;
  weighting["mode"] = o.weighting;
  if (!r.weighting_scales.empty()) {
    json groups = json::array();
    for (const EquationGroupScale& g : r.weighting_scales)
      groups.push_back({{"equation", g.label}, {"rows", g.rows}, {"scale", g.scale}});
    weighting["groups"] = groups;
  }
  j["weighting"] = weighting;
  if (o.torque_offsets) {
    json offsets = json::array();
    for (const TorqueOffset& t : r.torque_offsets)
      offsets.push_back({{"joint", t.joint}, {"offset", t.value}, {"std", t.std}});
    j["torque_offsets"] = offsets;
  }
  // The joint torque sensors' gain accuracy counted in the standard deviations (null: not counted).
  j["torque_gain_std"] = o.torque_gain_std > 0.0 ? json(o.torque_gain_std) : json(nullptr);
  if (o.torque_gains) {
    json gains = json::array();
    for (const TorqueGain& t : r.torque_gains) gains.push_back({{"joint", t.joint}, {"gain", t.value}, {"std", t.std}});
    j["torque_gains"] = gains;
  }
  if (!r.ft_calibration.empty()) {
    auto rows_of = [](const Matrix3& m) {
      json rows = json::array();
      for (int i = 0; i < 3; ++i) rows.push_back({m(i, 0), m(i, 1), m(i, 2)});
      return rows;
    };
    json calibration = json::object();
    for (const InertialIdentificationResult::WrenchCalibration& w : r.ft_calibration)
      calibration[w.contact] = {{"sensor", w.sensor},
                                {"force_matrix", rows_of(w.force)},
                                {"moment_matrix", rows_of(w.moment)},
                                {"force_std", rows_of(w.force_std)},
                                {"moment_std", rows_of(w.moment_std)}};
    j["ft_calibration"] = {{"frame", "sensor"},
                           {"meaning", "the wrench in the F/T sensor's frame is the matrix times its reading"},
                           {"prior_std", o.ft_calibration_std},
                           {"contacts", calibration}};
  }
  if (r.total_mass_kg > 0.0) j["total_mass_weighed"] = {{"kg", r.total_mass_kg}, {"std_kg", r.total_mass_std_kg}};
  if (!r.gear_windup.empty()) {
    json joints = json::object();
    for (const InertialIdentificationResult::GearWindupCorrection& g : r.gear_windup)
      joints[g.joint] = {{"stiffness_nm_per_rad", g.stiffness},
                         {"from", g.from},
                         {"max_twist_deg", g.max_twist * 180.0 / M_PI},
                         {"rms_twist_deg", g.rms_twist * 180.0 / M_PI}};
    j["gear_windup"] = {{"joints", joints},
                        {"link_torques_from", "the first fit's model (training), the identified model (validation)"}};
    if (o.gear_windup_deg > 0.0) j["gear_windup"]["windup_at_effort_limit_deg"] = o.gear_windup_deg;
  }
  if (!r.gear_plays_deg.empty()) {
    json plays = json::object();
    for (const auto& [joint, deg] : r.gear_plays_deg)
      if (deg > 0.0) plays[joint] = deg;
    j["gear_backlash"] = {{"play_deg", o.gear_backlash_deg},
                          {"from", o.gear_backlash_from_sidecar ? "sidecar" : "--gear-backlash"},
                          {"joints_deg", plays},
                          {"crossing_fraction", r.gear_play_crossing_fraction},
                          {"crossing", "each sidecar actuator's armature and damping (instant without)"},
                          {"link_torques_from", "the first fit's model (training), the identified model (validation)"}};
  }
  if (!r.friction.empty()) {
    json friction = json::object();
    for (const JointFrictionTerm& f : r.friction) {
      json& joint = friction[f.joint];
      if (!f.grouped_with.empty()) {
        joint[f.term] = nullptr;
        joint["grouped_with"][f.term] = f.grouped_with;
      } else {
        joint[f.term] = f.value;
        joint["std"][f.term] = f.std;
        if (f.at_bound) joint["at_bound"].push_back(f.term);
      }
      if (f.truth) joint["truth"][f.term] = *f.truth;
    }
    j["friction"] = friction;
    j["friction_units"] =
        "viscous N m s/rad, coulomb N m, offset N m, armature kg m^2 (prismatic joints: N s/m, N, N, kg); "
        "coulomb_positive / coulomb_negative (coulomb-asymmetric): the Coulomb level while the joint moves in the "
        "positive / negative direction, N m (N); "
        "grouped_with: not separable from that base parameter, which carries it; at_bound (with --consistent): held "
        "at zero, the data asked for a negative value";
    const bool coulomb = std::any_of(r.friction.begin(), r.friction.end(),
                                     [](const JointFrictionTerm& f) { return f.term.rfind("coulomb", 0) == 0; });
    j["coulomb_smoothing_velocity"] = coulomb ? p.friction_terms.coulomb_smoothing_velocity : 0.0;
    if (r.friction_max_rel_error) j["friction_max_rel_error"] = *r.friction_max_rel_error;
  }
  j["estimate"] = p.fixed_part   ? "two-phase: masses and COMs of " + o.fix_mass_com + " kept"
                  : o.consistent ? "physically consistent (LMI, log-det barrier)"
                                 : "least squares";
  if (r.consistent_fit)
    j["consistent_fit"] = {{"converged", r.consistent_fit->converged},
                           {"iterations", r.consistent_fit->iterations},
                           {"data_cost", r.consistent_fit->data_cost},
                           {"prior_cost", r.consistent_fit->prior_cost},
                           {"prior_weight", o.consistent_fit.prior_weight}};
  j["total_mass"] = r.total_mass;
  j["nominal_total_mass"] = r.nominal_total_mass;
  j["physically_consistent"] = r.physically_consistent;
  j["inconsistent_links"] = r.inconsistent_links;
  json v;
  v["wrench_rms"] = rms_json(r.nominal_rms.force, r.identified_rms.force);
  v["moment_rms"] = rms_json(r.nominal_rms.moment, r.identified_rms.moment);
  v["torque_rms"] = rms_json(r.nominal_rms.torque, r.identified_rms.torque);
  v["projected_rms"] = rms_json(r.nominal_rms.projected, r.identified_rms.projected);
  if (r.truth_rms) {  // the floor: what the data's own errors leave with the true inertias
    v["wrench_rms"]["truth"] = r.truth_rms->force;
    v["moment_rms"]["truth"] = r.truth_rms->moment;
    v["torque_rms"]["truth"] = r.truth_rms->torque ? json(*r.truth_rms->torque) : json(nullptr);
    v["projected_rms"]["truth"] = r.truth_rms->projected ? json(*r.truth_rms->projected) : json(nullptr);
    // The torque sensors' calibration each model's joint torques are read through.
    if (!r.torque_offsets.empty() || !r.torque_gains.empty())
      v["truth_sensor_calibration"] =
          r.truth_sensor_calibration ? "refitted for the true model on the training rows" : "the identified model's";
  }
  v["units"] =
      "wrench_rms: base force [N]; moment_rms: base moment [N m]; torque_rms: joint torque [N m]; projected_rms: "
      "generalized force in the null space of the contact Jacobians (contact forces projected out)";
  // With the parallel filter the residuals are low-passed and decimated like the training equations.
  v["band_hz"] = o.parallel_filter.cutoff_hz > 0.0 ? json(o.parallel_filter.cutoff_hz) : json(nullptr);
  // With friction: the same fit without the friction columns (how much the friction explains).
  if (r.torque_rms_without_friction) v["torque_rms"]["identified_without_friction"] = *r.torque_rms_without_friction;
  // Per joint with a measured torque: {joint: {nominal, identified[, truth][, identified_without_friction]}}.
  json per_joint = json::object();
  const auto at = [](const ValidationRms& rms, std::size_t i) {
    return i < rms.per_coordinate.size() && rms.per_coordinate[i] ? json(*rms.per_coordinate[i]) : json(nullptr);
  };
  for (std::size_t b = 1; b < p.model.bodies.size(); ++b) {
    const Body& body = p.model.bodies[b];
    if (body.joint_name.empty() || body.nv != 1) continue;
    const std::size_t i = static_cast<std::size_t>(body.idx_v);
    if (i >= r.identified_rms.per_coordinate.size() || !r.identified_rms.per_coordinate[i]) continue;
    json joint = {{"nominal", at(r.nominal_rms, i)}, {"identified", at(r.identified_rms, i)}};
    if (r.truth_rms) joint["truth"] = at(*r.truth_rms, i);
    if (r.without_friction_rms) joint["identified_without_friction"] = at(*r.without_friction_rms, i);
    per_joint[body.joint_name] = joint;
  }
  v["torque_rms_per_joint"] = per_joint;
  j["validation"] = v;
  if (!r.parameter_error_vs_nominal.empty()) {
    json ratios = json::object();
    for (const auto& [label, ratio] : r.parameter_error_vs_nominal) ratios[label] = ratio;
    j["parameter_error_vs_nominal"] = ratios;
    json determined;
    for (const auto& [label, ratio] : r.parameter_error_vs_nominal_determined) determined[label] = ratio;
    if (!determined.is_null()) j["parameter_error_vs_nominal_determined"] = determined;
    json counts;
    for (const ParameterCountsVsNominal& c : r.parameter_counts_vs_nominal)
      counts[c.label] = {{"closer", c.closer}, {"farther", c.farther}, {"as_cad", c.as_cad}};
    j["parameter_closer_than_nominal"] = counts;
  }
  if (r.base_param_max_rel_error) {
    j["base_param_max_rel_error"] = *r.base_param_max_rel_error;
    j["total_mass_error"] = *r.total_mass_error;
    j["truth_total_mass"] = *r.truth_total_mass;
  }
  j["warnings"] = r.warnings;
  j["input_warnings"] = r.input_warnings;
  return j.dump(2) + "\n";
}

namespace {

/// An asymmetric Coulomb pair (f+ and f-) as the sidecar's one symmetric level: its mean
/// as `coulomb_friction`, the two levels and the rest, (f+ - f-) / 2, which acts as an offset while
/// the joint moves, as comments.
std::string coulomb_pair_yaml(const InertialIdentificationResult& r, const JointFrictionTerm& positive) {
  const auto negative = std::find_if(r.friction.begin(), r.friction.end(), [&](const JointFrictionTerm& f) {
    return f.joint == positive.joint && f.term == "coulomb_negative";
  });
  if (negative == r.friction.end() || !negative->grouped_with.empty())
    return "    # coulomb_positive: " + format_exact(positive.value) + " (no sidecar key)\n";
  const double fp = positive.value, fn = negative->value;
  return "    # asymmetric Coulomb: coulomb_positive " + format_exact(fp) + ", coulomb_negative " + format_exact(fn) +
         "; the sidecar has one level: their mean below, and (f+ - f-) / 2 = " + format_exact(0.5 * (fp - fn)) +
         " acts as an offset while the joint moves\n    coulomb_friction: " + format_exact(0.5 * (fp + fn)) + "\n";
}

/// The identified friction as a sidecar's `actuators:` entries (docs/robot-sidecar.md; read back by
/// read_actuators_file): damping, coulomb_friction, armature per joint. Offsets and grouped
/// armatures have no key; they are listed as comments.
std::string friction_actuators_yaml(const InertialProblem& p, const InertialIdentificationResult& r) {
  std::string y = "# Joint friction and armature identified by dynid identify inertial from " + p.options.data +
                  "\n# (summary.json friction; Coulomb smoothed over " +
                  format_exact(p.friction_terms.coulomb_smoothing_velocity) +
                  " rad/s). Copy into the robot's sidecar.\n" + "actuators:\n";
  std::vector<std::string> joints;
  for (const JointFrictionTerm& f : r.friction)
    if (std::find(joints.begin(), joints.end(), f.joint) == joints.end()) joints.push_back(f.joint);
  static const std::map<std::string, std::string> kKey = {
      {"viscous", "damping"}, {"coulomb", "coulomb_friction"}, {"armature", "armature"}};
  for (const std::string& joint : joints) {
    y += "  - joint: " + joint + "\n";
    for (const JointFrictionTerm& f : r.friction) {
      if (f.joint != joint) continue;
      if (!f.grouped_with.empty())
        y += "    # " + f.term + ": grouped with base parameter " + f.grouped_with + "\n";
      else if (f.term == "coulomb_positive")
        y += coulomb_pair_yaml(r, f);
      else if (f.term == "coulomb_negative")
        continue;  // with its positive level
      else if (f.term == "offset")
        y += "    # offset: " + format_exact(f.value) + " N m (no sidecar key)\n";
      else
        y += "    " + kKey.at(f.term) + ": " + format_exact(f.value) + "\n";
    }
  }
  return y;
}

}  // namespace

std::vector<std::string> write_inertial_identification(const InertialProblem& p, const InertialIdentificationResult& r,
                                                       const std::string& out_dir) {
  report_progress(p.options, 0.96, "writing " + out_dir);
  std::vector<std::string> written;
  const BaseParameters& base = p.base;
  const std::string urdf_out = out_dir + "/" + identified_urdf_name(p);
  // With --lock the locked joints become fixed joints at their lock value (model/urdf_writer.hpp).
  write_urdf_file(r.identified_model, p.robot.urdf_path, urdf_out);
  written.push_back(urdf_out);
  json bp = json::array();
  for (int k = 0; k < base.num_base(); ++k) {
    json e;
    e["name"] = base.name(k);
    e["expression"] = base.expression(k);
    e["value"] = r.base_values[k];
    e["std"] = r.base_std[k];
    if (r.base_std_from_torque_gains.size() > 0) e["std_from_torque_gains"] = r.base_std_from_torque_gains[k];
    e["nominal"] = r.base_nominal[k];
    if (r.base_truth) e["truth"] = (*r.base_truth)[k];
    if (r.determination.size() == base.num_base()) {
      e["prior_std"] = r.prior_std[k];
      e["determination"] = r.determination[k];
      e["status"] = determination_status(r.determination[k]);
    }
    json terms = json::array();
    for (const ParameterTerm& t : base.groups[static_cast<std::size_t>(k)])
      terms.push_back(
          {{"parameter", base.parameter_names[static_cast<std::size_t>(t.parameter)]}, {"coefficient", t.coefficient}});
    e["group"] = terms;
    bp.push_back(e);
  }
  write_file_atomically(out_dir + "/base_parameters.json", bp.dump(2) + "\n");
  write_file_atomically(out_dir + "/base_parameters.txt", base_parameters_text(r));
  write_file_atomically(out_dir + "/summary.json", r.summary_json);
  if (!r.friction.empty()) {
    write_file_atomically(out_dir + "/actuators.yaml", friction_actuators_yaml(p, r));
    written.push_back(out_dir + "/actuators.yaml");
  }
  write_identification_report(r, out_dir + "/report.html");
  for (const char* f : {"/base_parameters.json", "/base_parameters.txt", "/summary.json", "/report.html"})
    written.push_back(out_dir + f);
  return written;
}

InertialIdentificationResult run_inertial_identification(const InertialIdentificationOptions& options) {
  InertialProblem problem = prepare_inertial_identification(options);
  refine_stream_clocks(problem);
  InertialEstimate estimate = estimate_inertial_parameters(problem);
  std::vector<InertialIdentificationResult::GearWindupCorrection> windup;
  estimate = correct_gear_windup(problem, estimate, windup);
  InertialIdentificationResult result = identified_parameters(problem, estimate);
  result.gear_windup = std::move(windup);
  correct_validation_gear_windup(problem, result);
  const std::optional<Model> truth = load_truth_model(problem);
  if (truth) compare_with_truth(problem, *truth, result);
  validate_identification(problem, truth ? &*truth : nullptr, result);
  if (options.user_terms) {  // a lab trial named as the user gave it, not as its temporary import
    result.source_description = options.user_terms(result.source_description);
    result.validation_data = options.user_terms(result.validation_data);
  }
  result.summary_json = inertial_summary_json(problem, result);
  if (options.user_terms) {
    // Each string of the summary (JSON-aware: a path with a quote stays valid JSON).
    json summary = json::parse(result.summary_json);
    apply_user_terms(summary, options.user_terms);
    result.summary_json = summary.dump(2) + "\n";
  }
  if (!options.out_dir.empty()) result.written_files = write_inertial_identification(problem, result, options.out_dir);
  report_progress(options, 1.0, "done");
  return result;
}

}  // namespace dynid
