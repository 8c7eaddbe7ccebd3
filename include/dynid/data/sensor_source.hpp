#pragma once
// Samples from what the robot measures (docs/identification.md, "Data path"):
//
//  - joints: encoders, zero-phase Butterworth low-pass (order 2 forward and backward, -3 dB at
//    `cutoff_hz`, default 10 Hz), then central differences for velocity and acceleration;
//  - base pose: leg kinematics of the stance foot. The loaded contact that carries the most normal
//    force anchors the base; it lies flat on level ground and does not move while it stays loaded
//    (above 25 % of the weight). When it unloads, the most loaded contact takes over at the pose the
//    chain gives it, flattened. Base linear velocity: central differences of that (smooth,
//    filtered-joint) trajectory, the neighbours of a sample seen from that sample's anchor (an
//    anchor change never enters a difference quotient);
//  - base linear acceleration: the IMU accelerometer when the IMU is on the base body (same filter,
//    read half a sample later: a sample is the mean over the period before it), rotated to world
//    axes with the kinematic attitude, plus gravity, minus the lever-arm terms of the IMU offset;
//    its constant bias removed against the kinematic acceleration. Without one: second differences
//    of the kinematic trajectory, which the filter window spoils around touch-downs (the anchor
//    foot is not fixed over the whole window);
//  - base angular velocity: the IMU gyro (filtered like the encoders) when the IMU sits on the base
//    body, its constant bias removed against the kinematic rate; otherwise the kinematic rate.
//    Angular acceleration: its central difference;
//  - contact wrenches: foot F/T sensors (sidecar `measures: external`, on a contact's link),
//    low-passed with the same filter so both sides of the dynamics see the same bandwidth. Force
//    plates are refused here: their wrenches are about world points, and where the robot stands on
//    the plates needs the markers (data/mocap_source.hpp, `--source mocap`);
//  - joint torques: the `torques` stream (strain-gauge sensors between gear and link: the torque
//    acting on the link), low-passed with the same filter; NaN for joints without a sensor.
//
// A fixed-base robot (no free-flyer): the joints and the joint torques only, no base, no IMU, no
// contact wrenches.
//
// Every stream is resampled to the encoder times (linear interpolation after filtering). The first
// and last `trim_s` seconds are dropped (filter edge transients).
//
// Memory: the streams are read and processed `chunk_s` seconds of encoder samples at a time, each
// piece filtered with the filter's settling length of context on either side (filtfilt_piece), so a
// pass holds a chunk's samples whatever the recording's length, and gives what filtering the whole
// streams would give, to round-off (tests/data/sensor_source_test.cpp, chunked vs whole). The
// constant IMU biases are means over the whole recording: the constructor makes one pass for them
// (and to check every stream and count the samples), next() a second.

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "dynid/data/dataset_info.hpp"
#include "dynid/data/gear_windup.hpp"
#include "dynid/data/imu_still_calibration.hpp"
#include "dynid/data/truth_source.hpp"
#include "dynid/ident/motion_sample.hpp"
#include "dynid/io/stream_clock.hpp"
#include "dynid/model/lock_joints.hpp"
#include "dynid/model/sidecar.hpp"

namespace dynid {

struct SensorSourceOptions {
  double cutoff_hz = 10.0;        ///< low-pass cut-off of joints, gyro and wrenches; <= 0: none (noise-free data)
  int filter_order = 2;           ///< Butterworth order of each pass (zero-phase: twice this)
  double trim_s = 0.1;            ///< dropped at each end [s]
  std::string wrenches = "auto";  ///< "ft", "plates" or "auto" (ft when present, else plates)
  double lock_tolerance = 5e-3;   ///< locked joints must stay within this of their lock [rad]
  /// Base angular velocity from the base IMU's gyro when it has one (else kinematics).
  bool use_gyro = true;
  /// Base linear acceleration from the base IMU's accelerometer when it has one (else kinematics).
  bool use_accelerometer = true;
  /// Per stream (dataset.json name): its clock against the encoders' (data/time_alignment.hpp
  /// estimates them). Streams not named share the encoders' clock.
  std::map<std::string, StreamClock> clocks;
  /// Plates path without marker registration: the estimated world is anchored at the first stance
  /// contact, so plate moments are only right when that contact sits at the world origin. Tests only.
  bool allow_plates_without_registration = false;
  /// Remove constant gyro and accelerometer biases against the stance-leg kinematics. The kinematic
  /// estimate is itself biased (the soft contact's sinking and the sole's roll are invisible to it):
  /// on noise-free walk data it manufactures 0.025 m/s^2 and 0.0025 rad/s "biases".
  bool remove_imu_bias = true;
  /// When every stream the path reads is declared noise-free (dataset.json `noise_free`, e.g.
  /// `dynid simulate --noise none`): no low-pass and no IMU bias removal, whatever the two options
  /// above say. The filter is there for the noise; without noise it only bends the equations of
  /// motion (they are not linear in the signals it smooths).
  bool raw_when_noise_free = true;
  /// Joint velocities from the data set's `velocities` stream (`dynid import log` writes it when the
  /// log has them), filtered like the encoders, accelerations their central differences; instead of
  /// differentiating the encoders (coarse encoder steps, e.g. a log that keeps four decimals).
  /// Fixed-base robots only, for now.
  bool logged_velocities = false;
  /// A low-pass the identification applies to its rows afterwards (the parallel filter), 0: none.
  /// The source does not apply it; it only says how much of its sensors' noise reaches the rows
  /// that filter passes (ForceNoise::row_filtered_acceleration).
  double row_filter_cutoff_hz = 0.0;
  /// The base IMU's white noise densities [rad/s/sqrt(Hz), m/s^2/sqrt(Hz)]: by default the Bosch
  /// BMI088 datasheet's (the simulated IMU's), 0.014 deg/s/sqrt(Hz) and 175 ug/sqrt(Hz); 0: not
  /// modelled; negative: estimated from the IMU stream's own second differences
  /// (data/white_noise_estimate.hpp; `--imu-noise-from-data`). They say how much noise the derived
  /// base accelerations carry (ForceNoise::acceleration).
  double gyro_noise_density = 0.014 * 3.14159265358979323846 / 180.0;
  double accelerometer_noise_density = 175e-6 * 9.80665;
  int row_filter_order = 2;
  /// Encoder samples processed at a time [s] (memory); the samples do not depend on it beyond round-off.
  double chunk_s = 10.0;
  /// Gear wind-up taken off the low-passed encoders (data/gear_windup.hpp); none when empty. Its
  /// joints must be the model's (not locked ones).
  std::shared_ptr<const GearWindup> gear_windup;
  /// The base IMU's calibration (data/imu_still_calibration.hpp): its sensor axes in its sidecar
  /// frame (columns), applied to gyro and accelerometer (none: the sidecar frame's own); its gyro
  /// bias in the sensor's axes, used instead of the mean against the whole motion's kinematic rate
  /// (`remove_imu_bias`; the accelerometer's bias stays that mean).
  std::optional<Matrix3> imu_sensor_axes;
  std::optional<Vector3> imu_gyro_bias;
  /// How the first pass finds the windows where the robot holds still (imu_still_windows()).
  ImuCalibrationOptions still_detection;
};

class SensorSource : public MotionSource {
 public:
  /// Reads and processes the streams (a first pass). Throws naming the stream and channel when one
  /// is missing or holds NaN where a value is needed.
  SensorSource(const Model& model, const RobotSidecar& sidecar, const DatasetInfo& dataset,
               const SensorSourceOptions& options = {}, TimeWindow window = {}, std::vector<JointLock> locks = {});
  ~SensorSource() override;
  bool next(MotionSample& sample) override;
  void rewind() override;
  long size_hint() const override { return size_; }
  std::string description() const override { return description_; }
  ForceNoise noise() const override { return noise_; }
  /// The windows of the kept samples where the robot held still, with the base IMU's mean readings
  /// there (data/imu_still_calibration.hpp); empty without a base IMU with gyro and accelerometer.
  const std::vector<ImuStillWindow>& imu_still_windows() const { return still_windows_; }

 private:
  struct Pass;  // the streams being read and the state of a pass over them (sensor_source.cpp)
  std::unique_ptr<Pass> pass_;
  std::vector<MotionSample> chunk_;  // the current chunk's samples
  std::size_t cursor_ = 0;
  long size_ = 0;
  std::string description_;
  ForceNoise noise_;
  std::vector<ImuStillWindow> still_windows_;
};

}  // namespace dynid
