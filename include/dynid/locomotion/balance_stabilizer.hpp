#pragma once
// Robot-side balance stabilizer for double-support motions (the squat): corrects the joint
// position references of a whole-body motion planned on the NOMINAL model so that the real robot,
// whose mass distribution differs (sim/true_model.hpp), stays on its feet.
//
// It uses only what the robot measures:
//   - the foot F/T sensors (external wrenches on the soles) -> measured centre of pressure;
//   - the IMU orientation and gyro -> base tilt and tilt rate relative to the planned base;
// never the true model. Two loops lean the whole robot over its feet (an "ankle strategy"):
// fore-aft through the ankle pitch references, sideways through ankle and hip roll together (the
// legs as a parallelogram, pelvis level):
//   1. COP tracking: the planned ZMP is where the nominal model's COM would be balanced; a true
//      COM elsewhere shows up as a COP offset. Its integral shifts the COM (by tilting the body
//      about the ankles) until the measured COP is back on the plan, so the robot keeps its
//      support margin whatever mass it carries.
//   2. Tilt damping: tilt and tilt rate of the base feed back to the ankles, so that a body that
//      starts to rotate over its feet is pushed back before a foot edge is reached.

#include <vector>

#include "dynid/dynamics/data.hpp"

namespace dynid {

/// Defaults tuned on the bundled humanoids (kid 8 kg, adult 78 kg) in the squat: the COP loop is
/// slow (an integral gain of 2/s already tipped the adult over), the tilt loop gentle.
struct BalanceGains {
  double cop_integral = 0.5;    ///< [1/s] COM shift rate per metre of COP error
  double tilt = 0.3;            ///< body rotation per radian of base tilt error
  double tilt_rate = 0.02;      ///< [s] body rotation per rad/s of base tilt rate
  double cop_filter_hz = 2.0;   ///< low-pass of the measured COP (F/T noise, contact transients)
  double max_com_shift = 0.05;  ///< [m] bound of the integrated COM shift for a 0.9 m COM height
};

/// What the robot's sensors give the stabilizer at one control period.
struct BalanceMeasurement {
  Matrix3 base_rotation = Matrix3::Identity();      ///< IMU orientation (world <- base)
  Vector3 base_angular_velocity = Vector3::Zero();  ///< gyro, base axes [rad/s]
  /// External wrenches on the soles (foot F/T sensors), world axes, about the world origin.
  std::vector<Force> sole_wrenches;
};

class BalanceStabilizer {
 public:
  /// `sole_bodies`: bodies of the two feet; their ankle pitch and roll joints are found along
  /// each leg (the first joints whose axes, at `q_stand`, are closest to world y and x).
  /// `com_height`: height of the COM above the soles at `q_stand` [m] (nominal model).
  BalanceStabilizer(const Model& nominal, const VectorX& q_stand, const std::vector<int>& sole_bodies,
                    double com_height, double dt, BalanceGains gains = {});

  /// Corrected position reference (nq) for the planned `q_ref` and planned ZMP `zmp_ref` (world
  /// x, y) from this period's measurement.
  const VectorX& correct(const VectorX& q_ref, const Eigen::Vector2d& zmp_ref, const BalanceMeasurement& m);

  /// Measured (filtered) COP, world x, y [m]; valid after the first correct().
  const Eigen::Vector2d& cop() const { return cop_; }
  /// Integrated COM shift the COP loop asks for, world x, y [m].
  const Eigen::Vector2d& com_shift() const { return shift_; }

 private:
  struct AnkleJoint {
    int idx_q = 0;
    double sign = 1.0;  ///< +1 when the joint axis points along +world axis at q_stand
  };
  const Model& model_;
  std::vector<AnkleJoint> pitch_, roll_, hip_roll_;
  double height_, dt_;
  BalanceGains gains_;
  bool started_ = false;
  Eigen::Vector2d cop_ = Eigen::Vector2d::Zero(), shift_ = Eigen::Vector2d::Zero();
  VectorX q_;
};

}  // namespace dynid
