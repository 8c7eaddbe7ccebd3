#pragma once
// Base (minimal) inertial parameters of a model for a chosen set of equation rows.
//
// The dynamics are linear in the standard parameters pi (10 per moving body, Model::parameter_names;
// papers 003 eq. 2, 004 eq. 3): Y(q, v, a) pi = generalized forces. Not every column of Y is
// independent: a parameter may never act on the selected equations (its column is identically zero:
// it is unidentifiable), or act only in a fixed linear combination with others (paper 003 appendix A,
// eqs. 11-13: each link's M, MS_z and J_yy regroup into its parent's). The base parameters are the
// independent combinations (paper 003 eq. 3):
//   Y pi = Y_base pi_base,   Y_base = Y[:, independent],   pi_base = K pi = pi_I + beta pi_D.
//
// dynid finds them numerically (Gautier's method): it stacks Y at random states of the model (folded
// block by block into the n x n triangular factor R of a QR, which has the same column relations),
// scales every column to unit norm so units do not bias the decision, takes the rank from a
// column-pivoted QR and then chooses the independent columns in model order, root first (a column is
// dependent when its distance from the span of the earlier independent columns is at most
// `rank_tolerance`; both decisions must agree). That
// order names each base parameter after the parameter nearest the root it contains, as the recursive
// grouping of paper 003 does (the base link's mass stands for the total mass). The result depends on
// the kinematics and on the selected rows only, never on the parameter values.
//
// Rows: all nv equations (joint torques and, for a floating base, the base wrench), only the 6
// base-link equations (identification from contact forces alone, paper 003 eq. 4: for a floating
// base they determine the same base parameters), or any selection by velocity-coordinate name.

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "dynid/model/model.hpp"
#include "dynid/model/random_state.hpp"

namespace dynid {

/// Every equation row, 0 .. nv-1.
std::vector<int> all_equation_rows(const Model& model);
/// The 6 base-link equations (base wrench in the base frame). Throws naming the model if it has a
/// fixed base.
std::vector<int> base_link_rows(const Model& model);
/// Rows by velocity-coordinate name (Model::velocity_names: "root_joint.vx", ..., joint names).
/// Throws naming the model and the unknown name.
std::vector<int> equation_rows(const Model& model, const std::vector<std::string>& names);

struct BaseParameterOptions {
  std::vector<int> rows;  ///< selected equation rows (indices into v); empty = all rows
  /// Random states stacked; 0 = enough for 4 rows per standard parameter, at least 20 states.
  int num_samples = 0;
  std::uint32_t seed = 1;  ///< seed of the random states (std::mt19937)
  /// Draws one state; empty = random_state(model). A constrained motion (base held still, feet on
  /// the ground) has fewer identifiable parameters than free random states: pass its own sampler.
  std::function<StateSample(std::mt19937&)> sample_state;
  /// A column counts as zero when its norm is at most this times the largest column norm; scaled to
  /// unit norm, it counts as dependent when its distance from the span of the earlier independent
  /// columns is at most this. Structural dependencies give ~1e-14 and independent columns of the
  /// bundled robots >= 0.05 (reported per run), so the decision has decades of margin either way.
  double rank_tolerance = 1e-8;
  /// A column farther than `rank_tolerance` from the span of the earlier independent ones but at
  /// most this far (unit scale) is regrouped as if dependent, its beta the least-squares one: joint
  /// axes within a fraction of a degree of parallel (a URDF's rounded rpy, a measured geometry) make
  /// a parameter act with a weight of this order, which no motion identifies, and keeping it as its own
  /// base parameter gives the others coefficients of 1 / distance (a knee axis 0.0006 deg off gave
  /// 1e5) that no prior or least squares handles in double precision. The regrouping changes
  /// Y pi by at most about this fraction of the regrouped parameter's own column. 0 (or anything up to
  /// `rank_tolerance`) keeps every column above `rank_tolerance` independent. The bundled robots' independent columns
  /// are >= 0.05.
  double near_dependence_tolerance = 1e-3;
};

struct ParameterTerm {
  int parameter = 0;         ///< index into Model::parameter_names()
  double coefficient = 0.0;  ///< its weight in the base parameter
};

struct UnidentifiableParameter {
  int parameter = 0;  ///< index into Model::parameter_names()
  std::string reason;
};

struct BaseParameters {
  std::string model_name;
  std::vector<int> rows;                     ///< the equation rows used
  std::vector<std::string> row_names;        ///< their velocity-coordinate names
  std::string rows_label;                    ///< "all 18 equations", "the 6 base-link equations" or the selection
  std::vector<std::string> parameter_names;  ///< standard parameters, Model::parameter_names()

  std::vector<int> independent;  ///< standard parameter of each base parameter (ascending, model order)
  std::vector<int> dependent;    ///< regrouped parameters: they act only through base parameters
  std::vector<UnidentifiableParameter> unidentifiable;  ///< parameters with an identically zero column
  /// The regrouped parameters (a subset of `dependent`) whose column is not exactly dependent, only
  /// within `near_dependence_tolerance` of it, with that distance (unit scale).
  std::vector<std::pair<int, double>> nearly_dependent;
  MatrixX beta;  ///< independent x dependent: Y[:, dependent] = Y[:, independent] beta
  MatrixX K;     ///< num_base x num_standard: pi_base = K pi
  /// Per base parameter: its own parameter (coefficient 1) first, then every dependent parameter whose
  /// contribution to that base column exceeds the rank tolerance (smaller ones are numerical zeros).
  std::vector<std::vector<ParameterTerm>> groups;

  // How the decision was taken (reported so a user can judge its margin).
  int num_samples = 0;
  std::uint32_t seed = 0;
  double rank_tolerance = 0.0;
  double near_dependence_tolerance = 0.0;
  double smallest_independent_distance = 0.0;  ///< weakest accepted column (unit scale); >> tolerance
  double largest_dependent_distance = 0.0;     ///< strongest exactly dependent column (unit scale); << tolerance

  int num_standard() const { return static_cast<int>(parameter_names.size()); }
  int num_base() const { return static_cast<int>(independent.size()); }
  /// Name of base parameter k: the name of its own standard parameter.
  const std::string& name(int k) const;
  /// "pelvis.m + l_hip_yaw_link.m + 0.05*l_thigh.mcz - ...": base parameter k as a readable sum.
  std::string expression(int k) const;
};

/// Base parameters of `model` for the selected rows. Throws std::invalid_argument for a bad row or
/// option, std::runtime_error naming the model if the rank decision is ambiguous at the tolerance.
/// Cost: num_samples regressors (~30 us each for a 30-body model) plus QRs of (5n x n) blocks, n the
/// number of standard parameters; about 0.1 s for the 31-body adult humanoid with the default samples.
BaseParameters compute_base_parameters(const Model& model, const BaseParameterOptions& options = {});

/// Y_base = Y[:, independent] for any regressor Y of the model (dim rows x num_standard).
MatrixX base_regressor(const BaseParameters& base, const MatrixX& Y);

/// pi_base = K pi for standard parameters pi (dim num_standard).
VectorX base_parameter_values(const BaseParameters& base, const VectorX& pi);

/// Human-readable report: counts, each base parameter's grouping, the unidentifiable parameters and
/// the rank decision's margin.
std::string format_report(const BaseParameters& base);

}  // namespace dynid
