#pragma once
// A gear's dead band (backlash) as the motor-side encoder sees it. Between the motor and the link
// the gear has a play of `width` [rad] (joint side). While the gear carries torque to the link the
// motor leans on one flank of the play; when that torque reverses, the rotor leaves the flank and
// crosses the play, driven by the torque against its own inertia (the armature, reflected to the
// joint side) and the drive's viscous damping, until it strikes the other flank and stops there (an
// inelastic contact). The encoder reads the link angle plus the rotor's offset in the play, so a
// reversal is a crossing that takes about sqrt(2 width I / |tau|) — milliseconds under a firm
// torque, the play never wholly crossed under a torque that chatters about zero — instead of an
// instant step.
//
// Only the encoder reading is modelled: the link's motion is the simulation's, whose gear is stiff
// (a free rotor transmits nothing for those milliseconds; the walks' and the arm's dynamics do not
// see that), and neither the rotor's Coulomb friction nor the servo's reaction to the encoder's
// motion in the play slows the crossing. Without an armature (zero) the crossing is instant: the
// offset jumps to the flank the torque's sign names.

namespace dynid {

class GearDeadBand {
 public:
  /// `width` [rad] total play, joint side; `armature` [kg m^2] the rotor's inertia reflected to the
  /// joint side (gear ratio^2 x rotor inertia), 0 for an instant crossing; `damping`
  /// [N m s/rad] the drive's viscous friction on the rotor, joint side.
  GearDeadBand(double width, double armature, double damping = 0.0);

  /// Puts the rotor at rest on the flank the `transmitted_torque`'s sign names (the state after a
  /// gap in the calls, or at the start).
  void settle(double transmitted_torque);

  /// Advances the rotor by `dt` [s] under the torque the gear transmits to the link
  /// [N m] (positive: the motor drives the link towards positive angles) and returns the encoder's
  /// offset from the link angle [rad], in [-width/2, width/2].
  double step(double transmitted_torque, double dt);

  double offset() const { return offset_; }  ///< [rad], encoder minus link angle
  double rate() const { return rate_; }      ///< [rad/s], of the offset

 private:
  double half_width_;
  double armature_;
  double damping_;
  double offset_ = 0.0;
  double rate_ = 0.0;
};

}  // namespace dynid
