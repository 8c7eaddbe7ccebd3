#pragma once
// The minimum of a smooth cost of a few variables (one to three) near a starting point, by
// successive quadratic fits: the cost at the point and at +-step along each axis (and at +step on
// each pair of axes) fixes a quadratic model, whose minimum is the next point; the step shrinks once
// the model's minimum lies within it. For costs that are expensive (each evaluation a whole
// identification fit, such as the residual of the fit as a function of the clocks' offsets:
// docs/identification.md, "Time alignment") and close to quadratic near their minimum.

#include <functional>
#include <string>

#include "dynid/core/types.hpp"

namespace dynid {

struct QuadraticSearchOptions {
  double initial_step = 3e-3;  ///< first step along each axis (the variables' unit)
  double final_step = 2.5e-4;  ///< the search stops once the step is below this
  double max_shift = 0.03;     ///< farthest point from the start on any axis
  int max_evaluations = 60;    ///< cost evaluations at most (the cache's hits are free)
};

struct QuadraticSearchResult {
  VectorX x;          ///< the best point evaluated within max_shift of the start (the start when nothing was lower)
  double cost = 0.0;  ///< the cost there
  double start_cost = 0.0;  ///< the cost at the start
  int evaluations = 0;      ///< distinct points evaluated
  bool converged = false;   ///< the step shrank below `final_step` with the minimum inside it
  /// The last quadratic model's second derivatives (cost per variable unit squared): its curvature
  /// at the minimum; empty when the last model was not positive definite.
  MatrixX hessian;
  std::string warning;  ///< non-empty when the search stopped without converging (why)
};

/// The point near `start` that minimises `cost`. The cost must be finite at the start; a non-finite
/// cost elsewhere counts as higher than every finite one.
QuadraticSearchResult quadratic_search(const std::function<double(const VectorX&)>& cost, const VectorX& start,
                                       const QuadraticSearchOptions& options = {});

}  // namespace dynid
