#pragma once
// One instant of a recording as identification sees it: the robot's state in model coordinates and
// the forces measured on it. Sources (truth stream, the robot's sensors) produce these one at a time.

#include <string>
#include <vector>

#include "dynid/spatial/force.hpp"

namespace dynid {

/// A labelled time span of a data set (dataset.json `segments`, e.g. the held static poses).
struct TimeSegment {
  std::string label, category;
  double start = 0.0, end = 0.0;  ///< [s]
  /// The feet on the ground during it (`both`, `left`, `right`), empty when not stated.
  std::string support;
};

struct MotionSample {
  double time = 0.0;  ///< [s]
  VectorX q, v, a;    ///< model coordinates (docs/conventions.md): nq, nv, nv
  /// Per sidecar contact (RobotSidecar::contacts order): the wrench the ground applies to the robot
  /// through it, world axes, torque about the world origin [N, N m]. Zero when the contact is free.
  std::vector<Force> contact_wrenches;
  /// Generalized joint forces (dim nv, base rows 0) where measured, NaN where not [N m or N].
  VectorX joint_torques;
};

/// Measurement noise of a source (one standard deviation of a sample at the source's rate); sets
/// the default row weights (ident/identification_rows.hpp).
struct ForceNoise {
  double force = 0.125;   ///< contact force component [N]
  double moment = 0.003;  ///< contact moment component, about the contact frame origin [N m]
  double torque = 0.05;   ///< joint torque [N m]
  /// Noise the data path leaves in the generalized accelerations, as independent sources: column c
  /// (nv) is what one standard deviation of source c adds to them, as it reaches the
  /// identification's rows through the source's low-pass and differences. E.g. the gyro's noise
  /// about x, differentiated, moves the base's angular acceleration about x and, through the IMU's
  /// lever arm, its linear acceleration [m/s^2, rad/s^2]. It is an error in the regressor's own
  /// inputs: the rows' weights count it through the model's mass matrix, and the fit removes the
  /// bias it puts on the normal equations (docs/identification.md). Empty: none.
  MatrixX acceleration;
  /// What the same filters leave of white noise on a measured channel (force, moment, torque), per
  /// unit of its per-sample standard deviation above: the weights compare the acceleration noise in
  /// the rows with the measured channels' noise in the rows.
  double measured_gain = 1.0;
  /// The same two after the identification's own low-pass of its rows (the parallel filter), for the
  /// rows it filters (IdentificationRows::fixed_projection); empty: no such filter was declared.
  MatrixX row_filtered_acceleration;
  double row_filtered_measured_gain = 1.0;
  /// The IMU's white noise densities behind `acceleration` [rad/s/sqrt(Hz), m/s^2/sqrt(Hz)], and
  /// whether they were estimated from the recording rather than given (for the summary).
  double gyro_noise_density = 0.0, accelerometer_noise_density = 0.0;
  bool imu_noise_from_data = false;
};

/// A pass over a recording, one sample at a time. Identification makes one pass per estimate, so a
/// source can be rewound.
class MotionSource {
 public:
  virtual ~MotionSource() = default;
  /// Fills `sample` with the next sample; false at the end of the pass.
  virtual bool next(MotionSample& sample) = 0;
  /// Starts a new pass from the first sample.
  virtual void rewind() = 0;
  /// Samples per pass (for progress), or -1 when unknown.
  virtual long size_hint() const { return -1; }
  /// Readable origin of the samples ("truth stream of DIR", ...).
  virtual std::string description() const = 0;
  virtual ForceNoise noise() const { return {}; }
};

}  // namespace dynid
