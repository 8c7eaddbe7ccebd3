#pragma once
// Actuator coordinate differentiation (ACD, paper 001 sect. 4.4.1): joint rates and accelerations by
// difference quotients of the encoder positions at the actuator-controller rate, which on a real
// robot (1 kHz servo loops) is faster than the field bus that carries them to the main controller
// (125 Hz). Real-time safe: no allocation.

#include <string>
#include <utility>
#include <vector>

#include "dynid/core/types.hpp"

namespace dynid {

enum class DifferenceScheme {
  Backward,  ///< causal: q_dot = (q_k - q_{k-1}) / dt, q_ddot = (q_k - 2 q_{k-1} + q_{k-2}) / dt^2
  Central,   ///< one sample of delay: (q_{k+1} - q_{k-1}) / 2 dt, (q_{k+1} - 2 q_k + q_{k-1}) / dt^2
};

const char* to_string(DifferenceScheme scheme);
DifferenceScheme parse_difference_scheme(const std::string& text);  ///< "backward" | "central"; throws otherwise

/// Rates and accelerations at row k of `positions` (rows = samples of the encoder stream, columns =
/// joints), differentiated at every `stride`-th row (the ACD rate = encoder rate / stride), dt =
/// stride / encoder rate [s]. Writes `rate` and `acceleration` (size = columns). Rows outside the
/// stream are clamped to its ends (the first and last samples then have zero rate).
void actuator_derivatives(const Eigen::Ref<const MatrixX>& positions, Eigen::Index k, Eigen::Index stride, double dt,
                          DifferenceScheme scheme, Eigen::Ref<VectorX> rate, Eigen::Ref<VectorX> acceleration);

/// What the difference quotients at stride s do to a signal sampled at the encoder rate, as
/// weights on its samples (offset from row k, weight): `rate` is the window the first difference
/// averages the velocity over (the mean over (k - s, k + s] centrally, (k - s, k] backward), and
/// `acceleration` the triangle the second difference averages the acceleration with (centred on k,
/// backward on k - s). Sensors read through them describe the same time window as the joints.
struct DifferenceKernels {
  std::vector<std::pair<Eigen::Index, double>> rate, acceleration;
};
DifferenceKernels difference_kernels(Eigen::Index stride, DifferenceScheme scheme);

}  // namespace dynid
