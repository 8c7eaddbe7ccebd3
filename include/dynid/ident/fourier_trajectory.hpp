#pragma once
// Finite Fourier series joint trajectories (Swevers et al. 1997), the periodic excitation motions
// `dynid excite` designs and `dynid simulate --scenario excite --motion TRAJ` plays. Per joint j,
// with w = 2 pi f the base angular frequency and l = 1..N the harmonics:
//   q_j(t)   = q0_j + sum_l a_jl / (w l) sin(w l t) - b_jl / (w l) cos(w l t)      [rad] or [m]
//   qd_j(t)  =        sum_l a_jl cos(w l t) + b_jl sin(w l t)                      [rad/s]
//   qdd_j(t) =        sum_l w l (-a_jl sin(w l t) + b_jl cos(w l t))               [rad/s^2]
// Each harmonic has the amplitude c_jl = hypot(a_jl, b_jl) (in velocity), so the bounds below are
// the sums of per-harmonic peaks: exact upper bounds, reached when the phases line up.
// The file format (JSON, "dynid-excitation") is in docs/data-format.md.

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "dynid/model/lock_joints.hpp"
#include "dynid/spatial/se3.hpp"

namespace dynid {

struct FourierTrajectory {
  double base_frequency_hz = 0.1;   ///< f [Hz]; the motion repeats every 1/f s
  std::vector<std::string> joints;  ///< joint names, one row of q0, a, b each
  VectorX q0;                       ///< offsets [rad] or [m]
  MatrixX a, b;                     ///< joints x harmonics [rad/s] or [m/s]
  /// Joints held still while the listed ones move (the design's locks; with fixed feet also the
  /// legs): played, they are welded at these positions.
  std::vector<JointLock> held;

  int num_joints() const { return static_cast<int>(joints.size()); }
  int harmonics() const { return static_cast<int>(a.cols()); }
  double omega() const;  ///< w = 2 pi f [rad/s]

  /// Positions, velocities, accelerations of the listed joints at time t [s] (sized by the caller
  /// to num_joints(); no allocation).
  void evaluate(double t, Eigen::Ref<VectorX> q, Eigen::Ref<VectorX> qd, Eigen::Ref<VectorX> qdd) const;

  /// Upper bounds over all t of |q_j - q0_j|, |qd_j|, |qdd_j|.
  double position_bound(int j) const;
  double velocity_bound(int j) const;
  double acceleration_bound(int j) const;
};

/// The trajectory as the "dynid-excitation" JSON object (coefficients, held joints and, sampled at
/// `sample_rate_hz` over `duration_s`, q(t) of the joints), with `extra` members merged in.
nlohmann::json to_json(const FourierTrajectory& traj, double duration_s, double sample_rate_hz,
                       const nlohmann::json& extra);

/// Reads a "dynid-excitation" JSON file. Throws std::runtime_error naming the file and the problem
/// (unreadable, not JSON, wrong format, missing or non-finite coefficients, unequal harmonics, a
/// held joint without a name or a finite position). A file without `held_joints` holds none.
FourierTrajectory read_fourier_trajectory(const std::string& path);

}  // namespace dynid
