#pragma once
// The clock of one recorded stream against the robot's own log (the encoders' time stamps).
// Separate devices keep separate clocks: a motion-capture system, force plates, an F/T amplifier or
// an IMU on its own bus stamp the same instant differently, by a constant offset (start-up, buffering,
// transport) and a slow drift (crystal tolerance, tens of ppm).

namespace dynid {

struct StreamClock {
  /// [s] stream stamp minus robot time at `reference_time_s`: an event at robot time t is stamped
  /// t + offset_s in the stream (positive: the stream stamps late).
  double offset_s = 0.0;
  /// [ppm] how much faster the stream's clock runs (stamp offset grows by drift_ppm 1e-6 per second).
  double drift_ppm = 0.0;
  double reference_time_s = 0.0;  ///< [s] robot time at which the offset is `offset_s`

  /// The stream's stamp of robot time `t` [s].
  double stream_time(double t) const { return t + offset_s + drift_ppm * 1e-6 * (t - reference_time_s); }
  bool identity() const { return offset_s == 0.0 && drift_ppm == 0.0; }
};

}  // namespace dynid
