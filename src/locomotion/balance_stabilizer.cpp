#include "dynid/locomotion/balance_stabilizer.hpp"

#include <cmath>
#include <stdexcept>

#include "dynid/dynamics/kinematics.hpp"
#include "dynid/dynamics/whole_body_ik.hpp"
#include "dynid/spatial/explog.hpp"

namespace dynid {

BalanceStabilizer::BalanceStabilizer(const Model& nominal, const VectorX& q_stand, const std::vector<int>& sole_bodies,
                                     double com_height, double dt, BalanceGains gains)
    : model_(nominal), height_(com_height), dt_(dt), gains_(gains), q_(q_stand) {
  Data data(nominal);
  forward_kinematics(nominal, data, q_stand);
  // Walk from each foot toward the base; the first joints turning about world y and x are the
  // ankle pitch and roll, the last roll joint before the base is the hip roll.
  for (int sole : sole_bodies) {
    AnkleJoint pitch, roll, hip_roll;
    bool have_pitch = false, have_roll = false;
    for (int j = sole; j > 0 && nominal.bodies[static_cast<std::size_t>(j)].joint_type == JointType::Revolute;
         j = nominal.bodies[static_cast<std::size_t>(j)].parent) {
      const Body& b = nominal.bodies[static_cast<std::size_t>(j)];
      const Vector3 axis = data.oMi[static_cast<std::size_t>(j)].rotation * b.axis;
      if (!have_pitch && std::abs(axis.y()) > 0.9) {
        pitch = {b.idx_q, axis.y() > 0 ? 1.0 : -1.0};
        have_pitch = true;
      } else if (std::abs(axis.x()) > 0.9) {
        if (!have_roll) {
          roll = {b.idx_q, axis.x() > 0 ? 1.0 : -1.0};
          have_roll = true;
        } else {
          hip_roll = {b.idx_q, axis.x() > 0 ? 1.0 : -1.0};
        }
      }
    }
    if (!have_pitch || !have_roll || hip_roll.idx_q == 0)
      throw std::invalid_argument("balance stabilizer: no ankle pitch/roll and hip roll joints above body " +
                                  nominal.bodies[static_cast<std::size_t>(sole)].name + " of " + nominal.name);
    pitch_.push_back(pitch);
    roll_.push_back(roll);
    hip_roll_.push_back(hip_roll);
  }
}

const VectorX& BalanceStabilizer::correct(const VectorX& q_ref, const Eigen::Vector2d& zmp_ref,
                                          const BalanceMeasurement& m) {
  // Measured COP of both feet together: the resultant of the sole wrenches on the ground plane.
  Force total = Force::Zero();
  for (const Force& w : m.sole_wrenches) total += w;
  q_ = q_ref;
  if (total.linear.z() < 1e-3) return q_;  // not standing: nothing to balance on
  const Eigen::Vector2d cop(-total.angular.y() / total.linear.z(), total.angular.x() / total.linear.z());
  const double alpha = 1.0 - std::exp(-2.0 * M_PI * gains_.cop_filter_hz * dt_);
  cop_ = started_ ? Eigen::Vector2d(cop_ + alpha * (cop - cop_)) : cop;
  started_ = true;

  // COP loop: a COP ahead of the plan means the COM is ahead of where the plan balances it. Integral
  // only: the COP answers an ankle command at once and the wrong way (the ankle torque pushes
  // before the COM moves), so proportional COP feedback through stiff servos is unstable.
  const double bound = gains_.max_com_shift * height_ / 0.9;
  shift_ = (shift_ - gains_.cop_integral * dt_ * (cop_ - zmp_ref)).cwiseMax(-bound).cwiseMin(bound);

  // Tilt loop: base orientation error and rate against the planned base, world axes.
  const Eigen::Quaterniond planned(q_ref[6], q_ref[3], q_ref[4], q_ref[5]);
  const Vector3 tilt = log3(m.base_rotation * planned.normalized().toRotationMatrix().transpose());
  const Vector3 rate = m.base_rotation * m.base_angular_velocity;

  // Body rotation about the ankles (world axes): about +y moves the COM toward +x, about +x toward
  // -y; the tilt terms rotate against the measured tilt.
  const double about_y = shift_.x() / height_ - gains_.tilt * tilt.y() - gains_.tilt_rate * rate.y();
  const double lateral = shift_.y() + height_ * (gains_.tilt * tilt.x() + gains_.tilt_rate * rate.x());
  for (std::size_t leg = 0; leg < pitch_.size(); ++leg) {
    // Feet stay flat: rotating the shank by +about_y over the foot is the ankle joint turning by
    // -about_y (joint angle = child relative to parent).
    q_[pitch_[leg].idx_q] -= pitch_[leg].sign * about_y;
    // Sideways the two ankle axes are parallel, not shared: the legs swing as a parallelogram
    // (ankle roll and hip roll opposite), which shifts the pelvis sideways and keeps it level.
    const double phi = -lateral / height_;  // leg rotation about world x that moves the COM by `lateral`
    q_[roll_[leg].idx_q] -= roll_[leg].sign * phi;
    q_[hip_roll_[leg].idx_q] += hip_roll_[leg].sign * phi;
  }
  return q_;
}

}  // namespace dynid
