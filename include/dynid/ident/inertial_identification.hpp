#pragma once
// `dynid identify inertial` as a library call: a data set and a sensor set in, identified inertial
// parameters, their validation on held-out motion and the output files out (docs/identification.md).
//
//   data set ──► samples (truth stream or the robot's sensors) ──► rows per sample (sensor set,
//   weights) ──► streaming least squares on the base parameters (+ optional prior) ──► standard
//   parameters (closest to the nominal model, or the physically consistent fit) ──► validation on
//   held-out motion (nominal vs identified) ──► URDF, base parameters, summary.json, report.html

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dynid/data/mocap_source.hpp"
#include "dynid/data/sensor_source.hpp"
#include "dynid/ident/base_parameters.hpp"
#include "dynid/ident/physical_consistency.hpp"
#include "dynid/ident/residual_weighting.hpp"
#include "dynid/model/lock_joints.hpp"

namespace dynid {

struct InertialIdentificationOptions {
  std::string model;                ///< URDF path or bundled robot name (its sidecar is required)
  std::string data;                 ///< data set directory (training; also validation by default)
  std::string sensors = "contact";  ///< sensor set: full | contact | joints | comma-separated names
  /// "truth" (noise-free stream), "sensors" (what the robot measures) or "mocap" (markers for the
  /// base, encoders or markers for the joints, force plates for the contact wrenches)
  std::string source = "truth";
  std::string validate;           ///< data set for validation; empty = hold out the end of `data`
  double holdout_fraction = 0.3;  ///< held-out share at the end of `data` when `validate` is empty
  std::vector<JointLock> locks;
  /// Also lock every joint off the legs (the chains from the sidecar contacts to the base) at its
  /// neutral value: the robot of `dynid simulate --scenario walk --lock-upper-body`.
  bool lock_upper_body = false;
  std::string truth_urdf;               ///< compare with this model's base parameters (simulation truth)
  bool consistent = false;              ///< physically consistent estimate (pseudo-inertia LMI fit)
  ConsistentFitOptions consistent_fit;  ///< its prior weight and iterations
  /// Weight of the pull toward the nominal base parameters (relative to the data's mean information
  /// per parameter); unset: `default_prior(source)`.
  std::optional<double> prior;
  /// Row weights: "sensors" (1 / sigma^2 of the measured forces' noise) or "residual" (those, each
  /// equation group further scaled by its own residual variance: ident/residual_weighting.hpp).
  std::string weighting = "sensors";
  /// Also estimate a constant offset of each joint torque sensor the set uses (docs/identification.md).
  bool torque_offsets = false;
  std::string fix_mass_com;            ///< URDF whose masses and first moments are kept (two-phase mode)
  SensorSourceOptions sensor_options;  ///< of "sensors"
  MocapSourceOptions mocap_options;    ///< of "mocap"
  std::string out_dir;                 ///< where to write the outputs; empty = write nothing
  /// Progress (fraction 0..1, what is being done); may be empty.
  std::function<void(double, const std::string&)> progress;
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
};

/// Time series of the validation motion (decimated to at most ~2000 points) for the report.
struct ValidationSeries {
  std::vector<double> time;
  std::vector<Vector6> measured_wrench, nominal_wrench, identified_wrench;  ///< base frame, about its origin
  std::vector<std::string> torque_joints;                                   ///< plotted joints
  std::vector<std::vector<double>> measured_torque, nominal_torque, identified_torque;  ///< [joint][sample]
};

/// The prior weight used when none is given: 1e-4 for "mocap", 0 otherwise. The motion-capture
/// path's wrenches and motion carry systematic errors (plates sampling the contact chatter, motion
/// low-passed at 4 Hz) far above the plates' noise class that weights its rows; unregularised, least
/// squares fits them into the combinations a squat hardly excites (adult squat: held-out base moment
/// 2.6 N m against the true model's 0.29 N m; 0.41 N m with the prior, docs/identification.md).
double default_prior(const std::string& source);

/// An estimated joint torque sensor offset: the sensor reads the joint torque plus `value`.
struct TorqueOffset {
  std::string joint;
  int velocity_index = 0;
  double value = 0.0;  ///< [N m] (or N)
  double std = 0.0;    ///< its standard deviation
};

struct InertialIdentificationResult {
  BaseParameters base;
  std::string source_description;
  std::string sensors;
  long samples = 0;  ///< training samples
  long validation_samples = 0;
  VectorX base_values, base_std, base_nominal;  ///< identified, standard deviation, nominal model's
  std::optional<VectorX> base_truth;
  VectorX standard_parameters;  ///< identified standard parameters (10 per moving body)
  Model identified_model;       ///< nominal (locked) model with the identified inertias
  double condition_number = 0.0;
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
  std::vector<TorqueOffset> torque_offsets;  ///< with `torque_offsets`
  std::string summary_json;
  std::vector<std::string> written_files;
};

/// Runs the identification. Throws std::runtime_error / std::invalid_argument with a one-line
/// reason (unknown sensor name, missing channel, insufficient sensor set, ...).
InertialIdentificationResult run_inertial_identification(const InertialIdentificationOptions& options);

/// Relative errors of identified base parameters against the truth, per parameter, each divided by
/// max(|truth|, 1 % of the largest truth value of the same unit: kg, kg m, kg m^2).
VectorX base_parameter_relative_errors(const BaseParameters& base, const VectorX& identified, const VectorX& truth);

}  // namespace dynid
