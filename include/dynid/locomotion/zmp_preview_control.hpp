#pragma once
// COM trajectory from a ZMP reference by preview control of the cart-table model
// (Kajita et al. 2003, "Biped walking pattern generation by using preview control of zero-moment
// point", ICRA), one horizontal axis at a time.
//
// Cart-table model (Kajita 2003): a cart of the robot's mass at constant height zc above the ground,
// on a massless table; the ZMP of the cart is
//     p = x - (zc / g) xdd.
// With the jerk u = dxdd/dt as input and sample time T (Kajita 2003):
//     x(k+1) = A x(k) + B u(k),  p(k) = C x(k),   x = [x, xd, xdd],
//     A = [1 T T^2/2; 0 1 T; 0 0 1],  B = [T^3/6; T^2/2; T],  C = [1 0 -zc/g].
//
// Servo with integral action and preview (Kajita 2003, after Katayama et al. 1985): on the
// incremental system X(k) = [e(k); x(k) - x(k-1)], e = p - p_ref, with
//     Ã = [1 CA; 0 A],  B̃ = [CB; B],  Ĩ = [1; 0; 0; 0],  F̃ = [CA; A],  Q̃ = diag(Qe, 0, 0, 0),
// the cost sum Qe e^2 + R (u(k) - u(k-1))^2 is minimized by the incremental law
//     u(k) = u(k-1) - Gi e(k) - Gx (x(k) - x(k-1)) - sum_{j=1..NL} Gp(j) (p_ref(k+j) - p_ref(k+j-1)),
//     Gi = S^-1 B̃ᵀ P Ĩ,  Gx = S^-1 B̃ᵀ P F̃,  S = R + B̃ᵀ P B̃,
//     Gp(1) = -Gi,  Gp(j) = S^-1 B̃ᵀ X(j-1),  X(1) = -Acᵀ P Ĩ,  X(j) = Acᵀ X(j-1),
//     Ac = Ã - B̃ S^-1 B̃ᵀ P Ã,
// with P the stabilizing solution of the DARE of (Ã, B̃, Q̃, R) (locomotion/discrete_riccati.hpp).
// Summed over time this is Kajita 2003's u(k) = -Gi sum_{i<=k} e(i) - Gx x(k) - sum_j Gp(j) p_ref(k+j)
// up to a constant that the reference in the first preview window sets: the two agree when the robot
// has stood still for a horizon, but when the reference already changes within the first 1.6 s the
// summed form starts with a jerk kick (the ZMP leaps by tens of centimetres for a 10 cm step) while
// the incremental form is the optimum from rest (tests/sim: it matches a batch least-squares
// solution of the same cost). The incremental form also takes the reference beyond the horizon as
// constant at p_ref(k+NL) instead of zero.
//
// Units: metres, seconds; x in whatever ground-plane axis the caller runs it on.

#include <vector>

#include "dynid/spatial/skew.hpp"

namespace dynid {

using RowVector3 = Eigen::RowVector3d;

/// Discrete cart-table model of one axis.
struct CartTableModel {
  double com_height_m = 0.8;     ///< zc: COM height above the ground along the ground normal
  double gravity_mps2 = 9.81;    ///< g: gravity component along the ground normal (g cos(slope))
  double sample_time_s = 0.005;  ///< T

  Matrix3 A() const;
  Vector3 B() const;
  RowVector3 C() const;
  /// ZMP of the cart for a state [x, xd, xdd] (continuous time too: p = x - zc/g xdd).
  double zmp(const Vector3& state) const { return state[0] - com_height_m / gravity_mps2 * state[2]; }
};

struct PreviewControlParams {
  double com_height_m = 0.8;       ///< zc [m], along the ground normal
  double gravity_mps2 = 9.81;      ///< [m/s^2]; on a slope the generator uses its normal component
  double sample_time_s = 0.005;    ///< T [s] (Kajita 2003: 5 ms)
  double preview_horizon_s = 1.6;  ///< NL T [s] (Kajita 2003: 1.6 s)
  double zmp_error_weight = 1.0;   ///< Qe (Kajita 2003: 1)
  double jerk_weight = 1e-6;       ///< R, on the jerk increment (Kajita 2003: 1e-6)
};

struct PreviewGains {
  CartTableModel model;
  Eigen::Matrix4d riccati_solution;  ///< P of the incremental system (Ã, B̃, Q̃, R)
  double integral_gain = 0.0;        ///< Gi, on the accumulated ZMP error [m/s^3 per m]
  RowVector3 state_gain;             ///< Gx, on [x, xd, xdd]
  VectorX preview_gains;             ///< Gp(1..NL), on p_ref(k+1..k+NL)
  int riccati_iterations = 0;        ///< doubling iterations the DARE took

  /// The incremental system the DARE is posed on: Ã (4x4), B̃ (4x1), Q̃ (4x4), R (1x1).
  Eigen::Matrix4d augmented_A() const;
  Eigen::Vector4d augmented_B() const;
  Eigen::Matrix4d augmented_Q(double zmp_error_weight) const;
};

/// Solves the DARE and computes the gains. Throws std::invalid_argument naming a non-positive or
/// non-finite parameter, or a horizon shorter than one sample.
PreviewGains compute_preview_gains(const PreviewControlParams& params);

/// COM motion of one axis at the controller's sample times t_k = k T, with the jerk that drives it.
struct CartTableTrajectory {
  CartTableModel model;
  std::vector<Vector3> states;  ///< [x, xd, xdd] at t_k
  std::vector<double> jerks;    ///< u_k, constant on [t_k, t_{k+1})

  /// State at any time t in [0, (size - 1) T]: exact, the cubic a constant jerk draws between samples.
  /// Clamped to the first/last sample outside that interval.
  Vector3 state_at(double t) const;
  /// Model ZMP C x(t) at any time.
  double zmp_at(double t) const { return model.zmp(state_at(t)); }
  double duration_s() const { return static_cast<double>(states.size() - 1) * model.sample_time_s; }
};

/// Runs the preview servo (incremental law above) over `zmp_reference` (one value per sample t_k,
/// k = 0..n-1), starting at rest at the first reference value (x, u and the reference constant
/// before t_0), and returns n samples. Beyond the last sample the reference is held at its last
/// value (the robot stands).
CartTableTrajectory run_preview_control(const PreviewGains& gains, const std::vector<double>& zmp_reference);

}  // namespace dynid
