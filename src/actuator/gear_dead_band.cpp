#include "dynid/actuator/gear_dead_band.hpp"

#include <algorithm>
#include <stdexcept>

namespace dynid {

GearDeadBand::GearDeadBand(double width, double armature, double damping)
    : half_width_(0.5 * width), armature_(armature), damping_(damping) {
  if (!(width >= 0.0 && width < 1.0) || !(armature >= 0.0 && armature < 1e6) || !(damping >= 0.0 && damping < 1e6))
    throw std::invalid_argument(
        "gear dead band: the width [rad], armature and damping must be finite and non-negative");
}

void GearDeadBand::settle(double transmitted_torque) {
  offset_ = transmitted_torque > 0.0 ? half_width_ : -half_width_;
  rate_ = 0.0;
}

double GearDeadBand::step(double transmitted_torque, double dt) {
  if (armature_ <= 0.0 || half_width_ <= 0.0) {
    settle(transmitted_torque);
    return offset_;
  }
  // The free rotor relative to the link: I s'' = tau - D s', with tau the torque the stiff gear
  // would pass (the rotor's drive torque less what its inertia and friction take at the link's
  // own motion); semi-implicit Euler, the damping implicit.
  rate_ = (rate_ + transmitted_torque / armature_ * dt) / (1.0 + damping_ / armature_ * dt);
  offset_ += rate_ * dt;
  // The flanks: an inelastic stop; a rotor pressed against a flank stays there.
  if (offset_ >= half_width_) {
    offset_ = half_width_;
    rate_ = std::min(rate_, 0.0);
  } else if (offset_ <= -half_width_) {
    offset_ = -half_width_;
    rate_ = std::max(rate_, 0.0);
  }
  return offset_;
}

}  // namespace dynid
