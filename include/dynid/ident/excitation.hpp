#pragma once
// Excitation trajectory design (`dynid excite`): a finite Fourier series per joint
// (ident/fourier_trajectory.hpp, Swevers et al. 1997) chosen so that the base regressor
// (ident/base_parameters.hpp) stacked over the motion is well conditioned for the chosen sensor rows:
// minimum condition number, or maximum log det of W^T W (D-optimal).
//
// Three situations, all with the base link standing still so the motion is one a robot can do:
//   fixed-base  the robot's base is welded to the world (servo_bench): every joint moves.
//   base-held   a floating robot on a stand (base held upright, e.g. hung in a gantry; the 6
//               base-link rows are the wrench at the mount): every joint moves.
//   fixed-feet  a floating robot standing on both feet: the legs hold a standing pose (they are
//               locked, welded to the base: nothing in them moves, so the base stands still) and the
//               other joints (arms, torso, head) move; the ZMP, from dynid's RNEA of the nominal
//               model, stays inside a shrunk support polygon (docs/identification.md).
// The base parameters are those of the situation: computed from random states with the base still
// (and the locked joints welded), so the design's full rank is the rank that motion can reach.
//
// Constraints: every joint stays inside its position limits less a margin, below a fraction of
// its velocity limit and below an acceleration bound, guaranteed by the analytic bounds of
// FourierTrajectory (not only on samples). Optimizer: random feasible starts, then projected
// gradient descent (forward finite differences, backtracking step) on log cond (or -log det / n).

#include <functional>
#include <string>
#include <vector>

#include "dynid/ident/fourier_trajectory.hpp"
#include "dynid/model/lock_joints.hpp"
#include "dynid/model/robot.hpp"

namespace dynid {

struct ExcitationOptions {
  double duration_s = 10.0;        ///< sampled window [s]
  double base_frequency_hz = 0.0;  ///< f [Hz]; 0 = 1 / duration (one period)
  int harmonics = 5;               ///< N per joint
  std::string criterion = "cond";  ///< "cond" | "logdet"
  std::string sensors;             ///< "contact" (base-link rows) | "full" (all rows); empty: contact if floating
  std::vector<JointLock> locks;    ///< joints held still at given positions
  bool fixed_feet = false;         ///< floating robot standing on both feet (needs its sidecar soles)
  int samples = 0;                 ///< regressor samples over the window; 0 = 4 rows per base parameter, >= 100
  int iterations = 100;            ///< gradient iterations
  int restarts = 8;                ///< random feasible starts; the best is optimized
  unsigned seed = 1;
  double velocity_fraction = 0.8;  ///< of each joint's velocity limit (5 rad/s when the URDF has none)
  double max_acceleration = 10.0;  ///< [rad/s^2] or [m/s^2]
  double position_margin = 0.05;   ///< fraction of each joint's range kept free at both ends
  double zmp_margin = 0.5;         ///< fraction of the support polygon's half-size the ZMP may use (fixed feet)
  /// Called after each iteration with (iteration, current condition number, message); may be empty.
  std::function<void(int, double, const std::string&)> progress;
};

/// Quality of a trajectory: the stacked base regressor W over the window.
struct ExcitationMetrics {
  double condition_number = 0.0;  ///< sigma_max / sigma_min of W (infinite when rank-deficient)
  double log_det = 0.0;           ///< log det(W^T W)
  int rank = 0;                   ///< numerical rank of W (relative tolerance 1e-10 on singular values)
  double zmp_use = 0.0;           ///< largest ZMP offset over the allowed one (fixed feet; <= 1 inside)
};

struct ExcitationDesign {
  FourierTrajectory trajectory;
  std::string mode;     ///< "fixed-base" | "base-held" | "fixed-feet"
  std::string sensors;  ///< "contact" | "full"
  std::string criterion;
  double duration_s = 0.0;
  double zmp_margin = 0.0;      ///< as in the options (fixed feet)
  std::vector<JointLock> held;  ///< joints held still (given locks and, with fixed feet, the legs)
  VectorX base_configuration;   ///< floating base: position [m] and quaternion x y z w of the still base
  int num_base_parameters = 0;
  int samples = 0;
  ExcitationMetrics initial;      ///< first random feasible start
  ExcitationMetrics best_random;  ///< best of the random starts
  ExcitationMetrics optimized;
  int iterations = 0;
};

/// Designs the trajectory. Throws std::invalid_argument with the reason for a bad option, a
/// joint with no room to move within its limits, contact rows on a fixed-base robot, or fixed feet
/// without two sidecar soles.
ExcitationDesign design_excitation(const Robot& robot, const ExcitationOptions& options);

/// The metrics of `traj` in the design's situation (recomputed: same model, rows and samples).
ExcitationMetrics evaluate_excitation(const Robot& robot, const ExcitationDesign& design,
                                      const FourierTrajectory& traj);

/// A standing pose of a floating robot on both sidecar soles: feet flat on z = 0 under the hips,
/// knees bent 0.35 rad where the limits allow, COM over the middle of the feet, base upright.
VectorX standing_configuration(const Model& model, const RobotSidecar& sidecar);

}  // namespace dynid
