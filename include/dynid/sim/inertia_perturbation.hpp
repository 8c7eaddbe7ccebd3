#pragma once
// The true robot's link inertias are not CAD's (issue 19/20, `--perturb inertia`,
// docs/scenarios.md). A CAD export assumes each part's material uniform; a real link is a dense
// motor, a light bracket, boards and cables (paper 000, section 1, category 3: "a uniform density
// distribution within the individual rigid bodies is often assumed … the moments of inertia are
// also only an approximation"). The point masses of the true model (true_model.hpp) change masses
// and centres of mass; this changes how each body's mass is spread about its centre of mass, mass
// and centre of mass kept:
//   - the second moment of the mass distribution along each principal direction,
//     Σ = ∫ρ r rᵀ dV = ½ tr(I_c) 1 − I_c, is scaled by its own factor, uniform within ±30 %
//     (a link whose motor sits at one end instead of its mass spread over the hull: its spread
//     along the length differs by tens of percent);
//   - the principal directions turn by a seeded angle, uniform within 10°, about a random axis
//     (components off the CAD part's symmetry planes: a board on one side, a cable run).
// Every scaled Σ stays positive semi-definite, so the body stays physically consistent (every
// triangle inequality of I_c holds). The magnitudes are a judgement, stated as such: no datasheet
// gives CAD's inertia error; they make CAD's inertia error of the same relative size as its mass
// and COM errors, which is what identification has to beat.

#include <string>
#include <vector>

#include "dynid/model/model.hpp"

namespace dynid {

struct BodyInertiaError {
  std::string body;
  Vector3 spread_scale = Vector3::Ones();  ///< factor on each principal second moment (ascending order)
  double axes_rotation_rad = 0.0;          ///< angle the principal directions turned by [rad]
  double inertia_change = 0.0;             ///< ‖I_c,true − I_c,before‖_F / ‖I_c,before‖_F
};

constexpr double kInertiaSpreadTolerance = 0.30;   ///< ± relative change of each principal second moment
constexpr double kInertiaAxesToleranceDeg = 10.0;  ///< largest turn of the principal directions [deg]

/// Redistributes the mass of every moving body of `model` with a mass as described above, seeded
/// (its own generator: the other perturbations drawn from the same seed stay as they were); returns
/// what it did, in body order.
std::vector<BodyInertiaError> perturb_inertia(Model& model, unsigned seed);

}  // namespace dynid
