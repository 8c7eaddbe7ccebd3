#include "dynid/data/gear_windup.hpp"

#include <algorithm>
#include <stdexcept>

#include "dynid/actuator/gear_dead_band.hpp"
#include "dynid/dynamics/rnea.hpp"
#include "dynid/mocap/butterworth.hpp"
#include "dynid/mocap/filtfilt.hpp"

namespace dynid {

double interpolate_track_row(const std::vector<double>& times, const MatrixX& values, std::size_t j, double t) {
  const Eigen::Index row = static_cast<Eigen::Index>(j);
  if (times.empty()) return 0.0;
  if (t <= times.front()) return values(row, 0);
  if (t >= times.back()) return values(row, static_cast<Eigen::Index>(times.size() - 1));
  const auto upper = std::upper_bound(times.begin(), times.end(), t);
  const std::size_t k = static_cast<std::size_t>(upper - times.begin());  // times[k-1] <= t < times[k]
  const double t0 = times[k - 1], t1 = times[k];
  const double s = t1 > t0 ? (t - t0) / (t1 - t0) : 0.0;
  return (1.0 - s) * values(row, static_cast<Eigen::Index>(k - 1)) + s * values(row, static_cast<Eigen::Index>(k));
}

double LinkTorqueTrack::at(std::size_t j, double t) const { return interpolate_track_row(times, torque, j, t); }

LinkTorqueTrack link_torque_track(const Model& model, const RobotSidecar& sidecar, MotionSource& source,
                                  const std::vector<std::string>& joints, double cutoff_hz) {
  std::vector<int> columns;
  for (const std::string& joint : joints) {
    const auto body =
        std::find_if(model.bodies.begin(), model.bodies.end(), [&](const Body& b) { return b.joint_name == joint; });
    if (body == model.bodies.end() || body->joint_type == JointType::FreeFlyer)
      throw std::invalid_argument("link torques: '" + joint + "' is not a moving joint of " + model.label());
    columns.push_back(body->idx_v);
  }
  std::vector<int> contact_body;
  for (const ContactSurface& c : sidecar.contacts)
    contact_body.push_back(model.frames[static_cast<std::size_t>(model.frame_index(c.name))].body);

  Data data(model);
  std::vector<Force> f_ext(model.bodies.size(), Force::Zero());
  std::vector<std::vector<double>> columns_out;
  LinkTorqueTrack track;
  track.joints = joints;
  MotionSample s;
  source.rewind();
  while (source.next(s)) {
    forward_kinematics(model, data, s.q);
    std::fill(f_ext.begin(), f_ext.end(), Force::Zero());
    for (std::size_t c = 0; c < contact_body.size() && c < s.contact_wrenches.size(); ++c) {
      f_ext[static_cast<std::size_t>(contact_body[c])] +=
          world_wrench_to_body(data, contact_body[c], s.contact_wrenches[c]);
    }
    const VectorX& tau = rnea(model, data, s.q, s.v, s.a, f_ext);
    std::vector<double> column(columns.size());
    for (std::size_t j = 0; j < columns.size(); ++j) column[j] = tau[columns[j]];
    columns_out.push_back(std::move(column));
    track.times.push_back(s.time);
  }
  source.rewind();
  if (track.times.empty()) throw std::runtime_error("link torques: " + source.description() + " has no samples");
  track.torque.resize(static_cast<Eigen::Index>(joints.size()), static_cast<Eigen::Index>(track.times.size()));
  for (std::size_t k = 0; k < columns_out.size(); ++k)
    for (std::size_t j = 0; j < joints.size(); ++j)
      track.torque(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(k)) = columns_out[k][j];
  return lowpassed(std::move(track), cutoff_hz);
}

LinkTorqueTrack lowpassed(LinkTorqueTrack track, double cutoff_hz) {
  const Eigen::Index n = track.torque.cols();
  if (cutoff_hz > 0.0 && n > 1) {
    const double rate = static_cast<double>(n - 1) / (track.times.back() - track.times.front());
    if (cutoff_hz >= 0.5 * rate) return track;  // nothing above the cut-off to take out
    const IirFilter lowpass = butterworth_lowpass(2, cutoff_hz, rate);
    if (n <= filtfilt_padlen(lowpass))
      throw std::runtime_error("link torques: " + std::to_string(n) + " samples are too few to low-pass at " +
                               std::to_string(cutoff_hz) + " Hz");
    for (Eigen::Index j = 0; j < track.torque.rows(); ++j)
      track.torque.row(j) = filtfilt(lowpass, track.torque.row(j).transpose()).transpose();
  }
  return track;
}

MatrixX gear_play_offsets(const LinkTorqueTrack& track, const std::vector<double>& play,
                          const std::vector<double>& armature, const std::vector<double>& damping) {
  const std::size_t joints = track.joints.size();
  if (play.size() != joints || armature.size() != joints || damping.size() != joints)
    throw std::invalid_argument("gear play: one play, armature and damping per joint of the link torque track");
  const Eigen::Index n = static_cast<Eigen::Index>(track.times.size());
  MatrixX offset = MatrixX::Zero(static_cast<Eigen::Index>(joints), n);
  for (std::size_t j = 0; j < joints; ++j) {
    if (play[j] == 0.0 || n == 0) continue;
    const Eigen::Index row = static_cast<Eigen::Index>(j);
    GearDeadBand band(play[j], armature[j], damping[j]);
    band.settle(track.torque(row, 0));
    offset(row, 0) = band.offset();
    for (Eigen::Index k = 1; k < n; ++k)
      offset(row, k) = band.step(track.torque(row, k), track.times[static_cast<std::size_t>(k)] -
                                                           track.times[static_cast<std::size_t>(k - 1)]);
  }
  return offset;
}

}  // namespace dynid
