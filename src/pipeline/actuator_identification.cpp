#include "dynid/pipeline/actuator_identification.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>

#include "dynid/actuator/ilc.hpp"
#include "dynid/core/atomic_file.hpp"
#include "dynid/core/number_format.hpp"
#include "dynid/data/input_checks.hpp"
#include "dynid/data/white_noise_estimate.hpp"
#include "dynid/dynamics/rnea.hpp"
#include "dynid/io/csv_stream.hpp"
#include "dynid/locomotion/servo_prediction.hpp"
#include "dynid/mocap/filtfilt.hpp"
#include "dynid/model/urdf_writer.hpp"
#include "dynid/pipeline/unexplained_residual.hpp"
#include "dynid/report/html_report.hpp"
#include "dynid/scenarios/servo_bench.hpp"
#include "dynid/scenarios/servo_trials.hpp"

namespace dynid {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const ActuatorInfo* find_actuator(const RobotSidecar& sidecar, const std::string& joint) {
  for (const ActuatorInfo& a : sidecar.actuators)
    if (a.joint == joint) return &a;
  return nullptr;
}

int joint_body(const Model& model, const std::string& joint) {
  for (std::size_t i = 1; i < model.bodies.size(); ++i)
    if (model.bodies[i].joint_name == joint) return static_cast<int>(i);
  std::string names;
  for (std::size_t i = 1; i < model.bodies.size(); ++i)
    names += (names.empty() ? "" : ", ") + model.bodies[i].joint_name;
  throw std::invalid_argument("unknown joint '" + joint + "' in " + model.name + " (joints: " + names + ")");
}

double gain_per_rad(const ServoParameters& p, double p_gain) {
  return servo_gain_per_rad(p_gain, p.encoder_counts_per_rev, p.pwm_full_scale);
}

/// The joint's motion from measured positions: zero-phase 4th-order Butterworth at `cutoff_hz` (the
/// encoder's quantisation would swamp differentiated accelerations; 0: no filter), then central
/// differences.
SampledTrajectory measured_motion(double dt, const std::vector<double>& position, double cutoff_hz) {
  if (cutoff_hz <= 0.0) return trajectory_from_positions(dt, position);
  const IirFilter lowpass = butterworth_lowpass(4, cutoff_hz, 1.0 / dt);
  if (static_cast<Eigen::Index>(position.size()) <= filtfilt_padlen(lowpass))
    throw std::invalid_argument("servo trial too short to differentiate (" + std::to_string(position.size()) +
                                " samples)");
  const Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(position.data(), Eigen::Index(position.size()));
  const Eigen::VectorXd f = filtfilt(lowpass, x);
  return trajectory_from_positions(dt, std::vector<double>(f.data(), f.data() + f.size()));
}

/// tau_o along a motion of one joint (the others at the neutral value): the links' inverse dynamics.
std::vector<double> link_torques(const Model& links, int body, const SampledTrajectory& m) {
  const Body& b = links.bodies[static_cast<std::size_t>(body)];
  Data data(links);
  VectorX q = links.neutral_configuration(), v = VectorX::Zero(links.nv), a = VectorX::Zero(links.nv);
  std::vector<double> tau;
  tau.reserve(m.size());
  for (std::size_t n = 0; n < m.size(); ++n) {
    q[b.idx_q] = m.position_rad[n];
    v[b.idx_v] = m.velocity_rad_s[n];
    a[b.idx_v] = m.acceleration_rad_s2[n];
    tau.push_back(rnea(links, data, q, v, a)[b.idx_v]);
  }
  return tau;
}

ActuatorTrialSeries trial_series(const Model& links, int body, double dt, double gain, std::vector<double> command,
                                 std::vector<double> position, std::vector<double> supply, double cutoff_hz) {
  ActuatorTrialSeries s;
  s.dt_s = dt;
  s.gain_per_rad = gain;
  const SampledTrajectory motion = measured_motion(dt, position, cutoff_hz);
  s.tau_o_nm = link_torques(links, body, motion);
  s.qdot_rad_s = motion.velocity_rad_s;
  s.qddot_rad_s2 = motion.acceleration_rad_s2;
  s.command_rad = std::move(command);
  s.position_rad = std::move(position);
  s.supply_v = std::move(supply);
  return s;
}

ActuatorModel datasheet_model(const ServoParameters& p) {
  ActuatorModel m;
  m.alpha = alpha_from_physical(actuator_physical(p));
  m.stribeck = {p.stribeck_velocity_rad_s, 1.0};
  m.reaction_time_s = 0.0;  // a datasheet knows no bus latency
  return m;
}

/// The feed-forward command of eq. (19) for a reference: the model's voltage for the reference
/// motion at n + t_d, sent at n (the firmware uses it t_d later).
std::vector<double> feedforward_command(const ActuatorModel& model, const Model& links, int body,
                                        const SampledTrajectory& ref, double gain, double supply) {
  const std::vector<double> tau = link_torques(links, body, ref);
  const long d = std::lround(model.reaction_time_s / ref.dt_s);
  const long n = static_cast<long>(ref.size());
  std::vector<double> command(ref.size());
  for (long i = 0; i < n; ++i) {
    const std::size_t k = static_cast<std::size_t>(std::min(n - 1, i + d));
    const double u = model.voltage(tau[k], ref.velocity_rad_s[k], ref.acceleration_rad_s2[k]);
    command[static_cast<std::size_t>(i)] = servo_command(u, ref.position_rad[k], gain, supply);
  }
  return command;
}

json alpha_json(const ActuatorAlpha& a) { return json(std::vector<double>(a.begin(), a.end())); }

struct TrackingNumbers {
  double max_windowed = 0.0, mean_abs = 0.0;
  std::vector<double> measured;
};

TrackingNumbers tracking(const SampledTrajectory& ref, const std::vector<double>& measured, int window) {
  return {max_windowed_error(ref.position_rad, measured, window), mean_abs_error(ref.position_rad, measured), measured};
}

std::string csv_number(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.12g", x);
  return buffer;
}

/// A servo log in the servo-bench format (docs/data-format.md: servo.csv).
std::string servo_log_csv(const std::string& joint, const ServoTrialRecord& r) {
  std::string text = "time," + joint + ".q_cmd," + joint + ".q," + joint + ".current," + joint + ".voltage," + joint +
                     ".supply_voltage\n";
  for (std::size_t n = 0; n < r.command_rad.size(); ++n)
    text += csv_number(double(n) * r.dt_s) + "," + csv_number(r.command_rad[n]) + "," + csv_number(r.position_rad[n]) +
            "," + csv_number(r.current_a[n]) + "," + csv_number(r.voltage_v[n]) + "," + csv_number(r.supply_v[n]) +
            "\n";
  return text;
}

/// One servo log read back: command, position, supply voltage of `joint`.
struct ServoLog {
  std::string path;
  double dt = 0.0;
  std::vector<double> command, position, supply;
};

ServoLog read_servo_log(const std::string& path, const std::string& joint) {
  const CsvStream s = read_csv_stream(path);
  auto column = [&](const std::string& channel, const char* what) {
    for (std::size_t c = 0; c < s.header.size(); ++c)
      if (s.header[c] == channel) return static_cast<Eigen::Index>(c);
    throw std::invalid_argument(path + ": no channel '" + channel + "' (" + what +
                                "; a servo log needs the command, the position and the supply voltage)");
  };
  const Eigen::Index c_cmd = column(joint + ".q_cmd", "the commanded position"),
                     c_q = column(joint + ".q", "the measured position"),
                     c_u = column(joint + ".supply_voltage", "the supply voltage");
  ServoLog log;
  log.path = path;
  const Eigen::Index rows = s.values.rows();
  if (rows < 100)
    throw std::invalid_argument(path + ": only " + std::to_string(rows) + " rows (need a trial of seconds)");
  log.dt = (s.values(rows - 1, 0) - s.values(0, 0)) / double(rows - 1);
  for (Eigen::Index r = 0; r < rows; ++r) {
    if (r > 0 && std::abs(s.values(r, 0) - s.values(r - 1, 0) - log.dt) > 1e-3 * log.dt)
      throw std::invalid_argument(path + ": row " + std::to_string(r + 1) + ": time is not uniformly sampled");
    for (Eigen::Index c : {c_cmd, c_q, c_u})
      if (!std::isfinite(s.values(r, c)))
        throw std::invalid_argument(path + ": row " + std::to_string(r + 1) + ": '" + s.header[std::size_t(c)] +
                                    "' is empty or not finite");
    log.command.push_back(s.values(r, c_cmd));
    log.position.push_back(s.values(r, c_q));
    log.supply.push_back(s.values(r, c_u));
  }
  // A servo that never moves shows nothing of its motor and friction: the fit would be rank-deficient.
  const auto [low, high] = std::minmax_element(log.position.begin(), log.position.end());
  if (*high - *low < InputCheckOptions{}.still_range_rad)
    throw std::invalid_argument(path + ": '" + joint + ".q' spans " + format_fixed(*high - *low, 6) +
                                " rad (less than 0.1 degree): the servo never moves in this log, so it shows nothing "
                                "of the motor and friction model");
  return log;
}

std::vector<std::string> servo_logs_in(const std::string& dir) {
  if (!fs::is_directory(dir)) throw std::invalid_argument(dir + ": no such directory (--logs)");
  std::vector<std::string> logs;
  if (fs::is_regular_file(fs::path(dir) / "servo.csv")) logs.push_back((fs::path(dir) / "servo.csv").string());
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_directory() && fs::is_regular_file(e.path() / "servo.csv"))
      logs.push_back((e.path() / "servo.csv").string());
  std::sort(logs.begin(), logs.end());
  if (logs.empty()) throw std::invalid_argument(dir + ": no servo.csv in it or its subdirectories (--logs)");
  return logs;
}

/// What the fit leaves against the applied voltage's own white noise, per trial from its second
/// differences at the chosen reaction time, pooled over the samples (pipeline/unexplained_residual.hpp);
/// nullopt when the trials are too short for the estimate.
std::optional<UnexplainedResidual> actuator_unexplained(const std::vector<ActuatorTrialSeries>& trials,
                                                        const ActuatorFit& fit) {
  double noise2 = 0.0, samples = 0.0;
  for (const ActuatorTrialSeries& t : trials) {
    const std::vector<double> u = applied_voltage(t, static_cast<int>(std::lround(fit.model.reaction_time_s / t.dt_s)));
    const double sigma =
        white_noise_sigma(Eigen::Map<const Eigen::VectorXd>(u.data(), static_cast<Eigen::Index>(u.size())));
    if (!std::isfinite(sigma)) continue;
    noise2 += static_cast<double>(u.size()) * sigma * sigma;
    samples += static_cast<double>(u.size());
  }
  if (!(noise2 > 0.0)) return std::nullopt;
  return assess_actuator_residual(fit.rms_v, std::sqrt(noise2 / samples));
}

json unexplained_json(const std::optional<UnexplainedResidual>& u) {
  if (!u) return nullptr;
  return {{"noise_ratio", u->noise_ratio}, {"level", u->level}, {"basis", u->basis}, {"explanation", u->explanation}};
}

json fit_json(const ActuatorFit& fit, const ServoParameters& datasheet, const std::string& links) {
  json j{{"alpha", alpha_json(fit.model.alpha)},
         {"alpha_std", alpha_json(fit.alpha_std)},
         {"reaction_time_s", fit.model.reaction_time_s},
         {"stribeck_velocity_rad_s", fit.model.stribeck.velocity_rad_s},
         {"stribeck_exponent", fit.model.stribeck.exponent},
         {"rms_voltage_v", fit.rms_v},
         {"heldout_rms_voltage_v", fit.heldout_rms_v},
         {"samples", fit.rows},
         {"grid_points", fit.grid.size()},
         {"links", links}};
  try {
    const ActuatorPhysical p =
        physical_from_alpha(fit.model.alpha, datasheet.gear_ratio, datasheet.torque_constant_nm_per_a);
    j["physical"] = {{"gear_ratio", p.gear_ratio},       {"torque_constant", p.torque_constant_nm_per_a},
                     {"resistance", p.resistance_ohm},   {"damping", p.viscous_nm_s_per_rad},
                     {"coulomb_friction", p.coulomb_nm}, {"stribeck_friction", p.static_nm - p.coulomb_nm},
                     {"armature", p.armature_kg_m2}};
  } catch (const std::invalid_argument&) {
    j["physical"] = nullptr;
  }
  return j;
}

std::string sidecar_entry(const std::string& joint, const ActuatorFit& fit, const ServoParameters& d) {
  const ActuatorPhysical p = physical_from_alpha(fit.model.alpha, d.gear_ratio, d.torque_constant_nm_per_a);
  const ActuatorAlpha& a = fit.model.alpha;
  std::string y;
  y += "# Identified by dynid identify actuator (paper 002, docs/actuators.md). alpha0..alpha4 =\n";
  y += "#   " + csv_number(a[0]) + " " + csv_number(a[1]) + " " + csv_number(a[2]) + " " + csv_number(a[3]) + " " +
       csv_number(a[4]) + "\n";
  y += "# Physical values with the datasheet's gear ratio and torque constant fixing the scale.\n";
  y += "actuators:\n";
  y += "  - joint: " + joint + "\n";
  y += "    gear_ratio: " + csv_number(d.gear_ratio) + "\n";
  y += "    torque_constant: " + csv_number(d.torque_constant_nm_per_a) + "\n";
  y += "    resistance: " + csv_number(p.resistance_ohm) + "\n";
  y += "    armature: " + csv_number(p.armature_kg_m2) + "\n";
  y += "    damping: " + csv_number(p.viscous_nm_s_per_rad) + "\n";
  y += "    coulomb_friction: " + csv_number(p.coulomb_nm) + "\n";
  y += "    stribeck_friction: " + csv_number(p.static_nm - p.coulomb_nm) + "\n";
  y += "    stribeck_velocity: " + csv_number(fit.model.stribeck.velocity_rad_s) + "\n";
  y += "    stribeck_exponent: " + csv_number(fit.model.stribeck.exponent) + "\n";
  y += "    reaction_time: " + csv_number(fit.model.reaction_time_s) + "\n";
  y += "    effort_limit: " + csv_number(d.effort_limit_nm) + "\n";
  y += "    p_gain: " + csv_number(d.p_gain) + "\n";
  y += "    supply_voltage: " + csv_number(d.supply_voltage_v) + "\n";
  return y;
}

/// What the servo reports of a trial: its registers (encoder counts, supply in 0.1 V steps) or,
/// noise-free, the exact values.
ServoTrialRecord as_reported(ServoTrialRecord r, bool noise_free) {
  if (noise_free)
    r.position_rad = r.true_position_rad;
  else
    for (double& u : r.supply_v) u = std::round(u * 10.0) / 10.0;
  return r;
}

std::vector<double> times(std::size_t n, double dt) {
  std::vector<double> t(n);
  for (std::size_t i = 0; i < n; ++i) t[i] = double(i) * dt;
  return t;
}

}  // namespace

ActuatorIdentificationResult run_actuator_identification(const Robot& robot, const ActuatorIdentificationOptions& o) {
  if (o.joint.empty()) throw std::invalid_argument("no joint (--joint)");
  const int body = joint_body(robot.model, o.joint);
  if (!robot.sidecar) throw std::invalid_argument(robot.urdf_path + " has no sidecar (its actuators entries)");
  const ActuatorInfo* info = find_actuator(*robot.sidecar, o.joint);
  if (!info)
    throw std::invalid_argument("joint '" + o.joint + "' has no actuators entry in " + robot.sidecar->source_path);
  const ServoParameters datasheet = servo_parameters(*info);
  const double p_gain = o.p_gain > 0.0 ? o.p_gain : datasheet.p_gain;
  const double gain = gain_per_rad(datasheet, p_gain);
  if (!(o.lambda > 0.0)) throw std::invalid_argument("--lambda must be positive");
  if (o.iterations < 1) throw std::invalid_argument("--iterations must be at least 1");
  auto progress = [&](double f, const std::string& what) {
    if (o.progress) o.progress(f, what);
  };

  ActuatorIdentificationResult result;
  json& s = result.summary;
  s["robot"] = robot.model.name;
  s["joint"] = o.joint;
  s["p_gain"] = p_gain;
  s["datasheet"] = {{"alpha", alpha_json(datasheet_model(datasheet).alpha)}};

  if (!o.logs.empty()) {
    // A user's recordings: the same fit, no simulation, no truth.
    std::vector<ActuatorTrialSeries> trials;
    json files = json::array();
    const std::unique_ptr<Robot> other =
        o.links_urdf.empty() ? nullptr : std::make_unique<Robot>(load_robot(o.links_urdf));
    const Model& links = other ? other->model : robot.model;
    const int links_body = joint_body(links, o.joint);
    for (const std::string& path : servo_logs_in(o.logs)) {
      ServoLog log = read_servo_log(path, o.joint);
      trials.push_back(trial_series(links, links_body, log.dt, gain, std::move(log.command), std::move(log.position),
                                    std::move(log.supply), o.cutoff_hz < 0.0 ? 15.0 : o.cutoff_hz));
      files.push_back(path);
    }
    progress(0.5, "fitting " + std::to_string(trials.size()) + " log(s)");
    result.fit = fit_actuator(trials);
    const std::optional<UnexplainedResidual> unexplained = actuator_unexplained(trials, result.fit);
    s["unexplained_residual"] = unexplained_json(unexplained);
    s["source"] = "logs";
    s["logs"] = files;
    s["fit"] = fit_json(result.fit, datasheet, o.links_urdf.empty() ? "model" : o.links_urdf);
    result.sidecar_yaml = sidecar_entry(o.joint, result.fit, datasheet);
    HtmlReport report("dynid identify actuator: " + robot.model.name + " " + o.joint + " from logs");
    report.paragraph("Least-squares fit of paper 002's motor and friction model (eqs. 22-27) to " +
                     std::to_string(trials.size()) + " servo log(s) in " + o.logs + ".");
    ReportTable alphas{"Coefficients (V, N m, rad, s)", {"", "alpha0", "alpha1", "alpha2", "alpha3", "alpha4"}, {}};
    for (const auto& [name, a] : {std::pair{std::string("identified"), result.fit.model.alpha},
                                  std::pair{std::string("std"), result.fit.alpha_std},
                                  std::pair{std::string("datasheet"), datasheet_model(datasheet).alpha}}) {
      std::vector<std::string> row{name};
      for (double x : a) row.push_back(csv_number(x));
      alphas.rows.push_back(row);
    }
    report.table(alphas);
    report.paragraph("Reaction time " + csv_number(1e3 * result.fit.model.reaction_time_s) + " ms, Stribeck speed " +
                     csv_number(result.fit.model.stribeck.velocity_rad_s) + " rad/s, exponent " +
                     csv_number(result.fit.model.stribeck.exponent) + "; RMS voltage residual " +
                     csv_number(result.fit.rms_v) + " V (held out: " + csv_number(result.fit.heldout_rms_v) + " V).");
    if (unexplained) {
      report.heading("What the model leaves unexplained");
      report.paragraph(unexplained->explanation + " The ratio is " + unexplained->basis + ".");
    }
    for (std::size_t i = 0; i < trials.size(); ++i) {
      const ActuatorTrialSeries& t = trials[i];
      const long d = std::lround(result.fit.model.reaction_time_s / t.dt_s);
      const std::vector<double> applied = applied_voltage(t, static_cast<int>(d));
      std::vector<double> fitted;
      for (std::size_t n = 0; n < applied.size(); ++n) {
        const std::size_t m = n + static_cast<std::size_t>(d);
        fitted.push_back(result.fit.model.voltage(t.tau_o_nm[m], t.qdot_rad_s[m], t.qddot_rad_s2[m]));
      }
      LinePlot plot{"Log " + std::to_string(i + 1) + ": voltage the servo applied (eq. 16) vs the fitted model",
                    "time [s]",
                    "U [V]",
                    {}};
      plot.series.push_back({"applied (from the log)", times(applied.size(), t.dt_s), applied});
      plot.series.push_back({"fitted model", times(fitted.size(), t.dt_s), fitted});
      report.plot(plot);
    }
    result.report_html = report.html();
    return result;
  }

  // The reference, inside the joint limits.
  const Body& jb = robot.model.bodies[static_cast<std::size_t>(body)];
  ServoTrialBench bench(robot, o.joint, o.seed);
  const double dt = bench.timestep();
  SampledTrajectory ref;
  if (o.reference.empty()) {
    const double center = std::clamp(0.0, jb.limits.lower + 0.8, jb.limits.upper - 0.8);
    ref = default_ilc_reference(center, dt);
  } else {
    ref = read_reference_csv(o.reference, dt);
  }
  for (std::size_t n = 0; n < ref.size(); ++n)
    if (ref.position_rad[n] < jb.limits.lower || ref.position_rad[n] > jb.limits.upper)
      throw std::invalid_argument("the reference reaches " + csv_number(ref.position_rad[n]) + " rad at t = " +
                                  csv_number(double(n) * dt) + " s, beyond the limits [" + csv_number(jb.limits.lower) +
                                  ", " + csv_number(jb.limits.upper) + "] rad of joint '" + o.joint + "'");
  s["source"] = "simulated bench";
  s["noise"] = o.noise_free ? "none" : "servo registers";
  s["reference"] = {{"source", o.reference.empty() ? "built-in" : o.reference}, {"duration_s", ref.duration_s()}};

  // ILC (eqs. 20-21): start at the reference itself, shift the error by the reaction time.
  const int window = std::max(1, static_cast<int>(std::lround(o.window_ms * 1e-3 / dt)));
  std::vector<double> command = ref.position_rad;
  ServoTrialRecord last;
  int shift = 0;
  json per_iteration = json::array();
  bool converged = false;
  for (int k = 0; k < o.iterations; ++k) {
    last = as_reported(bench.run(command, p_gain), o.noise_free);
    const double error = max_windowed_error(ref.position_rad, last.position_rad, window);
    if (k == 0)
      shift = estimate_reaction_samples(ref.position_rad, last.position_rad,
                                        static_cast<int>(0.1 / dt));  // the P servo's lag, capped
    result.iterations.push_back({error, command, last.position_rad});
    per_iteration.push_back(error);
    progress(double(k + 1) / (o.iterations + 3),
             "ILC iteration " + std::to_string(k) + ": max windowed error " + csv_number(error) + " rad");
    if (!std::isfinite(error) || (k > 0 && error > 1.5 * result.iterations.front().max_windowed_error_rad) ||
        error > 1.0)
      throw std::invalid_argument("ILC diverges: max windowed error " + csv_number(error) + " rad at iteration " +
                                  std::to_string(k) + " (first " +
                                  csv_number(result.iterations.front().max_windowed_error_rad) +
                                  " rad); lower --lambda (now " + csv_number(o.lambda) + ")");
    if (error <= o.threshold_rad) {
      converged = true;
      break;
    }
    if (k + 1 < o.iterations) command = ilc_update(command, ref.position_rad, last.position_rad, o.lambda, shift);
  }
  s["ilc"] = {{"iterations", static_cast<int>(result.iterations.size())},
              {"converged", converged},
              {"lambda", o.lambda},
              {"window_ms", o.window_ms},
              {"threshold_rad", o.threshold_rad},
              {"shift_s", shift * dt},
              {"max_windowed_error_rad", result.iterations.back().max_windowed_error_rad},
              {"max_windowed_error_per_iteration_rad", per_iteration}};

  // Fit (eqs. 22-27) on the learned command and its trial.
  const Model& links = o.true_links ? bench.truth().model : robot.model;
  const ActuatorTrialSeries series =
      trial_series(links, body, dt, gain, last.command_rad, last.position_rad, last.supply_v,
                   o.cutoff_hz >= 0.0 ? o.cutoff_hz : (o.noise_free ? 0.0 : 15.0));
  progress(double(o.iterations + 1) / (o.iterations + 3), "fitting the model");
  result.fit = fit_actuator({series});
  s["fit"] = fit_json(result.fit, datasheet, o.true_links ? "true links (simulation)" : "model");
  const std::optional<UnexplainedResidual> unexplained = actuator_unexplained({series}, result.fit);
  s["unexplained_residual"] = unexplained_json(unexplained);
  const ActuatorAlpha truth = true_alpha(bench.servo());
  json diffs;
  for (const auto& [name, values] : bench.servo().differences)
    diffs[name] = {{"datasheet", values.first}, {"true", values.second}};
  s["truth"] = {{"alpha", alpha_json(truth)},
                {"dead_time_s", bench.servo().dead_time_s},
                {"supply_resistance_ohm", bench.servo().supply_resistance_ohm},
                {"differences", diffs}};
  json rel = json::array();
  for (std::size_t i = 0; i < truth.size(); ++i)
    rel.push_back(truth[i] != 0.0 ? (result.fit.model.alpha[i] - truth[i]) / truth[i] : 0.0);
  s["fit"]["alpha_relative_error_to_truth"] = rel;

  // Validation 1: feed-forward on a held-out trajectory, at the training gain.
  const double v_limit = std::isfinite(jb.limits.velocity) && jb.limits.velocity > 0.0 ? jb.limits.velocity : 5.0;
  const ServoSwing swing = make_servo_swing(jb.limits.lower, jb.limits.upper, v_limit, o.seed + 101u, 8.0);
  std::vector<double> held_q;
  for (double t = 0.0; t <= swing.duration_s + 1e-9; t += dt) held_q.push_back(swing.position(t));
  const SampledTrajectory held = trajectory_from_positions(dt, held_q);
  ActuatorModel truth_model;
  truth_model.alpha = truth;
  truth_model.stribeck = {bench.servo().params.stribeck_velocity_rad_s, 1.0};
  truth_model.reaction_time_s = bench.servo().dead_time_s;
  const ActuatorModel sheet = datasheet_model(datasheet);
  const double supply = datasheet.supply_voltage_v;
  const std::vector<std::pair<std::string, const ActuatorModel*>> models = {
      {"identified", &result.fit.model}, {"datasheet", &sheet}, {"truth", &truth_model}};
  json mw, ma;
  std::vector<std::pair<std::string, TrackingNumbers>> held_tracking;
  for (const auto& [name, m] : models) {
    const ServoTrialRecord r =
        as_reported(bench.run(feedforward_command(*m, links, body, held, gain, supply), p_gain), o.noise_free);
    held_tracking.push_back({name, tracking(held, r.position_rad, window)});
    mw[name] = held_tracking.back().second.max_windowed;
    ma[name] = held_tracking.back().second.mean_abs;
  }
  {
    const ServoTrialRecord r = as_reported(bench.run(held.position_rad, p_gain), o.noise_free);
    held_tracking.push_back({"P only", tracking(held, r.position_rad, window)});
    mw["p_only"] = held_tracking.back().second.max_windowed;
    ma["p_only"] = held_tracking.back().second.mean_abs;
  }
  progress(double(o.iterations + 2) / (o.iterations + 3), "validating on a held-out trajectory and P gain");

  // Validation 2: a P gain not used in training: predicted vs measured tracking of the plain P
  // servo on the held-out trajectory.
  const double p2 = o.heldout_p_gain > 0.0 ? o.heldout_p_gain : 0.5 * p_gain;
  const double gain2 = gain_per_rad(datasheet, p2);
  const ServoTrialRecord measured2 = as_reported(bench.run(held.position_rad, p2), o.noise_free);
  json pred_rms, pred_max;
  std::vector<std::pair<std::string, std::vector<double>>> predictions;
  for (const auto& [name, m] : models) {
    if (name == "truth") continue;
    ServoPredictionSetup setup;
    setup.gain_per_rad = gain2;
    setup.supply_voltage_v = supply;
    setup.dt_s = dt;
    const std::vector<double> predicted = predict_servo_tracking(links, body, *m, setup, held.position_rad);
    double sq = 0.0, mx = 0.0;
    for (std::size_t n = 0; n < predicted.size(); ++n) {
      const double e = predicted[n] - measured2.position_rad[n];
      sq += e * e;
      mx = std::max(mx, std::abs(e));
    }
    pred_rms[name] = std::sqrt(sq / double(predicted.size()));
    pred_max[name] = mx;
    predictions.push_back({name, predicted});
  }
  s["validation"] = {{"trajectory", "seeded smooth swing (servo-bench), 8 s, not the reference"},
                     {"heldout_max_windowed_error_rad", mw},
                     {"heldout_mean_abs_error_rad", ma},
                     {"heldout_p_gain",
                      {{"p_gain", p2},
                       {"measured_mean_abs_error_rad", mean_abs_error(held.position_rad, measured2.position_rad)},
                       {"prediction_rms_error_rad", pred_rms},
                       {"prediction_max_error_rad", pred_max}}}};
  result.sidecar_yaml = sidecar_entry(o.joint, result.fit, datasheet);
  result.trial_log_csv = servo_log_csv(o.joint, last);
  result.truth_urdf = write_urdf_inertials(bench.truth().model, robot.urdf_path).urdf;

  // Report: figs. 3 and 4 of the paper, then the validation.
  HtmlReport report("dynid identify actuator: " + robot.model.name + " " + o.joint);
  report.paragraph(
      "Iterative Learning Control (paper 002, eqs. 20-21) on the simulated bench, then the least-squares "
      "fit of the motor and friction model (eqs. 22-27), validated on a held-out trajectory and P gain.");
  report.heading("Learning: reference and tracking per ILC iteration");
  LinePlot track{"Reference and measured position", "time [s]", "position [rad]", {}};
  const std::vector<double> t = times(ref.size(), dt);
  track.series.push_back({"reference", t, ref.position_rad});
  for (std::size_t k = 0; k < result.iterations.size(); ++k)
    if (k == 0 || k == 1 || k == 3 || k + 1 == result.iterations.size())
      track.series.push_back({"iteration " + std::to_string(k), t, result.iterations[k].measured_rad});
  report.plot(track);
  LinePlot err{"Maximum windowed error (eq. 28, D = " + csv_number(o.window_ms) + " ms)",
               "iteration",
               "max windowed error [rad]",
               {}};
  std::vector<double> ks, es;
  for (std::size_t k = 0; k < result.iterations.size(); ++k) {
    ks.push_back(double(k));
    es.push_back(result.iterations[k].max_windowed_error_rad);
  }
  err.series.push_back({"ILC", ks, es, true});
  err.series.push_back({"threshold", {0.0, ks.back()}, {o.threshold_rad, o.threshold_rad}});
  report.plot(err);
  if (unexplained) {
    report.heading("What the model leaves unexplained");
    report.paragraph(unexplained->explanation + " The ratio is " + unexplained->basis + ".");
  }
  report.heading("Learned and fitted command");
  const std::vector<double> learned_u = applied_voltage(series, 0);
  // The fitted model's voltage along the reference (what its feed-forward would ask for), shifted
  // by its reaction time like the learned command.
  std::vector<double> fitted_u;
  {
    const std::vector<double> tau_ref = link_torques(links, body, ref);
    const long d = std::lround(result.fit.model.reaction_time_s / dt);
    const long n = static_cast<long>(ref.size());
    for (long i = 0; i < n; ++i) {
      const std::size_t k = static_cast<std::size_t>(std::min(n - 1, i + d));
      fitted_u.push_back(result.fit.model.voltage(tau_ref[k], ref.velocity_rad_s[k], ref.acceleration_rad_s2[k]));
    }
  }
  LinePlot cmd{
      "Voltage the learned command applied vs the fitted model's along the reference", "time [s]", "U [V]", {}};
  cmd.series.push_back({"learned (ILC)", times(learned_u.size(), dt), learned_u});
  cmd.series.push_back({"fitted model", times(fitted_u.size(), dt), fitted_u});
  report.plot(cmd);
  ReportTable alphas{"Coefficients (V, N m, rad, s)", {"", "alpha0", "alpha1", "alpha2", "alpha3", "alpha4"}, {}};
  auto alpha_row = [](const std::string& name, const ActuatorAlpha& a) {
    std::vector<std::string> row{name};
    for (double x : a) row.push_back(csv_number(x));
    return row;
  };
  alphas.rows.push_back(alpha_row("identified", result.fit.model.alpha));
  alphas.rows.push_back(alpha_row("std", result.fit.alpha_std));
  alphas.rows.push_back(alpha_row("true servo", truth));
  alphas.rows.push_back(alpha_row("datasheet", sheet.alpha));
  report.table(alphas);
  report.paragraph("Reaction time " + csv_number(1e3 * result.fit.model.reaction_time_s) + " ms (true dead time " +
                   csv_number(1e3 * bench.servo().dead_time_s) + " ms), Stribeck speed " +
                   csv_number(result.fit.model.stribeck.velocity_rad_s) + " rad/s, exponent " +
                   csv_number(result.fit.model.stribeck.exponent) + ".");
  report.heading("Validation on a held-out trajectory (feed-forward, P gain " + csv_number(p_gain) + ")");
  ReportTable vt{"Tracking error of the feed-forward command of each model",
                 {"model", "max windowed [rad]", "mean |e| [rad]"},
                 {}};
  LinePlot hp{"Held-out trajectory", "time [s]", "position [rad]", {}};
  const std::vector<double> th = times(held.size(), dt);
  hp.series.push_back({"reference", th, held.position_rad});
  for (const auto& [name, tn] : held_tracking) {
    vt.rows.push_back({name, csv_number(tn.max_windowed), csv_number(tn.mean_abs)});
    hp.series.push_back({name, th, tn.measured});
  }
  report.table(vt);
  report.plot(hp);
  report.heading("Validation at a held-out P gain (" + csv_number(p2) + ")");
  LinePlot pp{"Plain P tracking: measured vs predicted by each model", "time [s]", "position [rad]", {}};
  pp.series.push_back({"measured (true servo)", th, measured2.position_rad});
  for (const auto& [name, p] : predictions) pp.series.push_back({"predicted, " + name, th, p});
  report.plot(pp);
  report.table({"Prediction error against the true servo",
                {"model", "RMS [rad]", "max [rad]"},
                {{"identified", csv_number(pred_rms["identified"].get<double>()),
                  csv_number(pred_max["identified"].get<double>())},
                 {"datasheet", csv_number(pred_rms["datasheet"].get<double>()),
                  csv_number(pred_max["datasheet"].get<double>())}}});
  result.report_html = report.html();
  progress(1.0, "done");
  return result;
}

void write_actuator_identification(const ActuatorIdentificationResult& r, const std::string& out_dir) {
  fs::create_directories(out_dir);
  if (!r.trial_log_csv.empty()) {
    fs::create_directories(fs::path(out_dir) / "ilc_trial");
    write_file_atomically((fs::path(out_dir) / "ilc_trial" / "servo.csv").string(), r.trial_log_csv);
    write_file_atomically((fs::path(out_dir) / "truth.urdf").string(), r.truth_urdf);
  }
  write_file_atomically((fs::path(out_dir) / "actuator.yaml").string(), r.sidecar_yaml);
  write_file_atomically((fs::path(out_dir) / "report.html").string(), r.report_html);
  write_file_atomically((fs::path(out_dir) / "summary.json").string(), r.summary.dump(2) + "\n");
}

}  // namespace dynid
