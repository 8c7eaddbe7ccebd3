#include "dynid/sim/joint_elasticity_perturbation.hpp"

#include <cmath>
#include <numbers>
#include <random>

namespace dynid {

JointElasticity perturb_joint_elasticity(const Model& model, unsigned seed) {
  std::mt19937 rng(seed * 2654435769u + 71u);
  constexpr double kDeg = std::numbers::pi / 180.0;
  std::uniform_real_distribution<double> windup(kJointWindupMinDeg * kDeg, kJointWindupMaxDeg * kDeg);
  JointElasticity e;
  e.compliance.assign(model.bodies.size(), 0.0);
  e.windup_at_effort_limit.assign(model.bodies.size(), 0.0);
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const Body& body = model.bodies[b];
    // Drawn for every body, so one joint's limit does not change the others' draws.
    const double angle = windup(rng);
    if (body.joint_type == JointType::FreeFlyer || body.nv != 1) continue;
    const double effort = body.limits.effort;
    if (!std::isfinite(effort) || effort <= 0.0) continue;
    e.windup_at_effort_limit[b] = angle;
    e.compliance[b] = angle / effort;
  }
  return e;
}

}  // namespace dynid
