#include "dynid/data/mocap_source.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "dynid/core/number_format.hpp"
#include "dynid/data/lab_motion.hpp"
#include "dynid/data/residual_wrench.hpp"
#include "dynid/dynamics/kinematics.hpp"
#include "dynid/mocap/filtfilt.hpp"
#include "dynid/mocap/marker_ik.hpp"
#include "dynid/model/topology.hpp"

namespace dynid {
namespace {

/// Whether `p` lies inside the polygon `corners` (3 x n, in order around it; convex), in the
/// horizontal plane.
bool inside_horizontally(const Eigen::Matrix3Xd& corners, const Vector3& p) {
  const Eigen::Index n = corners.cols();
  int positive = 0, negative = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const Eigen::Vector2d a = corners.col(i).head<2>(), b = corners.col((i + 1) % n).head<2>();
    const Eigen::Vector2d e = b - a, r = p.head<2>() - a;
    const double cross = e.x() * r.y() - e.y() * r.x();
    if (cross > 0.0) ++positive;
    if (cross < 0.0) ++negative;
  }
  return positive == 0 || negative == 0;
}

/// The base part (position, quaternion, twist, acceleration) of a uniformly sampled motion,
/// linearly interpolated at `t` (the quaternion renormalised).
void base_at(const SampledMotion& m, double t, MotionSample& s) {
  const std::size_t n = m.time.size();
  const double dt = (m.time.back() - m.time.front()) / static_cast<double>(n - 1);
  const double x = std::clamp((t - m.time.front()) / dt, 0.0, static_cast<double>(n - 1));
  const std::size_t k = std::min(static_cast<std::size_t>(x), n - 2);
  const double u = x - static_cast<double>(k);
  s.q.head<7>() = (1.0 - u) * m.q[k].head<7>() + u * m.q[k + 1].head<7>();
  s.q.segment<4>(3).normalize();
  s.v.head<6>() = (1.0 - u) * m.v[k].head<6>() + u * m.v[k + 1].head<6>();
  s.a.head<6>() = (1.0 - u) * m.a[k].head<6>() + u * m.a[k + 1].head<6>();
}

}  // namespace

bool MocapSource::next(MotionSample& sample) {
  if (cursor_ >= samples_.size()) return false;
  sample = samples_[cursor_++];
  return true;
}

MocapSource::MocapSource(const Model& model, const RobotSidecar& sidecar, const DatasetInfo& dataset,
                         const MocapSourceOptions& options, TimeWindow window, std::vector<JointLock> locks) {
  const std::string& dir = dataset.directory;
  if (!model.floating_base) throw std::runtime_error(model.label() + ": the motion-capture path needs a floating base");
  if (model.bodies.size() < 2 || model.bodies[1].joint_type != JointType::FreeFlyer)
    throw std::runtime_error(model.label() + ": the motion-capture path needs the floating base as the first joint");
  if (!dataset.has_stream("markers"))
    throw std::runtime_error(dir +
                             ": no 'markers' stream (markers.csv): the motion-capture source takes the base pose "
                             "from the markers");
  if (!dataset.has_stream("plates") || dataset.force_plates.empty())
    throw std::runtime_error(dir +
                             ": no force plates (plates stream and `force_plates` in dataset.json): the "
                             "motion-capture source takes the contact wrenches from them");
  if (sidecar.contacts.empty()) throw std::runtime_error(sidecar.source_path + ": no contacts to give the plates to");
  const LabRecording rec = read_lab_recording(dir);
  const std::size_t plates = rec.dataset.force_plates.size();
  for (std::size_t p = 0; p < plates; ++p)
    if (rec.dataset.force_plates[p].corners.cols() < 3)
      throw std::runtime_error(dir + "/dataset.json: force plate '" + rec.dataset.force_plates[p].name +
                               "' has no corners: they tell which foot stands on it");
  const bool have_encoders = !rec.encoder_time.empty();
  if (options.joints == MocapJoints::Encoders && !have_encoders)
    throw std::runtime_error(dir + ": no encoders stream (joints from the encoders were asked for)");
  const bool use_encoders =
      options.joints == MocapJoints::Encoders || (options.joints == MocapJoints::Auto && have_encoders);

  // Joints from the encoders: the model's channels, checked, filtered; locked joints at their lock.
  const int nj = model.nv - 6;
  const std::string enc_path = use_encoders ? dataset.stream("encoders").file : std::string();
  const auto encoder_row = [&](const std::string& joint) {
    const auto it = std::find(rec.encoder_joints.begin(), rec.encoder_joints.end(), joint);
    if (it == rec.encoder_joints.end()) throw std::runtime_error(enc_path + ": no channel 'q." + joint + "'");
    const Eigen::Index row = it - rec.encoder_joints.begin();
    for (Eigen::Index k = 0; k < rec.encoder_q.cols(); ++k)
      if (!std::isfinite(rec.encoder_q(row, k)))
        throw std::runtime_error(enc_path + ": line " + std::to_string(k + 2) + ": channel 'q." + joint +
                                 "' is empty or not finite");
    return row;
  };
  Eigen::MatrixXd qj;  // joints x encoder samples, filtered
  double enc_dt = 0.0;
  if (use_encoders) {
    const Eigen::Index ne = static_cast<Eigen::Index>(rec.encoder_time.size());
    if (ne < 5) throw std::runtime_error(enc_path + ": too few samples");
    enc_dt = (rec.encoder_time.back() - rec.encoder_time.front()) / static_cast<double>(ne - 1);
    Eigen::MatrixXd raw(nj, ne);
    for (std::size_t b = 1; b < model.bodies.size(); ++b) {
      const Body& body = model.bodies[b];
      if (body.joint_type == JointType::FreeFlyer) continue;
      raw.row(body.idx_v - 6) = rec.encoder_q.row(encoder_row(body.joint_name));
    }
    for (const JointLock& lock : locks) {
      const Eigen::Index row = encoder_row(lock.joint);
      for (Eigen::Index k = 0; k < ne; ++k)
        if (!(std::abs(rec.encoder_q(row, k) - lock.position) <= options.lock_tolerance))
          throw std::runtime_error(enc_path + ": line " + std::to_string(k + 2) + ": locked joint '" + lock.joint +
                                   "' reads " + std::to_string(rec.encoder_q(row, k)) + " rad, not its lock " +
                                   std::to_string(lock.position));
    }
    const IirFilter filter = butterworth_lowpass(options.filter_order, options.cutoff_hz, 1.0 / enc_dt);
    if (ne <= filtfilt_padlen(filter)) throw std::runtime_error(enc_path + ": too few samples to filter");
    qj = filtfilt_rows(filter, raw);
  }

  // Base (and, without encoders, joints) from the markers. A joint with no marker beyond it would
  // stay where the IK starts it: refused rather than read as a motionless joint.
  if (!use_encoders) {
    std::vector<char> seen(model.bodies.size(), 0);
    for (const ModelMarker& marker : model_markers(model))
      for_each_support(model, marker.body, [&](int b) { seen[static_cast<std::size_t>(b)] = 1; });
    for (std::size_t b = 1; b < model.bodies.size(); ++b)
      if (!seen[b] && model.bodies[b].joint_type != JointType::FreeFlyer)
        throw std::runtime_error(dir + ": joints from the markers: no marker of " + model.label() +
                                 " lies beyond joint '" + model.bodies[b].joint_name +
                                 "' (add markers to the sidecar, record encoders, or --lock it)");
  }
  const MarkerConfigurations ik = solve_marker_configurations(model, rec, use_encoders);
  for (std::size_t f = 0; f < ik.time.size(); ++f)
    if (ik.used[f] < 3)
      throw std::runtime_error(dir + ": marker frame at " + format_fixed(ik.time[f], 3) + " s shows " +
                               std::to_string(ik.used[f]) + " of the model's markers; marker IK needs 3");
  SampledMotion motion;
  try {
    motion = differentiate_configurations(model, ik.time, ik.q, options.cutoff_hz, options.filter_order);
  } catch (const std::exception& e) {
    throw std::runtime_error(dir + ": markers: " + e.what());
  }
  const LabRecording filtered_plates = plates_on_uniform_grid(rec, options.cutoff_hz, options.filter_order);

  // Sample times: the encoders' (or the marker frames'), inside every stream less the trimmed ends
  // (the filter's edge transients).
  const double trim = std::max(options.trim_s, options.edge_periods / options.cutoff_hz);
  const std::vector<double>& times = use_encoders ? rec.encoder_time : motion.time;
  const double t_first = std::max({motion.time.front(), filtered_plates.plate_time.front(),
                                   use_encoders ? rec.encoder_time.front() : -1e300}) +
                         trim;
  const double t_last = std::min({motion.time.back(), filtered_plates.plate_time.back(),
                                  use_encoders ? rec.encoder_time.back() : 1e300}) -
                        trim;
  const std::size_t nc = sidecar.contacts.size();
  std::vector<int> contact_frame(nc);
  for (std::size_t c = 0; c < nc; ++c) contact_frame[c] = model.frame_index(sidecar.contacts[c].name);
  double ground = 0.0;
  for (const ForcePlateInfo& plate : rec.dataset.force_plates) ground += plate.origin.z();
  ground /= static_cast<double>(plates);

  Data data(model);
  std::size_t hint = 0;
  std::vector<Vector3> contact_position(nc);
  for (std::size_t k = 1; k + 1 < times.size(); ++k) {
    const double t = times[k];
    if (t < t_first || t > t_last || !window.contains(t)) continue;
    MotionSample s;
    s.time = t;
    s.q.resize(model.nq);
    s.v.resize(model.nv);
    s.a.resize(model.nv);
    if (use_encoders) {
      base_at(motion, t, s);
      const Eigen::Index e = static_cast<Eigen::Index>(k);
      s.q.tail(nj) = qj.col(e);
      s.v.tail(nj) = (qj.col(e + 1) - qj.col(e - 1)) / (2.0 * enc_dt);
      s.a.tail(nj) = (qj.col(e + 1) - 2.0 * qj.col(e) + qj.col(e - 1)) / (enc_dt * enc_dt);
    } else {
      s.q = motion.q[k];
      s.v = motion.v[k];
      s.a = motion.a[k];
    }
    // Which contact stands on which plate, from where the configuration puts the contact frames.
    forward_kinematics(model, data, s.q);
    for (std::size_t c = 0; c < nc; ++c)
      contact_position[c] = frame_placement(model, data, contact_frame[c]).translation;
    const Eigen::Matrix<double, 6, Eigen::Dynamic> reaction = plate_reactions_at(filtered_plates, t, hint);
    s.contact_wrenches.assign(nc, Force::Zero());
    std::vector<int> plate_of(nc, -1);
    std::vector<int> contact_of(plates, -1);
    for (std::size_t p = 0; p < plates; ++p) {
      std::vector<std::size_t> on;
      for (std::size_t c = 0; c < nc; ++c)
        if (contact_position[c].z() - rec.dataset.force_plates[p].origin.z() <= options.contact_height &&
            inside_horizontally(rec.dataset.force_plates[p].corners, contact_position[c]))
          on.push_back(c);
      const double normal = std::abs(reaction(2, static_cast<Eigen::Index>(p)));
      const bool loaded = normal > options.loaded_force;
      if (loaded && on.empty())
        throw std::runtime_error(dir + ": force plate '" + rec.dataset.force_plates[p].name + "' carries " +
                                 format_fixed(normal, 1) + " N at " + format_fixed(t, 3) +
                                 " s but no contact stands on it (a foot off the plates, "
                                 "or markers that misplace the robot)");
      if (loaded && on.size() > 1)
        throw std::runtime_error(
            dir + ": contacts '" + sidecar.contacts[on[0]].name + "' and '" + sidecar.contacts[on[1]].name +
            "' both stand on force plate '" + rec.dataset.force_plates[p].name + "' at " + format_fixed(t, 3) +
            " s while it carries " + format_fixed(normal, 1) + " N: one plate cannot split their wrenches");
      if (on.size() != 1) continue;  // an unloaded plate with no single contact on it reads only noise
      contact_of[p] = static_cast<int>(on[0]);
      plate_of[on[0]] = static_cast<int>(p);
      s.contact_wrenches[on[0]] += Force::from_vector(reaction.col(static_cast<Eigen::Index>(p)));
    }
    for (std::size_t c = 0; c < nc; ++c)
      if (plate_of[c] < 0 && contact_position[c].z() - ground <= options.contact_height)
        throw std::runtime_error(dir + ": contact '" + sidecar.contacts[c].name + "' is down at (" +
                                 format_fixed(contact_position[c].x(), 3) + ", " +
                                 format_fixed(contact_position[c].y(), 3) + ") m at " + format_fixed(t, 3) +
                                 " s, off the force plates: its load is not measured");
    if (samples_.empty()) plate_contacts_ = contact_of;
    s.joint_torques = VectorX::Constant(model.nv, std::numeric_limits<double>::quiet_NaN());
    samples_.push_back(std::move(s));
  }
  if (samples_.empty()) throw std::runtime_error(dir + ": no motion-capture samples in the chosen time window");
  noise_.force = 0.32;  // plates: 0.25 N white plus 0.7 N quantization (0.2 N)
  noise_.moment = 0.05;
  const double marker_rate = static_cast<double>(ik.time.size() - 1) / (ik.time.back() - ik.time.front());
  description_ =
      "motion capture of " + dir + " (markers " + format_fixed(marker_rate, 0) + " Hz by marker IK, joints from " +
      (use_encoders ? "encoders " + format_fixed(1.0 / enc_dt, 0) + " Hz" : std::string("markers")) + ", low-pass " +
      format_fixed(options.cutoff_hz, 1) + " Hz, wrenches from " + std::to_string(plates) + " force plates)";
}

}  // namespace dynid
