#pragma once
// Least squares with sign constraints on some unknowns: min ||A x - b||^2 subject to x_i >= 0 for
// every i with nonnegative[i], the others free. Friction and drive terms (viscous, Coulomb,
// armature) are physical only when non-negative; real data can drive an unconstrained estimate
// below zero (docs/identification.md, "A real arm's log").
//
// Lawson and Hanson's active-set method (Solving Least Squares Problems, 1974, ch. 23), with the
// free unknowns always in the passive set. Exact in a finite number of steps; sized for tens of
// unknowns.

#include <vector>

#include "dynid/core/types.hpp"

namespace dynid {

struct BoundedLeastSquares {
  VectorX x;
  std::vector<bool> at_bound;  ///< per unknown: held at zero by its constraint
  int iterations = 0;
};

/// Throws std::invalid_argument when sizes disagree and std::runtime_error when the free unknowns'
/// columns are rank deficient.
BoundedLeastSquares solve_bounded_least_squares(const MatrixX& A, const VectorX& b,
                                                const std::vector<bool>& nonnegative);

}  // namespace dynid
