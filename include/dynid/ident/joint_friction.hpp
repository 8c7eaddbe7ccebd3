#pragma once
// Joint friction and drive terms of the identification (docs/identification.md, "Joint friction and
// armature"): per joint whose torque is measured, unknowns linear in their parameters that add to
// the torque the sensor (a motor current times torque constant times gear ratio, or a sensor on the
// motor side of the gear) reads:
//
//   tau_measured_j = (Y pi)_j + f_v qd_j + f_c tanh(qd_j / v_s) + o_j + I_a qdd_j
//
// viscous f_v [N m s/rad], Coulomb f_c [N m] with the sign smoothed over v_s =
// `coulomb_smoothing_velocity` [rad/s] (0: sgn itself), a constant offset o [N m], and the armature
// I_a [kg m^2] (the rotor inertia reflected through the gear, J_rotor N^2). A prismatic joint reads
// them in N s/m, N, N and kg. Asymmetric Coulomb friction ("coulomb-asymmetric") replaces f_c by
// a level per direction of motion,
//
//   f_c+ max(tanh(qd / v_s), 0) + f_c- min(tanh(qd / v_s), 0)      (f_c+, f_c- >= 0 when physical)
//
// the same as symmetric Coulomb with f_c = f_c+ = f_c-. On a joint that moves both ways the pair
// spans what Coulomb plus an offset span (exactly with the sign, up to the smoothing band with
// tanh), so a joint's terms may not hold both the pair and `offset` (nor the pair and `coulomb`).
//
// Their columns in the projected equations P Y pi + P S^T theta = P A_m f_m are those of the torque
// sensor offsets (IdentificationRows::torque_offset_columns, P S^T e_j) times the term's value at
// the sample. An armature column can coincide with the base parameters' columns (a fixed base's
// first joint: I_a qdd_1 acts exactly as the first link's inertia about its axis); such a term is
// grouped: it is not estimated, and the base parameter it adds to carries it
// (group_friction_columns).

#include <string>
#include <vector>

#include "dynid/core/types.hpp"

namespace dynid {

struct JointFrictionTerms {
  bool viscous = false, coulomb = false, offset = false, armature = false;
  /// Coulomb friction with one level per direction: the terms "coulomb_positive", "coulomb_negative".
  bool coulomb_asymmetric = false;
  /// v_s of tanh(qd / v_s) [rad/s]; 0: the sign function. 0.02 rad/s: the sign's jump spread over
  /// about 1 degree per second, below the velocities an excitation runs at and above the noise of
  /// encoder velocities filtered at 10 Hz.
  double coulomb_smoothing_velocity = 0.02;

  bool any() const { return viscous || coulomb || coulomb_asymmetric || offset || armature; }
  /// The enabled terms in column order: "viscous", "coulomb", "coulomb_positive",
  /// "coulomb_negative", "offset", "armature".
  std::vector<std::string> names() const;
  int count() const { return static_cast<int>(names().size()); }
};

/// `--friction viscous,coulomb,offset` (any subset of viscous, coulomb, coulomb-asymmetric, offset
/// and armature, comma-separated; "" or "none": no friction) and `--armature`. Throws
/// std::invalid_argument naming an unknown term, and for coulomb-asymmetric with coulomb or offset
/// (the same span; `what` names the list, e.g. "--friction" or "--friction-joint elbow").
JointFrictionTerms parse_joint_friction_terms(const std::string& friction, bool armature,
                                              double coulomb_smoothing_velocity = 0.02,
                                              const std::string& what = "--friction");

/// Value of `term` ("viscous", "coulomb", "coulomb_positive", "coulomb_negative", "offset" or
/// "armature") at joint velocity `qd` and acceleration `qdd`: the factor its parameter multiplies.
double joint_friction_regressor(const std::string& term, double qd, double qdd, double coulomb_smoothing_velocity);

/// How friction columns relate to the base parameters' columns, from equations stacked at random
/// states: a column in the span of the base columns (and the friction columns kept before it) is
/// not separable.
struct FrictionGrouping {
  std::vector<bool> separable;  ///< per friction column
  /// Per friction column: its coefficients on the base columns when it is not separable (the
  /// identified base parameters then carry coefficient * its value); zero otherwise.
  MatrixX base_coefficients;  ///< num_base x num_friction
};

/// `base_rows` (rows x num_base) and `friction_rows` (rows x num_friction), the same equations.
/// Relative residual below `tolerance`: not separable.
FrictionGrouping group_friction_columns(const MatrixX& base_rows, const MatrixX& friction_rows,
                                        double tolerance = 1e-8);

}  // namespace dynid
