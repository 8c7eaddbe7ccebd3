// The feed-forward command of a position servo (eq. 19): a P servo at the reference applies exactly
// the voltage the model asks for (eq. 16 evaluated on its own), the command moves with the torque by
// a0 / (k_P k_ctrl U_bat), and the controller names parse.

#include "dynid/locomotion/servo_feedforward.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace dynid {
namespace {

TEST(ServoFeedforward, TheServoAtTheReferenceAppliesTheModelVoltage) {
  ActuatorModel model;
  model.alpha = {1.5, 3.8, 1.27, 1.75, 0.006};
  model.stribeck = {0.1, 0.75};
  const double volts_per_rad = 14.6 * servo_gain_per_rad(44.8);
  for (double tau : {-4.0, 0.0, 2.5})
    for (double qdot : {-1.2, 0.03, 2.0}) {
      const double q_ref = 0.4, qddot = -7.0;
      const double cmd = feedforward_command(model, q_ref, qdot, qddot, tau, volts_per_rad);
      // Eq. (16) written out: U = U_bat k_ctrl k_P (q_d - q), here at q = q_ref.
      const double beta = std::exp(-std::pow(std::abs(qdot / 0.1), 0.75));
      const double sgn = qdot > 0 ? 1.0 : -1.0;
      const double u = 1.5 * tau + 3.8 * qdot + 1.27 * sgn * (1 - beta) + 1.75 * sgn * beta + 0.006 * qddot;
      EXPECT_NEAR(servo_voltage(cmd, q_ref, volts_per_rad / 14.6, 14.6), u, 1e-12) << tau << " " << qdot;
    }
  // One N m more moves the command by a0 / (k_P k_ctrl U_bat).
  EXPECT_NEAR(feedforward_command(model, 0.0, 1.0, 0.0, 1.0, volts_per_rad) -
                  feedforward_command(model, 0.0, 1.0, 0.0, 0.0, volts_per_rad),
              1.5 / volts_per_rad, 1e-15);
  EXPECT_THROW(feedforward_command(model, 0.0, 0.0, 0.0, 1.0, 0.0), std::invalid_argument);
}

TEST(ServoFeedforward, ControllersOfThePaper) {
  EXPECT_EQ(parse_servo_control("high-gain"), ServoControl::HighGain);
  EXPECT_EQ(parse_servo_control("low-gain"), ServoControl::LowGain);
  EXPECT_EQ(parse_servo_control("feed-forward"), ServoControl::FeedForward);
  EXPECT_EQ(servo_control_gain(ServoControl::HighGain), 1.0);
  EXPECT_EQ(servo_control_gain(ServoControl::LowGain), 0.35);
  EXPECT_EQ(servo_control_gain(ServoControl::FeedForward), 0.35);
  for (ServoControl c : {ServoControl::HighGain, ServoControl::LowGain, ServoControl::FeedForward})
    EXPECT_EQ(parse_servo_control(to_string(c)), c);
  EXPECT_THROW(parse_servo_control("medium"), std::invalid_argument);
}

}  // namespace
}  // namespace dynid
