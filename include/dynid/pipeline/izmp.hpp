#pragma once
// `dynid izmp`: the imaginary ZMP and the net contact wrench of a walking robot from its on-board
// sensors (paper 001, docs/robust-inverse-dynamics.md). Stages over loaded objects:
//   load_izmp_recording   encoders, IMU gyro and accelerometers, the extra accelerometers, and (in
//                         simulated data sets) the truth stream's base pose and contact wrenches
//   evaluate_izmp         per field-bus sample: MR-AD (moving_reference_dynamics.hpp) or IR-MD
//                         (inertial_reference_momentum.hpp), the NIF from the stance soles, the IZMP
//   izmp_relative_error   the paper's relative error Delta against a reference series
//   izmp_summary_json, write_izmp_outputs   izmp.csv, summary.json, report.html

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "dynid/data/dataset_info.hpp"
#include "dynid/ident/actuator_differentiation.hpp"
#include "dynid/model/robot.hpp"

namespace dynid {

enum class IzmpMethod { MrAd, IrMd };
enum class AngularAccelerationSource { Accelerometers, Gyro };
const char* to_string(IzmpMethod method);                 ///< "mr-ad" | "ir-md"
const char* to_string(AngularAccelerationSource source);  ///< "accelerometers" | "gyro"
IzmpMethod parse_izmp_method(const std::string& text);
AngularAccelerationSource parse_angular_acceleration_source(const std::string& text);

/// Which feet are on the ground (the data set's support segments).
enum class Support { None, Both, Left, Right };
const char* to_string(Support support);

/// One setup: method, rates, signal processing (a row of paper 001's Table 3, plus options).
struct IzmpSettings {
  IzmpMethod method = IzmpMethod::MrAd;
  AngularAccelerationSource angular_acceleration = AngularAccelerationSource::Accelerometers;
  double acd_rate_hz = 0.0;    ///< actuator-controller (and inertial sensor) rate; 0 = the encoders' rate
  double bus_rate_hz = 125.0;  ///< field-bus rate: one IZMP per bus period
  /// Central differences cost one ACD period of delay online; backward is the paper's causal quotient.
  DifferenceScheme differences = DifferenceScheme::Central;
  /// Ground normal in world (--ground-normal, --slope); needs the truth stream's base orientation.
  /// Empty: the stance soles' normal from the joint kinematics (what a robot without a map has).
  std::optional<Vector3> ground_normal_world;
  /// The actuator controllers and the IMU send the mean of their ACD-rate values over the bus
  /// period, centred on the bus sample (their anti-aliasing filter), rather than the last value.
  bool bus_period_mean = false;
  /// Every ACD-rate value (the joints' difference quotients, the inertial sensors, the physical
  /// reference's contact wrench) averaged over this window centred on the bus sample [s]; 0: off.
  /// What a real robot's encoders need: a gear's play crossed in one ACD period is a jump whose second
  /// difference is a spike of acceleration. Costs half the window of delay online.
  double smoothing_window_s = 0.0;
  /// Study only: white noise added to gyro and accelerometers at the encoders' rate (IR-MD: to the
  /// base velocity, with the accelerometer's sigma, as the paper does), sigma = density * sqrt(rate)
  /// (sim/sensor_noise); read at the ACD rate through the filters above.
  bool add_inertial_noise = false;
  unsigned noise_seed = 1;
};

/// The streams of a data set that the IZMP needs, on the encoders' clock.
struct IzmpRecording {
  std::string directory;
  double rate_hz = 0.0;            ///< encoder (= IMU) rate [Hz]
  VectorX time;                    ///< [s]
  MatrixX joints;                  ///< samples x (nv - 6) encoder positions, model order
  MatrixX gyro;                    ///< samples x 3, IMU axes [rad/s]
  MatrixX imu_acc;                 ///< samples x 3, IMU axes, specific force [m/s^2]
  std::vector<MatrixX> extra_acc;  ///< per sidecar accelerometer: samples x 3, its axes
  std::vector<std::string> accelerometer_names;
  std::string imu_name;
  std::vector<Support> support;  ///< per sample
  bool has_truth = false;
  MatrixX base_pose;          ///< truth: samples x 7 (position, quaternion x y z w)
  MatrixX base_velocity;      ///< truth: samples x 6 body twist
  MatrixX base_acceleration;  ///< truth: samples x 6 (d/dt of the body twist)
  MatrixX contact_wrench;     ///< truth: samples x 6, sum over contacts, world axes about the origin
  MatrixX true_joints;        ///< truth: samples x (nv - 6) link-side joint positions, model order
  Vector3 gravity{0.0, 0.0, -9.81};
  /// The soles' F/T sensors (sidecar `ft_sensors:` measuring the external wrench on a sole's link),
  /// read from ft.csv when it is on the encoders' clock: model frame indices and, per sensor,
  /// samples x 6 [force; torque] in the sensor frame about its origin. Empty otherwise, and
  /// `ft_note` says why.
  std::vector<int> ft_frames;
  std::vector<MatrixX> ft_wrenches;
  std::string ft_note;
  int left_sole = -1, right_sole = -1;                       ///< model frame indices of the sole contacts
  std::vector<Eigen::Vector2d> left_polygon, right_polygon;  ///< sole polygons in their sole frames [m]
};

/// Reads DIR's dataset.json, encoders.csv, imu.csv and (when present) truth.csv. Throws one line
/// naming what is missing: a fixed-base model, no IMU or no accelerometers in the sidecar, no soles,
/// a missing stream or channel, streams on different clocks.
IzmpRecording load_izmp_recording(const Robot& robot, const std::string& data_dir, const IzmpSettings& settings);

/// The same recording with ideal signals from the truth stream: the joints' true (link-side)
/// positions, gyro and accelerometers as noise-free sensors at the truth's state would read them
/// (the paper's reference signals).
/// Throws when the recording has no truth stream.
IzmpRecording ideal_recording(const Robot& robot, const IzmpRecording& recording);

/// One IZMP per field-bus sample.
struct IzmpSeries {
  std::vector<double> time;
  std::vector<Support> support;
  std::vector<Vector3> izmp_nif;          ///< [x, y, plane height] in the NIF [m] (NaN: no normal force)
  std::vector<Vector3> izmp_world;        ///< world [m] (NaN without a truth stream)
  std::vector<Vector6> wrench_nif;        ///< contact wrench [force; torque about P], NIF axes
  std::vector<Vector3> physical_zmp_nif;  ///< ZMP of the simulator's contact wrenches, same plane (NaN without truth)
  /// ZMP of the soles' F/T sensors' wrenches, same plane: what a real robot measures (NaN without them)
  std::vector<Vector3> ft_zmp_nif;
  std::vector<Eigen::Vector4d> support_box;  ///< stance soles' extent in the NIF: x min, x max, y min, y max
  std::vector<int>
      inside_support;  ///< 1 IZMP inside the stance polygon (or within 1 mm of its edge), 0 outside, -1 no stance
};

/// Runs the method over the recording. Throws when the rates do not divide one another.
IzmpSeries evaluate_izmp(const Robot& robot, const IzmpRecording& recording, const IzmpSettings& settings,
                         const std::function<void(double)>& progress = {});

/// Paper 001's relative error Delta [%] of the IZMP's NIF y coordinate against `reference` at the
/// common time stamps, over single-support samples (in double support the IZMP crosses y = 0 and the
/// quotient's denominator vanishes) whose reference is at least `min_reference_m` from y = 0 (the
/// IZMP also passes under the pelvis early in single support, where a 1 mm error counts hundreds of
/// per cent). NaN when no sample qualifies.
double izmp_relative_error(const IzmpSeries& series, const IzmpSeries& reference, double min_reference_m = 0.01);

/// RMS distance [mm] between the IZMP and the physical ZMP in the NIF's plane, over the samples
/// with ground contact (NaN without truth).
double physical_zmp_rms_mm(const IzmpSeries& series);

/// RMS distance [mm] in the NIF's plane between two IZMP series at their common time stamps, over
/// the samples `series` has ground contact (NaN: none in common). The IZMP from the recorded
/// sensors against the same method's from ideal signals: what the sensors put into it.
double izmp_distance_rms_mm(const IzmpSeries& series, const IzmpSeries& reference);

/// RMS distance [mm] between the IZMP and the soles' F/T sensors' ZMP in the NIF's plane, over the
/// samples with ground contact (NaN without F/T sensors).
double ft_zmp_rms_mm(const IzmpSeries& series);

/// Share of single-support samples whose IZMP lies inside the stance sole's polygon (NaN: none).
double inside_support_fraction(const IzmpSeries& series);

/// Replaces the robot's inertias by those of another URDF of the same tree (a simulated data set's
/// truth.urdf: the model the simulator ran), so the IZMP's error is the method's alone.
void use_inertias_of(Robot& robot, const std::string& urdf_path);

struct IzmpOptions {
  std::string model, data, out_dir;
  std::string inertia_from;  ///< URDF whose inertias to use (empty: the model's own)
  IzmpSettings settings;
  std::function<void(double, const std::string&)> progress;
};

struct IzmpResult {
  IzmpSeries series, reference;
  nlohmann::json summary;
};

/// The whole command: load, evaluate, the paper's reference (the same method with ideal signals:
/// the truth stream at ACD = bus = 500 Hz when the data set has it), summary. Writes nothing.
IzmpResult run_izmp(const IzmpOptions& options);

/// izmp.csv, summary.json and report.html into out_dir (created), each written atomically.
void write_izmp_outputs(const IzmpResult& result, const std::string& out_dir);

/// The text of izmp.csv (with the reference's IZMP at the common time stamps; empty elsewhere).
std::string izmp_csv(const IzmpSeries& series, const IzmpSeries& reference);
/// report.html: IZMP x and y over time with the stance soles' extent, and in the ground plane with
/// the sole polygons (paper 001 figs. 6, 8 and 11).
std::string izmp_report_html(const IzmpResult& result, const std::string& title);

}  // namespace dynid
