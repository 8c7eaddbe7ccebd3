#pragma once
// Static identification of segment masses and centres of mass (paper 000, eqs. 8-9):
//
//   min_p  sum_n w_n || GCOM_xy(q_n, p) - COP_xy,n ||^2 / sigma_cop^2  +  || (p - p0) / sigma_p ||^2
//   s.t.   total mass of the model = the weighed mass M
//
// p = (m_s, c_s) per chosen segment s: its mass and its COM in its body frame (paper 000's
// parameterization; the GCOM is a ratio of first moment to mass, nonlinear in p). Other bodies stay
// fixed. Solved by Gauss-Newton with Levenberg-Marquardt damping; the linear mass constraint is
// kept exactly in every step (KKT system).
//
// Static poses see only the horizontal first moment of the robot, so some combinations of p are
// invisible to them (a child's mass against its parent's COM along the joint offset, masses whose
// joint offsets never tilt, ...). The weak prior around p0 (sigma_p: a fraction of each mass and a
// COM length) picks one answer for those and is negligible for the rest; observability() names the
// combinations the poses cannot see (data information below the prior's).
//
// p0, the start and anchor: with prior `scaled` every body of the nominal model is first scaled by
// M / nominal mass (masses, rotational inertias; COMs kept), the usual first correction of a CAD
// model; fixed bodies stay at those scaled values. With prior `nominal`, fixed bodies keep their
// nominal values (paper 000) and the chosen segments start scaled by what the weighed mass leaves them.
// Rotational inertia about the COM is scaled with each segment's mass (the poses say nothing about it).

#include <string>
#include <vector>

#include "dynid/model/model.hpp"

namespace dynid {

/// One averaged static pose: configuration and the measured centre of pressure (= GCOM).
struct MeasuredStaticPose {
  std::string label;
  VectorX q;                      ///< nq
  Vector3 cop = Vector3::Zero();  ///< world [m] (x, y used)
  double weight = 1.0;            ///< pose weight w_n
  bool heldout = false;           ///< kept out of the fit, used to validate
};

enum class StaticPrior { Scaled, Nominal };

struct StaticIdentificationOptions {
  double total_mass = 0.0;    ///< weighed mass M [kg]
  std::vector<int> segments;  ///< bodies to update (Model::bodies indices); empty = default_static_segments
  StaticPrior prior = StaticPrior::Scaled;
  double cop_sigma = 0.5e-3;  ///< [m] expected COP-GCOM disagreement of one pose
  double mass_sigma = 0.5;    ///< prior sigma of a segment mass, fraction of its start mass
  double com_sigma = 0.05;    ///< prior sigma of a COM coordinate [m]
  int max_iterations = 100;
};

struct SegmentEstimate {
  std::string name;  ///< body name
  int body = 0;
  double mass_before = 0.0, mass_after = 0.0;                         ///< [kg]
  Vector3 com_before = Vector3::Zero(), com_after = Vector3::Zero();  ///< body frame [m]
};

/// A combination of parameters the poses cannot determine.
struct UnobservableDirection {
  double information = 0.0;  ///< singular value of the scaled data Jacobian on it (< 1: the prior decides)
  std::vector<std::pair<std::string, double>> parameters;  ///< main components (unit-sigma scaled)
};

struct StaticIdentificationResult {
  Model identified;
  std::vector<SegmentEstimate> segments;
  std::vector<std::string> parameter_names;  ///< "<segment>.mass", "<segment>.com_x", ...
  std::vector<std::string> unobservable;     ///< parameters mostly in unobservable directions
  std::vector<UnobservableDirection> directions;
  int rank = 0;  ///< observable combinations (of parameters - 1)
  int iterations = 0;
  bool converged = false;
  double cost = 0.0;
};

/// The paper's main segments on this robot (documented rule, docs/identification-static.md): the
/// base body and every body whose name or merged link names contain pelvis, torso, trunk, chest,
/// thigh, shank, shin, calf, upper_arm, forearm, lower_arm or hand.
std::vector<int> default_static_segments(const Model& model);

/// Mass of `model` scaled by `factor`: masses, first moments and rotational inertias.
Model scaled_model(const Model& model, double factor);

/// Fits the poses that are not held out. Throws on bad input (no poses, total mass not above the
/// fixed bodies' mass, non-finite values, a segment that is the universe).
StaticIdentificationResult identify_static(const Model& nominal, const std::vector<MeasuredStaticPose>& poses,
                                           const StaticIdentificationOptions& options);

/// Horizontal distance between the model's GCOM (center_of_mass, projected along z) at q and `cop` [m].
double gcom_error(const Model& model, const VectorX& q, const Vector3& cop);

}  // namespace dynid
