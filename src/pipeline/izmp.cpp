#include "dynid/pipeline/izmp.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>

#include "dynid/core/atomic_file.hpp"
#include "dynid/core/number_format.hpp"
#include "dynid/data/input_checks.hpp"
#include "dynid/dynamics/inertial_reference_momentum.hpp"
#include "dynid/dynamics/moving_reference_dynamics.hpp"
#include "dynid/dynamics/sole_contacts.hpp"
#include "dynid/ident/angular_acceleration.hpp"
#include "dynid/io/csv_stream.hpp"
#include "dynid/pipeline/unexplained_residual.hpp"
#include "dynid/sim/sensor_noise.hpp"

namespace dynid {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Matrix3 quaternion_rotation(const Eigen::Ref<const VectorX>& xyzw) {
  return Eigen::Quaterniond(xyzw[3], xyzw[0], xyzw[1], xyzw[2]).normalized().toRotationMatrix();
}

// Columns of `names` from a stream, one line naming the first that is missing.
MatrixX columns(const CsvStream& stream, const std::vector<std::string>& names, const std::string& what) {
  MatrixX out(stream.values.rows(), static_cast<Eigen::Index>(names.size()));
  for (std::size_t c = 0; c < names.size(); ++c) {
    const auto it = std::find(stream.header.begin(), stream.header.end(), names[c]);
    if (it == stream.header.end())
      throw std::invalid_argument(stream.path + ": no channel '" + names[c] + "' (" + what + ")");
    out.col(static_cast<Eigen::Index>(c)) = stream.values.col(it - stream.header.begin());
  }
  if (!out.allFinite()) throw std::invalid_argument(stream.path + ": empty or non-finite samples in the " + what);
  return out;
}

std::vector<std::string> xyz(const std::string& prefix) { return {prefix + ".x", prefix + ".y", prefix + ".z"}; }

void check_same_clock(const CsvStream& a, const CsvStream& b) {
  const bool same =
      a.values.rows() == b.values.rows() && (a.values.col(0) - b.values.col(0)).cwiseAbs().maxCoeff() < 1e-9;
  if (!same)
    throw std::invalid_argument(b.path + ": not on the clock of " + a.path +
                                " (dynid izmp needs the streams sampled together)");
}

Eigen::Index stride_of(double rate, double slower, const char* what, const char* of) {
  const double ratio = rate / slower;
  const long n = std::lround(ratio);
  if (!(slower > 0.0) || n < 1 || std::abs(ratio - static_cast<double>(n)) > 1e-9)
    throw std::invalid_argument(std::string(what) + " " + format_exact(slower) + " Hz must divide the " + of + " " +
                                format_exact(rate) + " Hz");
  return n;
}

// Convex hull (Andrew's monotone chain) of 2-D points, counter-clockwise.
std::vector<Eigen::Vector2d> convex_hull(std::vector<Eigen::Vector2d> p) {
  std::sort(p.begin(), p.end(),
            [](const auto& a, const auto& b) { return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y()); });
  if (p.size() < 3) return p;
  std::vector<Eigen::Vector2d> h(2 * p.size());
  std::size_t k = 0;
  auto cross = [](const Eigen::Vector2d& o, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    return (a - o).x() * (b - o).y() - (a - o).y() * (b - o).x();
  };
  for (std::size_t i = 0; i < p.size(); ++i) {
    while (k >= 2 && cross(h[k - 2], h[k - 1], p[i]) <= 0) --k;
    h[k++] = p[i];
  }
  for (std::size_t i = p.size() - 1, t = k + 1; i > 0; --i) {
    while (k >= t && cross(h[k - 2], h[k - 1], p[i - 1]) <= 0) --k;
    h[k++] = p[i - 1];
  }
  h.resize(k - 1);
  return h;
}

// Inside or on the boundary, within `margin` [m]: a foot rolling on its edge has its ZMP there.
bool inside(const std::vector<Eigen::Vector2d>& hull, const Eigen::Vector2d& x, double margin = 0.001) {
  if (hull.size() < 3) return false;
  for (std::size_t i = 0; i < hull.size(); ++i) {
    const Eigen::Vector2d a = hull[i], b = hull[(i + 1) % hull.size()];
    if ((b - a).x() * (x - a).y() - (b - a).y() * (x - a).x() < -margin * (b - a).norm()) return false;
  }
  return true;
}

}  // namespace

const char* to_string(IzmpMethod method) { return method == IzmpMethod::MrAd ? "mr-ad" : "ir-md"; }
const char* to_string(AngularAccelerationSource source) {
  return source == AngularAccelerationSource::Accelerometers ? "accelerometers" : "gyro";
}
const char* to_string(Support support) {
  switch (support) {
    case Support::Both:
      return "both";
    case Support::Left:
      return "left";
    case Support::Right:
      return "right";
    default:
      return "none";
  }
}

IzmpMethod parse_izmp_method(const std::string& text) {
  if (text == "mr-ad") return IzmpMethod::MrAd;
  if (text == "ir-md") return IzmpMethod::IrMd;
  throw std::invalid_argument("unknown method '" + text + "' (mr-ad or ir-md)");
}

AngularAccelerationSource parse_angular_acceleration_source(const std::string& text) {
  if (text == "accelerometers") return AngularAccelerationSource::Accelerometers;
  if (text == "gyro") return AngularAccelerationSource::Gyro;
  throw std::invalid_argument("unknown angular-acceleration source '" + text + "' (accelerometers or gyro)");
}

IzmpRecording load_izmp_recording(const Robot& robot, const std::string& data_dir, const IzmpSettings& settings) {
  const Model& model = robot.model;
  if (!model.floating_base)
    throw std::invalid_argument(model.label() + ": dynid izmp needs a floating-base robot; this model is fixed-base");
  if (!robot.sidecar || !robot.sidecar->imu)
    throw std::invalid_argument(model.label() + ": dynid izmp needs an IMU on the root body (sidecar `imu:`)");
  const RobotSidecar& sidecar = *robot.sidecar;
  const bool need_accelerometers =
      settings.method == IzmpMethod::MrAd && settings.angular_acceleration == AngularAccelerationSource::Accelerometers;
  if (need_accelerometers && sidecar.accelerometers.empty())
    throw std::invalid_argument(model.label() +
                                ": --angular-acceleration accelerometers needs accelerometers besides the IMU (sidecar "
                                "`accelerometers:`); use --angular-acceleration gyro");

  IzmpRecording rec;
  const DatasetInfo info = read_dataset_info(data_dir);
  rec.directory = info.directory;
  rec.gravity = info.gravity;
  rec.imu_name = sidecar.imu->name;
  const auto [left, right] = left_right_soles(model, sidecar);
  const ContactSurface& lc = sidecar.contacts[static_cast<std::size_t>(left)];
  const ContactSurface& rc = sidecar.contacts[static_cast<std::size_t>(right)];
  rec.left_sole = model.frame_index(lc.name);
  rec.right_sole = model.frame_index(rc.name);
  rec.left_polygon = lc.polygon;
  rec.right_polygon = rc.polygon;

  const CsvStream enc = read_csv_stream(info.stream("encoders").file);
  const CsvStream imu = read_csv_stream(info.stream("imu").file);
  check_same_clock(enc, imu);
  rec.rate_hz = info.stream("encoders").rate_hz;
  rec.time = enc.values.col(0);
  // Column j = the joint whose coordinate is j-th after the free flyer's (idx_v - 6).
  std::vector<std::string> joint_channels(static_cast<std::size_t>(model.nv - 6));
  for (std::size_t i = 2; i < model.bodies.size(); ++i)
    joint_channels[static_cast<std::size_t>(model.bodies[i].idx_v - 6)] = "q." + model.bodies[i].joint_name;
  rec.joints = columns(enc, joint_channels, "joint encoders");
  rec.gyro = columns(imu, xyz(rec.imu_name + ".gyro"), "IMU gyro");
  rec.imu_acc = columns(imu, xyz(rec.imu_name + ".acc"), "IMU accelerometer");
  if (need_accelerometers)
    for (const SidecarFrame& a : sidecar.accelerometers) {
      rec.accelerometer_names.push_back(a.name);
      rec.extra_acc.push_back(columns(imu, xyz(a.name + ".acc"), "accelerometer " + a.name));
    }

  // The soles' F/T sensors: what a real robot compares its IZMP with (paper 001, sect. 1).
  if (info.has_stream("ft")) {
    const CsvStream ft = read_csv_stream(info.stream("ft").file);
    std::vector<const ForceTorqueSensor*> sole_sensors;
    for (const ContactSurface* sole : {&lc, &rc})
      for (const ForceTorqueSensor& s : sidecar.ft_sensors)
        if (s.link == sole->link && s.measures == WrenchMeasured::External) sole_sensors.push_back(&s);
    try {
      check_same_clock(enc, ft);
    } catch (const std::exception& e) {
      rec.ft_note = e.what();
    }
    if (sole_sensors.empty()) {
      rec.ft_note = "no F/T sensor measuring the external wrench on a sole's link (sidecar ft_sensors)";
    } else if (rec.ft_note.empty()) {
      for (const ForceTorqueSensor* s : sole_sensors) {
        rec.ft_frames.push_back(model.frame_index(s->name));
        const std::string p = s->name + ".";
        rec.ft_wrenches.push_back(
            columns(ft, {p + "fx", p + "fy", p + "fz", p + "tx", p + "ty", p + "tz"}, "F/T sensor " + s->name));
      }
    }
  } else {
    rec.ft_note = "the data set has no ft stream";
  }

  rec.support.assign(static_cast<std::size_t>(rec.time.size()), Support::None);
  for (const TimeSegment& seg : info.segments) {
    Support s = Support::None;
    if (seg.support == "both") s = Support::Both;
    if (seg.support == "left") s = Support::Left;
    if (seg.support == "right") s = Support::Right;
    if (s == Support::None) continue;
    for (Eigen::Index k = 0; k < rec.time.size(); ++k)
      if (rec.time[k] >= seg.start - 1e-9 && rec.time[k] < seg.end - 1e-9) rec.support[static_cast<std::size_t>(k)] = s;
  }

  if (info.has_stream("truth")) {
    const CsvStream truth = read_csv_stream(info.stream("truth").file);
    check_same_clock(enc, truth);
    const std::vector<std::string> qn = model.configuration_names(), vn = model.velocity_names();
    std::vector<std::string> pose, vel, acc;
    for (int i = 0; i < 7; ++i) pose.push_back("q." + qn[static_cast<std::size_t>(i)]);
    for (int i = 0; i < 6; ++i) vel.push_back("v." + vn[static_cast<std::size_t>(i)]);
    for (int i = 0; i < 6; ++i) acc.push_back("a." + vn[static_cast<std::size_t>(i)]);
    rec.base_pose = columns(truth, pose, "truth base pose");
    rec.base_velocity = columns(truth, vel, "truth base velocity");
    rec.base_acceleration = columns(truth, acc, "truth base acceleration");
    rec.true_joints = columns(truth, joint_channels, "truth joint positions");
    rec.contact_wrench = MatrixX::Zero(truth.values.rows(), 6);
    MatrixX left_force, right_force;
    for (const ContactSurface& c : sidecar.contacts) {
      const std::string p = "wrench." + c.name + ".";
      const MatrixX w = columns(truth, {p + "fx", p + "fy", p + "fz", p + "tx", p + "ty", p + "tz"}, "truth wrench");
      rec.contact_wrench += w;
      if (c.name == lc.name) left_force = w.leftCols<3>();
      if (c.name == rc.name) right_force = w.leftCols<3>();
    }
    // The feet that carry load (over 2 % of the weight), from the simulator's contact forces: the
    // planned support phases start and end a few steps off the real touch-downs and lift-offs.
    const double threshold = 0.02 * model.total_mass() * rec.gravity.norm();
    for (Eigen::Index k = 0; k < rec.time.size(); ++k) {
      const bool l = left_force.row(k).norm() > threshold, r = right_force.row(k).norm() > threshold;
      rec.support[static_cast<std::size_t>(k)] =
          l && r ? Support::Both : (l ? Support::Left : (r ? Support::Right : Support::None));
    }
    rec.has_truth = true;
  }
  if (settings.method == IzmpMethod::IrMd && !rec.has_truth)
    throw std::invalid_argument(data_dir +
                                ": --method ir-md needs the base position and velocity in world (a state estimator's "
                                "output); this data set has no truth stream to stand in for one");
  if (settings.ground_normal_world && !rec.has_truth)
    throw std::invalid_argument(data_dir +
                                ": --ground-normal/--slope need the base orientation in world (truth stream); "
                                "omit them to take the normal from the stance soles");
  return rec;
}

IzmpRecording ideal_recording(const Robot& robot, const IzmpRecording& recording) {
  if (!recording.has_truth) throw std::invalid_argument(recording.directory + ": ideal signals need a truth stream");
  const Model& model = robot.model;
  IzmpRecording ideal = recording;
  ideal.joints = recording.true_joints;
  const Frame& imu = model.frames[static_cast<std::size_t>(model.frame_index(recording.imu_name))];
  for (Eigen::Index k = 0; k < recording.time.size(); ++k) {
    const Matrix3 R = quaternion_rotation(recording.base_pose.row(k).tail<4>().transpose());
    const Vector3 v = recording.base_velocity.row(k).head<3>().transpose();
    const Vector3 w = recording.base_velocity.row(k).tail<3>().transpose();
    const Vector3 wd = recording.base_acceleration.row(k).tail<3>().transpose();
    // Specific force of the base origin: classical acceleration a_lin + w x v minus g (base axes).
    const Vector3 f0 =
        recording.base_acceleration.row(k).head<3>().transpose() + w.cross(v) - R.transpose() * recording.gravity;
    auto reading = [&](const Frame& f) {
      const Vector3& r = f.placement.translation;
      return Vector3(f.placement.rotation.transpose() * (f0 + wd.cross(r) + w.cross(w.cross(r))));
    };
    ideal.gyro.row(k) = (imu.placement.rotation.transpose() * w).transpose();
    ideal.imu_acc.row(k) = reading(imu).transpose();
    for (std::size_t j = 0; j < recording.accelerometer_names.size(); ++j)
      ideal.extra_acc[j].row(k) =
          reading(model.frames[static_cast<std::size_t>(model.frame_index(recording.accelerometer_names[j]))])
              .transpose();
  }
  return ideal;
}

IzmpSeries evaluate_izmp(const Robot& robot, const IzmpRecording& rec, const IzmpSettings& settings,
                         const std::function<void(double)>& progress) {
  const Model& model = robot.model;
  const double acd_rate = settings.acd_rate_hz > 0.0 ? settings.acd_rate_hz : rec.rate_hz;
  const Eigen::Index acd_stride = stride_of(rec.rate_hz, acd_rate, "--acd-rate", "encoder rate");
  const Eigen::Index bus_stride = acd_stride * stride_of(acd_rate, settings.bus_rate_hz, "--bus-rate", "ACD rate");
  const double dt_acd = static_cast<double>(acd_stride) / rec.rate_hz;
  const double dt_bus = static_cast<double>(bus_stride) / rec.rate_hz;
  const Frame& imu = model.frames[static_cast<std::size_t>(model.frame_index(rec.imu_name))];
  if (imu.body != 1)
    throw std::invalid_argument(model.label() + ": IMU '" + rec.imu_name + "' is not on the root body");
  const Matrix3& R_imu = imu.placement.rotation;
  const bool use_accelerometers =
      settings.method == IzmpMethod::MrAd && settings.angular_acceleration == AngularAccelerationSource::Accelerometers;
  std::optional<AccelerometerArray> array;
  if (use_accelerometers) array = AccelerometerArray::from_model(model, rec.imu_name, rec.accelerometer_names);
  const AccelerometerMount imu_mount{rec.imu_name, imu.placement.translation, imu.placement.rotation};

  // The inertial sensors run at the encoders' rate; with white noise (study) at that rate, sigma =
  // density sqrt(f). Read at the ACD rate they are filtered the way the difference quotients filter
  // the joints (an IMU's anti-aliasing filter): a rate through the first difference's window, an
  // acceleration through the second difference's. Then every acceleration in the Newton-Euler sum
  // describes the same time window; without it, reading the simulator's 1 kHz step-to-step chatter
  // every other step folds it down to a constant error of the base's acceleration.
  const Eigen::Index n = rec.time.size();
  MatrixX gyro = rec.gyro, imu_acc = rec.imu_acc, base_velocity = rec.base_velocity;
  std::vector<MatrixX> extra = rec.extra_acc;
  if (settings.add_inertial_noise) {
    const SensorNoise noise = sensor_noise(NoiseLevel::Realistic);
    std::mt19937 rng(settings.noise_seed);
    std::normal_distribution<double> gyro_n(0.0, noise.gyro_density * std::sqrt(rec.rate_hz));
    std::normal_distribution<double> acc_n(0.0, noise.accel_density * std::sqrt(rec.rate_hz));
    if (settings.method == IzmpMethod::MrAd) {
      for (Eigen::Index k = 0; k < n; ++k)
        for (int c = 0; c < 3; ++c) {
          gyro(k, c) += gyro_n(rng);
          imu_acc(k, c) += acc_n(rng);
          for (MatrixX& e : extra) e(k, c) += acc_n(rng);
        }
    } else {
      // IR-MD: the paper adds noise to the base's linear velocity only, with the accelerometer's sigma.
      for (Eigen::Index k = 0; k < n; ++k)
        for (int c = 0; c < 3; ++c) base_velocity(k, c) += acc_n(rng);
    }
  }
  // With bus_period_mean, the actuator controllers and the IMU send the mean of their ACD-rate values
  // over the bus period (m samples, centred on k) instead of the last one: their anti-aliasing filter.
  if (settings.bus_period_mean && settings.smoothing_window_s > 0.0)
    throw std::invalid_argument("give --bus-period-mean or --smoothing-ms, not both");
  if (!(settings.smoothing_window_s >= 0.0) || !std::isfinite(settings.smoothing_window_s))
    throw std::invalid_argument("--smoothing-ms must be a finite number >= 0");
  const Eigen::Index per_bus = settings.smoothing_window_s > 0.0
                                   ? std::max<Eigen::Index>(1, std::lround(settings.smoothing_window_s / dt_acd))
                                   : (settings.bus_period_mean ? bus_stride / acd_stride : 1);
  std::vector<Eigen::Index> shifts;
  for (Eigen::Index j = 0; j < per_bus; ++j) shifts.push_back((j - (per_bus - 1) / 2) * acd_stride);
  const DifferenceKernels acd_kernels = difference_kernels(acd_stride, settings.differences);
  DifferenceKernels kernels;
  for (const Eigen::Index shift : shifts) {
    for (const auto& [offset, weight] : acd_kernels.rate)
      kernels.rate.emplace_back(offset + shift, weight / static_cast<double>(per_bus));
    for (const auto& [offset, weight] : acd_kernels.acceleration)
      kernels.acceleration.emplace_back(offset + shift, weight / static_cast<double>(per_bus));
  }
  auto filtered = [&](const MatrixX& m, Eigen::Index k, const std::vector<std::pair<Eigen::Index, double>>& kernel) {
    Eigen::RowVectorXd sum = Eigen::RowVectorXd::Zero(m.cols());
    for (const auto& [offset, weight] : kernel) sum += weight * m.row(std::clamp<Eigen::Index>(k + offset, 0, n - 1));
    return sum;
  };

  Data data(model);
  MovingReferenceData mr(model);
  const Eigen::Index nj = model.nv - 6;
  VectorX qd(nj), qdd(nj), qd_before(nj), qdd_unused(nj);
  VectorX q_full(model.nq), v_full(model.nv);
  Eigen::Matrix3Xd readings(3, static_cast<Eigen::Index>(extra.size()));
  auto omega_at = [&](Eigen::Index k) { return Vector3(R_imu * filtered(gyro, k, kernels.rate).transpose()); };
  // The gyro's mean over the ACD period ending at k (its sample at the ACD rate).
  auto omega_period_mean = [&](Eigen::Index k) {
    Vector3 sum = Vector3::Zero();
    for (Eigen::Index j = 0; j < acd_stride; ++j)
      sum += gyro.row(std::clamp<Eigen::Index>(k - j, 0, n - 1)).transpose();
    return Vector3(R_imu * sum / static_cast<double>(acd_stride));
  };
  VectorX qd_one(nj), qdd_one(nj);
  auto joint_derivatives = [&](Eigen::Index k, VectorX& rate, VectorX& acceleration) {
    rate.setZero();
    acceleration.setZero();
    for (const Eigen::Index shift : shifts) {
      actuator_derivatives(rec.joints, k + shift, acd_stride, dt_acd, settings.differences, qd_one, qdd_one);
      rate += qd_one / static_cast<double>(per_bus);
      acceleration += qdd_one / static_cast<double>(per_bus);
    }
  };
  auto momentum_at = [&](Eigen::Index k) {
    joint_derivatives(k, qd_before, qdd_unused);
    q_full << rec.base_pose.row(k).transpose(), rec.joints.row(k).transpose();
    v_full << filtered(base_velocity, k, kernels.rate).head<3>().transpose(), omega_at(k), qd_before;
    return momentum_about_world_origin(model, data, q_full, v_full);
  };

  IzmpSeries out;
  // The first bus sample that has a full difference stencil behind it (IR-MD: one bus period).
  const Eigen::Index first = std::max<Eigen::Index>(2 * acd_stride - shifts.front(), bus_stride);
  const Eigen::Index last = n - 1 - acd_stride - (shifts.empty() ? 0 : shifts.back());
  for (Eigen::Index k = ((first + bus_stride - 1) / bus_stride) * bus_stride; k <= last; k += bus_stride) {
    if (progress && (k / bus_stride) % 256 == 0) progress(static_cast<double>(k) / static_cast<double>(n));
    joint_derivatives(k, qd, qdd);
    const Vector3 w = omega_at(k);
    Force wrench_root;
    if (settings.method == IzmpMethod::MrAd) {
      Vector3 wd;
      if (use_accelerometers) {
        for (std::size_t j = 0; j < extra.size(); ++j)
          readings.col(static_cast<Eigen::Index>(j)) = filtered(extra[j], k, kernels.acceleration).transpose();
        wd = array->angular_acceleration(w, filtered(imu_acc, k, kernels.acceleration).transpose(), readings);
      } else if (settings.differences == DifferenceScheme::Backward) {
        wd.setZero();
        for (const Eigen::Index shift : shifts)
          wd += angular_acceleration_from_gyro(omega_period_mean(k + shift - acd_stride), omega_period_mean(k + shift),
                                               dt_acd) /
                static_cast<double>(per_bus);
      } else {
        wd.setZero();
        for (const Eigen::Index shift : shifts)
          wd += angular_acceleration_from_gyro(omega_period_mean(k + shift), omega_period_mean(k + shift + acd_stride),
                                               dt_acd) /
                static_cast<double>(per_bus);
      }
      RootMotion root;
      root.angular_velocity = w;
      root.angular_acceleration = wd;
      const Vector3 a0 = R_imu * filtered(imu_acc, k, kernels.acceleration).transpose();
      const Vector3 r = -imu_mount.position;  // P (the root origin) seen from the IMU
      root.specific_force = a0 + wd.cross(r) + w.cross(w.cross(r));
      wrench_root = moving_reference_wrench(model, mr, rec.joints.row(k).transpose(), qd, qdd, root).contact_wrench;
    } else {
      const Force h_before = momentum_at(k - bus_stride);
      const Force h_now = momentum_at(k);
      const Force world = wrench_from_momentum_difference(h_before, h_now, dt_bus, data.mass, data.com, rec.gravity);
      const SE3 oMb(quaternion_rotation(rec.base_pose.row(k).tail<4>().transpose()),
                    rec.base_pose.row(k).head<3>().transpose());
      wrench_root = oMb.act_inv(world);
      // The soles' placement relative to the root (the joint kinematics MR-AD also runs).
      qd.setZero();
      qdd.setZero();
      moving_reference_wrench(model, mr, rec.joints.row(k).transpose(), qd, qdd, RootMotion{});
    }

    // NIF and ground plane from the stance soles' kinematics (or the given world normal).
    Support support = rec.support[static_cast<std::size_t>(k)];
    const Vector3 pl = frame_position_in_root(model, mr, rec.left_sole);
    const Vector3 pr = frame_position_in_root(model, mr, rec.right_sole);
    const Matrix3 Rl = frame_rotation_in_root(model, mr, rec.left_sole);
    const Matrix3 Rr = frame_rotation_in_root(model, mr, rec.right_sole);
    Vector3 normal;
    Matrix3 R_base = Matrix3::Identity();
    Vector3 p_base = Vector3::Constant(kNaN);
    if (rec.has_truth) {
      R_base = quaternion_rotation(rec.base_pose.row(k).tail<4>().transpose());
      p_base = rec.base_pose.row(k).head<3>().transpose();
    }
    if (settings.ground_normal_world) {
      normal = R_base.transpose() * *settings.ground_normal_world;
    } else {
      const bool left_down = support == Support::Left || support == Support::Both || support == Support::None;
      const bool right_down = support == Support::Right || support == Support::Both || support == Support::None;
      normal = (left_down ? Vector3(Rl.col(2)) : Vector3::Zero()) + (right_down ? Vector3(Rr.col(2)) : Vector3::Zero());
    }
    const Matrix3 nif_R_root = nif_rotation(normal);
    const Vector3 up = nif_R_root.row(2).transpose();
    if (support == Support::None) {
      // No support segments: the lower sole is on the ground, both when within 5 mm.
      const double dl = up.dot(pl), dr = up.dot(pr);
      support = std::abs(dl - dr) < 0.005 ? Support::Both : (dl < dr ? Support::Left : Support::Right);
    }
    const bool left_down = support == Support::Left || support == Support::Both;
    const bool right_down = support == Support::Right || support == Support::Both;
    const double height = ((left_down ? up.dot(pl) : 0.0) + (right_down ? up.dot(pr) : 0.0)) / (left_down + right_down);

    const Force wrench_nif(nif_R_root * wrench_root.linear, nif_R_root * wrench_root.angular);
    const Vector3 z = izmp_on_plane(wrench_nif, height, 1.0);
    out.time.push_back(rec.time[k]);
    out.support.push_back(support);
    out.izmp_nif.push_back(z);
    Vector6 w6;
    w6 << wrench_nif.linear, wrench_nif.angular;
    out.wrench_nif.push_back(w6);
    if (rec.has_truth) {
      out.izmp_world.push_back(p_base + R_base * (nif_R_root.transpose() * z));
      // The contact wrench through the second difference's window: what the accelerations can see.
      const Eigen::RowVectorXd cw = filtered(rec.contact_wrench, k, kernels.acceleration);
      const Force world(cw.head<3>().transpose(), cw.tail<3>().transpose());
      const Force truth_root = SE3(R_base, p_base).act_inv(world);
      out.physical_zmp_nif.push_back(
          izmp_on_plane(Force(nif_R_root * truth_root.linear, nif_R_root * truth_root.angular), height, 1.0));
    } else {
      out.izmp_world.push_back(Vector3::Constant(kNaN));
      out.physical_zmp_nif.push_back(Vector3::Constant(kNaN));
    }
    // The F/T sensors' wrenches through the same window, carried to the root and the NIF.
    Vector3 ft_zmp = Vector3::Constant(kNaN);
    if (!rec.ft_frames.empty()) {
      Force sum = Force::Zero();
      for (std::size_t s = 0; s < rec.ft_frames.size(); ++s) {
        const Eigen::RowVectorXd reading = filtered(rec.ft_wrenches[s], k, kernels.acceleration);
        const SE3 root_sensor(frame_rotation_in_root(model, mr, rec.ft_frames[s]),
                              frame_position_in_root(model, mr, rec.ft_frames[s]));
        sum += root_sensor.act(Force(reading.head<3>().transpose(), reading.tail<3>().transpose()));
      }
      ft_zmp = izmp_on_plane(Force(nif_R_root * sum.linear, nif_R_root * sum.angular), height, 1.0);
    }
    out.ft_zmp_nif.push_back(ft_zmp);
    // The stance soles' polygons in the NIF's plane.
    std::vector<Eigen::Vector2d> stance;
    auto add_polygon = [&](const std::vector<Eigen::Vector2d>& polygon, const Vector3& p, const Matrix3& R) {
      for (const Eigen::Vector2d& v : polygon)
        stance.push_back((nif_R_root * (p + R * Vector3(v.x(), v.y(), 0.0))).head<2>());
    };
    if (left_down) add_polygon(rec.left_polygon, pl, Rl);
    if (right_down) add_polygon(rec.right_polygon, pr, Rr);
    Eigen::Vector4d box = Eigen::Vector4d::Constant(kNaN);
    int in = -1;
    if (!stance.empty()) {
      box << kNaN, kNaN, kNaN, kNaN;
      box[0] = box[2] = std::numeric_limits<double>::infinity();
      box[1] = box[3] = -std::numeric_limits<double>::infinity();
      for (const auto& v : stance) {
        box[0] = std::min(box[0], v.x());
        box[1] = std::max(box[1], v.x());
        box[2] = std::min(box[2], v.y());
        box[3] = std::max(box[3], v.y());
      }
      in = std::isfinite(z.x()) && inside(convex_hull(stance), z.head<2>()) ? 1 : 0;
    }
    out.support_box.push_back(box);
    out.inside_support.push_back(in);
  }
  if (progress) progress(1.0);
  return out;
}

namespace {

/// Calls visit(i, j) for every sample i of `series` whose time stamp `reference` also has (at j).
template <class Visit>
void at_common_stamps(const IzmpSeries& series, const IzmpSeries& reference, Visit visit) {
  std::size_t j = 0;
  for (std::size_t i = 0; i < series.time.size(); ++i) {
    while (j < reference.time.size() && reference.time[j] < series.time[i] - 1e-9) ++j;
    if (j >= reference.time.size()) break;
    if (std::abs(reference.time[j] - series.time[i]) <= 1e-9) visit(i, j);
  }
}

}  // namespace

double izmp_relative_error(const IzmpSeries& series, const IzmpSeries& reference, double min_reference_m) {
  double sum = 0.0;
  long count = 0;
  at_common_stamps(series, reference, [&](std::size_t i, std::size_t j) {
    const Support s = reference.support[j];
    if (s != Support::Left && s != Support::Right) return;
    const double y = series.izmp_nif[i].y(), y_ref = reference.izmp_nif[j].y();
    if (!std::isfinite(y) || !std::isfinite(y_ref) || std::abs(y_ref) < min_reference_m || y_ref == 0.0) return;
    sum += std::abs(y - y_ref) / std::abs(y_ref);
    ++count;
  });
  return count > 0 ? 100.0 * sum / static_cast<double>(count) : kNaN;
}

namespace {

/// RMS distance [mm] in the NIF's plane between the IZMP and another point per sample, over the
/// samples with ground contact (NaN: none finite).
double rms_distance_to_mm(const IzmpSeries& series, const std::vector<Vector3>& other) {
  double sum = 0.0;
  long count = 0;
  for (std::size_t i = 0; i < series.time.size(); ++i) {
    if (series.support[i] == Support::None) continue;
    const Eigen::Vector2d d = series.izmp_nif[i].head<2>() - other[i].head<2>();
    if (!d.allFinite()) continue;
    sum += d.squaredNorm();
    ++count;
  }
  return count > 0 ? 1000.0 * std::sqrt(sum / static_cast<double>(count)) : kNaN;
}

}  // namespace

double physical_zmp_rms_mm(const IzmpSeries& series) { return rms_distance_to_mm(series, series.physical_zmp_nif); }

double ft_zmp_rms_mm(const IzmpSeries& series) { return rms_distance_to_mm(series, series.ft_zmp_nif); }

double izmp_distance_rms_mm(const IzmpSeries& series, const IzmpSeries& reference) {
  double sum = 0.0;
  long count = 0;
  at_common_stamps(series, reference, [&](std::size_t i, std::size_t j) {
    if (series.support[i] == Support::None) return;
    const Eigen::Vector2d d = series.izmp_nif[i].head<2>() - reference.izmp_nif[j].head<2>();
    if (!d.allFinite()) return;
    sum += d.squaredNorm();
    ++count;
  });
  return count > 0 ? 1000.0 * std::sqrt(sum / static_cast<double>(count)) : kNaN;
}

double inside_support_fraction(const IzmpSeries& series) {
  long in = 0, count = 0;
  for (std::size_t i = 0; i < series.time.size(); ++i) {
    if (series.support[i] != Support::Left && series.support[i] != Support::Right) continue;
    ++count;
    in += series.inside_support[i] == 1;
  }
  return count > 0 ? static_cast<double>(in) / static_cast<double>(count) : kNaN;
}

void use_inertias_of(Robot& robot, const std::string& urdf_path) {
  UrdfReadOptions ro;
  ro.floating_base = robot.model.floating_base;
  const Model other = read_urdf_file(urdf_path, ro);
  if (other.nv != robot.model.nv || other.num_moving_bodies() != robot.model.num_moving_bodies())
    throw std::invalid_argument(urdf_path + ": its tree differs from the model " + robot.model.label());
  robot.model.set_inertial_parameters(other.inertial_parameters());
}

IzmpResult run_izmp(const IzmpOptions& options) {
  auto report = [&](double fraction, const std::string& message) {
    if (options.progress) options.progress(fraction, message);
  };
  Robot robot = load_robot(options.model);
  if (!options.inertia_from.empty()) use_inertias_of(robot, options.inertia_from);
  const IzmpRecording rec = load_izmp_recording(robot, options.data, options.settings);
  report(0.1, "read " + options.data);
  IzmpResult result;
  const IzmpSettings& s = options.settings;
  result.series = evaluate_izmp(robot, rec, s, [&](double f) { report(0.1 + 0.6 * f, "IZMP"); });
  nlohmann::json summary;
  summary["method"] = to_string(s.method);
  summary["angular_acceleration"] = to_string(s.angular_acceleration);
  summary["acd_hz"] = s.acd_rate_hz > 0.0 ? s.acd_rate_hz : rec.rate_hz;
  summary["bus_hz"] = s.bus_rate_hz;
  summary["differences"] = to_string(s.differences);
  summary["bus_period_mean"] = s.bus_period_mean;
  summary["smoothing_ms"] = 1e3 * s.smoothing_window_s;
  summary["ground_normal"] = s.ground_normal_world ? "given" : "stance soles";
  summary["model"] = robot.urdf_path;
  summary["data"] = rec.directory;
  summary["inertia_from"] = options.inertia_from.empty() ? robot.urdf_path : options.inertia_from;
  summary["samples"] = result.series.time.size();
  summary["inside_support_fraction"] = inside_support_fraction(result.series);
  summary["input_warnings"] = input_warnings(robot.model, read_dataset_info(options.data));
  // The soles' F/T sensors: the IZMP against the ZMP they measure (a real robot's check).
  summary["ft_zmp_rms_mm"] = rec.ft_frames.empty() ? nlohmann::json() : nlohmann::json(ft_zmp_rms_mm(result.series));
  if (rec.ft_frames.empty()) summary["ft_zmp_note"] = rec.ft_note;
  if (rec.has_truth) {
    // The paper's reference: the same method with ideal signals, ACD = bus = 500 Hz.
    IzmpSettings ref = s;
    ref.acd_rate_hz = ref.bus_rate_hz = 500.0;
    ref.add_inertial_noise = false;
    if (std::fmod(rec.rate_hz, 500.0) != 0.0) ref.acd_rate_hz = ref.bus_rate_hz = rec.rate_hz;
    const IzmpRecording ideal_signals = ideal_recording(robot, rec);
    result.reference = evaluate_izmp(robot, ideal_signals, ref, [&](double f) { report(0.7 + 0.15 * f, "reference"); });
    summary["reference"] =
        "same method, ideal signals (truth stream), ACD = bus = " + format_exact(ref.bus_rate_hz) + " Hz";
    summary["relative_error_percent"] = izmp_relative_error(result.series, result.reference);
    summary["relative_error_percent_all_single_support"] = izmp_relative_error(result.series, result.reference, 0.0);
    summary["physical_zmp_rms_mm"] = physical_zmp_rms_mm(result.series);
    if (!rec.ft_frames.empty()) {
      // How far the F/T sensors' ZMP itself is from the physical one (the soles below the sensors).
      IzmpSeries ft_as_izmp = result.series;
      ft_as_izmp.izmp_nif = result.series.ft_zmp_nif;
      summary["ft_zmp_physical_rms_mm"] = physical_zmp_rms_mm(ft_as_izmp);
    }
    summary["reference_physical_zmp_rms_mm"] = physical_zmp_rms_mm(result.reference);
    // What the IZMP leaves unexplained: its error against the physical ZMP against what the sensors
    // put in (the same method on ideal signals) and what the method leaves with ideal signals and
    // the true model (the data set's truth.urdf), all at the series' own rates: the physical ZMP is
    // read through the ACD rate's difference window, so the paper's 500 Hz reference differs from
    // any other rate's by that window alone (millimetres of contact chatter).
    IzmpSettings same_rates = s;
    same_rates.add_inertial_noise = false;
    const IzmpSeries ideal_series =
        evaluate_izmp(robot, ideal_signals, same_rates, [&](double f) { report(0.85 + 0.1 * f, "ideal signals"); });
    const double physical = physical_zmp_rms_mm(result.series);
    const double sensors = izmp_distance_rms_mm(result.series, ideal_series);
    summary["sensors_zmp_rms_mm"] = sensors;
    summary["ideal_signals_physical_zmp_rms_mm"] = physical_zmp_rms_mm(ideal_series);
    std::optional<double> floor;
    const std::string truth_urdf = read_dataset_info(options.data).truth_urdf;
    if (!truth_urdf.empty()) {
      Robot truth = robot;
      use_inertias_of(truth, truth_urdf);
      floor = physical_zmp_rms_mm(
          evaluate_izmp(truth, ideal_signals, same_rates, [&](double f) { report(0.95 + 0.05 * f, "true model"); }));
      summary["true_model_ideal_signals_physical_zmp_rms_mm"] = *floor;
    }
    if (std::isfinite(physical) && std::isfinite(sensors) && (!floor || std::isfinite(*floor))) {
      const UnexplainedResidual u = assess_izmp_residual(physical, sensors, floor);
      summary["unexplained_residual"] = {
          {"noise_ratio", u.noise_ratio}, {"level", u.level}, {"basis", u.basis}, {"explanation", u.explanation}};
    } else {
      summary["unexplained_residual"] = nullptr;
    }
  } else {
    summary["reference"] = "none (the data set has no truth stream)";
    summary["relative_error_percent"] = nullptr;
    summary["physical_zmp_rms_mm"] = nullptr;
    summary["unexplained_residual"] = nullptr;
  }
  // NaN is not JSON: write null.
  for (auto& [key, value] : summary.items())
    if (value.is_number_float() && !std::isfinite(value.get<double>())) value = nullptr;
  result.summary = summary;
  return result;
}

std::string izmp_csv(const IzmpSeries& s, const IzmpSeries& reference) {
  std::ostringstream out;
  out << "time,support,izmp_nif_x,izmp_nif_y,plane_height_nif,izmp_world_x,izmp_world_y,izmp_world_z,fx,fy,fz,tx,ty,tz,"
         "physical_zmp_nif_x,physical_zmp_nif_y,inside_support,reference_izmp_nif_x,reference_izmp_nif_y,"
         "support_x_min,support_x_max,support_y_min,support_y_max,ft_zmp_nif_x,ft_zmp_nif_y\n";
  auto num = [](double v) {
    if (!std::isfinite(v)) return std::string();
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return std::string(buf);
  };
  std::size_t j = 0;
  for (std::size_t i = 0; i < s.time.size(); ++i) {
    out << num(s.time[i]) << ',' << to_string(s.support[i]);
    for (int c = 0; c < 3; ++c) out << ',' << num(s.izmp_nif[i][c]);
    for (int c = 0; c < 3; ++c) out << ',' << num(s.izmp_world[i][c]);
    for (int c = 0; c < 6; ++c) out << ',' << num(s.wrench_nif[i][c]);
    out << ',' << num(s.physical_zmp_nif[i].x()) << ',' << num(s.physical_zmp_nif[i].y());
    out << ',' << (s.inside_support[i] < 0 ? std::string() : std::to_string(s.inside_support[i]));
    while (j < reference.time.size() && reference.time[j] < s.time[i] - 1e-9) ++j;
    const bool common = j < reference.time.size() && std::abs(reference.time[j] - s.time[i]) < 1e-9;
    out << ',' << (common ? num(reference.izmp_nif[j].x()) : "") << ','
        << (common ? num(reference.izmp_nif[j].y()) : "");
    for (int c = 0; c < 4; ++c) out << ',' << num(s.support_box[i][c]);
    out << ',' << num(s.ft_zmp_nif[i].x()) << ',' << num(s.ft_zmp_nif[i].y());
    out << '\n';
  }
  return out.str();
}

void write_izmp_outputs(const IzmpResult& result, const std::string& out_dir) {
  std::filesystem::create_directories(out_dir);
  write_file_atomically(out_dir + "/izmp.csv", izmp_csv(result.series, result.reference));
  write_file_atomically(out_dir + "/summary.json", result.summary.dump(2) + "\n");
  write_file_atomically(out_dir + "/report.html", izmp_report_html(result, "dynid izmp"));
}

}  // namespace dynid
