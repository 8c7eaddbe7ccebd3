// Paper 002's motor and friction model, linear in alpha, against the physics it summarises: the DC
// motor and friction equations evaluated by hand (eqs. 3-9), and the servo firmware's P controller.

#include "dynid/actuator/actuator_model.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "dynid/locomotion/servo_model.hpp"

namespace dynid {
namespace {

// A Dynamixel MX-106-like servo, joint side.
ActuatorPhysical mx106() {
  ActuatorPhysical p;
  p.gear_ratio = 225.0;
  p.torque_constant_nm_per_a = 0.011318;
  p.resistance_ohm = 3.6378;
  p.viscous_nm_s_per_rad = 0.72;
  p.coulomb_nm = 0.69;
  p.static_nm = 0.84;
  p.armature_kg_m2 = 0.0044;
  return p;
}

TEST(ActuatorModel, AlphaModelGivesTheVoltageOfTheMotorAndFrictionEquations) {
  const ActuatorPhysical p = mx106();
  const StribeckShape shape{0.1, 0.7};
  ActuatorModel m;
  m.alpha = alpha_from_physical(p);
  m.stribeck = shape;
  for (double qdot : {-3.0, -0.25, -0.04, 0.03, 0.1, 0.6, 2.5})
    for (double tau_o : {-4.0, 0.0, 1.3})
      for (double qddot : {-20.0, 0.0, 7.0}) {
        // By hand: friction (eqs. 8-9), motor torque = load + friction + rotor, I = tau / (N k),
        // U = R I + k omega with omega = N qdot (eqs. 3-7).
        const double beta = std::exp(-std::pow(std::abs(qdot) / 0.1, 0.7));
        const double sign = qdot > 0 ? 1.0 : -1.0;
        const double friction = sign * ((1 - beta) * p.coulomb_nm + beta * p.static_nm) + p.viscous_nm_s_per_rad * qdot;
        const double motor_torque = tau_o + friction + p.armature_kg_m2 * qddot;
        const double current = motor_torque / (p.gear_ratio * p.torque_constant_nm_per_a);
        const double u = p.resistance_ohm * current + p.torque_constant_nm_per_a * p.gear_ratio * qdot;
        EXPECT_NEAR(m.voltage(tau_o, qdot, qddot), u, 1e-12 * (1 + std::abs(u))) << qdot << " " << tau_o;
        // And the forward functions give that back: the current and the friction of the motor.
        EXPECT_NEAR(motor_current(p, u, qdot), current, 1e-12);
        EXPECT_NEAR(friction_torque(p, qdot, shape), friction, 1e-12);
      }
}

TEST(ActuatorModel, PhysicalValuesComeBackFromAlphaGivenTheDatasheetScale) {
  const ActuatorPhysical p = mx106();
  const ActuatorPhysical back = physical_from_alpha(alpha_from_physical(p), p.gear_ratio, p.torque_constant_nm_per_a);
  EXPECT_NEAR(back.resistance_ohm, p.resistance_ohm, 1e-12);
  EXPECT_NEAR(back.viscous_nm_s_per_rad, p.viscous_nm_s_per_rad, 1e-12);
  EXPECT_NEAR(back.coulomb_nm, p.coulomb_nm, 1e-12);
  EXPECT_NEAR(back.static_nm, p.static_nm, 1e-12);
  EXPECT_NEAR(back.armature_kg_m2, p.armature_kg_m2, 1e-15);
  EXPECT_THROW(physical_from_alpha({-1.0, 1.0, 0.0, 0.0, 0.0}, 225.0, 0.01), std::invalid_argument);
}

TEST(ActuatorModel, StribeckCurve) {
  EXPECT_DOUBLE_EQ(stribeck_beta(0.0, {0.1, 1.0}), 1.0);
  EXPECT_NEAR(stribeck_beta(-0.1, {0.1, 1.0}), std::exp(-1.0), 1e-15);
  EXPECT_NEAR(stribeck_beta(0.1, {0.1, 0.5}), std::exp(-1.0), 1e-15);
  EXPECT_NEAR(stribeck_beta(0.4, {0.1, 0.5}), std::exp(-2.0), 1e-15);
  EXPECT_DOUBLE_EQ(friction_sign(0.0), 0.0);
  EXPECT_DOUBLE_EQ(friction_sign(-1e-9), -1.0);
}

TEST(ActuatorModel, PositionServoSubstitutionInvertsTheFirmwaresPController) {
  // Robotis MX: K_P = 32 / 8 = 4 duty units (1/1023) per encoder count (2 pi / 4096 rad).
  const double gain = servo_gain_per_rad(32.0);
  EXPECT_NEAR(gain, 4.0 / 1023.0 / (2.0 * std::numbers::pi / 4096.0), 1e-12);
  const double q = 0.3, u = -5.5, supply = 14.2;
  const double q_cmd = servo_command(u, q, gain, supply);
  EXPECT_NEAR(servo_voltage(q_cmd, q, gain, supply), u, 1e-12);
  // The simulated servo (locomotion/servo_model.hpp) applies the same voltage, before saturation.
  ServoParameters sp;
  sp.supply_voltage_v = supply;
  const ServoModel servo(sp);
  EXPECT_NEAR(servo.voltage_per_rad(), gain * supply, 1e-12);
  const double q_enc = servo.encoder(q);
  EXPECT_NEAR(servo.step(servo_command(u, q_enc, gain, supply), q, 0.0).voltage_v, u, 1e-9);
}

}  // namespace
}  // namespace dynid
