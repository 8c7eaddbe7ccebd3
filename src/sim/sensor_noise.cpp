#include "dynid/sim/sensor_noise.hpp"

#include <stdexcept>

namespace dynid {

NoiseLevel parse_noise_level(const std::string& text) {
  if (text == "none") return NoiseLevel::None;
  if (text == "realistic") return NoiseLevel::Realistic;
  throw std::invalid_argument("unknown noise level '" + text + "' (none, realistic)");
}

const char* to_string(NoiseLevel level) { return level == NoiseLevel::None ? "none" : "realistic"; }

SensorNoise sensor_noise(NoiseLevel level, double realistic_backlash) {
  SensorNoise n;
  if (level == NoiseLevel::None) {
    n.enabled = false;
    n.encoder_resolution = 0.0;
    n.backlash = 0.0;
    n.gyro_density = n.gyro_bias_sigma = n.accel_density = n.accel_bias_sigma = 0.0;
    n.ft_force_sigma = n.ft_torque_sigma = n.joint_torque_sigma = 0.0;
    n.joint_torque_offset_fraction = n.joint_torque_gain_sigma = 0.0;
    n.plate_force_resolution = n.plate_force_sigma = n.plate_moment_sigma = 0.0;
    n.marker_sigma = n.marker_dropout_probability = 0.0;
  } else {
    n.backlash = realistic_backlash;
  }
  return n;
}

}  // namespace dynid
