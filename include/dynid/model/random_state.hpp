#pragma once
// Random states of a model: what numerical analyses (base parameters, excitation checks) and tests
// sample the dynamics at. Seeded through the caller's generator so every result is reproducible.

#include <random>

#include "dynid/model/model.hpp"

namespace dynid {

/// One state of the robot: q (dim nq), v and a (dim nv), conventions of docs/conventions.md.
struct StateSample {
  VectorX q, v, a;
};

/// Configuration uniform within the joint limits (continuous joints in [-3, 3] rad, a uniformly
/// random unit quaternion direction and a position in [-1, 1]^3 m for a floating base); every
/// entry of v and a uniform in [-scale, scale] (rad/s, m/s; rad/s^2, m/s^2).
StateSample random_state(const Model& model, std::mt19937& rng, double scale = 1.0);

}  // namespace dynid
