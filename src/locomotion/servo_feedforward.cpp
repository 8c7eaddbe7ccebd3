#include "dynid/locomotion/servo_feedforward.hpp"

#include <stdexcept>

namespace dynid {

ServoControl parse_servo_control(const std::string& name) {
  if (name == "high-gain") return ServoControl::HighGain;
  if (name == "low-gain") return ServoControl::LowGain;
  if (name == "feed-forward") return ServoControl::FeedForward;
  throw std::invalid_argument("unknown servo control '" + name + "' (known: high-gain, low-gain, feed-forward)");
}

std::string to_string(ServoControl control) {
  switch (control) {
    case ServoControl::HighGain:
      return "high-gain";
    case ServoControl::LowGain:
      return "low-gain";
    case ServoControl::FeedForward:
      return "feed-forward";
  }
  return "";
}

double servo_control_gain(ServoControl control) { return control == ServoControl::HighGain ? 1.0 : 0.35; }

double feedforward_command(const ActuatorModel& model, double q_ref_rad, double qdot_ref_rad_s, double qddot_ref_rad_s2,
                           double tau_nm, double volts_per_rad, double sign_velocity_rad_s) {
  if (!(volts_per_rad > 0.0)) throw std::invalid_argument("feed-forward: the servo's gain must be positive");
  // Eq. (17) with the reference in place of the measured position: the firmware's P term adds
  // k (q_ref - q) on top, which corrects what the model misses.
  return q_ref_rad + model.voltage(tau_nm, qdot_ref_rad_s, qddot_ref_rad_s2, sign_velocity_rad_s) / volts_per_rad;
}

}  // namespace dynid
