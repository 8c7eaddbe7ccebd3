#include "dynid/sim/sensor_bus_perturbation.hpp"

#include <random>

namespace dynid {

SensorBusDelay perturb_sensor_bus(unsigned seed) {
  std::mt19937 rng(seed * 2654435769u + 71u);
  std::uniform_int_distribution<int> latency(kSensorBusMinLatency, kSensorBusMaxLatency);
  return {latency(rng)};
}

}  // namespace dynid
