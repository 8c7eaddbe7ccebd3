#pragma once
// The least-squares fit of paper 002 (eqs. 22-27): the alphas of actuator_model.hpp from trials of a
// position-controlled servo, with the reaction time t_d compensated, and the nonlinear
// hyperparameters (t_d, the Stribeck speed qdot_s and exponent delta) chosen on a small grid by the
// voltage error on held-out samples.
//
// The servo applied U(t) = k_P k_ctrl U_bat(t) (q_d(t - t_d) - q(t)) (eq. 16 with a dead time), so
// the voltage that belongs to the command sent at n is
//   U_hat(n) = k_P k_ctrl U_bat(n + d) (q_d(n) - q(n + d)),  d = round(t_d / dt),
// and the model row is phi(n + d) (eqs. 23-25): U_hat(n) = alpha . phi(n + d).

#include <vector>

#include "dynid/actuator/actuator_model.hpp"

namespace dynid {

/// One trial of one servo on a uniform grid (all vectors the same length).
struct ActuatorTrialSeries {
  double dt_s = 0.001;
  double gain_per_rad = 0.0;         ///< k_P k_ctrl of the trial (servo_gain_per_rad) [1/rad]
  std::vector<double> command_rad;   ///< q_d as sent at each stamp
  std::vector<double> position_rad;  ///< q as the servo measured it
  std::vector<double> supply_v;      ///< U_bat as the servo measured it
  /// The joint's motion and the torque it delivers to the links at each stamp (inverse dynamics of
  /// the links along the reference or the measured motion).
  std::vector<double> tau_o_nm, qdot_rad_s, qddot_rad_s2;
};

struct ActuatorFitOptions {
  std::vector<double> reaction_times_s;     ///< candidates for t_d (default: 0 .. 60 ms every 1 ms)
  std::vector<double> stribeck_velocities;  ///< candidates for qdot_s [rad/s] (default 0.05, 0.1, 0.2, 0.4)
  std::vector<double> stribeck_exponents;   ///< candidates for delta (default 0.5, 0.75, 1)
  bool fit_armature = true;                 ///< estimate a4 (false: a4 = 0, the paper's four terms)
  double sign_velocity_rad_s = 0.0;         ///< sgn(qdot) smoothed as tanh(qdot / this) (0: exact)
  /// Samples slower than this are left out: at rest the friction is whatever holds the joint
  /// (stiction, anywhere within +-tau_s), not a function of the velocity the model could fit.
  double min_speed_rad_s = 0.05;
  /// Samples where U_hat reaches this fraction of the supply are left out: the firmware saturated
  /// there and applied less than the command asked for.
  double max_duty = 0.97;
  int heldout_every = 5;  ///< every k-th block of samples is held out for the choice
  double block_s = 0.5;   ///< block length [s]
  /// Fills the empty candidate lists with the defaults above.
  void complete();
};

/// One grid point: hyperparameters and the held-out RMS voltage error [V].
struct ActuatorGridPoint {
  double reaction_time_s = 0.0, stribeck_velocity = 0.0, stribeck_exponent = 0.0;
  double heldout_rms_v = 0.0;
};

struct ActuatorFit {
  ActuatorModel model;         ///< alphas refitted on all samples at the chosen hyperparameters
  ActuatorAlpha alpha_std{};   ///< standard deviations of the alphas (residual variance x (A^T A)^-1)
  double rms_v = 0.0;          ///< RMS voltage residual on all samples [V]
  double heldout_rms_v = 0.0;  ///< held-out RMS at the chosen point (fit on the rest) [V]
  long rows = 0;
  std::vector<ActuatorGridPoint> grid;  ///< every point tried
};

/// Throws std::invalid_argument naming the problem: no trial, lengths that differ, non-finite
/// samples, a non-positive gain or supply voltage, too few samples for the unknowns.
ActuatorFit fit_actuator(const std::vector<ActuatorTrialSeries>& trials, ActuatorFitOptions options = {});

/// The voltage the servo applied for the command sent at each stamp, U_hat of the header, for
/// reaction-time shift `shift` samples (the last `shift` stamps have none and are left out).
std::vector<double> applied_voltage(const ActuatorTrialSeries& trial, int shift);

}  // namespace dynid
