#pragma once
// Marker inverse kinematics (paper 000, eq. 7): per motion-capture frame, the configuration q
// (floating base pose and joints) that minimises sum_m w_m ||x_m(q) - y_m||^2, x_m the model's
// virtual marker (sidecar `markers`, a point fixed on a body) and y_m the measured one (world, m).
//
// Weighted Levenberg-Marquardt on the configuration manifold: the base moves by its body twist
// (integrate(), SE(3) exponential), joints add. Joint limits are respected by projection: a joint
// at a limit whose step points outward is held for that iteration, the rest is re-solved.
// Missing markers (NaN) are skipped. The first frame starts from the base orientation and position
// its markers give (Kabsch, initial_configuration); later frames start from the previous solution.
// Buffers are sized at construction: solve() does not allocate (tests/dynamics/no_allocation_test.cpp).

#include <string>
#include <vector>

#include <Eigen/Cholesky>

#include "dynid/dynamics/data.hpp"

namespace dynid {

/// A virtual marker: a point fixed on a body.
struct ModelMarker {
  std::string name;
  int body = 0;                      ///< index into Model::bodies
  Vector3 offset = Vector3::Zero();  ///< position in the body frame [m]
  double weight = 1.0;               ///< weight of its residual (1 / sigma^2 up to a common factor)
};

/// The model's marker frames (FrameKind::Marker, from the sidecar), in model order.
std::vector<ModelMarker> model_markers(const Model& model);

struct MarkerIkOptions {
  int max_iterations = 100;
  double step_tolerance = 1e-12;  ///< stop when the step norm falls below this [rad, m]
  double cost_tolerance = 1e-12;  ///< or when an accepted step lowers the cost by less than this fraction
  double initial_damping = 1e-6;  ///< Levenberg-Marquardt lambda (relative to diag(J^T W J)) to start with
  bool joint_limits = true;
  bool base_only = false;  ///< hold the joints at their start values, solve the floating base only
};

/// How one frame went.
struct MarkerIkFrame {
  int iterations = 0;
  bool converged = false;
  int markers_used = 0;
  double rms = 0.0;  ///< RMS distance model - measured marker over the used markers [m]
  double max = 0.0;  ///< largest such distance [m]
};

class MarkerIk {
 public:
  /// Throws if a marker names a body outside the model or there are no markers.
  MarkerIk(const Model& model, std::vector<ModelMarker> markers, MarkerIkOptions options = {});

  const Model& model() const { return model_; }
  const std::vector<ModelMarker>& markers() const { return markers_; }
  /// Replace offsets (after calibration); same markers, same order.
  void set_offsets(const std::vector<Vector3>& offsets);

  /// Solves one frame. `measured`: 3 x markers, world [m], a column with NaN = missing. `q`: start
  /// value in, solution out (nq). Needs at least 3 markers; otherwise q is left unchanged and
  /// markers_used says why.
  MarkerIkFrame solve(const Eigen::Ref<const Eigen::Matrix3Xd>& measured, Eigen::Ref<VectorX> q);

  /// Marker positions of the model at q (3 x markers, world).
  Eigen::Matrix3Xd model_positions(const VectorX& q);

  /// A start for the first frame: base orientation and position from the markers on the base body
  /// (Kabsch; needs 3 visible ones, otherwise the base stays upright and only moves to fit the
  /// centroid of all markers), joints at the neutral configuration.
  VectorX initial_configuration(const Eigen::Ref<const Eigen::Matrix3Xd>& measured) const;

 private:
  double evaluate(const Eigen::Ref<const Eigen::Matrix3Xd>& measured, const Eigen::Ref<const VectorX>& q,
                  bool jacobian);
  /// normal_ = J^T W J and gradient_ = J^T W residual from the last evaluate with the Jacobian,
  /// summed marker by marker over the columns that move it.
  void normal_equations();
  void clamp_to_limits(Eigen::Ref<VectorX> q) const;

  const Model& model_;
  std::vector<ModelMarker> markers_;
  MarkerIkOptions options_;
  Data data_;
  MatrixX J_;                              ///< 3 markers x nv; of each marker only its support columns are written
  VectorX residual_;                       ///< measured - model, 3 markers
  VectorX weights_;                        ///< per row
  std::vector<char> active_;               ///< per marker: visible, with a non-zero weight, at the last evaluate
  std::vector<int> support_;               ///< the velocity columns that move each marker, ascending, concatenated
  std::vector<int> support_begin_;         ///< marker m's: support_[support_begin_[m] .. support_begin_[m + 1])
  Eigen::Matrix3Xd S_linear_, S_angular_;  ///< joint motion subspace columns in the world frame (about its origin)
  MatrixX normal_;                         ///< J^T W J
  MatrixX H_;                              ///< J^T W J + damping, held coordinates decoupled
  VectorX gradient_;                       ///< J^T W residual
  VectorX step_;
  VectorX rhs_;  ///< gradient_ with held coordinates zeroed
  VectorX q_trial_;
  VectorX diag_;
  std::vector<char> held_;  ///< per velocity coordinate: held at a limit this iteration
  Eigen::LDLT<MatrixX> ldlt_;
  int used_ = 0;
  double max_distance_ = 0.0;
  double sum_squared_ = 0.0;
};

/// Least-squares marker offsets in their body frames from frames whose configurations are known
/// (e.g. solved with the current offsets): each offset = the mean, over the frames where the marker
/// is visible, of the measured position expressed in its body frame. Markers never visible keep
/// their offset. `measured[f]` is 3 x markers, `q[f]` the configuration of frame f.
std::vector<Vector3> calibrate_marker_offsets(const Model& model, const std::vector<ModelMarker>& markers,
                                              const std::vector<Eigen::Matrix3Xd>& measured,
                                              const std::vector<VectorX>& q);

/// Calibration from a neutral (static) trial: alternately solve the frames and re-fit the offsets,
/// `rounds` times. Updates `ik`'s offsets; returns the final configurations of the frames.
std::vector<VectorX> calibrate_from_neutral_trial(MarkerIk& ik, const std::vector<Eigen::Matrix3Xd>& measured,
                                                  int rounds = 3);

}  // namespace dynid
