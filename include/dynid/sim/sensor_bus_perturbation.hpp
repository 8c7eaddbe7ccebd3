#pragma once
// The robot's main controller reads its sensors over the field bus (issue 19, `--perturb
// sensor-bus`, docs/scenarios.md): what its balance control sees at a bus tick is what the IMU and
// the foot F/T sensors read `latency` bus periods earlier. A bus master requests the sensor boards'
// data in one cycle and receives them in the next (a Dynamixel-class sync read), one more when the
// boards sit behind a sub-bus or a slower sensor hub, so the latency is seeded within
// [kSensorBusMinLatency, kSensorBusMaxLatency] bus periods (a judgement, stated as such: 8-16 ms on
// a 125 Hz bus). The recorded streams keep their own time stamps: only the controller is late.

#include <cstddef>
#include <deque>

namespace dynid {

inline constexpr int kSensorBusMinLatency = 1;  ///< [bus periods]
inline constexpr int kSensorBusMaxLatency = 2;  ///< [bus periods]

struct SensorBusDelay {
  int latency_bus_periods = 0;  ///< how many bus ticks late the controller reads its sensors
};

SensorBusDelay perturb_sensor_bus(unsigned seed);

/// A value read at every bus tick, handed over `latency` ticks later (until that many ticks have
/// passed, the oldest value there is: the controller starts on its first reading).
template <class T>
class BusDelayLine {
 public:
  explicit BusDelayLine(int latency) : latency_(latency < 0 ? 0 : static_cast<std::size_t>(latency)) {}
  /// Pushes this tick's reading and returns the one the controller receives at this tick.
  const T& pass(T reading) {
    line_.push_back(std::move(reading));
    while (line_.size() > latency_ + 1) line_.pop_front();
    return line_.front();
  }
  std::size_t latency() const { return latency_; }

 private:
  std::size_t latency_;
  std::deque<T> line_;
};

}  // namespace dynid
