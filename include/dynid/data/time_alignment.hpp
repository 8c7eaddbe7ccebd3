#pragma once
// Time alignment of a data set's streams against the robot's own log (the encoders): each stream's
// clock, an offset and a drift, estimated from a signal the stream shares with the encoders'
// kinematics (docs/identification.md, "Time alignment"). The offset is the lag over the whole
// recording; the drift the slope of a line through the lags of windows along it.
//
//  - foot F/T: the total contact force (world axes) against each limb's mass-weighted COM
//    acceleration from the leg kinematics, the limbs' weights refitted at every lag (a CAD model's
//    mass error between limbs would otherwise move the peak), gravity and sensor biases as constants;
//  - IMU on the base, once the F/T are aligned: the accelerometer plus the rotational terms of the
//    COM's offset (gyro) against the contact force over the mass minus the legs' share of the COM
//    acceleration (base axes); without aligned F/T, the gyro against the leg kinematics' base rate.
//
// Both sides are low-passed alike (zero-phase, `cutoff_hz`) before they are compared; the peak is
// refined below a sample by a parabola. The kinematics anchor the base on the most loaded foot, so
// the F/T clock moves them a little: the F/T estimate is repeated on its own result until it
// settles.

#include <map>
#include <string>
#include <vector>

#include "dynid/data/sensor_source.hpp"

namespace dynid {

struct LagEstimate {
  double lag_s = 0.0;        ///< [s]
  double correlation = 0.0;  ///< normalised cross-correlation at the peak, in [-1, 1]
  bool at_limit = false;     ///< the peak lies at +-max_lag: the true lag may be beyond
  /// Sharpness of the peak: the score's curvature there, -d2 score / d lag2 [1/s^2] (0 when flat).
  double curvature_per_s2 = 0.0;
};

/// The lag L [s], |L| <= max_lag_s, that makes signal(t + L) best match reference(t): both sampled
/// on one uniform grid of step `dt_s` (channels x samples, the same channels in both), each
/// channel's mean removed, the correlation summed over channels.
LagEstimate estimate_lag(const Eigen::MatrixXd& reference, const Eigen::MatrixXd& signal, double dt_s,
                         double max_lag_s);

/// The same with the reference a least-squares combination of `references` (each channels x
/// samples) plus a constant per channel, refitted at every lag: the lag that explains the largest
/// share of the signal's variance (`correlation`: the square root of that share). For a signal that
/// is a sum of the references with unknown weights, such as the contact force against each body's
/// acceleration when the masses are uncertain.
LagEstimate estimate_lag_regressed(const std::vector<Eigen::MatrixXd>& references, const Eigen::MatrixXd& signal,
                                   double dt_s, double max_lag_s);

/// What a total ground or contact force is compared with: per limb (the base, and each subtree
/// hanging from it) the nominal mass times the limb's COM acceleration, world axes [N], at the
/// configurations `q` sampled every `dt_s` (second differences, zero-phase low-passed at
/// `cutoff_hz`): one 3 x samples matrix per limb, for estimate_lag_regressed.
std::vector<Eigen::MatrixXd> limb_com_accelerations(const Model& model, const std::vector<VectorX>& q, double dt_s,
                                                    double cutoff_hz);

struct StreamAlignment {
  StreamClock clock;
  double correlation = 0.0;  ///< at the peak of the whole recording
  /// Windows whose lags the drift was fitted to (0: the recording is too short for a drift, which
  /// then stays 0), and the drift's standard deviation from the line's residuals [ppm].
  int drift_windows = 0;
  double drift_std_ppm = 0.0;
  std::string compared;  ///< what was compared, for the report ("gyro vs leg kinematics", ...)
  std::string warning;   ///< non-empty when the estimate is not trusted (the clock then stays identity)
};

struct TimeAlignmentOptions {
  double max_offset_s = 0.2;     ///< searched offsets: +- this [s]
  double cutoff_hz = 10.0;       ///< low-pass of both signals before they are compared
  double min_correlation = 0.5;  ///< below it the stream is left unaligned, with a warning
  /// Also estimate the drift (off: the clock's drift stays 0).
  bool estimate_drift = false;
  /// Drift: the recording cut into windows of at least this length [s] (at most `max_drift_windows`),
  /// each window's lag searched within +- `drift_search_s` of the whole recording's, a line fitted
  /// to them; fewer than 3 windows: no drift.
  double drift_window_s = 2.0;
  int max_drift_windows = 12;
  double drift_search_s = 0.01;
};

/// The clock of `signal` against `reference` (channels x samples, both at robot times `times` on a
/// uniform grid), or against a least-squares combination of `references` when given
/// (estimate_lag_regressed): the offset is the lag over the whole recording, at the recording's
/// middle (`clock.reference_time_s`); with `estimate_drift` the drift [ppm] the slope of the lags
/// of windows along it against their middle times. `compared` names the signals for the report. A peak at the search
/// limit or a correlation below `min_correlation` leaves the clock at identity, with a warning.
StreamAlignment estimate_stream_clock(const Eigen::MatrixXd& reference, const Eigen::MatrixXd& signal,
                                      const Eigen::VectorXd& times, const TimeAlignmentOptions& options,
                                      const std::string& compared,
                                      const std::vector<Eigen::MatrixXd>* references = nullptr);

/// Clocks of the `imu` and `ft` streams of a floating-base data set against its encoders (streams
/// the sensor path would read; others are not listed). `sensor_options` are the sensor path's (its
/// own `clocks` are ignored: the estimate starts from the streams' stamps as recorded).
std::map<std::string, StreamAlignment> estimate_stream_clocks(const Model& model, const RobotSidecar& sidecar,
                                                              const DatasetInfo& dataset,
                                                              const SensorSourceOptions& sensor_options,
                                                              TimeWindow window, const std::vector<JointLock>& locks,
                                                              const TimeAlignmentOptions& options = {});

}  // namespace dynid
