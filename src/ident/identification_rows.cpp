#include "dynid/ident/identification_rows.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "dynid/dynamics/crba.hpp"
#include "dynid/dynamics/jacobian.hpp"
#include "dynid/dynamics/regressor.hpp"
#include "dynid/dynamics/sole_contacts.hpp"

namespace dynid {

IdentificationRows::IdentificationRows(const Model& model, const RobotSidecar& sidecar, const BaseParameters& base,
                                       SensorSet set, ForceNoise noise)
    : model_(model), base_(base), set_(std::move(set)), noise_(noise), data_(model), J_(6, model.nv) {
  for (const ContactSurface& c : sidecar.contacts) contacts_.push_back(model.frame_index(c.name));
  // Each measured contact's F/T sensor (the one on its link that measures the external wrench): its
  // placement in the contact frame, for the calibration columns; the contact frame itself without one.
  for (int frame : set_.contact_frames) {
    SE3 contact_from_sensor = SE3::Identity();
    for (const ContactSurface& c : sidecar.contacts) {
      if (c.name != model.frames[static_cast<std::size_t>(frame)].name) continue;
      for (const ForceTorqueSensor& f : sidecar.ft_sensors)
        if (f.link == c.link && f.measures == WrenchMeasured::External)
          contact_from_sensor = c.placement.inverse() * f.placement;
    }
    sensor_in_contact_.push_back(contact_from_sensor);
  }
  for (const MatrixX* sources : {&noise_.acceleration, &noise_.row_filtered_acceleration})
    if (sources->cols() > 0 && sources->rows() != model.nv)
      throw std::invalid_argument("acceleration noise sources have " + std::to_string(sources->rows()) +
                                  " coordinates, the model " + std::to_string(model.nv));
}

const std::vector<MatrixX>& IdentificationRows::acceleration_noise_rows() {
  // Y(q, 0, a) is affine in a: a source's change is Y(q, 0, d_c) - Y(q, 0, 0).
  const MatrixX& D = acceleration_sources();
  noise_rows_.resize(static_cast<std::size_t>(D.cols()));
  const VectorX zero = VectorX::Zero(model_.nv);
  const MatrixX Y0 = joint_torque_regressor(model_, data_, q_, zero, zero);
  for (Eigen::Index c = 0; c < D.cols(); ++c)
    noise_rows_[static_cast<std::size_t>(c)].noalias() =
        projector_ * (joint_torque_regressor(model_, data_, q_, zero, D.col(c)) - Y0);
  return noise_rows_;
}

void IdentificationRows::set_support(const Model& model, const RobotSidecar& sidecar,
                                     const std::vector<TimeSegment>& segments) {
  free_.clear();
  bool any = false;
  for (const TimeSegment& seg : segments) any = any || seg.support == "left" || seg.support == "right";
  if (!any) return;
  const auto [left, right] = left_right_soles(model, sidecar);
  for (const TimeSegment& seg : segments) {
    if (seg.support != "left" && seg.support != "right") continue;
    const int lifted = seg.support == "left" ? right : left;
    // Only the middle two thirds: a planned lift-off or touch-down and the real one differ by some
    // milliseconds (the walk's swing sole carries up to 35 N at its segment's ends).
    const double edge = (seg.end - seg.start) / 6.0;
    free_.push_back(
        {seg.start + edge, seg.end - edge, model.frame_index(sidecar.contacts[static_cast<std::size_t>(lifted)].name)});
  }
}

void IdentificationRows::build(const MotionSample& s) {
  if (s.contact_wrenches.size() != contacts_.size())
    throw std::invalid_argument("sample has " + std::to_string(s.contact_wrenches.size()) +
                                " contact wrenches, the sidecar lists " + std::to_string(contacts_.size()));
  // Projection first (it runs forward kinematics at q), then the regressor.
  active_.clear();
  for (int c : contacts_) {
    bool off_ground = false;
    for (const FreeSpan& f : free_) off_ground = off_ground || (f.frame == c && s.time >= f.start && s.time <= f.end);
    // A measured contact stays: its measured wrench is what it is, zero or not.
    const bool measured =
        std::find(set_.contact_frames.begin(), set_.contact_frames.end(), c) != set_.contact_frames.end();
    if (!off_ground || measured) active_.push_back(c);
  }
  fixed_projection_ = true;
  for (int c : active_)
    if (std::find(set_.contact_frames.begin(), set_.contact_frames.end(), c) == set_.contact_frames.end())
      fixed_projection_ = false;  // an unmeasured contact: the projection follows its Jacobian
  const SensorProjection p = project_sensors(model_, data_, s.q, set_, active_);
  if (model_.floating_base && p.base_rank < 6)
    throw std::runtime_error("sensor set '" + set_.label + "' cannot identify the base at t = " +
                             std::to_string(s.time) + " s: rank(S_b V_x) = " + std::to_string(p.base_rank) +
                             " < 6 (the unmeasured forces can explain any base motion)");
  // Contact wrenches in their contact frames, and the generalized forces they and the torques make.
  f_ = s.joint_torques;
  if (model_.floating_base) f_.head<6>().setZero();
  std::vector<Vector6> lambda(contacts_.size());
  for (std::size_t c = 0; c < contacts_.size(); ++c) {
    const SE3 oMc = frame_placement(model_, data_, contacts_[c]);
    lambda[c] = oMc.act_inv(s.contact_wrenches[c]).to_vector();
    if (!wrench_correction_.empty()) {
      const auto measured = std::find(set_.contact_frames.begin(), set_.contact_frames.end(), contacts_[c]);
      if (measured != set_.contact_frames.end()) {
        const std::size_t m = static_cast<std::size_t>(measured - set_.contact_frames.begin());
        const SE3& cMs = sensor_in_contact_[m];
        const Force w_s = cMs.act_inv(Force(lambda[c].head<3>(), lambda[c].tail<3>()));
        lambda[c] = cMs.act(Force(wrench_correction_[m].first * w_s.linear, wrench_correction_[m].second * w_s.angular))
                        .to_vector();
      }
    }
    frame_jacobian(model_, data_, contacts_[c], ReferenceFrame::Local, J_);
    f_.noalias() += J_.transpose() * lambda[c];
  }
  // Measured scalars in the projection's order, with their noise.
  const Eigen::Index m = static_cast<Eigen::Index>(p.measured_names.size());
  VectorX fm(m), sigma(m);
  for (Eigen::Index k = 0; k < m; ++k) {
    const std::string& name = p.measured_names[static_cast<std::size_t>(k)];
    const auto dot = name.rfind('.');
    bool done = false;
    if (dot != std::string::npos) {
      static const char* const kAxes[6] = {"fx", "fy", "fz", "tx", "ty", "tz"};
      for (std::size_t c = 0; c < contacts_.size() && !done; ++c)
        if (model_.frames[static_cast<std::size_t>(contacts_[c])].name == name.substr(0, dot))
          for (int a = 0; a < 6; ++a)
            if (name.substr(dot + 1) == kAxes[a]) {
              fm[k] = lambda[c][a];
              sigma[k] = a < 3 ? noise_.force : noise_.moment;
              done = true;
            }
    }
    if (!done) {
      const double tau = s.joint_torques[model_.bodies[static_cast<std::size_t>(model_.joint_index(name))].idx_v];
      if (!std::isfinite(tau))
        throw std::runtime_error("sensor set '" + set_.label + "' uses the torque of joint '" + name +
                                 "', which the data do not measure");
      fm[k] = tau;
      sigma[k] = noise_.torque;
    }
  }
  Y_ = joint_torque_regressor(model_, data_, s.q, s.v, s.a);
  if (has_acceleration_noise()) {
    projector_ = p.projector;
    q_ = s.q;
  }
  const MatrixX PA = p.projector * p.measured_map;
  PY_.noalias() = p.projector * Y_;
  T_.resize(p.projector.rows(), static_cast<Eigen::Index>(set_.torque_joints.size()));
  for (std::size_t k = 0; k < set_.torque_joints.size(); ++k)
    T_.col(static_cast<Eigen::Index>(k)) =
        p.projector.col(model_.bodies[static_cast<std::size_t>(set_.torque_joints[k])].idx_v);
  A_ = base_regressor(base_, PY_);
  b_.noalias() = PA * fm;
  if (wrench_calibration_) {
    C_.setZero(PA.rows(), 18 * static_cast<Eigen::Index>(set_.contact_frames.size()));
    static const char* const kAxes[6] = {"fx", "fy", "fz", "tx", "ty", "tz"};
    for (std::size_t c = 0; c < set_.contact_frames.size(); ++c) {
      const std::string& frame = model_.frames[static_cast<std::size_t>(set_.contact_frames[c])].name;
      Eigen::Index index[6];
      for (int a = 0; a < 6; ++a) {
        const auto it = std::find(p.measured_names.begin(), p.measured_names.end(), frame + "." + kAxes[a]);
        if (it == p.measured_names.end())
          throw std::runtime_error("wrench calibration: contact '" + frame + "' has no measured " + kAxes[a]);
        index[a] = static_cast<Eigen::Index>(it - p.measured_names.begin());
      }
      // In the sensor's frame: its reading w_s = (f_s, n_s) corrected by E's blocks, the change
      // carried back to the contact frame (a force correction also moves the moment about the
      // contact frame's origin).
      MatrixX PAc(PA.rows(), 6);
      Vector6 w_c;
      for (int a = 0; a < 6; ++a) {
        PAc.col(a) = PA.col(index[a]);
        w_c[a] = fm[index[a]];
      }
      const SE3& cMs = sensor_in_contact_[c];
      const Force w_s = cMs.act_inv(Force(w_c.head<3>(), w_c.tail<3>()));
      for (int block = 0; block < 2; ++block)
        for (int i = 0; i < 3; ++i) {
          const Vector3 e = Vector3::Unit(i);
          const Vector6 change =
              cMs.act(block == 0 ? Force(e, Vector3::Zero()) : Force(Vector3::Zero(), e)).to_vector();
          const VectorX column = PAc * change;
          const Vector3& reading = block == 0 ? w_s.linear : w_s.angular;
          for (int j = 0; j < 3; ++j)
            C_.col(18 * static_cast<Eigen::Index>(c) + 9 * block + 3 * i + j) = column * reading[j];
        }
    }
  }
  row_variance_.noalias() = PA.array().square().matrix() * sigma.array().square().matrix();
  structure_weights_ = (row_variance_.array() + 1e-300).inverse().matrix();
  // Noise in the accelerations the data path derived (a gyro differentiated, an accelerometer
  // filtered) is an error in the regressor's inputs: Y(q, v, a + da) pi = Y(q, v, a) pi + M(q) da,
  // so each row P Y pi carries P M da more, with M the model's (here: the nominal) mass matrix.
  // Rows the parallel filter will low-pass carry the noise its filter leaves.
  row_filtered_ = fixed_projection_ && noise_.row_filtered_acceleration.cols() > 0;
  const double measured_gain = row_filtered_ ? noise_.row_filtered_measured_gain : noise_.measured_gain;
  if (acceleration_sources().cols() > 0) {
    const MatrixX& M = crba(model_, data_, s.q);
    PM_.noalias() = p.projector * M;
    // In the measured channels' per-sample units: both noises as the rows carry them; the sources
    // are independent, each moves a row by (P M d_c)_i.
    row_variance_ += ((PM_ * acceleration_sources()) / measured_gain).array().square().rowwise().sum().matrix();
  }
  w_ = (row_variance_.array() + 1e-300).inverse().matrix();
}

}  // namespace dynid
