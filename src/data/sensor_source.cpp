#include "dynid/data/sensor_source.hpp"

#include <optional>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <deque>
#include <stdexcept>

#include "dynid/data/stream_resampling.hpp"
#include "dynid/data/white_noise_estimate.hpp"
#include "dynid/dynamics/kinematics.hpp"
#include "dynid/io/csv_row_reader.hpp"
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

/// What the sensor path knows of one encoder sample: the filtered joints, the other streams at its
/// time, and (floating base) the base pose from the anchored stance contact.
struct Record {
  double time = 0.0;
  VectorX qj, vj, tau;              // joints; logged joint velocities (fixed base); joint torques (nv, NaN: none)
  std::vector<SE3> contact_base;    // per contact: the base relative to the contact frame
  int anchor = -1;                  // the sample's anchor contact
  SE3 world_anchor;                 // and its world pose
  Matrix3 R = Matrix3::Identity();  // base attitude
  Vector3 p = Vector3::Zero();      // base position
  std::vector<Force> wrench;        // per contact: world axes, about the world origin
  Vector3 gyro, gyro_after, gyro_before, accel;  // IMU axes, at the sample (see below)
};

}  // namespace

/// One pass over the streams, `chunk_s` seconds of encoder samples at a time. Each encoder sample's
/// record is made once, in order (the anchor is a state carried from sample to sample); a sample's
/// derivatives use the records of its neighbours, two on each side at most.
struct SensorSource::Pass {
  Pass(const Model& model_in, const RobotSidecar& sidecar_in, const DatasetInfo& dataset_in,
       const SensorSourceOptions& options_in, TimeWindow window_in, std::vector<JointLock> locks_in);

  const Model& model;
  RobotSidecar sidecar;
  DatasetInfo dataset;
  SensorSourceOptions options;
  TimeWindow window;
  std::vector<JointLock> locks;
  double rate = 0.0, dt = 0.0;
  int j0 = 0, nj = 0;
  std::size_t nc = 0;
  long first_kept = 2, chunk = 1;  // trimmed samples at each end; samples per chunk
  bool velocity_before = false;
  double velocity_delay = 0.0;
  std::string wrench_source;
  std::vector<int> contact_ft, contact_frame, torque_rows;
  bool gyro = false, accel = false;
  SE3 base_imu = SE3::Identity();
  std::optional<StreamPieces> enc, vel, ft, plates, imu, torques;
  std::vector<std::size_t> lock_channel;     // per lock: its channel in `enc`
  std::vector<Eigen::Index> windup_channel;  // per gear_windup joint: its channel in `enc`
  MatrixX play_offset;                       // per gear_windup joint: its play offset, low-passed
  Data data;
  VectorX q_rel;
  double weight = 0.0;
  Vector3 gyro_bias = Vector3::Zero(), accel_bias = Vector3::Zero();

  // State of the pass.
  long n = -1;      // encoder samples, once the file has ended
  long next_k = 1;  // first sample of the next chunk
  long rec_first = 0;
  std::deque<Record> recs;
  int anchor = -1;
  SE3 world_anchor;

  void reset();
  const Record& rec(long k) const { return recs[static_cast<std::size_t>(k - rec_first)]; }
  long rec_end() const { return rec_first + static_cast<long>(recs.size()); }
  /// Makes the records through sample `last` (inclusive).
  void records_through(long last);
  /// The next chunk of samples [a, b) (their records and their neighbours' made); false at the end.
  bool next_chunk(long& a, long& b);
  bool kept(long k) const {
    return k >= first_kept && k <= n_or_max() - 1 - first_kept && window.contains(rec(k).time);
  }
  long n_or_max() const { return n >= 0 ? n : std::numeric_limits<long>::max() / 2; }

  SE3 seen_from(long k, long j) const {
    return rec(k).world_anchor * rec(j).contact_base[static_cast<std::size_t>(rec(k).anchor)];
  }
  Vector3 w_kin(long k) const;  // kinematic base rate, base axes (zero at the ends, as before)
  Vector3 gyro_rate(long k) const { return base_imu.rotation * rec(k).gyro; }
  Vector3 omega(long k) const { return gyro ? Vector3(gyro_rate(k) - gyro_bias) : w_kin(k); }
  Vector3 alpha(long k) const;
  Vector3 pdd_kin(long k) const {
    return (seen_from(k, k + 1).translation - 2 * rec(k).p + seen_from(k, k - 1).translation) / (dt * dt);
  }
  Vector3 lever(long k) const {  // IMU minus base acceleration, base axes
    const Vector3 w = omega(k), al = alpha(k), r = base_imu.translation;
    return al.cross(r) + w.cross(w.cross(r));
  }
  MotionSample sample(long k) const;
};

SensorSource::Pass::Pass(const Model& model_in, const RobotSidecar& sidecar_in, const DatasetInfo& dataset_in,
                         const SensorSourceOptions& options_in, TimeWindow window_in, std::vector<JointLock> locks_in)
    : model(model_in),
      sidecar(sidecar_in),
      dataset(dataset_in),
      options(options_in),
      window(window_in),
      locks(std::move(locks_in)),
      data(model_in) {
  // Noise-free data (every stream the path may read says so): no low-pass, no IMU bias removal.
  if (options.raw_when_noise_free) {
    bool all_noise_free = true;
    for (const char* name : {"encoders", "ft", "plates", "imu", "torques"})
      if (dataset.has_stream(name) && !dataset.stream(name).noise_free) all_noise_free = false;
    if (all_noise_free) {
      options.cutoff_hz = 0.0;
      options.remove_imu_bias = false;
    }
  }
  rate = dataset.stream("encoders").rate_hz;
  dt = 1.0 / rate;
  first_kept = std::max<long>(2, std::lround(options.trim_s * rate));
  chunk = std::max<long>(8, std::lround(options.chunk_s * rate));
  j0 = model.floating_base ? 6 : 0;
  nj = model.nv - j0;
  velocity_before = dataset.velocity == VelocityConvention::PeriodBefore;
  velocity_delay = velocity_before ? 0.5 * dt : 0.0;
  q_rel = model.neutral_configuration();
  weight = model.total_mass() * model.gravity.norm();

  // Joints: filtered encoder positions (the locked joints' channels read raw, after them).
  std::vector<std::string> names(static_cast<std::size_t>(nj));
  for (std::size_t b = 1; b < model.bodies.size(); ++b) {
    const Body& body = model.bodies[b];
    if (body.joint_type != JointType::FreeFlyer)
      names[static_cast<std::size_t>(body.idx_v - j0)] = "q." + body.joint_name;
  }
  for (const JointLock& lock : locks) {
    lock_channel.push_back(names.size());
    names.push_back("q." + lock.joint);
  }
  enc.emplace(dataset.stream("encoders").file, names, lowpass(options, rate));
  if (options.gear_windup) {
    const GearWindup& w = *options.gear_windup;
    if (w.compliance.size() != w.link_torque.joints.size())
      throw std::invalid_argument("gear wind-up: " + std::to_string(w.compliance.size()) + " compliances for " +
                                  std::to_string(w.link_torque.joints.size()) + " joints");
    for (const std::string& joint : w.link_torque.joints) {
      const auto at = std::find(names.begin(), names.begin() + nj, "q." + joint);
      if (at == names.begin() + nj)
        throw std::invalid_argument("gear wind-up: '" + joint + "' is not a moving joint of " + model.label());
      windup_channel.push_back(static_cast<Eigen::Index>(at - names.begin()));
    }
    // The rotors' places in the gears' play, low-passed as the encoders are (the filter is linear:
    // filtering the encoders less them is filtering each and subtracting).
    if (w.play_offset.size() > 0) {
      if (w.play_offset.rows() != static_cast<Eigen::Index>(w.link_torque.joints.size()) ||
          w.play_offset.cols() != static_cast<Eigen::Index>(w.link_torque.times.size()))
        throw std::invalid_argument("gear play: one offset per joint and link torque sample");
      play_offset = w.play_offset;
      const Eigen::Index samples = play_offset.cols();
      if (samples > 1) {
        const double track_rate =
            static_cast<double>(samples - 1) / (w.link_torque.times.back() - w.link_torque.times.front());
        // A track too slow for the encoders' cut-off is already smoother than they are.
        const IirFilter filter = track_rate > 2.0 * options.cutoff_hz ? lowpass(options, track_rate) : IirFilter{};
        if (filter.b.size() > 0 && samples > filtfilt_padlen(filter))
          for (Eigen::Index j = 0; j < play_offset.rows(); ++j)
            play_offset.row(j) = filtfilt(filter, play_offset.row(j).transpose()).transpose();
      }
    }
  }
  if (!enc->load_through(4)) throw std::runtime_error(enc->path() + ": too few samples");
  if (options.logged_velocities) {
    if (model.floating_base)
      throw std::runtime_error("--velocities logged: fixed-base robots only for now (" + model.label() +
                               " has a floating base); leave it out to differentiate the encoders");
    if (!dataset.has_stream("velocities"))
      throw std::runtime_error(dataset.directory +
                               ": --velocities logged: the data set has no velocities stream (dataset.json "
                               "streams.velocities; dynid import log writes it when the map gives dq)");
    std::vector<std::string> v_names(static_cast<std::size_t>(nj));
    for (std::size_t b = 1; b < model.bodies.size(); ++b)
      v_names[static_cast<std::size_t>(model.bodies[b].idx_v - j0)] = "v." + model.bodies[b].joint_name;
    vel.emplace(dataset.stream("velocities").file, v_names, lowpass(options, rate));
  }
  // Joint torque sensors (the `torques` stream), filtered like the other streams. Sensor sigma:
  // docs/scenarios.md (0.15 N m, strain-gauge class).
  if (dataset.has_stream("torques")) {
    const CsvRowReader header(dataset.stream("torques").file);
    std::vector<std::string> t_names;
    for (std::size_t c = 1; c < header.header().size(); ++c)
      if (const auto b = model.find_joint(header.header()[c].substr(4));
          b && header.header()[c].rfind("tau.", 0) == 0) {
        t_names.push_back(header.header()[c]);
        torque_rows.push_back(model.bodies[static_cast<std::size_t>(*b)].idx_v);
      }
    torques.emplace(dataset.stream("torques").file, t_names, lowpass(options, dataset.stream("torques").rate_hz));
  }
  if (!model.floating_base) {
    // A fixed base: no base pose, no IMU; the joints' motion from the encoders alone and the joint
    // torque sensors. Contacts would need their wrenches, which this path does not read for a fixed base.
    if (!sidecar.contacts.empty())
      throw std::runtime_error(
          model.label() + ": the sensor path of a fixed-base robot does not read contact wrenches (" +
          std::to_string(sidecar.contacts.size()) + " contacts in " + sidecar.source_path + "); use --source truth");
    return;
  }

  // Contact wrenches, world axes about the world origin, before the base pose is known: F/T stay in
  // their sensor frames (mapped per sample), plates are already in world axes.
  nc = sidecar.contacts.size();
  const bool have_ft = dataset.has_stream("ft") && !sidecar.ft_sensors.empty();
  wrench_source = options.wrenches;
  if (wrench_source == "auto") wrench_source = have_ft ? "ft" : "plates";
  if (wrench_source != "ft" && wrench_source != "plates")
    throw std::invalid_argument("wrench source must be ft, plates or auto, not '" + wrench_source + "'");
  contact_ft.assign(nc, -1);  // F/T sensor index per contact
  if (wrench_source == "ft") {
    static const char* const kFt[6] = {"fx", "fy", "fz", "tx", "ty", "tz"};
    std::vector<std::string> w_names;
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
        w_names.push_back(sidecar.ft_sensors[static_cast<std::size_t>(contact_ft[c])].name + "." + a);
    }
    ft.emplace(dataset.stream("ft").file, w_names, lowpass(options, dataset.stream("ft").rate_hz));
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
    static const char* const kPlate[6] = {"fx", "fy", "fz", "mx", "my", "mz"};
    std::vector<std::string> w_names;
    for (const ForcePlateInfo& pl : dataset.force_plates)
      for (const char* a : kPlate) w_names.push_back(pl.name + "." + a);
    plates.emplace(dataset.stream("plates").file, w_names, lowpass(options, dataset.stream("plates").rate_hz));
  }
  // Gyro and accelerometer when the IMU is on the base body.
  if (options.use_gyro && sidecar.imu && dataset.has_stream("imu")) {
    const Frame& fr = model.frames[static_cast<std::size_t>(model.frame_index(sidecar.imu->name))];
    if (fr.body == 1) {
      const std::string& nm = sidecar.imu->name;
      std::vector<std::string> i_names = {nm + ".gyro.x", nm + ".gyro.y", nm + ".gyro.z"};
      const CsvRowReader header(dataset.stream("imu").file);
      accel = options.use_accelerometer && header.find_column(nm + ".acc.x") >= 0;
      if (accel)
        for (const char* a : {".acc.x", ".acc.y", ".acc.z"}) i_names.push_back(nm + a);
      imu.emplace(dataset.stream("imu").file, i_names, lowpass(options, dataset.stream("imu").rate_hz));
      gyro = true;
      base_imu = fr.placement;
      if (options.imu_sensor_axes) base_imu.rotation = fr.placement.rotation * *options.imu_sensor_axes;
    }
  }
  for (std::size_t c = 0; c < nc; ++c) contact_frame.push_back(model.frame_index(sidecar.contacts[c].name));
}

void SensorSource::Pass::reset() {
  for (auto* s : {&enc, &vel, &ft, &plates, &imu, &torques})
    if (*s) (*s)->rewind();
  next_k = 1;
  rec_first = 0;
  recs.clear();
  anchor = -1;
  world_anchor = SE3::Identity();
}

void SensorSource::Pass::records_through(long last) {
  const long a = rec_end();
  if (last < a) return;
  const long m = last + 1 - a;
  Eigen::MatrixXd qj = enc->filtered(a, last + 1);
  Eigen::VectorXd times(m);
  for (long i = 0; i < m; ++i) times[i] = enc->time(a + i);
  // The links' angles: the encoders less the gears' wind-up under the predicted link torques.
  for (std::size_t j = 0; j < windup_channel.size(); ++j) {
    const GearWindup& w = *options.gear_windup;
    if (w.compliance[j] == 0.0) continue;
    for (long i = 0; i < m; ++i) qj(windup_channel[j], i) -= w.compliance[j] * w.link_torque.at(j, times[i]);
  }
  // ... and less the rotors' places in the gears' play.
  if (play_offset.size() > 0)
    for (std::size_t j = 0; j < windup_channel.size(); ++j)
      for (long i = 0; i < m; ++i)
        qj(windup_channel[j], i) -=
            interpolate_track_row(options.gear_windup->link_torque.times, play_offset, j, times[i]);
  for (std::size_t l = 0; l < locks.size(); ++l)
    for (long k = a; k <= last; ++k) {
      const double x = enc->raw(k, lock_channel[l]);
      if (!(std::abs(x - locks[l].position) <= options.lock_tolerance))
        throw std::runtime_error(enc->path() + ": line " + std::to_string(k + 2) + ": locked joint '" + locks[l].joint +
                                 "' reads " + std::to_string(x) + " rad, not its lock " +
                                 std::to_string(locks[l].position));
    }
  Eigen::MatrixXd vj;
  if (vel) {
    if (!vel->load_through(last))
      throw std::runtime_error(vel->path() + ": its " + std::to_string(vel->loaded()) +
                               " time stamps are not the encoders' (more than " + std::to_string(last) + ")");
    vj = vel->filtered(a, last + 1);
    for (long k = a; k <= last; ++k)
      if (std::abs(vel->time(k) - enc->time(k)) > 1e-9)
        throw std::runtime_error(vel->path() + ": its time stamps are not the encoders' (row " + std::to_string(k + 1) +
                                 ")");
  }
  Eigen::MatrixXd tau = Eigen::MatrixXd::Constant(model.nv, m, std::numeric_limits<double>::quiet_NaN());
  if (torques) {
    const Eigen::MatrixXd values = torques->resampled({stamped(times, dataset, "torques", options)})[0];
    for (std::size_t i = 0; i < torque_rows.size(); ++i)
      tau.row(torque_rows[i]) = values.row(static_cast<Eigen::Index>(i));
  }
  Eigen::MatrixXd wrench_values;
  if (ft) wrench_values = ft->resampled({stamped(times, dataset, "ft", options)})[0];
  if (plates) wrench_values = plates->resampled({stamped(times, dataset, "plates", options)})[0];
  // Gyro: the rate that goes with each sample, and the rate half an encoder period after and before
  // it, whose difference is the angular acceleration at the sample (for an instantaneous gyro at the
  // encoder rate: the central difference).
  std::vector<Eigen::MatrixXd> imu_values;
  if (imu) {
    std::vector<Eigen::VectorXd> at = {stamped(times, dataset, "imu", options, "gyro", -velocity_delay),
                                       stamped(times, dataset, "imu", options, "gyro", 0.5 * dt),
                                       stamped(times, dataset, "imu", options, "gyro", -0.5 * dt)};
    if (accel) at.push_back(stamped(times, dataset, "imu", options, "acc"));
    imu_values = imu->resampled(at);
  }
  for (long i = 0; i < m; ++i) {
    Record r;
    r.time = times[i];
    r.qj = qj.col(i).head(nj);  // the locked joints' channels follow
    r.tau = tau.col(i);
    if (vel) r.vj = vj.col(i);
    if (imu) {
      r.gyro = imu_values[0].col(i).head<3>();
      r.gyro_after = imu_values[1].col(i).head<3>();
      r.gyro_before = imu_values[2].col(i).head<3>();
      if (accel) r.accel = imu_values[3].col(i).tail<3>();
    }
    if (model.floating_base) {
      q_rel.tail(nj) = r.qj;
      forward_kinematics(model, data, q_rel);  // base at the world origin: poses relative to the base
      // Normal loads per contact (sensor / plate z: the soles are flat).
      std::vector<double> load(nc, 0.0);
      std::vector<Force> w_base(nc);  // wrench in base axes, about the base origin (F/T path)
      if (ft) {
        for (std::size_t c = 0; c < nc; ++c) {
          Vector6 w;
          for (int ax = 0; ax < 6; ++ax) w[ax] = wrench_values(static_cast<Eigen::Index>(6 * c) + ax, i);
          const SidecarFrame& s = sidecar.ft_sensors[static_cast<std::size_t>(contact_ft[c])];
          const SE3 base_sensor = frame_placement(model, data, model.frame_index(s.name));
          w_base[c] = base_sensor.act(Force::from_vector(w));
          load[c] = std::abs(w[2]);
        }
      }
      std::vector<Vector6> plate_wrench;  // ground on robot, world, about world origin
      std::vector<std::size_t> plate_contact;
      if (plates) {
        // The contact nearest (horizontally, in base axes: yaw-free) to the plate's COP takes its
        // wrench; with the base pose unknown, compare in the anchor frame of the previous sample.
        for (std::size_t pi = 0; pi < dataset.force_plates.size(); ++pi) {
          const Vector3 f = wrench_values.block<3, 1>(static_cast<Eigen::Index>(6 * pi), i);
          const Vector3 mo = wrench_values.block<3, 1>(static_cast<Eigen::Index>(6 * pi + 3), i);
          const Vector3 F = -f;
          const Vector3 N = -mo + dataset.force_plates[pi].origin.cross(F);
          Vector6 w;
          w << F, N;
          plate_wrench.push_back(w);
          const Vector3 cop_xy =
              std::abs(F.z()) > 1e-6 ? Vector3(-N.y() / F.z(), N.x() / F.z(), 0.0) : dataset.force_plates[pi].origin;
          std::size_t best = 0;
          double best_d = 1e300;
          for (std::size_t c = 0; c < nc; ++c) {
            Vector3 pc = frame_placement(model, data, contact_frame[c]).translation;
            if (anchor >= 0)
              pc = (world_anchor *
                    frame_placement(model, data, contact_frame[static_cast<std::size_t>(anchor)]).inverse())
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
      r.R = world_base.rotation;
      r.p = world_base.translation;
      r.contact_base.resize(nc);
      for (std::size_t c = 0; c < nc; ++c) r.contact_base[c] = frame_placement(model, data, contact_frame[c]).inverse();
      r.anchor = anchor;
      r.world_anchor = world_anchor;
      r.wrench.assign(nc, Force::Zero());
      if (ft) {
        for (std::size_t c = 0; c < nc; ++c) r.wrench[c] = world_base.act(w_base[c]);
      } else {
        for (std::size_t pi = 0; pi < plate_wrench.size(); ++pi)
          r.wrench[plate_contact[pi]] += Force::from_vector(plate_wrench[pi]);
      }
    }
    recs.push_back(std::move(r));
  }
}

bool SensorSource::Pass::next_chunk(long& a, long& b) {
  if (n >= 0 && next_k >= n - 1) return false;
  a = next_k;
  // Enough rows ahead to know whether the chunk's samples are trimmed (and their neighbours).
  enc->load_through(a + chunk + first_kept + 3);
  if (enc->ended()) n = enc->loaded();
  b = std::min(a + chunk, n_or_max() - 1);
  if (b <= a) return false;
  next_k = b;
  // Records two samples either side of the chunk's; the older ones are done with.
  records_through(std::min(b + 1, n_or_max() - 1));
  while (rec_first < a - 2) {
    recs.pop_front();
    ++rec_first;
  }
  return true;
}

Vector3 SensorSource::Pass::w_kin(long k) const {
  if (k <= 0 || k >= n_or_max() - 1) return Vector3::Zero();
  return velocity_before
             ? Vector3(log3(seen_from(k, k - 1).rotation.transpose() * rec(k).R) / dt)
             : Vector3(log3(seen_from(k, k - 1).rotation.transpose() * seen_from(k, k + 1).rotation) / (2 * dt));
}

Vector3 SensorSource::Pass::alpha(long k) const {
  if (gyro) return base_imu.rotation * (rec(k).gyro_after - rec(k).gyro_before) / dt;  // the bias cancels
  return velocity_before ? Vector3((omega(k + 1) - omega(k)) / dt) : Vector3((omega(k + 1) - omega(k - 1)) / (2 * dt));
}

MotionSample SensorSource::Pass::sample(long k) const {
  const Record& r = rec(k);
  const Record& before = rec(k - 1);
  const Record& after = rec(k + 1);
  MotionSample s;
  s.time = r.time;
  s.joint_torques = r.tau;
  if (!model.floating_base) {
    s.q = r.qj;
    if (vel) {  // the robot's own velocity at the stamp; its central difference
      s.v = r.vj;
      s.a = (after.vj - before.vj) / (2 * dt);
    } else {
      s.v = velocity_before ? VectorX((r.qj - before.qj) / dt) : VectorX((after.qj - before.qj) / (2 * dt));
      s.a = (after.qj - 2 * r.qj + before.qj) / (dt * dt);
    }
    return s;
  }
  // Base origin acceleration, world axes: second differences of the stance-leg trajectory, or the
  // accelerometer (specific force to world with the attitude, plus gravity, minus the lever-arm terms
  // of the IMU offset), its constant bias removed against the kinematic estimate. Kinematics assume
  // the anchor foot fixed, which the filter window breaks around every touch-down and lift-off.
  const Vector3 pdd =
      accel ? Vector3(r.R * (base_imu.rotation * (r.accel - accel_bias) - lever(k)) + model.gravity) : pdd_kin(k);
  s.q.resize(model.nq);
  s.q.head<3>() = r.p;
  const Eigen::Quaterniond quat(r.R);
  s.q.segment<4>(3) << quat.x(), quat.y(), quat.z(), quat.w();
  s.q.tail(nj) = r.qj;
  const Vector3 p_prev = seen_from(k, k - 1).translation, p_next = seen_from(k, k + 1).translation;
  const Vector3 pd = velocity_before ? Vector3((r.p - p_prev) / dt) : Vector3((p_next - p_prev) / (2 * dt));
  const Vector3 w = omega(k);
  const Vector3 vlin = r.R.transpose() * pd;
  s.v.resize(model.nv);
  s.a.resize(model.nv);
  s.v << vlin, w, velocity_before ? VectorX((r.qj - before.qj) / dt) : VectorX((after.qj - before.qj) / (2 * dt));
  s.a << r.R.transpose() * pdd - w.cross(vlin), alpha(k), (after.qj - 2 * r.qj + before.qj) / (dt * dt);
  s.contact_wrenches = r.wrench;
  return s;
}

namespace {

/// The IMU's white noise densities [rad/s/sqrt(Hz), m/s^2/sqrt(Hz)] from its first 200,000 samples
/// (the root mean square over the three axes; the accelerometer's 0 when it is not recorded).
std::pair<double, double> imu_noise_densities(const DatasetInfo& dataset, const std::string& imu, double rate_hz) {
  CsvRowReader reader(dataset.stream("imu").file);
  std::vector<int> columns;
  for (const char* axis : {".gyro.x", ".gyro.y", ".gyro.z", ".acc.x", ".acc.y", ".acc.z"})
    columns.push_back(reader.find_column(imu + axis));
  const long most = 200000;
  Eigen::MatrixXd values(6, most);
  std::vector<double> row;
  long n = 0;
  while (n < most && reader.next(row)) {
    for (int c = 0; c < 6; ++c)
      values(c, n) = columns[c] >= 0 ? row[static_cast<std::size_t>(columns[c])] : std::nan("");
    ++n;
  }
  double density[2] = {0.0, 0.0};
  for (int sensor = 0; sensor < 2; ++sensor) {
    double sum = 0.0;
    int axes = 0;
    for (int c = 3 * sensor; c < 3 * sensor + 3; ++c) {
      const double sigma = white_noise_sigma(values.row(c).head(n).transpose());
      if (std::isfinite(sigma)) {
        sum += sigma * sigma;
        ++axes;
      }
    }
    density[sensor] = axes > 0 ? std::sqrt(sum / axes / rate_hz) : 0.0;
  }
  return {density[0], density[1]};
}

}  // namespace

SensorSource::SensorSource(const Model& model, const RobotSidecar& sidecar, const DatasetInfo& dataset,
                           const SensorSourceOptions& options_in, TimeWindow window, std::vector<JointLock> locks)
    : pass_(std::make_unique<Pass>(model, sidecar, dataset, options_in, window, std::move(locks))) {
  Pass& p = *pass_;
  const SensorSourceOptions& options = p.options;
  if (p.torques) noise_.torque = 0.15;
  if (p.ft) {
    noise_.force = 0.125;
    noise_.moment = 0.003;
  }
  if (p.plates) {
    noise_.force = 0.32;  // 0.25 N white plus 0.7 N quantization (0.2 N)
    noise_.moment = 0.05;
  }
  // The gyro's and accelerometer's white noise through the low-pass, and for the angular
  // acceleration through the difference of the rates: errors in the regressor's inputs, which the
  // rows' weights count (ForceNoise::acceleration). The densities come from the options (a
  // datasheet's) or, when those are negative, from the recording itself (data/white_noise_estimate.hpp).
  if (p.gyro && !dataset.stream("imu").noise_free) {
    const double imu_rate = dataset.stream("imu").rate_hz;
    noise_.gyro_noise_density = options.gyro_noise_density;
    noise_.accelerometer_noise_density = p.accel ? options.accelerometer_noise_density : 0.0;
    if (noise_.gyro_noise_density < 0.0 || noise_.accelerometer_noise_density < 0.0) {
      const auto [gyro_density, accel_density] = imu_noise_densities(dataset, sidecar.imu->name, imu_rate);
      if (noise_.gyro_noise_density < 0.0) noise_.gyro_noise_density = gyro_density;
      if (noise_.accelerometer_noise_density < 0.0) noise_.accelerometer_noise_density = accel_density;
      noise_.imu_noise_from_data = true;
    }
  }
  if (noise_.gyro_noise_density > 0.0 || noise_.accelerometer_noise_density > 0.0) {
    const double imu_rate = dataset.stream("imu").rate_hz;
    const double gyro_sigma = noise_.gyro_noise_density * std::sqrt(imu_rate);
    const double accel_sigma = noise_.accelerometer_noise_density * std::sqrt(imu_rate);
    // Sources: the gyro's noise about each axis, differentiated (the base's angular acceleration,
    // and through the lever arm p of the IMU its linear one: a_base = a_imu - alpha x p - ..., so
    // d a_base = p x d alpha), then the accelerometer's along each axis (isotropic: in base axes).
    const auto declare = [&](const FilteredNoiseGain& gain, MatrixX& acceleration, double& measured_gain) {
      const double alpha_sigma = gyro_sigma * gain.rate;
      measured_gain = gain.value;
      acceleration = MatrixX::Zero(model.nv, p.accel ? 6 : 3);
      const Vector3 lever = p.base_imu.translation;
      for (int j = 0; j < 3; ++j) {
        const Vector3 axis = Vector3::Unit(j);
        acceleration.col(j).head<3>() = alpha_sigma * lever.cross(axis);
        acceleration.col(j).segment<3>(3) = alpha_sigma * axis;
        if (p.accel) acceleration(j, 3 + j) = accel_sigma * gain.value;
      }
    };
    const IirFilter signal = lowpass(options, imu_rate);
    declare(filtered_white_noise_gain(signal, imu_rate), noise_.acceleration, noise_.measured_gain);
    if (options.row_filter_cutoff_hz > 0.0)  // what the rows the parallel filter takes carry
      declare(
          filtered_white_noise_gain(
              signal, imu_rate, butterworth_lowpass(options.row_filter_order, options.row_filter_cutoff_hz, imu_rate)),
          noise_.row_filtered_acceleration, noise_.row_filtered_measured_gain);
  }

  // First pass: every stream checked, the kept samples counted, and the sums the constant IMU
  // biases are means of (over samples 1 .. n-2). The gyro's: the gyro's rate minus the kinematic one.
  // The accelerometer's: its reading minus the kinematic acceleration at the IMU (with the lever-arm
  // terms of the bias-corrected gyro rate w = g - b_gyro), where the quadratic terms sum as
  // sum w w^T = S2 - b S1^T - S1 b^T + N b b^T, so one pass gives both.
  Vector3 sum_gyro = Vector3::Zero(), sum_g = Vector3::Zero(), sum_acc = Vector3::Zero(), sum_alpha = Vector3::Zero();
  Matrix3 sum_gg = Matrix3::Zero();
  long count = 0;
  long a = 0, b = 0;
  // Still windows: runs of kept samples where every joint and the kinematic base rate are slow.
  const ImuCalibrationOptions& still = options.still_detection;
  const Matrix3 frame_in_base =
      p.accel ? Matrix3(model.frames[static_cast<std::size_t>(model.frame_index(sidecar.imu->name))].placement.rotation)
              : Matrix3::Identity();
  std::vector<ImuStillWindow> run;  // one entry per sample of the current still run
  const auto close_run = [&] {
    ImuStillWindow w;
    w.start = run.empty() ? 0.0 : run.front().start + still.trim_s;
    w.end = run.empty() ? 0.0 : run.back().start - still.trim_s;
    if (w.end - w.start >= still.min_duration_s) {
      for (const ImuStillWindow& s : run)
        if (s.start >= w.start && s.start <= w.end) {
          ++w.samples;
          w.gravity_in_frame += s.gravity_in_frame;
          w.accelerometer += s.accelerometer;
          w.gyro += s.gyro;
        }
      const double n_samples = static_cast<double>(w.samples);
      w.gravity_in_frame /= n_samples;
      w.accelerometer /= n_samples;
      w.gyro /= n_samples;
      still_windows_.push_back(w);
    }
    run.clear();
  };
  while (p.next_chunk(a, b))
    for (long k = a; k < b; ++k) {
      if (p.kept(k)) ++size_;
      if (!p.gyro) continue;
      if (p.accel) {
        const Record& r = p.rec(k);
        const double joint_speed =
            p.nj > 0 ? ((p.rec(k + 1).qj - p.rec(k - 1).qj).cwiseAbs().maxCoeff() / (2.0 * p.dt)) : 0.0;
        if (p.kept(k) && joint_speed < still.max_joint_speed && p.w_kin(k).norm() < still.max_base_rate) {
          ImuStillWindow s;
          s.start = r.time;
          s.gravity_in_frame = frame_in_base.transpose() * r.R.transpose() * (-model.gravity);
          s.accelerometer = r.accel;
          s.gyro = r.gyro;
          run.push_back(s);
          if (run.back().start - run.front().start >= still.max_window_s) close_run();
        } else if (!run.empty()) {
          close_run();
        }
      }
      const Vector3 g = p.gyro_rate(k);
      sum_gyro += g - p.w_kin(k);
      ++count;
      if (!p.accel) continue;
      sum_g += g;
      sum_gg += g * g.transpose();
      const Vector3 al = p.alpha(k);
      sum_alpha += al;
      const Matrix3 world_R_imu = p.rec(k).R * p.base_imu.rotation;
      sum_acc += p.rec(k).accel - world_R_imu.transpose() * (p.pdd_kin(k) - model.gravity);
    }
  if (!run.empty()) close_run();
  for (auto* s : {&p.vel, &p.ft, &p.plates, &p.imu, &p.torques})
    if (*s) (*s)->check_rest();
  if (p.vel && p.vel->loaded() != p.n)
    throw std::runtime_error(p.vel->path() + ": its " + std::to_string(p.vel->loaded()) +
                             " time stamps are not the encoders' (" + std::to_string(p.n) + ")");
  if (size_ == 0) throw std::runtime_error(dataset.directory + ": no sensor samples in the chosen time window");
  if (p.gyro && options.imu_gyro_bias) p.gyro_bias = p.base_imu.rotation * *options.imu_gyro_bias;
  if (p.gyro && options.remove_imu_bias && count > 0) {
    const double N = static_cast<double>(count);
    if (!options.imu_gyro_bias) p.gyro_bias = sum_gyro / N;
    if (p.accel) {
      const Vector3& bg = p.gyro_bias;
      const Vector3 r = p.base_imu.translation;
      const Matrix3 M = sum_gg - bg * sum_g.transpose() - sum_g * bg.transpose() + N * bg * bg.transpose();
      const Vector3 sum_lever = sum_alpha.cross(r) + M * r - r * M.trace();
      p.accel_bias = (sum_acc - p.base_imu.rotation.transpose() * sum_lever) / N;
    }
  }
  p.reset();
  const double rate = p.rate;
  description_ =
      "sensors of " + dataset.directory + (model.floating_base ? " (encoders " : " (fixed base, encoders ") +
      std::to_string(static_cast<int>(rate)) + " Hz, low-pass " +
      (options.cutoff_hz > 0.0 ? std::to_string(options.cutoff_hz).substr(0, 4) + " Hz" : std::string("none")) +
      (model.floating_base ? ", wrenches from " + p.wrench_source : std::string()) + (p.gyro ? ", gyro" : "") +
      (p.accel ? ", accelerometer" : "") + (p.vel ? ", logged velocities" : "") +
      (dataset.has_stream("torques") ? ", joint torques" : "") + ")";
}

SensorSource::~SensorSource() = default;

bool SensorSource::next(MotionSample& sample) {
  while (cursor_ >= chunk_.size()) {
    chunk_.clear();
    cursor_ = 0;
    long a = 0, b = 0;
    if (!pass_->next_chunk(a, b)) return false;
    for (long k = a; k < b; ++k)
      if (pass_->kept(k)) chunk_.push_back(pass_->sample(k));
  }
  sample = chunk_[cursor_++];
  return true;
}

void SensorSource::rewind() {
  pass_->reset();
  chunk_.clear();
  cursor_ = 0;
}

}  // namespace dynid
