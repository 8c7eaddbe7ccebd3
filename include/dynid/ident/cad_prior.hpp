#pragma once
// What the data do not determine stays at CAD (docs/identification.md, "The CAD prior").
//
// A CAD model is wrong by kilograms, not by orders of magnitude: each standard parameter of the
// nominal model gets a prior standard deviation on its own physical scale, for a body of nominal
// mass m, size L (the larger of its COM offset and its radius of gyration, at least 2 cm):
//   mass m: f m;   first moments m c: f m L;   inertia entries about the body origin: f m L^2
// with f = 0.3 by default. The prior on base parameters x = K pi is then N(K pi_0, K S K^T).
//
// The data's weight against it is estimated from the data (empirical Bayes): the rows are weighted
// by their sensors' noise, but on a real robot (and in a realistic simulation) an equation's error
// is larger and correlated in time. The training samples are folded into contiguous blocks; at the
// estimate x the blocks' scores s_b = H_b x - g_b have E[sum_b s_b^T M s_b] = c tr(M H) when the
// error is c times the sensor noise and independent between blocks, which gives c. The estimate
// minimizes (1/c) ||W^1/2 (A x - b)||^2 + (x - x0)^T P (x - x0), iterated with c to a fixed point;
// its covariance (H / c + P)^-1 covers both the data's error and, where the data are silent, the
// CAD model's.

#include <vector>

#include "dynid/model/model.hpp"

namespace dynid {

/// Prior standard deviation of each standard parameter (10 per moving body, Pinocchio order) of a
/// CAD model, `fraction` of the body's own scale (above). Bodies without mass get the scales of a
/// body of 1 % of the model's mean body mass.
VectorX cad_parameter_scales(const Model& nominal, double fraction = 0.3);

/// Information A^T W A and A^T W b of a contiguous stretch of samples.
struct InformationBlock {
  MatrixX H;
  VectorX g;
};

struct CadPriorFit {
  VectorX x;                ///< the estimate
  MatrixX covariance;       ///< (H / c + P)^-1
  double data_scale = 1.0;  ///< c: the equations' error in units of their sensors' noise, squared
  int iterations = 0;
  bool converged = false;
  VectorX prior_variance;      ///< diag(P^-1) where P is positive, else +inf (no prior)
  VectorX posterior_variance;  ///< diag(covariance)
};

/// The empirical-Bayes estimate above. `P`: prior information (p x p; zero rows and columns for
/// unknowns without a prior, e.g. sensor offsets, which the data must then determine), `x0` its
/// mean. Throws std::runtime_error when H / c + P is singular (an unknown neither the data nor the
/// prior determine) or there are fewer than 2 blocks.
CadPriorFit fit_with_cad_prior(const std::vector<InformationBlock>& blocks, const MatrixX& P, const VectorX& x0,
                               int max_iterations = 30);

/// Share of a parameter's prior variance the data removed: 1 - posterior / prior (0: kept at CAD,
/// 1: determined by the motion). 1 for unknowns without a prior.
VectorX determination(const CadPriorFit& fit);

/// "determined by this motion" (determination >= 0.75), "kept at CAD" (<= 0.25) or "partly determined".
const char* determination_status(double determination);

struct DeterminationCounts {
  int determined = 0, kept_at_cad = 0, partly = 0;
};
DeterminationCounts count_determination(const VectorX& determination);

}  // namespace dynid
