// The servo of paper 002 (locomotion/servo_model.hpp) in its analytic cases: stall torque at full voltage,
// no-load speed from the back-EMF, the Stribeck friction curve, the P controller on a quantized
// encoder, the firmware current limit.

#include "dynid/locomotion/servo_model.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "support/test_models.hpp"

namespace dynid {
namespace {

ServoParameters frictionless_unlimited() {
  ServoParameters p;  // MX-106 defaults
  p.coulomb_friction_nm = p.stribeck_friction_nm = p.viscous_friction_nm_s_per_rad = 0.0;
  p.effort_limit_nm = 1e3;
  return p;
}

TEST(ServoModel, StallTorqueAtFullVoltageIsGearTimesTorqueConstantTimesUOverR) {
  const ServoParameters p = frictionless_unlimited();
  const ServoModel servo(p);
  const ServoStep s = servo.step(1.0, 0.0, 0.0);  // 1 rad error saturates the P controller
  EXPECT_DOUBLE_EQ(s.voltage_v, p.supply_voltage_v);
  const double stall = p.gear_ratio * p.torque_constant_nm_per_a * p.supply_voltage_v / p.resistance_ohm;
  EXPECT_NEAR(s.motor_torque_nm, stall, 1e-12);
  EXPECT_NEAR(s.joint_torque_nm, stall, 1e-12);
  EXPECT_NEAR(stall, 10.36, 0.01);  // docs/bundled-robots.md: MX-106 at 14.8 V
  const ServoStep reverse = servo.step(-1.0, 0.0, 0.0);
  EXPECT_NEAR(reverse.joint_torque_nm, -stall, 1e-12);
}

TEST(ServoModel, NoLoadSpeedFollowsFromTheBackEmf) {
  const ServoParameters p = frictionless_unlimited();
  const ServoModel servo(p);
  const double no_load = p.supply_voltage_v / (p.torque_constant_nm_per_a * p.gear_ratio);
  EXPECT_NEAR(no_load, 5.81, 0.01);  // docs/bundled-robots.md
  EXPECT_NEAR(servo.step(1.0, 0.0, no_load).current_a, 0.0, 1e-12);
  EXPECT_GT(servo.step(1.0, 0.0, 0.9 * no_load).joint_torque_nm, 0.0);
  EXPECT_LT(servo.step(1.0, 0.0, 1.1 * no_load).joint_torque_nm, 0.0);  // generator: brakes above it
  // Torque falls linearly with speed: the DC motor's torque-speed line.
  EXPECT_NEAR(servo.step(1.0, 0.0, 0.5 * no_load).motor_torque_nm, 0.5 * servo.step(1.0, 0.0, 0.0).motor_torque_nm,
              1e-12);
}

TEST(ServoModel, FrictionIsOddStribeckShapedAndSmoothAtRest) {
  const ServoParameters p;  // MX-106 bench values
  const ServoModel servo(p);
  EXPECT_EQ(servo.friction_torque(0.0), 0.0);
  for (double v : {1e-3, 0.01, 0.05, 0.1, 0.3, 1.0, 4.0})
    EXPECT_NEAR(servo.friction_torque(-v), -servo.friction_torque(v), 1e-15);
  // Far from rest: tau_c + tau_s' exp(-v / v_s) + c_v v (paper 002 eqs. 8-9, delta = 1).
  for (double v : {0.2, 0.5, 1.0, 3.0}) {
    const double expected = p.coulomb_friction_nm + p.stribeck_friction_nm * std::exp(-v / p.stribeck_velocity_rad_s) +
                            p.viscous_friction_nm_s_per_rad * v;
    EXPECT_NEAR(servo.friction_torque(v), expected, 1e-6) << v;
  }
  // The dry part (without viscous) decays from static toward Coulomb friction past a few eps.
  auto dry = [&](double v) { return servo.friction_torque(v) - p.viscous_friction_nm_s_per_rad * v; };
  EXPECT_GT(dry(0.06), p.coulomb_friction_nm + 0.5 * p.stribeck_friction_nm);
  EXPECT_GT(dry(0.06), dry(0.3));
  EXPECT_GT(dry(0.3), dry(3.0));
  EXPECT_NEAR(dry(3.0), p.coulomb_friction_nm, 1e-9);
  // The smoothing: continuous through zero, bounded by the static friction.
  EXPECT_LT(std::abs(servo.friction_torque(1e-4)), 0.01);
  EXPECT_LE(servo.friction_torque(0.01),
            p.coulomb_friction_nm + p.stribeck_friction_nm + 0.01 * p.viscous_friction_nm_s_per_rad);
  // Friction opposes motion: it reduces the joint torque when moving forward.
  const ServoStep s = servo.step(0.1, 0.0, 0.5);
  EXPECT_NEAR(s.joint_torque_nm, s.motor_torque_nm - servo.friction_torque(0.5), 1e-15);
}

TEST(ServoModel, PControllerUsesTheQuantizedEncoderAndTheCurrentLimit) {
  const ServoParameters p;
  const ServoModel servo(p);
  const double count = 2.0 * std::numbers::pi / 4096.0;
  EXPECT_NEAR(servo.encoder(0.1234), std::round(0.1234 / count) * count, 1e-15);
  EXPECT_LE(std::abs(servo.encoder(0.1234) - 0.1234), 0.5 * count);
  // Eq. (16): U = U_bat k_ctrl k_P (q_d - q_enc), k_P = 32 / 8, full duty at 1023.
  EXPECT_NEAR(servo.voltage_per_rad(), 14.8 * 4.0 / (1023.0 * count), 1e-9);
  const ServoStep small = servo.step(0.01, 0.0, 0.0);
  EXPECT_NEAR(small.voltage_v, servo.voltage_per_rad() * 0.01, 1e-12);
  EXPECT_NEAR(servo.step(0.01, 0.3 * count, 0.0).voltage_v, small.voltage_v, 1e-12);  // below one count
  // Braking against the back-EMF: full reverse voltage would push |I| past the limit.
  const ServoStep brake = servo.step(-1.0, 0.0, 4.0);
  EXPECT_NEAR(std::abs(brake.current_a), servo.current_limit_a(), 1e-12);
  EXPECT_LE(std::abs(brake.motor_torque_nm), p.effort_limit_nm + 1e-12);
  EXPECT_GT(brake.voltage_v, -p.supply_voltage_v);
}

TEST(ServoModel, ParametersComeFromTheSidecarAndMissingOnesAreNamed) {
  const Robot bench = test::bundled_robot("servo_bench");
  ASSERT_EQ(bench.sidecar->actuators.size(), 1u);
  const ServoParameters p = servo_parameters(bench.sidecar->actuators.front());
  EXPECT_DOUBLE_EQ(p.gear_ratio, 225.0);
  EXPECT_DOUBLE_EQ(p.resistance_ohm, 3.6378);
  EXPECT_DOUBLE_EQ(p.viscous_friction_nm_s_per_rad, 0.72);
  EXPECT_DOUBLE_EQ(p.armature_kg_m2, 0.004404375);
  ActuatorInfo missing = bench.sidecar->actuators.front();
  missing.resistance.reset();
  try {
    servo_parameters(missing);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("resistance"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("l_hip_pitch"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace dynid
