#pragma once
// Repeated trials on paper 002's single-joint bench (the torso fixed, one leg swinging against
// gravity), simulated by MuJoCo with a TRUE servo that differs from its datasheet the way real
// servos do. What `dynid identify actuator` learns and validates on (docs/actuators.md).

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dynid/locomotion/servo_model.hpp"
#include "dynid/model/robot.hpp"
#include "dynid/sim/true_model.hpp"

namespace dynid {

class Simulation;

/// The servo a bench joint really has: the datasheet (sidecar) values changed, seeded, within
/// what real servos show: friction (Coulomb, static, viscous) 20-60 % above the datasheet, torque
/// constant and winding resistance a few % off, a supply that sags under load (battery and cable
/// resistance), a dead time of one to three 8 ms bus cycles between sending a command and the
/// firmware using it. The encoder stays quantised (12 bit). Backlash is not simulated.
struct TrueServo {
  ServoParameters params;              ///< the servo's own values (friction, k_tau, R, ...)
  double dead_time_s = 0.0;            ///< command -> firmware
  double supply_resistance_ohm = 0.0;  ///< U_bat sags by this times |I|
  /// Each changed value: name, datasheet, true.
  std::vector<std::pair<std::string, std::pair<double, double>>> differences;
};

/// The true servo for a datasheet, seeded.
TrueServo make_true_servo(const ServoParameters& datasheet, unsigned seed);

/// The alphas of the true servo (actuator/actuator_model.hpp), joint side.
ActuatorAlpha true_alpha(const TrueServo& servo);

/// One trial as the servo reports it (one sample per servo period) plus what the simulation knows.
struct ServoTrialRecord {
  double dt_s = 0.001;
  std::vector<double> command_rad;        ///< q_d sent at each stamp
  std::vector<double> position_rad;       ///< the servo's encoder (quantised)
  std::vector<double> supply_v;           ///< supply voltage at the servo
  std::vector<double> voltage_v;          ///< motor voltage the firmware applied
  std::vector<double> current_a;          ///< winding current
  std::vector<double> true_position_rad;  ///< simulation truth
  std::vector<double> true_velocity_rad_s;
  double electrical_energy_j = 0.0;  ///< integral of U_bat |I| (what the supply delivers to the servo)
};

/// The simulated bench: MuJoCo, the true links (sim/true_model.hpp), the true servo on `joint`, the
/// datasheet servos holding every other joint at its neutral value.
class ServoTrialBench {
 public:
  /// Throws if the robot has a floating base, no sidecar, the joint is unknown or has no complete
  /// actuators entry.
  ServoTrialBench(const Robot& robot, const std::string& joint, unsigned seed);
  ~ServoTrialBench();
  ServoTrialBench(const ServoTrialBench&) = delete;
  ServoTrialBench& operator=(const ServoTrialBench&) = delete;

  const TrueModel& truth() const { return truth_; }
  const TrueServo& servo() const { return servo_; }
  const ServoParameters& datasheet() const { return datasheet_; }
  int body() const { return body_; }
  double timestep() const;

  /// Plays `command` (one position per servo period) with P-gain register `p_gain` (<= 0: the
  /// servo's own) from rest at command[0]: held 0.5 s first (not recorded), then one sample per
  /// period. Every trial starts from the same state.
  ServoTrialRecord run(const std::vector<double>& command, double p_gain = 0.0);

 private:
  const Robot& robot_;
  TrueModel truth_;
  ServoParameters datasheet_;
  TrueServo servo_;
  int body_ = 0;
  std::unique_ptr<Simulation> sim_;
};

}  // namespace dynid
