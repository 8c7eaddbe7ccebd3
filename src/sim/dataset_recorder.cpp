#include "dynid/sim/dataset_recorder.hpp"

#include <cmath>
#include <limits>

#include "dynid/dynamics/center_of_mass.hpp"
#include "dynid/dynamics/rnea.hpp"

namespace dynid {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kCopMinForce = 20.0;  // [N] below this a plate's COP is undefined (NaN)

std::vector<Channel> wrench_channels(const std::string& prefix, const char* const names[6]) {
  std::vector<Channel> c;
  for (int k = 0; k < 6; ++k) c.push_back({prefix + "." + names[k], k < 3 ? "N" : "N m"});
  return c;
}

void append(std::vector<Channel>& a, const std::vector<Channel>& b) { a.insert(a.end(), b.begin(), b.end()); }

}  // namespace

DatasetRecorder::DatasetRecorder(const std::string& out_dir, const Model& truth, const RobotSidecar& sidecar,
                                 const SceneSpec& scene, const SensorNoise& noise, const StreamRates& rates,
                                 unsigned seed)
    : out_dir_(out_dir), model_(truth), sidecar_(sidecar), scene_(scene), noise_(noise), rng_(seed), data_(truth) {
  static const char* const kForceNames[6] = {"fx", "fy", "fz", "tx", "ty", "tz"};
  for (std::size_t i = 1; i < model_.bodies.size(); ++i)
    if (model_.bodies[i].joint_type != JointType::FreeFlyer) joint_bodies_.push_back(static_cast<int>(i));
  if (noise_.backlash > 0.0) {
    const std::vector<double> armature = joint_armature(model_, sidecar_);
    std::vector<double> damping(model_.bodies.size(), 0.0);
    for (const ActuatorInfo& a : sidecar_.actuators)
      if (const auto body = model_.find_joint(a.joint); body && a.damping)
        damping[static_cast<std::size_t>(*body)] = *a.damping;
    for (int b : joint_bodies_)
      dead_bands_.emplace_back(noise_.backlash, armature[static_cast<std::size_t>(b)],
                               damping[static_cast<std::size_t>(b)]);
  }
  f_ext_body_.assign(model_.bodies.size(), Force::Zero());
  if (noise_.enabled) {
    gyro_bias_ = noise_.gyro_bias_sigma * Vector3(gauss_(rng_), gauss_(rng_), gauss_(rng_));
    accel_bias_ = noise_.accel_bias_sigma * Vector3(gauss_(rng_), gauss_(rng_), gauss_(rng_));
  }
  auto add = [&](const std::string& name, std::vector<Channel> channels, double rate, int digits) {
    streams_.push_back({name,
                        std::make_unique<CsvStreamWriter>(out_dir_ + "/" + name + ".csv", std::move(channels), digits),
                        rate, 0.0});
  };

  // Units follow docs/conventions.md: base position m, quaternion unitless, joints rad (or m),
  // velocities and accelerations per second of those; wrenches world axes about the world origin.
  std::vector<Channel> truth_channels;
  for (const std::string& n : model_.configuration_names()) truth_channels.push_back({"q." + n, "SI"});
  for (const std::string& n : model_.velocity_names()) truth_channels.push_back({"v." + n, "SI"});
  for (const std::string& n : model_.velocity_names()) truth_channels.push_back({"a." + n, "SI"});
  for (int b : joint_bodies_)
    truth_channels.push_back({"tau." + model_.bodies[static_cast<std::size_t>(b)].joint_name, "N m"});
  for (const ContactSurface& c : sidecar_.contacts)
    append(truth_channels, wrench_channels("wrench." + c.name, kForceNames));
  for (const char* axis : {"x", "y", "z"}) truth_channels.push_back({std::string("com.") + axis, "m"});
  add("truth", truth_channels, rates.truth_hz, 12);
  truth_ = streams_.back().writer.get();

  std::vector<Channel> enc;
  for (int b : joint_bodies_) enc.push_back({"q." + model_.bodies[static_cast<std::size_t>(b)].joint_name, "rad"});
  add("encoders", enc, rates.encoders_hz, rates.encoder_digits);

  // Joint torque sensors: at the encoder rate (the same joint electronics). At a welded joint the
  // sensor reads the torque the weld carries, as the truth stream's tau does.
  // Their calibration errors come from a generator of their own, so adding or removing a sensor
  // leaves every other stream's noise as it was.
  std::vector<Channel> torques;
  std::mt19937 calibration_rng(seed ^ 0x7a3c91u);
  std::normal_distribution<double> calibration_gauss(0.0, 1.0);
  for (const std::string& j : sidecar_.joint_torque_sensors)
    if (const auto b = model_.find_joint(j)) {
      const Body& body = model_.bodies[static_cast<std::size_t>(*b)];
      torque_sensor_velocity_.push_back(body.idx_v);
      torques.push_back({"tau." + j, "N m"});
      const double rated = std::isfinite(body.limits.effort) ? body.limits.effort : 0.0;
      const double offset = calibration_gauss(calibration_rng), gain = calibration_gauss(calibration_rng);
      torque_sensor_offset_.push_back(noise_.joint_torque_offset_fraction * rated * offset);
      torque_sensor_gain_.push_back(1.0 + noise_.joint_torque_gain_sigma * gain);
    }
  if (!torques.empty()) add("torques", torques, rates.encoders_hz, 12);  // digits of the truth stream

  if (sidecar_.imu || !sidecar_.accelerometers.empty()) {
    std::vector<Channel> imu;
    if (sidecar_.imu) {
      for (const char* a : {"x", "y", "z"}) imu.push_back({sidecar_.imu->name + ".gyro." + a, "rad/s"});
      for (const char* a : {"x", "y", "z"}) imu.push_back({sidecar_.imu->name + ".acc." + a, "m/s^2"});
    }
    for (const SidecarFrame& acc : sidecar_.accelerometers)
      for (const char* a : {"x", "y", "z"}) imu.push_back({acc.name + ".acc." + a, "m/s^2"});
    add("imu", imu, rates.imu_hz, 10);
  }
  if (!sidecar_.ft_sensors.empty()) {
    std::vector<Channel> ft;
    for (const ForceTorqueSensor& s : sidecar_.ft_sensors) append(ft, wrench_channels(s.name, kForceNames));
    add("ft", ft, rates.ft_hz, 10);
  }
  if (!scene_.plates.empty()) {
    static const char* const kPlateNames[6] = {"fx", "fy", "fz", "mx", "my", "mz"};
    std::vector<Channel> plates;
    for (const ForcePlateSpec& p : scene_.plates) {
      append(plates, wrench_channels(p.name, kPlateNames));
      plates.push_back({p.name + ".copx", "m"});
      plates.push_back({p.name + ".copy", "m"});
    }
    add("plates", plates, rates.plates_hz, 10);
    plate_sum_.assign(scene_.plates.size(), Vector6::Zero());
  }
  if (!sidecar_.markers.empty()) {
    std::vector<Channel> markers;
    for (const SidecarFrame& m : sidecar_.markers)
      for (const char* a : {"x", "y", "z"}) markers.push_back({m.name + "." + a, "m"});
    add("markers", markers, rates.markers_hz, 9);
  }
}

void DatasetRecorder::restart_clocks(double time) {
  for (Stream& s : streams_) s.next_time = time;
  plate_steps_ = 0;                                             // a new window: the plates' mean starts afresh
  accel_prev_time_ = std::numeric_limits<double>::quiet_NaN();  // and the accelerometers'
}

void DatasetRecorder::accumulate_plates(const Simulation& sim) {
  const double t = sim.time(), dt = sim.timestep();
  // Steps the recorder did not see (nothing recorded or sensed) break the mean: start afresh.
  if (plate_steps_ > 0 && t - plate_last_step_time_ > 1.5 * dt) plate_steps_ = 0;
  for (std::size_t p = 0; p < plate_sum_.size(); ++p) {
    const Vector6 w = sim.plate_wrenches()[p].to_vector();
    plate_sum_[p] = plate_steps_ == 0 ? w : Vector6(plate_sum_[p] + w);
  }
  ++plate_steps_;
  plate_last_step_time_ = t;
}

bool DatasetRecorder::due(Stream& s, double time, double dt) {
  if (time + 0.5 * dt < s.next_time) return false;
  // Keep the nominal rate on average: advance by whole periods, never drift with the step size.
  while (s.next_time <= time + 0.5 * dt) s.next_time += 1.0 / s.rate_hz;
  return true;
}

void DatasetRecorder::write_truth(const Simulation& sim, const VectorX& tau) {
  row_.clear();
  const VectorX& q = sim.q();
  for (Eigen::Index i = 0; i < q.size(); ++i) row_.push_back(q[i]);
  for (Eigen::Index i = 0; i < sim.v().size(); ++i) row_.push_back(sim.v()[i]);
  for (Eigen::Index i = 0; i < sim.a().size(); ++i) row_.push_back(sim.a()[i]);
  const VectorX& link_tau = sim.link_torques();
  // The joint torque as the robot's joint torque sensors read it, noise-free: on the motor side
  // (sidecar joint_torque_side: motor) the applied torque, friction and rotor inertia included.
  const VectorX& read_tau = sidecar_.joint_torque_at_motor ? tau : link_tau;
  for (int b : joint_bodies_) row_.push_back(read_tau[model_.bodies[static_cast<std::size_t>(b)].idx_v]);
  for (const Force& w : sim.contact_wrenches_world())
    for (int k = 0; k < 6; ++k) row_.push_back(w.to_vector()[k]);
  center_of_mass(model_, data_, q);
  for (int k = 0; k < 3; ++k) row_.push_back(data_.com[k]);
  truth_->write(sim.time(), row_);

  // Physics agreement: dynid's inverse dynamics of the true model with the contact wrenches
  // MuJoCo applied must return the joint torques that were applied and nothing on the base. Welded
  // joints (v = a = 0) are checked too: their rows must equal the torque the weld carries, which
  // the simulation takes from MuJoCo's own body interaction forces (Simulation::link_torques), so
  // a weld placed or loaded differently in MuJoCo than in dynid shows here. The other rows equal
  // those of the locked (reduced) model, whose motion is the same.
  forward_kinematics(model_, data_, q);
  for (std::size_t i = 0; i < model_.bodies.size(); ++i)
    f_ext_body_[i] = world_wrench_to_body(data_, static_cast<int>(i), sim.external_wrenches_world()[i]);
  const VectorX& residual = rnea(model_, data_, q, sim.v(), sim.a(), f_ext_body_);
  VectorX expected = VectorX::Zero(model_.nv);
  for (int b : joint_bodies_) {
    const int k = model_.bodies[static_cast<std::size_t>(b)].idx_v;
    expected[k] = link_tau[k];
  }
  const double scale = std::max(expected.norm(), model_.total_mass() * model_.gravity.norm());
  max_consistency_error_ = std::max(max_consistency_error_, (residual - expected).norm() / scale);
}

void DatasetRecorder::step_dead_bands(const Simulation& sim) {
  if (dead_bands_.empty()) return;
  const double t = sim.time(), dt = sim.timestep();
  // The torque the gear carries to the link (at a welded joint: the torque the weld carries). Steps
  // the recorder did not see leave the rotors where the torque puts them, at rest on a flank.
  const bool gap = !(dead_band_time_ + 1.5 * dt >= t) || t < dead_band_time_;
  for (std::size_t k = 0; k < joint_bodies_.size(); ++k) {
    const double transmitted = sim.link_torques()[model_.bodies[static_cast<std::size_t>(joint_bodies_[k])].idx_v];
    if (gap)
      dead_bands_[k].settle(transmitted);
    else
      dead_bands_[k].step(transmitted, t - dead_band_time_);
  }
  dead_band_time_ = t;
}

void DatasetRecorder::record(const Simulation& sim, const VectorX& tau, bool write) {
  const double t = sim.time(), dt = sim.timestep();
  bool kinematics_ready = false;
  if (!plate_sum_.empty()) accumulate_plates(sim);
  auto kinematics = [&] {
    if (!kinematics_ready) forward_kinematics(model_, data_, sim.q(), sim.v(), sim.a());
    kinematics_ready = true;
  };
  step_dead_bands(sim);
  for (Stream& s : streams_) {
    if (!due(s, t, dt)) continue;
    if (s.name == "truth") {
      if (write) write_truth(sim, tau);
      kinematics_ready = false;  // write_truth reused the workspace for q only
      continue;
    }
    row_.clear();
    if (s.name == "encoders") {
      for (std::size_t k = 0; k < joint_bodies_.size(); ++k) {
        const int b = joint_bodies_[k];
        const Body& body = model_.bodies[static_cast<std::size_t>(b)];
        double q = sim.q()[body.idx_q];
        // Backlash: the motor-side encoder reads the rotor's place in the gear's play
        // (actuator/gear_dead_band.hpp).
        if (!dead_bands_.empty()) q += dead_bands_[k].offset();
        // Wind-up: the gear twists under the torque it carries to the link, behind the encoder.
        if (!encoder_compliance_.empty())
          q += encoder_compliance_[static_cast<std::size_t>(b)] * sim.link_torques()[body.idx_v];
        if (noise_.encoder_resolution > 0.0) q = std::round(q / noise_.encoder_resolution) * noise_.encoder_resolution;
        row_.push_back(q);
      }
    } else if (s.name == "torques") {
      // What a strain-gauge sensor between gear and link measures: the torque acting on the link
      // (the truth stream's tau) through its calibration, plus its noise; on the motor side
      // (joint_torque_side: motor) the applied torque, as motor current x k_t x gear ratio reads it.
      const VectorX& link_tau = sidecar_.joint_torque_at_motor ? tau : sim.link_torques();
      for (std::size_t i = 0; i < torque_sensor_velocity_.size(); ++i)
        row_.push_back(torque_sensor_gain_[i] * link_tau[torque_sensor_velocity_[i]] + torque_sensor_offset_[i] +
                       noise_.joint_torque_sigma * gauss_(rng_));
    } else if (s.name == "imu") {
      kinematics();
      const double root_rate = std::sqrt(s.rate_hz);
      // The specific force at the sample's instant: the frame's acceleration in the step after it
      // (Simulation::a, the velocity change mj_Euler makes, implicit damping included) with the
      // velocity terms of the state, the forces of this sample (docs/data-format.md, "Time stamps").
      // A stream slower than the simulation step reports the mean over its period (stamp
      // "period-mean"): the velocity change from after the step that followed the previous sample
      // to after this sample's step, over the time between (single steps at 100 Hz would alias
      // the contacts' step-to-step chatter).
      const bool every_step = std::abs(s.rate_hz * dt - 1.0) < 1e-9;
      const bool have_prev = std::isfinite(accel_prev_time_) && t > accel_prev_time_;
      std::size_t accel_index = 0;
      auto specific_force = [&](int frame) {
        const Matrix3 R = frame_placement(model_, data_, frame).rotation;
        const Vector3 acc = R * frame_classical_acceleration(model_, data_, frame).linear;
        if (accel_prev_velocity_.size() <= accel_index) accel_prev_velocity_.resize(accel_index + 1);
        Vector3& prev = accel_prev_velocity_[accel_index++];
        const Vector3 after = R * frame_velocity(model_, data_, frame).linear + dt * acc;  // after the step
        const Vector3 mean = !every_step && have_prev ? Vector3((after - prev) / (t - accel_prev_time_)) : acc;
        prev = after;
        return Vector3(R.transpose() * (mean - model_.gravity));
      };
      if (sidecar_.imu) {
        const int f = model_.frame_index(sidecar_.imu->name);
        const Vector3 gyro = frame_velocity(model_, data_, f).angular + gyro_bias_ +
                             noise_.gyro_density * root_rate * Vector3(gauss_(rng_), gauss_(rng_), gauss_(rng_));
        const Vector3 acc = specific_force(f) + accel_bias_ +
                            noise_.accel_density * root_rate * Vector3(gauss_(rng_), gauss_(rng_), gauss_(rng_));
        // The recorded sensor is mounted and calibrated as the lab's is (--perturb imu); the
        // simulated controllers read it as the sidecar says.
        Vector3 gyro_recorded = gyro, acc_recorded = acc;
        if (imu_reading_) imu_reading_->apply(gyro_recorded, acc_recorded, t - imu_prev_time_);
        imu_prev_time_ = t;
        for (int k = 0; k < 3; ++k) row_.push_back(gyro_recorded[k]);
        for (int k = 0; k < 3; ++k) row_.push_back(acc_recorded[k]);
        latest_.imu = true;
        latest_.gyro = gyro;
        latest_.accelerometer = acc;
      }
      for (const SidecarFrame& a : sidecar_.accelerometers) {
        const Vector3 acc = specific_force(model_.frame_index(a.name)) +
                            noise_.accel_density * root_rate * Vector3(gauss_(rng_), gauss_(rng_), gauss_(rng_));
        for (int k = 0; k < 3; ++k) row_.push_back(acc[k]);
      }
      accel_prev_time_ = t;
    } else if (s.name == "ft") {
      kinematics();
      latest_.ft.clear();
      for (const ForceTorqueSensor& sensor : sidecar_.ft_sensors) {
        const int f = model_.frame_index(sensor.name);
        const SE3 oMs = frame_placement(model_, data_, f);
        Force w = Force::Zero();
        if (sensor.measures == WrenchMeasured::External) {
          // The sensor carries everything the environment applies below it (sole mass neglected).
          const int body = model_.frames[static_cast<std::size_t>(f)].body;
          for (std::size_t c = 0; c < sidecar_.contacts.size(); ++c)
            if (model_.frames[static_cast<std::size_t>(model_.frame_index(sidecar_.contacts[c].name))].body == body)
              w += oMs.act_inv(sim.contact_wrenches_world()[c]);
        } else {
          // Internal: the joint force of the sensor's body, from inverse dynamics of the truth.
          forward_kinematics(model_, data_, sim.q());
          for (std::size_t i = 0; i < model_.bodies.size(); ++i)
            f_ext_body_[i] = world_wrench_to_body(data_, static_cast<int>(i), sim.external_wrenches_world()[i]);
          rnea(model_, data_, sim.q(), sim.v(), sim.a(), f_ext_body_);
          const Frame& fr = model_.frames[static_cast<std::size_t>(f)];
          w = fr.placement.act_inv(data_.f[static_cast<std::size_t>(fr.body)]);
          kinematics_ready = false;
        }
        Vector6 x = w.to_vector();
        const std::size_t index = static_cast<std::size_t>(&sensor - sidecar_.ft_sensors.data());
        if (!ft_errors_.empty()) x = ft_reading(ft_errors_[index], x, t);
        for (int k = 0; k < 6; ++k) x[k] += (k < 3 ? noise_.ft_force_sigma : noise_.ft_torque_sigma) * gauss_(rng_);
        for (int k = 0; k < 6; ++k) row_.push_back(x[k]);
        latest_.ft.push_back(Force(x.head<3>(), x.tail<3>()));
      }
    } else if (s.name == "plates") {
      // The amplifier low-passes before its ADC: the mean wrench over the simulation steps since the
      // previous sample (the first: the instantaneous one). Single-step samples would fold the
      // contacts' step-to-step chatter into the band the identification keeps.
      for (std::size_t p = 0; p < scene_.plates.size(); ++p) {
        Vector6 x = plate_sum_[p] / static_cast<double>(plate_steps_);
        if (!plate_errors_.empty()) x = plate_reading(plate_errors_[p], x, t);
        for (int k = 0; k < 3; ++k) {
          x[k] += noise_.plate_force_sigma * gauss_(rng_);
          if (noise_.plate_force_resolution > 0.0)
            x[k] = std::round(x[k] / noise_.plate_force_resolution) * noise_.plate_force_resolution;
        }
        for (int k = 3; k < 6; ++k) x[k] += noise_.plate_moment_sigma * gauss_(rng_);
        for (int k = 0; k < 6; ++k) row_.push_back(x[k]);
        // COP on the top surface (z = 0 in plate coordinates): the point where the moment of the
        // plate's load has no horizontal part. The robot pushes down: fz < 0.
        const double fz = x[2];
        const Vector3& o = scene_.plates[p].top_center_world;
        if (std::abs(fz) < kCopMinForce) {
          row_.push_back(kNaN);
          row_.push_back(kNaN);
        } else {
          row_.push_back(o.x() - x[4] / fz);
          row_.push_back(o.y() + x[3] / fz);
        }
      }
      plate_steps_ = 0;
    } else if (s.name == "markers") {
      kinematics();
      marker_positions_.resize(sidecar_.markers.size());
      for (std::size_t i = 0; i < sidecar_.markers.size(); ++i) {
        const SidecarFrame& m = sidecar_.markers[i];
        const SE3& X = frame_placement(model_, data_, model_.frame_index(m.name));
        marker_positions_[i] = X.translation;
        // Mounted off the sidecar's spot by an error given in the link frame.
        if (markers_perturbation_)
          marker_positions_[i] +=
              X.rotation * (m.placement.rotation.transpose() * markers_perturbation_->mount_error[i]);
      }
      const MarkerPerturbation* mp = markers_perturbation_ ? &*markers_perturbation_ : nullptr;
      // The swap lasts kMarkerSwapS of recorded frames from its start (a scenario may record in windows).
      const bool swapped = mp && mp->swap_a >= 0 && write && t >= mp->swap_start_s &&
                           static_cast<double>(swapped_marker_frames_) < kMarkerSwapS * s.rate_hz;
      if (swapped) ++swapped_marker_frames_;
      for (std::size_t i = 0; i < sidecar_.markers.size(); ++i) {
        std::size_t source = i;  // the marker whose position this label gets
        if (swapped && static_cast<int>(i) == mp->swap_a) source = static_cast<std::size_t>(mp->swap_b);
        if (swapped && static_cast<int>(i) == mp->swap_b) source = static_cast<std::size_t>(mp->swap_a);
        const Vector3 p =
            marker_positions_[source] + noise_.marker_sigma * Vector3(gauss_(rng_), gauss_(rng_), gauss_(rng_));
        bool dropped = uniform_(rng_) < noise_.marker_dropout_probability;
        if (marker_gaps_ && marker_gaps_->hidden(i, t, 1.0 / s.rate_hz)) dropped = true;
        for (int k = 0; k < 3; ++k) row_.push_back(dropped ? kNaN : p[k]);
      }
    }
    if (write) {
      const auto clock = clocks_.find(s.name);
      s.writer->write(clock == clocks_.end() ? t : clock->second.stream_time(t), row_);
    }
  }
}

void DatasetRecorder::set_imu_perturbation(const ImuError& error) {
  imu_reading_ = std::make_unique<ImuReading>(error);
}

void DatasetRecorder::set_force_plate_perturbation(std::vector<PlateError> errors) {
  if (errors.size() != scene_.plates.size())
    throw std::invalid_argument("force plate perturbation: one error per scene plate");
  plate_errors_ = std::move(errors);
}

void DatasetRecorder::set_marker_perturbation(const MarkerPerturbation& perturbation) {
  if (perturbation.mount_error.size() != sidecar_.markers.size())
    throw std::invalid_argument("marker perturbation: one mount error per sidecar marker");
  markers_perturbation_ = perturbation;
  marker_gaps_ = std::make_unique<MarkerGaps>(sidecar_.markers.size(), perturbation.gap_seed);
}

std::vector<std::pair<std::string, std::pair<std::string, double>>> DatasetRecorder::finish() {
  std::vector<std::pair<std::string, std::pair<std::string, double>>> out;
  for (Stream& s : streams_) {
    s.writer->close();
    out.push_back({s.name, {s.name + ".csv", s.rate_hz}});
  }
  return out;
}

}  // namespace dynid
