#pragma once
// The inertial-reference baseline of paper 001 (IR-MD, after Kajita et al. 2014): the robot's linear
// momentum P and angular momentum L about the fixed world origin, from the absolute base state (as a
// state estimator gives it), and the external wrench from their difference quotient over one
// field-bus period. Needs what MR-AD avoids: the base position and linear velocity in world.
// Real-time safe: no allocation.

#include "dynid/dynamics/kinematics.hpp"

namespace dynid {

/// [P; L about the world origin], world axes [kg m/s, kg m^2/s]. q, v: full configuration and
/// velocity (docs/conventions.md). Runs forward_kinematics(q, v); sets data.com and data.mass.
Force momentum_about_world_origin(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v);

/// External wrench other than gravity about the world origin, world axes, from two momenta dt
/// apart (backward difference quotient, eqs. 5-6): [(P1 - P0)/dt - m g; (L1 - L0)/dt - c x m g],
/// with the mass m and COM c (world) of the later sample.
Force wrench_from_momentum_difference(const Force& momentum_before, const Force& momentum_now, double dt, double mass,
                                      const Vector3& com, const Vector3& gravity);

}  // namespace dynid
