#pragma once
// The "true" robot a simulation runs: the nominal (CAD) model plus what CAD misses, the way real
// robots differ from their URDF (paper 000: REEM-C weighs 77.6 kg, its model 67.55 kg).
// Perturbations are rigid point-like masses added to bodies, so the true model stays physically
// consistent; they are seeded and listed, so a test knows exactly what identification must find:
//   - batteries and electronics in the floating base (and a trunk body if any): 40 % of the missing
//     mass; a robot without such bodies (a fixed-base bench) shares it out among the causes below
//   - heavier motors and gearboxes in the leg and arm links: 30 %, proportional to link mass
//   - cables along the chains: 20 %, proportional to link mass, offset toward the parent joint
//   - paint, screws, covers everywhere: 10 %, proportional to link mass, at a random offset
// Each added mass sits at a seeded offset within the body's radius of gyration of its COM, so COMs
// move as well as masses. The adult humanoid's batteries are back-mounted packs instead, 1.2 radii
// of gyration behind the pelvis and torso COMs, the torso's off to the left (docs/scenarios.md).

#include <string>
#include <vector>

#include "dynid/model/model.hpp"

namespace dynid {

struct TruePerturbation {
  std::string body;
  std::string cause;                           ///< battery, motor, cable, paint
  double mass = 0.0;                           ///< added [kg]
  Vector3 position_in_body = Vector3::Zero();  ///< where it is added [m]
};

struct TrueModel {
  Model model;
  std::vector<TruePerturbation> perturbations;
};

/// The documented true total mass of a bundled robot (adult_humanoid 77.6 kg, kid_humanoid 8.0 kg);
/// other robots get 10 % more than nominal.
double true_total_mass(const std::string& robot_name, double nominal_total_mass);

/// The same for a whole model: a robot named above gets its documented mass; otherwise the moving
/// bodies gain 10 % (what a fixed base welds to the world, in the universe body, stays as it is).
double true_total_mass(const Model& nominal);

/// Nominal + seeded perturbations adding up to `target_total_mass` [kg].
TrueModel make_true_model(const Model& nominal, double target_total_mass, unsigned seed);

}  // namespace dynid
