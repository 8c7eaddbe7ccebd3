#pragma once
// Writes what a simulated robot's sensors measure into a dynid data set (docs/data-format.md):
// one CSV stream per sensor group at its own rate (encoders, joint torques, IMU, F/T, plates,
// markers), plus the noise-free truth stream identification tests compare against. Also checks, row
// by row, that the truth obeys dynid's equations of motion: rnea(truth model, q, v, a, contact
// wrenches) = applied joint torques (the physics agreement of MuJoCo and dynid).

#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "dynid/actuator/gear_dead_band.hpp"
#include "dynid/dynamics/data.hpp"
#include "dynid/io/csv_stream.hpp"
#include "dynid/io/stream_clock.hpp"
#include "dynid/model/sidecar.hpp"
#include "dynid/sim/force_plate_perturbation.hpp"
#include "dynid/sim/ft_perturbation.hpp"
#include "dynid/sim/imu_perturbation.hpp"
#include "dynid/sim/marker_perturbation.hpp"
#include "dynid/sim/scene.hpp"
#include "dynid/sim/sensor_noise.hpp"
#include "dynid/sim/simulation.hpp"

namespace dynid {

struct StreamRates {
  double truth_hz = 1000.0;
  double encoders_hz = 1000.0;  ///< actuator-controller rate
  double imu_hz = 1000.0;
  double ft_hz = 1000.0;
  double plates_hz = 900.0;
  double markers_hz = 150.0;
  /// Significant digits of encoders.csv. Differentiated twice at 1 kHz, ten digits (5e-11 rad) are
  /// 1e-4 rad/s^2 of acceleration: the arm's noise-free data sets use the truth stream's twelve.
  int encoder_digits = 10;
};

/// What the robot's own sensors read at the last DatasetRecorder::record(), with the noise of the
/// streams (the same values the streams get): the inputs of a controller that runs on the robot.
struct SensorReadings {
  bool imu = false;                         ///< the sidecar has an IMU and it was read
  Vector3 gyro = Vector3::Zero();           ///< IMU frame [rad/s]
  Vector3 accelerometer = Vector3::Zero();  ///< specific force, IMU frame [m/s^2]
  std::vector<Force> ft;                    ///< per sidecar F/T sensor, sensor frame [N, N m]
};

class DatasetRecorder {
 public:
  DatasetRecorder(const std::string& out_dir, const Model& truth, const RobotSidecar& sidecar, const SceneSpec& scene,
                  const SensorNoise& noise, const StreamRates& rates, unsigned seed);

  /// Records the streams that are due at the simulation's current time. Call between
  /// Simulation::forward(tau) and Simulation::integrate(). With `write` false the sensors are read
  /// (latest()) but nothing is written: a controller sensing while nothing is recorded.
  void record(const Simulation& sim, const VectorX& tau, bool write = true);

  /// Stamps each named stream on its own clock (sim/stream_clock_perturbation.hpp); the others,
  /// the encoders and the truth stay on the simulation's.
  void set_stream_clocks(std::map<std::string, StreamClock> clocks) { clocks_ = std::move(clocks); }

  /// Mounts the markers where the lab put them and hides and swaps them as the lab's cameras do
  /// (sim/marker_perturbation.hpp).
  void set_marker_perturbation(const MarkerPerturbation& perturbation);
  /// The occlusion gaps so far (null without the marker perturbation).
  const MarkerGaps* marker_gaps() const { return marker_gaps_.get(); }
  /// The IMU's mounting misalignment, accelerometer scale and gyro bias walk (sim/imu_perturbation.hpp).
  void set_imu_perturbation(const ImuError& error);
  const ImuReading* imu_reading() const { return imu_reading_.get(); }

  /// The joints' wind-up behind their encoders (sim/joint_elasticity_perturbation.hpp): each
  /// encoder reads its link angle plus the link torque times `compliance` (per body).
  void set_joint_elasticity(std::vector<double> compliance) { encoder_compliance_ = std::move(compliance); }

  /// The F/T sensors' calibration errors and zero drift (sim/ft_perturbation.hpp), one per sidecar
  /// sensor.
  void set_ft_perturbation(std::vector<FtError> errors) { ft_errors_ = std::move(errors); }

  /// The force plates' calibration errors and zero drift (sim/force_plate_perturbation.hpp), one per
  /// scene plate.
  void set_force_plate_perturbation(std::vector<PlateError> errors);

  /// Marker frames written while two labels were swapped.
  long swapped_marker_frames() const { return swapped_marker_frames_; }

  /// The sensor readings of the last record() call that sampled them.
  const SensorReadings& latest() const { return latest_; }

  /// Closes the files. Returns the stream descriptions for dataset.json (file, rate, channels).
  std::vector<std::pair<std::string, std::pair<std::string, double>>> finish();

  double max_consistency_error() const { return max_consistency_error_; }
  long truth_rows() const { return truth_ ? truth_->rows() : 0; }
  /// Resets the sampling clocks (call when a new recording window starts after a gap).
  void restart_clocks(double time);

 private:
  struct Stream {
    std::string name;
    std::unique_ptr<CsvStreamWriter> writer;
    double rate_hz = 0.0;
    double next_time = 0.0;
  };
  bool due(Stream& s, double time, double dt);
  void write_truth(const Simulation& sim, const VectorX& tau);
  void accumulate_plates(const Simulation& sim);
  void step_dead_bands(const Simulation& sim);

  std::string out_dir_;
  const Model& model_;
  const RobotSidecar& sidecar_;
  SceneSpec scene_;
  SensorNoise noise_;
  std::mt19937 rng_;
  std::normal_distribution<double> gauss_{0.0, 1.0};
  std::uniform_real_distribution<double> uniform_{0.0, 1.0};
  Data data_;
  std::vector<Stream> streams_;
  CsvStreamWriter* truth_ = nullptr;
  Vector3 gyro_bias_ = Vector3::Zero(), accel_bias_ = Vector3::Zero();
  /// Accelerometers (IMU first, then the sidecar's) of an IMU stream slower than the simulation
  /// step: world velocity of each after the step of the previous IMU sample [m/s] and that sample's
  /// time [s] (NaN before the first), for the mean specific force over the period.
  std::vector<Vector3> accel_prev_velocity_;
  double accel_prev_time_ = std::numeric_limits<double>::quiet_NaN();
  /// Per plate: sum of the wrenches (plate axes and point, as Simulation::plate_wrenches) over the
  /// `plate_steps_` simulation steps since the previous plate sample; the last one at
  /// `plate_last_step_time_` [s].
  std::vector<Vector6> plate_sum_;
  int plate_steps_ = 0;
  double plate_last_step_time_ = 0.0;
  std::vector<int> joint_bodies_;
  std::optional<MarkerPerturbation> markers_perturbation_;
  std::unique_ptr<MarkerGaps> marker_gaps_;
  long swapped_marker_frames_ = 0;
  std::vector<PlateError> plate_errors_;     ///< empty: ideal plates
  std::vector<FtError> ft_errors_;           ///< empty: ideal F/T sensors
  std::vector<double> encoder_compliance_;   ///< per body [rad/(N m)]; empty: rigid joints
  std::vector<GearDeadBand> dead_bands_;     ///< per joint_bodies_ entry; empty: no backlash
  double dead_band_time_ = -1e300;           ///< [s] simulation time of the dead bands' last step
  std::unique_ptr<ImuReading> imu_reading_;  ///< null: the IMU as the sidecar says
  double imu_prev_time_ = 0.0;
  std::vector<Vector3> marker_positions_;      ///< scratch: one frame of true marker positions
  std::map<std::string, StreamClock> clocks_;  ///< per stream name: its clock (none: the simulation's)
  std::vector<int> torque_sensor_velocity_;    ///< velocity index of each sidecar joint torque sensor
  std::vector<double> torque_sensor_offset_;   ///< [N m] per sensor, constant per run
  std::vector<double> torque_sensor_gain_;     ///< reading / true torque per sensor, constant per run
  std::vector<Force> f_ext_body_;
  double max_consistency_error_ = 0.0;
  std::vector<double> row_;
  SensorReadings latest_;
};

}  // namespace dynid
