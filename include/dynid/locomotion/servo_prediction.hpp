#pragma once
// What an actuator model (actuator/actuator_model.hpp) predicts a position-controlled servo does:
// one joint of a fixed-base model driven by the firmware's P controller (eq. 16) through the
// model's motor and friction equation (eq. 14) solved for the acceleration, the other joints held
// still. Lets a user check a model before trusting it: predicted against measured tracking at a P
// gain or on a trajectory the model was not fitted on (docs/actuators.md).

#include <vector>

#include "dynid/actuator/actuator_model.hpp"
#include "dynid/model/model.hpp"

namespace dynid {

struct ServoPredictionSetup {
  double gain_per_rad = 0.0;          ///< k_P k_ctrl (servo_gain_per_rad) [1/rad]
  double supply_voltage_v = 14.8;     ///< U_bat
  double dt_s = 0.001;                ///< integration step = command period
  double sign_velocity_rad_s = 0.02;  ///< tanh smoothing of sgn(qdot) (the explicit step needs it)
};

/// Joint positions [rad] the model predicts for `command` (one per step, sent at each stamp and used
/// by the firmware t_d later), starting at rest at command[0] after 0.5 s of holding it. `links`
/// gives tau_o (its joint `body` moves; every other joint stays at the neutral value).
std::vector<double> predict_servo_tracking(const Model& links, int body, const ActuatorModel& actuator,
                                           const ServoPredictionSetup& setup, const std::vector<double>& command);

}  // namespace dynid
