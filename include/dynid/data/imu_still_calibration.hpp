#pragma once
// The base IMU calibrated from the periods the robot holds still (docs/identification.md, "IMU
// calibration"): its gyro bias, its accelerometer bias, and, when the still periods hold the base at
// different attitudes, the sensor's axes (a board on standoffs sits about a degree off the frame its
// sidecar names).
//
// In a still window the gyro reads its bias and the accelerometer gravity: per window, the mean
// reading a_k in the sensor's axes against the gravity the leg kinematics give in the sidecar
// frame's axes, u_k = R_frame_world (0, 0, |g|) (the feet flat on level ground, which holding still
// makes as true as it gets: no sole rolls, no foot slips):
//
//     a_k = R_sf u_k + b_a,    R_sf: the sidecar frame's axes seen in the sensor's, b_a: bias,
//
// by orthogonal Procrustes (Kabsch) on the windows' centred means. One attitude cannot tell a tilt
// of the axes from a bias (both shift the mean reading); only windows at attitudes that differ
// about two axes fix R_sf, and the fit's standard deviations say how well: the rotation's per axis
// from the windows' residual scatter and the attitudes' spread. Without that the bias alone is
// taken, the sidecar's axes kept (R_sf = 1), the tilt folded into the bias.
//
// Why not the motion itself: against the kinematic base rate the gyro sees the stance foot's roll
// on its soft contact and its slip in yaw (the kid walk turns 16 degrees on its slipping feet that
// the kinematics never see), and on a slow excitation the rates sit below the differentiated
// encoders' noise. The sensor path's default bias removal (the means over the whole motion against
// the kinematics) absorbs both into the biases.

#include <optional>
#include <string>
#include <vector>

#include "dynid/core/types.hpp"

namespace dynid {

/// One window where the robot held still: its span and its means.
struct ImuStillWindow {
  double start = 0.0, end = 0.0;  ///< [s], encoder time
  long samples = 0;
  Vector3 gravity_in_frame = Vector3::Zero();  ///< kinematic, sidecar frame axes [m/s^2] (specific force at rest)
  Vector3 accelerometer = Vector3::Zero();     ///< mean reading, sensor axes [m/s^2]
  Vector3 gyro = Vector3::Zero();              ///< mean reading, sensor axes [rad/s]
};

struct ImuCalibration {
  std::vector<ImuStillWindow> windows;
  double still_seconds = 0.0;                 ///< the windows' total length
  Vector3 gyro_bias_rad_s = Vector3::Zero();  ///< sensor axes, mean over the windows' samples
  Vector3 accel_bias_m_s2 = Vector3::Zero();  ///< sensor axes
  /// The sensor's axes in the sidecar frame (columns): the fit's when `axes_determined`, else 1.
  Matrix3 sensor_axes_in_frame = Matrix3::Identity();
  bool axes_determined = false;
  std::string axes_note;          ///< why the axes were or were not taken
  double misalignment_deg = 0.0;  ///< angle of the fitted axes (also when not taken)
  Vector3 misalignment_axis = Vector3::UnitZ();
  Vector3 std_deg = Vector3::Zero();  ///< the fitted rotation's standard deviation about each frame axis
  double attitude_spread_deg = 0.0;   ///< RMS angle of the windows' gravity directions about their mean
  double residual_rms_m_s2 = 0.0;     ///< per axis, of the window means after the fit
  /// Windows left out of the axes' fit: residual beyond 4 robust standard deviations of the others'
  /// (a foot not flat, a kinematic attitude that is wrong).
  int windows_set_aside = 0;
};

/// Options of the calibration (and of the still-window detection in the sensor path).
struct ImuCalibrationOptions {
  double max_joint_speed = 0.01;  ///< [rad/s]: every joint slower (filtered encoders) ...
  double max_base_rate = 0.01;    ///< [rad/s]: ... and the kinematic base rate below this
  double min_duration_s = 0.3;    ///< a still run lasts at least this after trimming
  double trim_s = 0.05;           ///< dropped at each end of a still run
  double max_window_s = 60.0;     ///< a longer run is cut into windows (bounded memory)
  /// The axes are taken when the rotation's standard deviation about every axis is below this.
  double max_axes_std_deg = 0.2;
};

/// The calibration from still windows. Throws when there is none. With `known_axes` (the sensor's
/// axes in the sidecar frame, e.g. from another recording of the same robot) only the biases are
/// estimated, on those axes.
ImuCalibration calibrate_imu(const std::vector<ImuStillWindow>& windows, const ImuCalibrationOptions& options = {},
                             const std::optional<Matrix3>& known_axes = std::nullopt);

}  // namespace dynid
