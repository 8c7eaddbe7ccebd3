#pragma once
// Noise of the simulated sensors, grounded in datasheets of sensors humanoid labs use. White noise
// of a rate sensor sampled at f has sigma = noise_density * sqrt(f) (one-sided density, the
// convention of IMU datasheets).

#include <random>
#include <string>

#include "dynid/spatial/skew.hpp"

namespace dynid {

enum class NoiseLevel { None, Realistic };
NoiseLevel parse_noise_level(const std::string& text);  ///< "none" | "realistic"; throws otherwise
const char* to_string(NoiseLevel level);

struct SensorNoise {
  // Joint encoders: 17-bit absolute encoder at the joint output (e.g. Renishaw AksIM class).
  double encoder_resolution = 2.0 * 3.14159265358979323846 / 131072.0;  ///< [rad] per count
  double backlash = 0.0;  ///< [rad] total dead band between motor and joint side
  // IMU: Bosch BMI088 datasheet: gyro 0.014 deg/s/sqrt(Hz), accelerometer 175 ug/sqrt(Hz).
  double gyro_density = 0.014 * 3.14159265358979323846 / 180.0;  ///< [rad/s/sqrt(Hz)]
  double gyro_bias_sigma = 0.002;                                ///< [rad/s], constant per run
  double accel_density = 175e-6 * 9.80665;                       ///< [m/s^2/sqrt(Hz)]
  double accel_bias_sigma = 0.02;                                ///< [m/s^2], constant per run
  // 6-axis F/T: ATI Mini45 (SI-290-10) resolution 1/8 N and 1/376 N m -> sigma of that order.
  double ft_force_sigma = 0.125;   ///< [N]
  double ft_torque_sigma = 0.003;  ///< [N m]
  // Strain-gauge joint torque sensor between gear and link: 0.1 % of a 150 N m full scale (Futek
  // TFF / Kistler 4503 class, non-repeatability and noise 0.05-0.1 % FS; the rated torques of the
  // adult robots' joints are 40-200 N m).
  double joint_torque_sigma = 0.15;  ///< [N m]
  // Its calibration, constant per run and per sensor. A joint torque sensor cannot be tared on the
  // robot: the link's weight always loads it, and a tare against the nominal model carries that
  // model's error. What is left is the zero balance and its thermal drift (Futek TFF class: zero
  // balance within 1 % of rated output before tare, thermal zero shift 0.01 %/degF, i.e. ~0.2 % over
  // a 20 degF warm-up) and the sensitivity of an in-situ calibration, which also carries the
  // crosstalk of bending loads (about 0.8 % of the bending moment in a sensor designed against it).
  // Foot F/T sensors are tared while the robot hangs and are factory calibrated on all six axes:
  // their errors stay white (above).
  double joint_torque_offset_fraction = 0.003;  ///< sigma of the offset, fraction of the joint's rated torque
  double joint_torque_gain_sigma = 0.01;        ///< sigma of the relative sensitivity error
  // Force plates: AMTI/Kistler class, resolution ~0.7 N on forces; moments from the same channels.
  double plate_force_resolution = 0.7;  ///< [N], quantization step
  double plate_force_sigma = 0.25;      ///< [N]
  double plate_moment_sigma = 0.05;     ///< [N m]
  // Optical motion capture (Vicon/Qualisys class): 0.5 mm per coordinate, rare dropouts.
  double marker_sigma = 0.0005;  ///< [m]
  double marker_dropout_probability = 0.005;

  bool enabled = true;
};

/// The noise of a level: None disables all noise and quantization; Realistic uses the figures above
/// (backlash `realistic_backlash` [rad] on every joint encoder).
SensorNoise sensor_noise(NoiseLevel level, double realistic_backlash = 0.0);

}  // namespace dynid
