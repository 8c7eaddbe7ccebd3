#pragma once
// ZMP reference of a footstep plan (Kajita et al. 2003: the reference the preview servo
// tracks): constant at the stance sole centre in single support, a linear transfer from one support
// point to the next in double support. The initial double support holds the ZMP at the midpoint
// between the soles and shifts it to the first stance foot during its last step duration (at most
// its second half); the final double support shifts it back to the midpoint during its first step
// duration (at most its first half) and then holds it. Hold the start for a preview horizon or
// longer (FootstepParams' 2 s do): the servo then starts from a reference that does not change
// within its preview, so the COM starts moving smoothly instead of with an initial transient.
//
// Points are in world coordinates [m] and lie on the ground plane.

#include <vector>

#include "dynid/locomotion/footstep_plan.hpp"

namespace dynid {

/// Piecewise-linear curve through knots; constant before the first and after the last knot.
struct ZmpReference {
  std::vector<double> knot_times_s;        ///< non-decreasing
  std::vector<Vector3> knot_points_world;  ///< one per knot time

  /// Reference ZMP at time t [s], world.
  Vector3 at(double t) const;
};

ZmpReference make_zmp_reference(const FootstepPlan& plan);

}  // namespace dynid
