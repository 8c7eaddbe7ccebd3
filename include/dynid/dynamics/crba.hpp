#pragma once
// Composite rigid-body algorithm (RBDA 6.2): the joint-space inertia matrix M(q), nv x nv, symmetric
// (both triangles filled). Real-time safe: no allocation. Result in data.M. Sets data.liMi and
// data.rMi but not the world poses data.oMi (M does not depend on the base's pose).

#include "dynid/dynamics/kinematics.hpp"

namespace dynid {

const MatrixX& crba(const Model& model, Data& data, const ConstVectorRef& q);

/// Kinetic energy 1/2 v^T M v [J], from the body twists (forward_kinematics with v first).
double kinetic_energy(const Model& model, const Data& data);

/// Potential energy of gravity [J] (forward_kinematics first), zero at the world origin.
double potential_energy(const Model& model, const Data& data);

}  // namespace dynid
