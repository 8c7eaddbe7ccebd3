#pragma once
// `dynid identify inertial` as library calls: a data set and a sensor set in, identified inertial
// parameters, their validation on held-out motion and the output files out (docs/identification.md).
// Each stage is a function over the objects the previous one returned, so a script can stop, look
// or substitute anywhere; run_inertial_identification chains them as the command does:
//
//   prepare_inertial_identification   robot, locks, data sets, sensor set, base parameters, windows
//     -> estimate_inertial_parameters  one pass: rows per sample (sensor set, weights) into streaming
//                                      least squares on the base parameters (+ prior, offsets)
//     -> identified_parameters         standard parameters (closest to the nominal model, or the
//                                      physically consistent fit), offsets, identified model
//     -> load_truth_model / compare_with_truth   (simulation only)
//     -> validate_identification       held-out motion: nominal vs identified (vs true) residuals
//     -> inertial_summary_json, write_inertial_identification   summary.json, URDF, report.html

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dynid/data/mocap_source.hpp"
#include "dynid/data/parallel_filter.hpp"
#include "dynid/data/sensor_source.hpp"
#include "dynid/data/time_alignment.hpp"
#include "dynid/ident/base_parameters.hpp"
#include "dynid/ident/cad_prior.hpp"
#include "dynid/ident/joint_friction.hpp"
#include "dynid/ident/physical_consistency.hpp"
#include "dynid/ident/residual_weighting.hpp"
#include "dynid/ident/sensor_projection.hpp"
#include "dynid/ident/streaming_least_squares.hpp"
#include "dynid/model/lock_joints.hpp"
#include "dynid/model/robot.hpp"
#include "dynid/pipeline/unexplained_residual.hpp"
#include "dynid/pipeline/user_terms.hpp"

namespace dynid {

struct InertialIdentificationOptions {
  std::string model;  ///< URDF path or bundled robot name (its sidecar is required)
  /// The model's root is fixed to the world whatever the URDF and sidecar say; without a sidecar,
  /// one with every joint's torque measured and no contacts is assumed.
  bool fixed_base = false;
  std::string data;                 ///< data set directory (training; also validation by default)
  std::string sensors = "contact";  ///< sensor set: full | contact | joints | comma-separated names
  /// "sensors" (what the robot measures: the default, what a real robot has), "mocap" (markers for
  /// the base, encoders or markers for the joints, force plates for the contact wrenches) or "truth"
  /// (oracle: the simulator's noise-free stream; only simulated data sets have it)
  std::string source = "sensors";
  std::string validate;           ///< data set for validation; empty = hold out the end of `data`
  double holdout_fraction = 0.3;  ///< held-out share at the end of `data` when `validate` is empty
  /// Held out instead of the last `holdout_fraction` (`--validate-window`): a time window of `data`,
  /// "FROM:TO" in seconds of the data set's time, or the label of one of its segments (dataset.json
  /// `segments`). Training is the rest of `data`, before and after it. Not with `validate`.
  std::string validation_window;
  std::vector<JointLock> locks;
  /// Also lock every joint off the legs (the chains from the sidecar contacts to the base) at its
  /// neutral value: the robot of `dynid simulate --scenario walk --lock-upper-body`.
  bool lock_upper_body = false;
  std::string truth_urdf;               ///< compare with this model's base parameters (simulation truth)
  bool consistent = false;              ///< physically consistent estimate (pseudo-inertia LMI fit)
  ConsistentFitOptions consistent_fit;  ///< its prior weight and iterations
  /// Weight of an isotropic pull toward the nominal base parameters (relative to the data's mean
  /// information per parameter). Unset (the default, `--prior auto`): the CAD prior with its weight
  /// from the data (ident/cad_prior.hpp), so that what the motion does not determine stays at CAD;
  /// none for the exact truth stream.
  std::optional<double> prior;
  /// The CAD prior's standard deviations as a fraction of each body's scale (ident/cad_prior.hpp):
  /// where it starts; with `learn_cad_prior_scale` the data then set one fraction per class of
  /// parameter (mass, first moment, diagonal inertia, products of inertia).
  double cad_prior_fraction = 0.3;
  bool learn_cad_prior_scale = true;
  /// Where the CAD prior's standard deviations are independent (`--prior-frame origin|com`): the
  /// standard parameters (the default), or each body's mass, COM and inertia about the COM (the
  /// demo's: better where the data path is clean, worse where it biases masses or COMs,
  /// docs/identification.md, "Why the COM frame").
  CadPriorCoordinates cad_prior_coordinates = CadPriorCoordinates::Origin;
  /// With the CAD prior: the base parameters it marks "kept at CAD" (determination <= 0.25) are set
  /// to their CAD values and the rest re-estimated given them (`--keep-at-cad`,
  /// keep_undetermined_at_prior in ident/cad_prior.hpp).
  bool keep_at_cad = false;
  /// With keep_at_cad: the determination at or below which a base parameter is held (`--keep-below`;
  /// 0.25 is what the report calls "kept at CAD").
  double keep_below = 0.25;
  /// Length of the contiguous blocks of training samples whose scores estimate the data's weight [s].
  double cad_prior_block_s = 0.5;
  /// Row weights: "sensors" (1 / sigma^2 of the measured forces' noise) or "residual" (those, each
  /// equation group further scaled by its own residual variance: ident/residual_weighting.hpp).
  std::string weighting = "sensors";
  /// Also estimate a constant offset of each joint torque sensor the set uses (docs/identification.md).
  bool torque_offsets = false;
  /// Also estimate the gain of each joint torque sensor the set uses (the sensor reads g times the
  /// joint torque): needs measured contact wrenches, which fix the scale the gains share with the
  /// inertial parameters (docs/identification.md, "Joint torque sensor gains").
  bool torque_gains = false;
  /// The joint torque sensors' gain accuracy (a fraction, 1 sigma; 0: not counted), not estimated:
  /// what such gain errors do to the estimate is added to every unknown's standard deviation
  /// (docs/identification.md, "Joint torque sensor gains"). Not with torque_gains.
  double torque_gain_std = 0.0;
  /// Also estimate a calibration correction of each measured contact wrench's sensor: f = (I + E) f_m
  /// with E's force block (3 x 3) and moment block (3 x 3) in the sensor's frame, each entry under a
  /// prior N(0, ft_calibration_std^2) (a six-axis sensor's accuracy class). Needs the CAD prior.
  /// Their common scale and the masses read the same data: give `total_mass_kg` (docs/identification.md,
  /// "F/T calibration and a weighed total mass").
  bool ft_calibration = false;
  double ft_calibration_std = 0.02;
  /// The robot's total mass weighed on a scale [kg] (0: not given), with its standard deviation
  /// [kg] (0: 0.1 % of it): one more equation, sum of the masses = total_mass_kg.
  double total_mass_kg = 0.0;
  double total_mass_std_kg = 0.0;
  /// The gears' wind-up behind the encoders, taken off them (data/gear_windup.hpp): per joint its
  /// torsional stiffness [N m per rad] (a catalogue's or a bench's), and for the joints not named
  /// there, when > 0, the twist every gear of the robot shows at its joint's effort limit [deg]
  /// (one gear class). The link torques come from the first fit's model; the fit is made again on
  /// the corrected encoders, and the validation reads its encoders corrected by the identified
  /// model's. Sensor path, every contact measured (docs/identification.md, "Gear wind-up").
  std::map<std::string, double> gear_stiffness;
  /// Also each sidecar actuator's `torsional_stiffness` (for the joints `gear_stiffness` does not name).
  bool gear_stiffness_from_sidecar = false;
  double gear_windup_deg = 0.0;
  /// The low-pass of the link torques the correction uses [Hz] (data/gear_windup.hpp).
  double gear_windup_torque_cutoff_hz = 3.0;
  /// The gears' play [deg, total, joint side] as a motor-side encoder sees it, taken off the
  /// encoders at every moving joint with the same predicted link torques (data/gear_windup.hpp); the
  /// crossing against each sidecar actuator's armature and damping (instant without). 0: none.
  double gear_backlash_deg = 0.0;
  /// Each sidecar actuator's `backlash` instead, for the joints that have one (the others: none).
  bool gear_backlash_from_sidecar = false;
  /// Names `data` and `validate` as the user gave them in the outputs (summary.json, the report,
  /// the result's descriptions) when they are a lab trial imported into a temporary data set:
  /// text -> text with the temporary path replaced (DatasetOrMocapFile::in_user_terms). Empty: as is.
  UserTerms user_terms;
  /// Joint friction and drive unknowns per joint with a torque sensor in the set
  /// (ident/joint_friction.hpp): `friction` "viscous,coulomb,offset" (any subset of viscous,
  /// coulomb, coulomb-asymmetric, offset, armature; empty: none), `armature` the reflected rotor
  /// inertia, `coulomb_smoothing_velocity` v_s of tanh(qd / v_s) [rad/s].
  std::string friction;
  bool armature = false;
  /// Per joint (`--friction-joint JOINT=TERMS`, repeatable): that joint's terms, the same list as
  /// `friction` ("none": no term), replacing `friction` and `armature` for it.
  std::map<std::string, std::string> friction_joints;
  double coulomb_smoothing_velocity = 0.02;
  std::string fix_mass_com;            ///< URDF whose masses and first moments are kept (two-phase mode)
  SensorSourceOptions sensor_options;  ///< of "sensors"
  /// Sensor path: estimate each stream's clock offset against the encoders (data/time_alignment.hpp)
  /// and apply the offsets that exceed half an encoder period (`--align-time`). Off (the default):
  /// every stream as stamped; the estimate's own bias (0.1-1.7 ms on the bundled robots,
  /// docs/identification.md) is larger than a shared clock's error.
  bool align_time = false;
  /// Sensor path: calibrate the base IMU from the windows where the robot holds still
  /// (data/imu_still_calibration.hpp, `--imu-calibration`): the gyro bias from those windows instead
  /// of the mean against the whole motion's kinematic rate (which absorbs the feet's roll and slip),
  /// and the sensor's axes when the windows' attitudes fix them; the accelerometer's bias stays the
  /// whole motion's mean (it also carries the kinematic attitude's mean error, which the equations
  /// need). The training data give the axes; a separate validation data set its own gyro bias.
  /// Refused when the training data never hold still.
  bool imu_calibration = false;
  ImuCalibrationOptions imu_calibration_options;
  /// With `imu_calibration`: the sensor's axes from an earlier run's summary.json (its
  /// imu_calibration, calibrated on tilted still poses, say) instead of from these data, which then
  /// give the biases only (`--imu-axes SUMMARY`).
  std::string imu_axes_from;
  /// With `align_time`: also estimate each stream's clock drift (`--align-drift`; the lags of
  /// windows along the recording, a line through them) and read the stream on that clock. Off by
  /// default: on the bundled walks the windows' lags scatter by about a millisecond with the
  /// motion, tens of ppm over a 30 s recording (docs/identification.md, "Time alignment").
  bool align_drift = false;
  /// With `align_time`: refine the kinematic estimate of each stream's offset to the minimum of the
  /// training fit's residual (refine_stream_clocks; off: `--align-kinematics-only`). The kinematic
  /// comparison uses the nominal geometry and the encoders as read, which machining tolerances and
  /// the gears' wind-up bias by 2-15 ms on the kid walk; the fit's residual is lowest at the true
  /// offsets (docs/identification.md, "Time alignment").
  bool align_time_by_fit = true;
  /// The clocks of a separate `validate` data set: "estimate" (the default: its own, from the
  /// kinematics as `align_time` estimates them, or the --time-offset given) or "training" (the
  /// training data's, as given or estimated and refined: the same devices with the same offsets,
  /// when those are transport latencies rather than each recording's start; `--validate-clocks`).
  /// A slow validation motion such as the kid's trunk bending is no signal for a clock of its own.
  std::string validate_clocks = "estimate";
  /// Sensor path: given clock offsets per stream [s] (`--time-offset STREAM=S`), used instead of
  /// the estimate for that stream (stream stamp minus robot time).
  std::map<std::string, double> time_offsets;
  /// Gautier's parallel filter on the training equations (data/parallel_filter.hpp): both sides
  /// low-passed at `cutoff_hz` and decimated, for the "sensors" and "truth" sources; cutoff_hz 0
  /// (the default): off, the equations of every sample as the source gives them.
  ParallelFilterOptions parallel_filter = {.cutoff_hz = 0.0};
  /// The parallel filter also on rows whose weights change from sample to sample (measured contact
  /// wrenches: their noise map follows the posture; IMU noise through the mass matrix), each
  /// sample's rows whitened by their own weights first. Off (the default), such rows reach the fit
  /// decimated but unfiltered (`--parallel-filter-all-rows`; docs/identification.md, "Parallel
  /// filtering": it helps biped16's paper-004 set and not yet the kid walk).
  bool parallel_filter_all_rows = false;
  MocapSourceOptions mocap_options;  ///< of "mocap"
  std::string out_dir;               ///< where to write the outputs; empty = write nothing
  /// Progress (fraction 0..1, what is being done); may be empty.
  std::function<void(double, const std::string&)> progress;
};

/// The parallel filter as a run used it: its cut-off, decimation, and the training samples before
/// and after it (samples with rows it cannot filter, see ParallelRowFilter, pass around it).
struct ParallelFilterUse {
  double cutoff_hz = 0.0;
  int decimation = 1;
  long samples_in = 0, samples_out = 0;
  long runs = 0;  ///< runs of samples filtered together (as many as samples_in: nothing was filtered)
  /// ParallelRowFilter::standard_deviation_factor: applied to the least-squares standard
  /// deviations (not to the CAD prior's posterior, whose data weight comes from the blocks' spread).
  double standard_deviation_factor = 1.0;
};

/// RMS of the equation residuals Y pi - f on the validation motion (paper 004 fig. 6).
struct ValidationRms {
  double force = 0.0;            ///< base force [N] (norm of the 3-vector, RMS over samples)
  double moment = 0.0;           ///< base moment [N m]
  std::optional<double> torque;  ///< joint torques [N m] (RMS over joints and samples), when measured
  /// Projected generalized force (paper 004 fig. 5-6): the residual in the null space of the contact
  /// Jacobians, V_c^T (Y pi - S^T tau) with V_c^T J_c^T = 0 (the rows `--sensors joints` fits; the
  /// contact forces drop out). RMS over its components and samples; mixed units (N m for joint
  /// directions, N and N m combinations on the base), basis independent. When every joint torque is
  /// measured.
  std::optional<double> projected;
  /// Per generalized coordinate (nv; the base's rows stay empty): the RMS of that joint's torque
  /// residual over the samples where it is measured.
  std::vector<std::optional<double>> per_coordinate;
};

/// Time series of the validation motion (decimated to at most ~2000 points) for the report.
struct ValidationSeries {
  std::vector<double> time;
  std::vector<Vector6> measured_wrench, nominal_wrench, identified_wrench;  ///< base frame, about its origin
  std::vector<std::string> torque_joints;                                   ///< plotted joints
  std::vector<std::vector<double>> measured_torque, nominal_torque, identified_torque;  ///< [joint][sample]
};

/// The isotropic prior weight `--source mocap` used before the CAD prior (3e-4; 0 otherwise), kept
/// for `--prior` comparisons in docs/identification.md. The motion-capture
/// path's wrenches and motion carry systematic errors (markers differentiated twice, motion
/// low-passed at 4 Hz) far above the plates' noise class that weights its rows; unregularised, least
/// squares fits them into the combinations a squat hardly excites (realistic adult squat: held-out
/// base moment 1.64 N m against the true model's 0.20 N m; 0.20 N m with the prior,
/// docs/identification.md).
double default_prior(const std::string& source);

/// An estimated joint torque sensor offset: the sensor reads the joint torque plus `value`.
struct TorqueOffset {
  std::string joint;
  int velocity_index = 0;
  double value = 0.0;  ///< [N m] (or N)
  double std = 0.0;    ///< its standard deviation
};

/// An estimated joint torque sensor gain: the sensor reads `value` times the joint torque (plus its
/// offset, with `torque_offsets`: value x (torque + offset)).
struct TorqueGain {
  std::string joint;
  int velocity_index = 0;
  double value = 1.0;  ///< [-]
  double std = 0.0;    ///< its standard deviation
};

/// An estimated joint friction or drive term (ident/joint_friction.hpp), or one grouped with the
/// base parameters (then not estimated: `grouped_with` names the base parameter that carries it).
struct JointFrictionTerm {
  std::string joint, term;
  int velocity_index = 0;
  double value = 0.0;  ///< [N m s/rad], [N m], [N m] or [kg m^2] (prismatic: N s/m, N, N, kg); NaN when grouped
  double std = 0.0;
  std::optional<double> truth;  ///< with a truth model whose sidecar states it
  std::string grouped_with;
  /// With `consistent`: held at zero by its sign constraint (viscous, Coulomb, armature >= 0).
  bool at_bound = false;
};

/// A stream's clock as the identification used it.
struct AppliedStreamClock {
  StreamAlignment estimate;  ///< the estimate (or the given offset: `given`)
  bool given = false;        ///< from --time-offset
  bool applied = false;      ///< the sensor path read the stream on this clock
  /// The offset refined to the minimum of the training fit's residual (refine_stream_clocks).
  struct FitRefinement {
    double kinematic_offset_s = 0.0;      ///< the kinematic estimate it started from
    double residual_rms_kinematic = 0.0;  ///< the fit's weighted residual RMS there
    double residual_rms_refined = 0.0;    ///< and at the refined offsets
    int fits = 0;                         ///< identification fits the search ran
    bool converged = false;
    std::string warning;  ///< why the search stopped early (the offset is still the lowest found)
  };
  std::optional<FitRefinement> refined;
};

/// One class of base parameter against the truth: how many the identification put closer to it than
/// CAD's value, farther, or as far (within 1e-6 of CAD's error).
struct ParameterCountsVsNominal {
  std::string label;
  int closer = 0, farther = 0, as_cad = 0;
};

struct InertialIdentificationResult {
  BaseParameters base;
  std::string source_description;
  std::string sensors;
  std::string validation_data;  ///< the held-out motion: the `--validate` data set or "last 30 % of DATA"
  long samples = 0;             ///< training samples
  long validation_samples = 0;
  VectorX base_values, base_std, base_nominal;  ///< identified, standard deviation, nominal model's
  std::optional<VectorX> base_truth;
  VectorX standard_parameters;  ///< identified standard parameters (10 per moving body)
  Model identified_model;       ///< nominal (locked) model with the identified inertias
  double condition_number = 0.0;
  double residual_rms_weighted = 0.0;  ///< RMS of the weighted least-squares residual
  double total_mass = 0.0, nominal_total_mass = 0.0;
  std::optional<double> truth_total_mass;
  bool physically_consistent = false;
  std::optional<ConsistentFit> consistent_fit;       ///< with `consistent`: convergence and costs
  std::vector<EquationGroupScale> weighting_scales;  ///< with residual weighting: each equation group's scale
  std::vector<std::string> inconsistent_links;       ///< "link: reason" of the identified model
  ValidationRms nominal_rms, identified_rms;
  /// With a truth URDF: the true model's residuals on the same validation samples, the floor the
  /// data's own errors (sensor noise, filtering, estimated base motion) leave to any identification.
  std::optional<ValidationRms> truth_rms;
  std::optional<double> base_param_max_rel_error, total_mass_error;
  ValidationSeries series;
  double prior = 0.0;  ///< the prior weight used
  /// Row types (base force, base moment, joint torque) on which the identified model validates worse
  /// than the nominal one, each a sentence with both RMS values: the data do not support the fit there.
  std::vector<std::string> warnings;
  /// What the input checks found in the data set and the model (data/input_checks.hpp): named
  /// warnings ("time gap: ...", "joint never moves: ...", "another robot: ...", "model: ...").
  std::vector<std::string> input_warnings;
  std::vector<TorqueOffset> torque_offsets;  ///< with `torque_offsets`
  std::vector<TorqueGain> torque_gains;      ///< with `torque_gains`
  /// With options.torque_gain_std: each base parameter's standard deviation from the joint torque
  /// sensors' gain errors alone (part of base_std); empty otherwise.
  VectorX base_std_from_torque_gains;
  double torque_gain_std = 0.0;  ///< the gain accuracy counted (options.torque_gain_std), 0: none
  /// What writing the identified model into the user's URDF changes, one line each (summary.json
  /// identified_urdf.changes).
  std::vector<std::string> identified_urdf_changes;
  /// With `ft_calibration`: per measured contact, its F/T sensor's corrections f = (I + E) f_m in the
  /// sensor's frame as matrices I + E (force, moment; rows) and each entry's standard deviation.
  struct WrenchCalibration {
    std::string contact;
    std::string sensor;  ///< the sidecar's F/T sensor on the contact's link (the contact's name without one)
    Matrix3 force = Matrix3::Identity(), moment = Matrix3::Identity();
    Matrix3 force_std = Matrix3::Zero(), moment_std = Matrix3::Zero();
  };
  std::vector<WrenchCalibration> ft_calibration;
  /// With `imu_calibration`: the base IMU's calibration as applied, on the training data and on a
  /// separate validation data set.
  std::optional<ImuCalibration> imu_calibration, validation_imu_calibration;
  double ft_calibration_prior_std = 0.0;                ///< the prior's standard deviation per entry
  double total_mass_kg = 0.0, total_mass_std_kg = 0.0;  ///< as weighed (0: not given)
  /// With a gear wind-up correction: per corrected joint, its stiffness, where it came from
  /// ("--gear-stiffness" or "--gear-windup"), and the largest and RMS twist taken off its training
  /// encoders [rad].
  struct GearWindupCorrection {
    std::string joint, from;
    double stiffness = 0.0;  ///< [N m per rad]
    double max_twist = 0.0, rms_twist = 0.0;
  };
  std::vector<GearWindupCorrection> gear_windup;
  /// With options.gear_backlash_deg: the play taken off [deg], and the share of the training
  /// samples at which the predicted rotor was crossing it (between the flanks), over all joints.
  double gear_backlash_deg = 0.0;
  double gear_play_crossing_fraction = 0.0;
  /// Per joint whose play was taken off: the play [deg] (its sidecar's with gear_backlash_from_sidecar).
  std::vector<std::pair<std::string, double>> gear_plays_deg;
  std::vector<JointFrictionTerm> friction;  ///< with `friction` / `armature`
  /// With a truth model whose sidecar has the friction: max over the estimated terms of
  /// |identified - truth| / max(|truth|, 1 % of the largest truth of the same term).
  std::optional<double> friction_max_rel_error;
  /// With friction: the same least squares without the friction columns (solved from the folded
  /// factor, no second pass), its base parameters and torque sensor unknowns (offsets, then gains as
  /// d = 1 - 1/g), and its held-out joint
  /// torque RMS, so a user sees how much the friction terms explain.
  std::optional<VectorX> base_values_without_friction, torque_offsets_without_friction;
  /// With joint torque sensor unknowns (offsets, gains): the folded least squares' rows that carry
  /// them, [R_s | z_s] with R_s over every unknown. With the other unknowns fixed at another model's
  /// values they give that model's own best calibration of the sensors (compare_with_truth).
  MatrixX sensor_factor_rows;
  VectorX sensor_factor_rhs;
  /// With a truth URDF and torque sensor unknowns: the sensors' offsets and d = 1 - 1/g fitted for
  /// the true model on the training rows, which the true model's held-out residuals use. The
  /// calibration belongs to the sensors; each model is read through the one that suits it best.
  std::optional<VectorX> truth_sensor_calibration;
  std::optional<double> torque_rms_without_friction;
  std::optional<ValidationRms> without_friction_rms;  ///< with friction: every RMS of that fit
  /// With the CAD prior: c (the equations' error in units of their sensors' noise, squared), and per
  /// inertial unknown (base parameter, or free standard parameter in two-phase mode) its prior
  /// standard deviation and how much of its prior variance the data removed (0 kept at CAD .. 1
  /// determined by the motion).
  std::optional<double> cad_data_scale;
  int held_at_cad = 0;       ///< base parameters set to their CAD value (options.keep_at_cad)
  double held_below = 0.25;  ///< their determination was at most this (options.keep_below)
  /// The training equations' residual against what their sensors' noise alone would leave.
  UnexplainedResidual unexplained;
  /// With a learned CAD prior scale: the fraction of each class (ident/cad_prior.hpp).
  std::optional<std::array<double, kCadParameterClasses>> cad_prior_fractions;
  /// What the data asked for per class in the last step, before the ceiling (options.cad_prior_fraction).
  std::optional<std::array<double, kCadParameterClasses>> cad_prior_wanted_fractions;
  /// A class whose wanted fraction exceeds the ceiling, and the prior coordinates that moved most:
  /// name (cad_prior_coordinate_name) and move in the body's own scale (root of E[dp^2] / s^2).
  struct PriorCeiling {
    CadParameterClass parameter_class = CadParameterClass::Mass;
    double wanted = 0.0;
    std::vector<std::pair<std::string, double>> largest_moves;
  };
  std::vector<PriorCeiling> cad_prior_above_ceiling;
  CadPriorCoordinates cad_prior_coordinates = CadPriorCoordinates::Origin;  ///< where the fractions apply
  /// Noise in the accelerations the data path derived (the IMU's through its filters), as it reaches
  /// the rows: the base's linear [m/s^2] and angular [rad/s^2] acceleration, and whether the fit took
  /// its bias off the normal equations (with the CAD prior), in how many directions capped.
  struct AccelerationNoiseUse {
    double base_linear = 0.0, base_angular = 0.0;
    double gyro_noise_density = 0.0, accelerometer_noise_density = 0.0;  ///< [rad/s/sqrt(Hz)], [m/s^2/sqrt(Hz)]
    bool densities_from_data = false;
    bool bias_removed = false;
    int capped_directions = 0;
  };
  std::optional<AccelerationNoiseUse> acceleration_noise;
  std::optional<ParallelFilterUse> parallel_filter;  ///< when the training equations were filtered
  /// Sensor path: each aligned stream's clock on the training data (estimated or given), whether
  /// it was applied, and why not.
  std::map<std::string, AppliedStreamClock> time_alignment;
  /// The same for a separate `validate` data set (empty without one).
  std::map<std::string, AppliedStreamClock> validation_time_alignment;
  VectorX prior_std, determination;
  /// With a truth: per class of base parameter (mass, first_moment, inertia, and the inertia's
  /// Ixx_Ixy_Ixz, Iyy_Iyz, Izz), median |identified - truth| / median |nominal - truth|: below 1 the
  /// identified model is closer to the truth than the CAD model.
  std::vector<std::pair<std::string, double>> parameter_error_vs_nominal;
  /// The same over the base parameters this motion determines (CAD prior, determination >= 0.75).
  std::vector<std::pair<std::string, double>> parameter_error_vs_nominal_determined;
  /// With a truth: per class, how many base parameters are closer to it than CAD's, farther, or as
  /// far (held at CAD). summary.json `parameter_closer_than_nominal`.
  std::vector<ParameterCountsVsNominal> parameter_counts_vs_nominal;
  std::string summary_json;
  std::vector<std::string> written_files;
};

/// Everything the estimate needs, loaded and checked: the robot with its locks (the upper body's
/// added when asked), the data sets and their training / validation windows, the sensor set, the
/// base parameters and the unknowns (joint torque sensor offsets first, then the inertial ones).
struct InertialProblem {
  InertialIdentificationOptions options;  ///< as given, with the upper-body locks expanded
  /// The input checks' named warnings on the data sets and the model (data/input_checks.hpp).
  std::vector<std::string> input_warnings;
  Robot robot;  ///< as loaded (no locks)
  Model model;  ///< locked, with the data set's gravity
  DatasetInfo train_set, validation_set;
  TimeWindow train_window, validation_window;
  /// With a validation window inside the data (`validation_window`): the training after it
  /// (`train_window` is then the training before it).
  std::optional<TimeWindow> train_window_after;
  /// Sensor path: the clocks each data set's streams are read on (time alignment).
  std::map<std::string, AppliedStreamClock> train_clocks, validation_clocks;
  /// Sensor path with `imu_calibration`: the base IMU's calibration each data set is read with.
  std::optional<ImuCalibration> train_imu, validation_imu;
  /// The CAD prior held as learned by an earlier estimate (its information on the unknowns and the
  /// data's scale c), instead of learned again: while refine_stream_clocks compares fits, so their
  /// costs differ by the data alone (and each costs one solve, not the prior's learning).
  struct HeldCadPrior {
    MatrixX prior_information;
    double data_scale = 1.0;
  };
  std::optional<HeldCadPrior> held_cad_prior;
  SensorSet set;
  BaseParameters base;
  VectorX pi_nominal;    ///< standard parameters of the nominal (locked) model
  VectorX base_nominal;  ///< its base parameters
  /// Two-phase mode (`fix_mass_com`): the kept masses and first moments (zero elsewhere) and the
  /// indices of the estimated standard parameters.
  std::optional<VectorX> fixed_part;
  std::vector<int> free_params;
  VectorX x_nominal;  ///< nominal value of each inertial unknown (the prior's target)
  /// Unknowns before the inertial ones: torque sensor offsets, torque sensor gains (as
  /// d = 1 - 1/g), then friction.
  int num_offsets = 0;
  int num_torque_offsets = 0;
  int num_torque_gains = 0;
  /// options.torque_gain_std: the gain columns are folded with the others, their unknowns held at 0
  /// (g = 1), so that their information with the rest gives the estimate's sensitivity to them.
  bool torque_gains_held = false;
  int first_friction_unknown() const { return num_torque_offsets + num_torque_gains; }
  /// The contact wrench calibration unknowns (`ft_calibration`), 18 per measured contact, after friction.
  int num_wrench_calibration = 0;
  int first_wrench_calibration_unknown() const { return num_offsets - num_wrench_calibration; }
  /// Sensor path: the gears' wind-up taken off the training and validation encoders (set after the
  /// first estimate, correct_gear_windup).
  std::shared_ptr<const GearWindup> train_gear_windup, validation_gear_windup;
  /// The weighed total mass as a row on the unknowns (zero on the offsets), when given.
  VectorX total_mass_row;
  /// Joint friction and drive unknowns (after the torque offsets), and the terms grouped with the
  /// base parameters (FrictionGrouping), each with its coefficients on the base parameters.
  JointFrictionTerms friction_terms;
  struct FrictionUnknown {
    std::string joint, term;
    int velocity_index = 0;
    int sensor = 0;  ///< index in set.torque_joints: the column of P S^T
  };
  std::vector<FrictionUnknown> friction;
  std::vector<std::pair<FrictionUnknown, VectorX>> grouped_friction;
  std::vector<std::string> unknown_names;  ///< offsets, then the inertial unknowns
  double prior = 0.0;                      ///< the isotropic prior weight used (not with the CAD prior)
  bool cad_prior = false;                  ///< the CAD prior with its weight from the data
  /// Where its standard deviations are independent: the options', Origin in two-phase mode (the
  /// masses and COMs are kept there).
  CadPriorCoordinates cad_coordinates = CadPriorCoordinates::Origin;
  MatrixX cad_jacobian;       ///< d pi / d (prior coordinates) at the nominal model
  VectorX cad_scales;         ///< its standard deviation of each prior coordinate
  MatrixX prior_information;  ///< its information on the unknowns (zero for offsets)
  VectorX prior_mean;         ///< its mean (zero for offsets)

  const RobotSidecar& sidecar() const { return *robot.sidecar; }
  int num_inertial_unknowns() const { return fixed_part ? static_cast<int>(free_params.size()) : base.num_base(); }
};

/// The training pass: the information of every sample (and the prior) folded into least squares.
struct InertialEstimate {
  LeastSquaresSolution solution;  ///< over InertialProblem::unknown_names
  /// The folded least squares: R^T R = A^T W A and ||W^(1/2)(A x - b)||^2 = ||R x - z||^2 + rss.
  MatrixX information_factor;
  VectorX factor_rhs;
  double residual_sum_of_squares = 0.0;
  long rows = 0;
  std::vector<EquationGroupScale> weighting_scales;  ///< with residual weighting
  std::optional<CadPriorFit> cad_prior;              ///< with the CAD prior
  std::vector<Eigen::Index> kept_at_cad;             ///< unknowns set to their CAD value (keep_at_cad)
  /// The CAD prior used: the problem's, or the one with its scale learned from the data.
  VectorX cad_scales;
  MatrixX prior_information;
  std::optional<std::array<double, kCadParameterClasses>> cad_prior_fractions;
  std::optional<std::array<double, kCadParameterClasses>> cad_prior_wanted_fractions;
  std::vector<InertialIdentificationResult::PriorCeiling> cad_prior_above_ceiling;
  std::optional<ParallelFilterUse> parallel_filter;  ///< when the training equations were filtered
  /// With options.torque_gain_std: each unknown's standard deviation from the sensors' gain errors
  /// alone (already in solution.standard_deviation); empty otherwise.
  VectorX torque_gain_std_contribution;
  /// E[dA^T W dA]: what the derived accelerations' noise adds to the data's information (unknowns x
  /// unknowns), taken off before the CAD prior's fit; empty when the source declares no such noise.
  MatrixX errors_in_variables;
  std::optional<InertialIdentificationResult::AccelerationNoiseUse> acceleration_noise;
  /// Sensor path: each aligned stream's clock on the training data (estimated or given), whether
  /// it was applied, and why not.
  std::map<std::string, AppliedStreamClock> time_alignment;
  long samples = 0;
  std::string source_description;
};

/// Stage 1. Throws std::runtime_error / std::invalid_argument with a one-line reason (no sidecar,
/// unknown sensor name, insufficient sensor set, bad option, ...).
InertialProblem prepare_inertial_identification(const InertialIdentificationOptions& options);

/// The problem's samples: its training (or validation) data set through the chosen source, within
/// its windows, or the whole recording.
std::unique_ptr<MotionSource> open_motion_source(const InertialProblem& problem, bool validation,
                                                 bool whole_recording = false);

/// Stage 2: one pass over the training samples (two more merges with residual weighting).
InertialEstimate estimate_inertial_parameters(const InertialProblem& problem);

/// Stage 1b (options.align_time with align_time_by_fit): the estimated streams' clock offsets
/// moved to the minimum of the training fit's weighted residual, searched by successive quadratic
/// fits around their current values (ident/quadratic_search.hpp; each cost one
/// estimate_inertial_parameters). The drift stays as estimated. Without a separate validation
/// data set the held-out window reads the same clocks. Nothing without estimated clocks.
void refine_stream_clocks(InertialProblem& problem);

/// Stage 2b (options.gear_stiffness / gear_windup_deg): the link torques of the first estimate's
/// model along the training data, the training encoders corrected by the gears' wind-up under them
/// (problem.train_gear_windup, result.gear_windup), and the estimate on those encoders.
InertialEstimate correct_gear_windup(InertialProblem& problem, const InertialEstimate& first,
                                     std::vector<InertialIdentificationResult::GearWindupCorrection>& corrections);

/// The same correction for the validation encoders, with the identified model's link torques
/// (problem.validation_gear_windup); nothing without a correction.
void correct_validation_gear_windup(InertialProblem& problem, const InertialIdentificationResult& result);

/// Stage 3: base and standard parameters, their standard deviations, the offsets, the identified
/// model and its physical consistency (the validation fields are left empty).
InertialIdentificationResult identified_parameters(const InertialProblem& problem, const InertialEstimate& estimate);

/// The true model of a simulation (`options.truth_urdf`, with the problem's locks), if given.
std::optional<Model> load_truth_model(const InertialProblem& problem);

/// Stage 4 (simulation): base parameters and mass against the true model's.
void compare_with_truth(const InertialProblem& problem, const Model& truth, InertialIdentificationResult& result);

/// Stage 5: residuals of the nominal, identified (and true, when given) models on the held-out
/// motion, the plotted series, and warnings where the identified model validates worse.
void validate_identification(const InertialProblem& problem, const Model* truth, InertialIdentificationResult& result);

/// Stage 6: summary.json's text.
std::string inertial_summary_json(const InertialProblem& problem, const InertialIdentificationResult& result);

/// Stage 7: the identified URDF (when no joint is locked), base_parameters.json/.txt, summary.json
/// (result.summary_json), report.html and, with friction, actuators.yaml in `out_dir`, each written
/// atomically. Returns the paths.
std::vector<std::string> write_inertial_identification(const InertialProblem& problem,
                                                       const InertialIdentificationResult& result,
                                                       const std::string& out_dir);

/// All the stages, as `dynid identify inertial` runs them (writes only when options.out_dir is set).
InertialIdentificationResult run_inertial_identification(const InertialIdentificationOptions& options);

/// Relative errors of identified base parameters against the truth, per parameter, each divided by
/// max(|truth|, 1 % of the largest truth value of the same unit: kg, kg m, kg m^2).
VectorX base_parameter_relative_errors(const BaseParameters& base, const VectorX& identified, const VectorX& truth);

}  // namespace dynid
