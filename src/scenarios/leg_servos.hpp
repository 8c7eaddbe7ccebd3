#pragma once
// Private to the walk scenario (src/scenarios/scenario_walk.cpp): `--servo-control`, paper 002's
// walking comparison (sec. 5.2, docs/actuators.md). The leg joints are driven by position servos
// simulated with paper 002's DC motor + gear friction model (locomotion/servo_model.hpp) instead of
// the stiff PD servos: MX-106 servos (ServoParameters' defaults, the datasheet of the bundled
// servo_bench) whose true values differ from the datasheet as make_true_servo makes them, seeded
// like `dynid identify actuator --seed`, so the model that command identifies is a model of these
// servos. Each runs its firmware's P controller at 1 kHz on the command it received one dead time
// earlier; the controller either sends the walking reference (P only) or adds the feed-forward
// offset of eq. (19) from an actuator model (the identified one, else the datasheet's).

#include <deque>
#include <string>
#include <vector>

#include "dynid/locomotion/servo_feedforward.hpp"
#include "dynid/locomotion/servo_model.hpp"
#include "dynid/model/model.hpp"
#include "dynid/model/sidecar.hpp"

namespace dynid::scenario_detail {

/// P-gain register of k_P = 1.0: see leg_servos.cpp.
double full_gain_register();

/// The actuator model of each leg joint from an actuators file's entries: an entry with the joint's
/// name, or, when the file has exactly one entry, that entry for every leg joint (one servo type,
/// identified once, as paper 002 does). Throws naming the file and the first leg joint without a
/// model. Order as `leg_joint_names`.
std::vector<ActuatorModel> leg_actuator_models(const std::vector<ActuatorInfo>& entries, const std::string& file,
                                               const std::vector<std::string>& leg_joint_names);

/// The actuator model of a servo's datasheet (Stribeck exponent 1, no reaction time).
ActuatorModel datasheet_model(const ServoParameters& datasheet);

class LegServos {
 public:
  /// `leg`: per body (Model::bodies index), whether its joint is a leg joint. `models`: the
  /// feed-forward model per leg joint in body order (empty: the datasheet's). `timestep`: the servo
  /// period [s] (the physics step). `k_p`: the normalised P gain (register k_p * full_gain_register()).
  LegServos(const Model& model, const std::vector<bool>& leg, ServoControl control, double k_p,
            const std::vector<ActuatorModel>& models, unsigned seed, double timestep);

  ServoControl control() const { return control_; }
  double k_p() const { return p_gain_ / full_gain_register(); }
  /// Reaction time of the feed-forward model [s] (the largest over the joints).
  double reaction_time_s() const;
  const ServoParameters& true_parameters() const { return true_params_; }
  double dead_time_s() const { return dead_time_s_; }
  double p_gain_register() const { return p_gain_; }

  /// What the controller sends at a bus period: `q_cmd` for every leg joint, plus, with
  /// feed-forward, the offset of eq. (19) for joint torques `tau` (nv) at the motion `v`, `a` (nv,
  /// the reference one reaction time ahead). Uses the supply voltage each servo last reported.
  void send(const VectorX& q_cmd, const VectorX& v, const VectorX& a, const VectorX& tau);

  /// One servo period: the leg entries of `tau` (nv) become the servos' joint torques for the true
  /// joint state `q`, `v`. While `measuring`, accumulates energy and the error to `q_target`.
  void apply(const VectorX& q, const VectorX& v, const VectorX& q_target, VectorX& tau);

  bool measuring = false;

  /// The leg joints, in body order.
  std::vector<std::string> joint_names() const;

  /// Electrical energy of the motor of `joint` while measuring, the integral of U I dt (terminal
  /// voltage times winding current: what the supply delivers through an ideal H-bridge, energy the
  /// motor generates while braking returned to it) [J]. Throws for a joint that is not a leg joint.
  double energy_j(const std::string& joint) const;
  /// The same counted as a driver that returns nothing: the integral of max(U I, 0) dt [J].
  double no_regeneration_energy_j(const std::string& joint) const;
  /// The integral of U_bat |I| dt [J]: the servo's current sensor times its supply voltage, what a
  /// user logging the MX-106's current register gets (counts the PWM's off-time as drawn).
  double supply_energy_j(const std::string& joint) const;
  double total_energy_j() const;
  /// RMS of the true joint position minus the target over the leg joints and servo periods [rad].
  double tracking_rms_rad() const;
  double tracking_rms_rad(const std::string& joint) const;
  /// |I| of the servo of `joint` at every servo period while measuring [A] (the current spikes at
  /// touch-down paper 002 names as a cause of its energy saving).
  const std::vector<double>& current_history_a(const std::string& joint) const;

 private:
  struct Joint {
    std::string name;
    int idx_q = 0, idx_v = 0;
    ActuatorModel model;
    std::deque<double> in_flight;  ///< commands on the bus, oldest first (one dead time long)
    double sent = 0.0;             ///< the command sent at the last bus period
    double last_current_a = 0.0;
    double reported_supply_v = 0.0;  ///< the supply register (0.1 V steps) at the last period
    double energy_j = 0.0, no_regeneration_energy_j = 0.0, supply_energy_j = 0.0, squared_error = 0.0;
    std::vector<double> abs_current_a;  ///< per servo period while measuring
  };
  const Joint& joint(const std::string& name) const;

  ServoControl control_;
  ServoParameters true_params_;
  double dead_time_s_ = 0.0, supply_resistance_ohm_ = 0.0, p_gain_ = 0.0;
  ServoModel servo_;
  double timestep_;
  bool primed_ = false;
  std::vector<Joint> joints_;
  long samples_ = 0;
};

}  // namespace dynid::scenario_detail
