#pragma once
// Centroidal momentum (Orin & Goswami): the robot's linear and angular momentum about its COM, in
// world axes, and its time derivative, which equals the sum of external wrenches about the COM plus
// gravity. Real-time safe: no allocation.

#include "dynid/dynamics/kinematics.hpp"

namespace dynid {

/// h_G = [m com_dot; angular momentum about the COM], world axes, into data.centroidal_momentum.
/// Runs forward_kinematics(q, v); also sets data.com, data.com_velocity.
const Force& centroidal_momentum(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v);

/// h_G and its rate dh_G/dt into data.centroidal_momentum(_rate). Runs forward_kinematics(q, v, a).
const Force& centroidal_momentum_rate(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v,
                                      const ConstVectorRef& a);

}  // namespace dynid
