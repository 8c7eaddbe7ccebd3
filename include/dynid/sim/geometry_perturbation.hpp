#pragma once
// The true robot's geometry is not its URDF's: every joint origin and axis is where machined parts
// put it, within their tolerance (issue 19, `--perturb geometry`, docs/scenarios.md). Each moving
// joint's origin (in its parent body's frame) moves by a seeded offset whose components are uniform
// within the general tolerance ISO 2768-1 class "m" (medium, what a machine shop delivers without a
// tolerance on the drawing) allows for the joint's offset from its parent joint, and its axis tilts
// by a seeded angle, uniform within the standard's angular tolerance for that length, about a
// random direction perpendicular to it. The child body keeps its frame: only where the joint sits
// and which way it turns change. Controllers, planners and the recorded nominal URDF keep the
// nominal geometry; in double support a stiff position controller then makes the legs fight.
//
// ISO 2768-1 class m, linear (nominal length -> +-limit): 0.5-6 mm 0.1 mm, 6-30 mm 0.2 mm,
// 30-120 mm 0.3 mm, 120-400 mm 0.5 mm, 400-1000 mm 0.8 mm, 1000-2000 mm 1.2 mm, 2000-4000 mm 2 mm;
// angular (length of the shorter leg -> +-limit): up to 10 mm 1 deg, 10-50 mm 30', 50-120 mm 20',
// 120-400 mm 10', beyond 5'. A joint whose origin coincides with its parent's (two axes through one
// point, e.g. hip roll and pitch) sits in a part at least a servo horn's bolt circle wide (~20 mm on
// an MX-106): lengths are taken as at least 20 mm, so no joint gets less than 0.2 mm and 30'.

#include <string>
#include <vector>

#include "dynid/model/model.hpp"

namespace dynid {

struct JointGeometryError {
  std::string joint;
  double nominal_offset_m = 0.0;           ///< |joint origin| in the parent body frame, what sets the tolerances [m]
  Vector3 origin_error = Vector3::Zero();  ///< true minus nominal joint origin, parent body frame [m]
  double origin_tolerance_m = 0.0;         ///< ISO 2768-m limit on each component of origin_error [m]
  Vector3 nominal_axis = Vector3::UnitZ(), true_axis = Vector3::UnitZ();  ///< unit, body frame
  double axis_tilt_rad = 0.0;                                             ///< angle between nominal and true axis [rad]
  double axis_tolerance_rad = 0.0;                                        ///< ISO 2768-m angular limit [rad]
};

/// ISO 2768-1 class m limit of a linear dimension of nominal length `length_m` [m] (+-, [m]); lengths
/// below 20 mm count as 20 mm (above).
double iso2768m_linear_tolerance(double length_m);
/// ISO 2768-1 class m limit of an angle whose shorter leg is `length_m` long [m] (+-, [rad]); the
/// same floor.
double iso2768m_angular_tolerance(double length_m);

/// Moves every revolute and prismatic joint of `model` as described above, seeded; returns what it
/// did, in body order.
std::vector<JointGeometryError> perturb_geometry(Model& model, unsigned seed);

}  // namespace dynid
