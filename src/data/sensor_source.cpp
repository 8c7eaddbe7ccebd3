#include "dynid/data/sensor_source.hpp"

#include <optional>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "dynid/data/stream_resampling.hpp"
#include "dynid/dynamics/kinematics.hpp"
#include "dynid/io/csv_stream.hpp"
#include "dynid/mocap/butterworth.hpp"
#include "dynid/mocap/filtfilt.hpp"
#include "dynid/spatial/explog.hpp"

namespace dynid {
namespace {

/// The low-pass of the options at `rate`, or an empty filter (none) when the cut-off is <= 0.
IirFilter lowpass(const SensorSourceOptions& o, double rate) {
  if (!(o.cutoff_hz > 0.0)) return {};
  return butterworth_lowpass(o.filter_order, o.cutoff_hz, rate);
}

/// `times` (robot clock) moved to where the samples of stream `name`'s `quantity` belong: on the
/// stream's clock (options.clocks), half a sample period later when a sample is the mean over the
/// period before its stamp (dataset.json `stamp`), plus `offset` [s].
Eigen::VectorXd stamped(const Eigen::VectorXd& times, const DatasetInfo& dataset, const std::string& name,
                        const SensorSourceOptions& options, const std::string& quantity = "", double offset = 0.0) {
  const StreamInfo& stream = dataset.stream(name);
  const double delay = stream.stamp_of(quantity) == Stamp::PeriodMean ? 0.5 / stream.rate_hz : 0.0;
  const auto clock = options.clocks.find(name);
  Eigen::VectorXd out(times.size());
  for (Eigen::Index k = 0; k < times.size(); ++k)
    out[k] = (clock == options.clocks.end() ? times[k] : clock->second.stream_time(times[k])) + delay + offset;
  return out;
}

/// Joint torque sensors (the `torques` stream), filtered like the other streams and resampled at
/// `times`: one column per sample (nv rows), NaN for joints without a sensor. Sensor sigma:
/// docs/scenarios.md (0.15 N m, strain-gauge class), set in `noise` when the stream exists.
Eigen::MatrixXd joint_torque_samples(const Model& model, const DatasetInfo& dataset, const SensorSourceOptions& options,
                                     const Eigen::VectorXd& times, ForceNoise& noise) {
  Eigen::MatrixXd joint_tau =
      Eigen::MatrixXd::Constant(model.nv, times.size(), std::numeric_limits<double>::quiet_NaN());
  if (!dataset.has_stream("torques")) return joint_tau;
  const CsvStream torques = read_csv_stream(dataset.stream("torques").file);
  const IirFilter f = lowpass(options, dataset.stream("torques").rate_hz);
  std::vector<std::string> names;
  std::vector<int> rows;
  for (std::size_t c = 1; c < torques.header.size(); ++c)
    if (const auto b = model.find_joint(torques.header[c].substr(4)); b && torques.header[c].rfind("tau.", 0) == 0) {
      names.push_back(torques.header[c]);
      rows.push_back(model.bodies[static_cast<std::size_t>(*b)].idx_v);
    }
  const Eigen::MatrixXd values = resampled(torques, names, f, stamped(times, dataset, "torques", options));
  for (std::size_t i = 0; i < rows.size(); ++i) joint_tau.row(rows[i]) = values.row(static_cast<Eigen::Index>(i));
  noise.torque = 0.15;
  return joint_tau;
}

}  // namespace

bool SensorSource::next(MotionSample& sample) {
  if (cursor_ >= samples_.size()) return false;
  sample = samples_[cursor_++];
  return true;
}

SensorSource::SensorSource(const Model& model, const RobotSidecar& sidecar, const DatasetInfo& dataset,
                           const SensorSourceOptions& options_in, TimeWindow window, std::vector<JointLock> locks) {
  // Noise-free data (every stream the path may read says so): no low-pass, no IMU bias removal.
  SensorSourceOptions options = options_in;
  if (options.raw_when_noise_free) {
    bool all_noise_free = true;
    for (const char* name : {"encoders", "ft", "plates", "imu", "torques"})
      if (dataset.has_stream(name) && !dataset.stream(name).noise_free) all_noise_free = false;
    if (all_noise_free) {
      options.cutoff_hz = 0.0;
      options.remove_imu_bias = false;
    }
  }
  const CsvStream enc = read_csv_stream(dataset.stream("encoders").file);
  const double rate = dataset.stream("encoders").rate_hz;
  const double dt = 1.0 / rate;
  const IirFilter enc_filter = lowpass(options, rate);
  const Eigen::VectorXd times = enc.values.col(0);
  const Eigen::Index n = times.size();
  if (n < 5) throw std::runtime_error(enc.path + ": too few samples");

  // Joints: filtered encoder positions, central differences.
  const int j0 = model.floating_base ? 6 : 0;  // first joint velocity
  const int nj = model.nv - j0;
  Eigen::MatrixXd qj(nj, n);
  for (std::size_t b = 1; b < model.bodies.size(); ++b) {
    const Body& body = model.bodies[b];
    if (body.joint_type == JointType::FreeFlyer) continue;
    qj.row(body.idx_v - j0) = filtered_channel(enc, "q." + body.joint_name, enc_filter).transpose();
  }
  for (const JointLock& lock : locks) {
    const Eigen::Index c = enc.column("q." + lock.joint);
    for (Eigen::Index k = 0; k < n; ++k)
      if (!(std::abs(enc.values(k, c) - lock.position) <= options.lock_tolerance))
        throw std::runtime_error(enc.path + ": line " + std::to_string(k + 2) + ": locked joint '" + lock.joint +
                                 "' reads " + std::to_string(enc.values(k, c)) + " rad, not its lock " +
                                 std::to_string(lock.position));
  }
  std::optional<Eigen::MatrixXd> vj;
  if (options.logged_velocities) {
    if (model.floating_base)
      throw std::runtime_error("--velocities logged: fixed-base robots only for now (" + model.label() +
                               " has a floating base); leave it out to differentiate the encoders");
    if (!dataset.has_stream("velocities"))
      throw std::runtime_error(dataset.directory +
                               ": --velocities logged: the data set has no velocities stream (dataset.json "
                               "streams.velocities; dynid import log writes it when the map gives dq)");
    const CsvStream vel = read_csv_stream(dataset.stream("velocities").file);
    if (vel.values.rows() != n || (vel.values.col(0) - times).cwiseAbs().maxCoeff() > 1e-9)
      throw std::runtime_error(vel.path + ": its " + std::to_string(vel.values.rows()) +
                               " time stamps are not the encoders' (" + std::to_string(n) + ")");
    vj = Eigen::MatrixXd(nj, n);
    for (std::size_t b = 1; b < model.bodies.size(); ++b) {
      const Body& body = model.bodies[b];
      vj->row(body.idx_v - j0) = filtered_channel(vel, "v." + body.joint_name, enc_filter).transpose();
    }
  }
  if (!model.floating_base) {
    fixed_base_samples(model, sidecar, dataset, options, window, qj, times, vj ? &*vj : nullptr);
    return;
  }

  // Contact wrenches, world axes about the world origin, before the base pose is known: F/T stay in
  // their sensor frames (mapped below), plates are already in world axes.
  const std::size_t nc = sidecar.contacts.size();
  const bool have_ft = dataset.has_stream("ft") && !sidecar.ft_sensors.empty();
  std::string wrench_source = options.wrenches;
  if (wrench_source == "auto") wrench_source = have_ft ? "ft" : "plates";
  if (wrench_source != "ft" && wrench_source != "plates")
    throw std::invalid_argument("wrench source must be ft, plates or auto, not '" + wrench_source + "'");
  static const char* const kFt[6] = {"fx", "fy", "fz", "tx", "ty", "tz"};
  std::vector<int> contact_ft(nc, -1);  // F/T sensor index per contact
  Eigen::MatrixXd ft_values, plate_values;
  if (wrench_source == "ft") {
    const CsvStream ft = read_csv_stream(dataset.stream("ft").file);
    const IirFilter f = lowpass(options, dataset.stream("ft").rate_hz);
    std::vector<std::string> names;
    for (std::size_t c = 0; c < nc; ++c) {
      for (std::size_t s = 0; s < sidecar.ft_sensors.size(); ++s)
        if (sidecar.ft_sensors[s].link == sidecar.contacts[c].link &&
            sidecar.ft_sensors[s].measures == WrenchMeasured::External)
          contact_ft[c] = static_cast<int>(s);
      if (contact_ft[c] < 0)
        throw std::runtime_error(sidecar.source_path + ": contact '" + sidecar.contacts[c].name +
                                 "' has no F/T sensor measuring the external wrench on link '" +
                                 sidecar.contacts[c].link + "' (use --wrenches plates)");
      for (const char* a : kFt)
        names.push_back(sidecar.ft_sensors[static_cast<std::size_t>(contact_ft[c])].name + "." + a);
    }
    ft_values = resampled(ft, names, f, stamped(times, dataset, "ft", options));
    noise_.force = 0.125;
    noise_.moment = 0.003;
  } else {
    if (dataset.force_plates.empty())
      throw std::runtime_error(dataset.directory + ": no F/T stream and no force plates");
    // Plate wrenches are about points fixed in the world; mapping them to the base needs where the
    // robot stands on the plates, which leg kinematics alone cannot tell (it needs the markers).
    if (!options.allow_plates_without_registration)
      throw std::runtime_error(dataset.directory +
                               ": contact wrenches from force plates need the robot's placement on the plates "
                               "(marker registration), which the sensor path does not do yet; use foot F/T "
                               "sensors (--wrenches ft) or --source truth");
    const CsvStream plates = read_csv_stream(dataset.stream("plates").file);
    const IirFilter f = lowpass(options, dataset.stream("plates").rate_hz);
    std::vector<std::string> names;
    static const char* const kPlate[6] = {"fx", "fy", "fz", "mx", "my", "mz"};
    for (const ForcePlateInfo& p : dataset.force_plates)
      for (const char* a : kPlate) names.push_back(p.name + "." + a);
    plate_values = resampled(plates, names, f, stamped(times, dataset, "plates", options));
    noise_.force = 0.32;  // 0.25 N white plus 0.7 N quantization (0.2 N)
    noise_.moment = 0.05;
  }

  // The velocity that goes with a sample (dataset.json `velocity`): the derivative at its stamp, or
  // the mean over the encoder period before it (dynid simulate: mj_Euler's forces of a step use the
  // velocity the previous step made). Accelerations are at the stamp either way.
  const bool velocity_before = dataset.velocity == VelocityConvention::PeriodBefore;
  const double velocity_delay = velocity_before ? 0.5 * dt : 0.0;

  // Gyro (when the IMU is on the base body): the rate that goes with each sample, and the rate half
  // an encoder period after and before it, whose difference is the angular acceleration at the
  // sample (for an instantaneous gyro at the encoder rate: the central difference).
  Eigen::MatrixXd gyro, gyro_after, gyro_before, accel;  // IMU axes [rad/s], specific force [m/s^2]
  SE3 base_imu = SE3::Identity();
  if (options.use_gyro && sidecar.imu && dataset.has_stream("imu")) {
    const Frame& fr = model.frames[static_cast<std::size_t>(model.frame_index(sidecar.imu->name))];
    if (fr.body == 1) {
      const CsvStream imu = read_csv_stream(dataset.stream("imu").file);
      const IirFilter f = lowpass(options, dataset.stream("imu").rate_hz);
      const std::string& nm = sidecar.imu->name;
      const std::vector<std::string> g_names = {nm + ".gyro.x", nm + ".gyro.y", nm + ".gyro.z"};
      gyro = resampled(imu, g_names, f, stamped(times, dataset, "imu", options, "gyro", -velocity_delay));
      gyro_after = resampled(imu, g_names, f, stamped(times, dataset, "imu", options, "gyro", 0.5 * dt));
      gyro_before = resampled(imu, g_names, f, stamped(times, dataset, "imu", options, "gyro", -0.5 * dt));
      if (options.use_accelerometer &&
          std::find(imu.header.begin(), imu.header.end(), nm + ".acc.x") != imu.header.end())
        accel = resampled(imu, {nm + ".acc.x", nm + ".acc.y", nm + ".acc.z"}, f,
                          stamped(times, dataset, "imu", options, "acc"));
      base_imu = fr.placement;
      // The gyro's and accelerometer's white noise (options: a datasheet's densities) through the
      // low-pass, and for the angular acceleration through the difference of the rates: errors in
      // the regressor's inputs, which the rows' weights count (ForceNoise::acceleration).
      if (!dataset.stream("imu").noise_free &&
          (options.gyro_noise_density > 0.0 || options.accelerometer_noise_density > 0.0)) {
        const double imu_rate = dataset.stream("imu").rate_hz;
        const double gyro_sigma = options.gyro_noise_density * std::sqrt(imu_rate);
        const double accel_sigma = options.accelerometer_noise_density * std::sqrt(imu_rate);
        const auto declare = [&](const FilteredNoiseGain& gain, VectorX& acceleration, double& measured_gain) {
          const double alpha_sigma = gyro_sigma * gain.rate;
          measured_gain = gain.value;
          acceleration = VectorX::Zero(model.nv);
          acceleration.segment<3>(3).setConstant(alpha_sigma);
          if (accel.size() > 0)
            acceleration.head<3>().setConstant(
                std::hypot(accel_sigma * gain.value, alpha_sigma * fr.placement.translation.norm()));
        };
        declare(filtered_white_noise_gain(f, imu_rate), noise_.acceleration, noise_.measured_gain);
        if (options.row_filter_cutoff_hz > 0.0)
          declare(
              filtered_white_noise_gain(
                  f, imu_rate, butterworth_lowpass(options.row_filter_order, options.row_filter_cutoff_hz, imu_rate)),
              noise_.row_filtered_acceleration, noise_.row_filtered_measured_gain);
      }
    }
  }

  // Joint torque sensors (the `torques` stream), filtered like the other streams.
  const Eigen::MatrixXd joint_tau = joint_torque_samples(model, dataset, options, times, noise_);

  // Base pose from the anchored stance contact.
  std::vector<int> contact_frame(nc);
  for (std::size_t c = 0; c < nc; ++c) contact_frame[c] = model.frame_index(sidecar.contacts[c].name);
  Data data(model);
  VectorX q_rel = model.neutral_configuration();
  std::vector<Matrix3> R(static_cast<std::size_t>(n));
  Eigen::MatrixXd p(3, n);
  // Per sample: the base pose relative to every contact frame, and the world pose of the sample's
  // anchor. Derivatives at a sample use its own anchor for the neighbours too, so an anchor change
  // (where the flattened new foot shifts the estimate a little) never enters a difference quotient.
  std::vector<std::vector<SE3>> contact_base(static_cast<std::size_t>(n), std::vector<SE3>(nc));
  std::vector<int> anchor_of(static_cast<std::size_t>(n));
  std::vector<SE3> world_anchor_of(static_cast<std::size_t>(n));
  std::vector<std::vector<Force>> wrench_world(static_cast<std::size_t>(n), std::vector<Force>(nc));
  const double weight = model.total_mass() * model.gravity.norm();
  int anchor = -1;
  SE3 world_anchor;
  for (Eigen::Index k = 0; k < n; ++k) {
    q_rel.tail(nj) = qj.col(k);
    forward_kinematics(model, data, q_rel);  // base at the world origin: poses relative to the base
    // Normal loads per contact (sensor / plate z: the soles are flat).
    std::vector<double> load(nc, 0.0);
    std::vector<Force> w_base(nc);  // wrench in base axes, about the base origin (F/T path)
    if (wrench_source == "ft") {
      for (std::size_t c = 0; c < nc; ++c) {
        Vector6 w;
        for (int a = 0; a < 6; ++a) w[a] = ft_values(static_cast<Eigen::Index>(6 * c) + a, k);
        const SidecarFrame& s = sidecar.ft_sensors[static_cast<std::size_t>(contact_ft[c])];
        const SE3 base_sensor = frame_placement(model, data, model.frame_index(s.name));
        w_base[c] = base_sensor.act(Force::from_vector(w));
        load[c] = std::abs(w[2]);
      }
    }
    std::vector<Vector6> plate_wrench;  // ground on robot, world, about world origin
    std::vector<std::size_t> plate_contact;
    if (wrench_source == "plates") {
      // The contact nearest (horizontally, in base axes: yaw-free) to the plate's COP takes its wrench;
      // with the base pose unknown, compare in the anchor frame of the previous sample.
      for (std::size_t i = 0; i < dataset.force_plates.size(); ++i) {
        const Vector3 f = plate_values.block<3, 1>(static_cast<Eigen::Index>(6 * i), k);
        const Vector3 m = plate_values.block<3, 1>(static_cast<Eigen::Index>(6 * i + 3), k);
        const Vector3 F = -f;
        const Vector3 N = -m + dataset.force_plates[i].origin.cross(F);
        Vector6 w;
        w << F, N;
        plate_wrench.push_back(w);
        const Vector3 cop_xy =
            std::abs(F.z()) > 1e-6 ? Vector3(-N.y() / F.z(), N.x() / F.z(), 0.0) : dataset.force_plates[i].origin;
        std::size_t best = 0;
        double best_d = 1e300;
        for (std::size_t c = 0; c < nc; ++c) {
          Vector3 pc = frame_placement(model, data, contact_frame[c]).translation;
          if (anchor >= 0)
            pc =
                (world_anchor * frame_placement(model, data, contact_frame[static_cast<std::size_t>(anchor)]).inverse())
                    .act(pc);
          const double d = (pc - cop_xy).head<2>().norm();
          if (d < best_d) {
            best_d = d;
            best = c;
          }
        }
        plate_contact.push_back(best);
        load[best] += std::abs(F.z());
      }
    }
    // Anchor: keep it while loaded; otherwise the most loaded contact, flattened where it is now.
    std::size_t most = 0;
    for (std::size_t c = 1; c < nc; ++c)
      if (load[c] > load[most]) most = c;
    const SE3 base_contact_most = frame_placement(model, data, contact_frame[most]);
    if (anchor < 0 || load[static_cast<std::size_t>(anchor)] < 0.25 * weight) {
      SE3 pose = anchor < 0
                     ? SE3::Identity()
                     : world_anchor *
                           frame_placement(model, data, contact_frame[static_cast<std::size_t>(anchor)]).inverse() *
                           base_contact_most;
      const Vector3 x = pose.rotation.col(0);
      const double yaw = std::atan2(x.y(), x.x());
      pose.rotation = Eigen::AngleAxisd(yaw, Vector3::UnitZ()).toRotationMatrix();
      if (anchor < 0) pose.translation.setZero();
      world_anchor = pose;
      anchor = static_cast<int>(most);
    }
    const SE3 world_base =
        world_anchor * frame_placement(model, data, contact_frame[static_cast<std::size_t>(anchor)]).inverse();
    R[static_cast<std::size_t>(k)] = world_base.rotation;
    p.col(k) = world_base.translation;
    for (std::size_t c = 0; c < nc; ++c)
      contact_base[static_cast<std::size_t>(k)][c] = frame_placement(model, data, contact_frame[c]).inverse();
    anchor_of[static_cast<std::size_t>(k)] = anchor;
    world_anchor_of[static_cast<std::size_t>(k)] = world_anchor;
    auto& ww = wrench_world[static_cast<std::size_t>(k)];
    if (wrench_source == "ft") {
      for (std::size_t c = 0; c < nc; ++c) ww[c] = world_base.act(w_base[c]);
    } else {
      for (std::size_t c = 0; c < nc; ++c) ww[c] = Force::Zero();
      for (std::size_t i = 0; i < plate_wrench.size(); ++i) ww[plate_contact[i]] += Force::from_vector(plate_wrench[i]);
    }
  }

  // Twists and accelerations by central differences, the neighbours seen from the sample's anchor.
  const auto pose_seen_from = [&](Eigen::Index k, Eigen::Index j) {
    const std::size_t a = static_cast<std::size_t>(anchor_of[static_cast<std::size_t>(k)]);
    return world_anchor_of[static_cast<std::size_t>(k)] * contact_base[static_cast<std::size_t>(j)][a];
  };
  Eigen::MatrixXd w_kin = Eigen::MatrixXd::Zero(3, n);
  for (Eigen::Index k = 1; k + 1 < n; ++k)
    w_kin.col(k) =
        velocity_before
            ? Eigen::MatrixXd(log3(pose_seen_from(k, k - 1).rotation.transpose() * R[static_cast<std::size_t>(k)]) / dt)
            : Eigen::MatrixXd(log3(pose_seen_from(k, k - 1).rotation.transpose() * pose_seen_from(k, k + 1).rotation) /
                              (2 * dt));
  Eigen::MatrixXd omega = w_kin;
  Eigen::MatrixXd alpha = Eigen::MatrixXd::Zero(3, n);  // base angular acceleration, base axes
  if (gyro.size() > 0) {
    Eigen::MatrixXd g = base_imu.rotation * gyro;
    const Vector3 bias =
        options.remove_imu_bias ? Vector3((g - w_kin).middleCols(1, n - 2).rowwise().mean()) : Vector3::Zero();
    omega = g.colwise() - bias;
    alpha = base_imu.rotation * (gyro_after - gyro_before) / dt;  // the bias cancels
  } else {
    for (Eigen::Index k = 1; k + 1 < n; ++k)
      alpha.col(k) = velocity_before ? Eigen::MatrixXd((omega.col(k + 1) - omega.col(k)) / dt)
                                     : Eigen::MatrixXd((omega.col(k + 1) - omega.col(k - 1)) / (2 * dt));
  }
  // Base origin acceleration, world axes: second differences of the stance-leg trajectory, or the
  // accelerometer (specific force to world with the attitude, plus gravity, minus the lever-arm terms
  // of the IMU offset), its constant bias removed against the kinematic estimate. Kinematics assume
  // the anchor foot fixed, which the filter window breaks around every touch-down and lift-off.
  Eigen::MatrixXd pdd = Eigen::MatrixXd::Zero(3, n);
  for (Eigen::Index k = 1; k + 1 < n; ++k)
    pdd.col(k) =
        (pose_seen_from(k, k + 1).translation - 2 * p.col(k) + pose_seen_from(k, k - 1).translation) / (dt * dt);
  if (accel.size() > 0) {
    const Vector3 r = base_imu.translation;
    const auto lever = [&](Eigen::Index k) -> Vector3 {  // IMU minus base acceleration, base axes
      const Vector3 w = omega.col(k), al = alpha.col(k);
      return al.cross(r) + w.cross(w.cross(r));
    };
    Vector3 bias = Vector3::Zero();
    for (Eigen::Index k = 1; k + 1 < n; ++k) {
      const Matrix3 world_R_imu = R[static_cast<std::size_t>(k)] * base_imu.rotation;
      const Vector3 a_imu_kin = pdd.col(k) + R[static_cast<std::size_t>(k)] * lever(k);
      bias += Vector3(accel.col(k)) - world_R_imu.transpose() * (a_imu_kin - model.gravity);
    }
    bias /= static_cast<double>(n - 2);
    if (!options.remove_imu_bias) bias.setZero();
    for (Eigen::Index k = 1; k + 1 < n; ++k) {
      const Matrix3& Rk = R[static_cast<std::size_t>(k)];
      pdd.col(k) = Rk * (base_imu.rotation * (Vector3(accel.col(k)) - bias) - lever(k)) + model.gravity;
    }
  }
  const long first = std::max<long>(2, std::lround(options.trim_s * rate));
  const long last = static_cast<long>(n) - 1 - first;
  for (long k = first; k <= last; ++k) {
    if (!window.contains(times[k])) continue;
    MotionSample s;
    s.time = times[k];
    const Matrix3& Rk = R[static_cast<std::size_t>(k)];
    s.q.resize(model.nq);
    s.q.head<3>() = p.col(k);
    const Eigen::Quaterniond quat(Rk);
    s.q.segment<4>(3) << quat.x(), quat.y(), quat.z(), quat.w();
    s.q.tail(nj) = qj.col(k);
    const Vector3 p_prev = pose_seen_from(k, k - 1).translation, p_next = pose_seen_from(k, k + 1).translation;
    const Vector3 pd = velocity_before ? Vector3((p.col(k) - p_prev) / dt) : Vector3((p_next - p_prev) / (2 * dt));
    const Vector3 w = omega.col(k);
    const Vector3 vlin = Rk.transpose() * pd;
    s.v.resize(model.nv);
    s.a.resize(model.nv);
    s.v << vlin, w,
        velocity_before ? Eigen::VectorXd((qj.col(k) - qj.col(k - 1)) / dt)
                        : Eigen::VectorXd((qj.col(k + 1) - qj.col(k - 1)) / (2 * dt));
    s.a << Rk.transpose() * pdd.col(k) - w.cross(vlin), alpha.col(k),
        (qj.col(k + 1) - 2 * qj.col(k) + qj.col(k - 1)) / (dt * dt);
    s.contact_wrenches = wrench_world[static_cast<std::size_t>(k)];
    s.joint_torques = joint_tau.col(k);
    samples_.push_back(std::move(s));
  }
  if (samples_.empty()) throw std::runtime_error(dataset.directory + ": no sensor samples in the chosen time window");
  description_ =
      "sensors of " + dataset.directory + " (encoders " + std::to_string(static_cast<int>(rate)) + " Hz, low-pass " +
      (options.cutoff_hz > 0.0 ? std::to_string(options.cutoff_hz).substr(0, 4) + " Hz" : std::string("none")) +
      ", wrenches from " + wrench_source + (gyro.size() > 0 ? ", gyro" : "") +
      (accel.size() > 0 ? ", accelerometer" : "") + (dataset.has_stream("torques") ? ", joint torques" : "") + ")";
}

}  // namespace dynid

namespace dynid {

void SensorSource::fixed_base_samples(const Model& model, const RobotSidecar& sidecar, const DatasetInfo& dataset,
                                      const SensorSourceOptions& options, TimeWindow window, const Eigen::MatrixXd& qj,
                                      const Eigen::VectorXd& times, const Eigen::MatrixXd* logged_velocities) {
  // A fixed base: no base pose, no IMU; the joints' motion from the encoders alone and the joint
  // torque sensors. Contacts would need their wrenches, which this path does not read for a fixed base.
  if (!sidecar.contacts.empty())
    throw std::runtime_error(
        model.label() + ": the sensor path of a fixed-base robot does not read contact wrenches (" +
        std::to_string(sidecar.contacts.size()) + " contacts in " + sidecar.source_path + "); use --source truth");
  const Eigen::Index n = times.size();
  const double rate = dataset.stream("encoders").rate_hz, dt = 1.0 / rate;
  const bool velocity_before = dataset.velocity == VelocityConvention::PeriodBefore;
  const Eigen::MatrixXd joint_tau = joint_torque_samples(model, dataset, options, times, noise_);
  const long first = std::max<long>(2, std::lround(options.trim_s * rate));
  const long last = static_cast<long>(n) - 1 - first;
  for (long k = first; k <= last; ++k) {
    if (!window.contains(times[k])) continue;
    MotionSample s;
    s.time = times[k];
    s.q = qj.col(k);
    if (logged_velocities) {  // the robot's own velocity at the stamp; its central difference
      s.v = logged_velocities->col(k);
      s.a = (logged_velocities->col(k + 1) - logged_velocities->col(k - 1)) / (2 * dt);
    } else {
      s.v = velocity_before ? Eigen::VectorXd((qj.col(k) - qj.col(k - 1)) / dt)
                            : Eigen::VectorXd((qj.col(k + 1) - qj.col(k - 1)) / (2 * dt));
      s.a = (qj.col(k + 1) - 2 * qj.col(k) + qj.col(k - 1)) / (dt * dt);
    }
    s.joint_torques = joint_tau.col(k);
    samples_.push_back(std::move(s));
  }
  if (samples_.empty()) throw std::runtime_error(dataset.directory + ": no sensor samples in the chosen time window");
  description_ =
      "sensors of " + dataset.directory + " (fixed base, encoders " + std::to_string(static_cast<int>(rate)) +
      " Hz, low-pass " +
      (options.cutoff_hz > 0.0 ? std::to_string(options.cutoff_hz).substr(0, 4) + " Hz" : std::string("none")) +
      (logged_velocities ? ", logged velocities" : "") + (dataset.has_stream("torques") ? ", joint torques" : "") + ")";
}

}  // namespace dynid
