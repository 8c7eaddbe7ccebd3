#pragma once
// Row weights from the residuals (Gautier's weighted least squares) for streamed identification data.
//
// Sensor-noise weights (IdentificationRows::weights) make rows unit-consistent, but on a real robot
// an equation's error is rarely its sensors' noise: the base rows carry the estimated base motion's
// error, joint-torque rows a torque sensor's offset and gain. Gautier's method weights each equation
// by the inverse of its own residual variance after a first fit. dynid keeps the sensor weights and
// scales each equation group g by 1 / s_g^2, s_g^2 = max(1, RSS_g(x) / n_g) in sensor-noise units:
// a group whose residuals exceed its sensors' noise is trusted less; none is trusted more than its
// sensors allow (so noise-free data keep their weights).
//
// An equation group is the i-th of the r equations a sample contributes (key (r, i)): for `full` and
// `contact` the rows of one generalized coordinate. Each group folds into its own stream, whose factor
// gives RSS_g at any x (||W^(1/2)(A_g x - b_g)||^2 = ||R_g x - z_g||^2 + rss_g): re-weighting costs no
// second pass over the data, only merges.

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "dynid/ident/streaming_least_squares.hpp"

namespace dynid {

struct EquationGroupScale {
  int equations_per_sample = 0;  ///< r of the samples in the group
  int equation = 0;              ///< i, 0 .. r-1
  long rows = 0;                 ///< n_g
  double scale = 1.0;            ///< s_g: the group's residual RMS in sensor-noise units, at least 1
  std::string label;             ///< readable name (set by the caller, e.g. the generalized coordinate)
};

class ResidualWeighting {
 public:
  explicit ResidualWeighting(int num_parameters);

  /// Adds one sample's equations (rows A, right-hand side b, sensor-noise weights w).
  void add(const Eigen::Ref<const MatrixX>& A, const Eigen::Ref<const VectorX>& b,
           const Eigen::Ref<const VectorX>& weights);

  /// Fits with the current scales, re-estimates the scales from that fit's residuals, `iterations`
  /// times, and returns the stream of the last weighting. `finish` adds to a merged stream what is
  /// not data (e.g. the prior toward the nominal model) before it is solved.
  StreamingLeastSquares fit(const std::function<void(StreamingLeastSquares&)>& finish, int iterations,
                            const std::vector<std::string>& names);

  std::vector<EquationGroupScale> scales() const;
  long rows() const { return rows_; }

 private:
  StreamingLeastSquares merged();
  int p_;
  long rows_ = 0;
  std::map<std::pair<int, int>, int> group_of_;  ///< (r, i) -> index into groups_
  std::vector<StreamingLeastSquares> groups_;
  std::vector<EquationGroupScale> scales_;
  MatrixX row_;  ///< 1 x p buffer
};

}  // namespace dynid
