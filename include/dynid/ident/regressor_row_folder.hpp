#pragma once
// The per-sample step of identification: the selected equation rows of a regressor, restricted to
// the base columns, folded into a StreamingLeastSquares by their structure.
//
// Which parameters can act on an equation is fixed by the kinematic tree, whatever the state:
//  - a joint's torque row involves only the bodies of its subtree (a prismatic joint's force row
//    only their mass and first moment);
//  - the force rows of the base-link equations involve only masses and first moments (a body's
//    rotational inertia produces no net force), the moment rows every parameter.
// Rows with the same support share a column group of the least-squares stream, so a row costs the
// square of its support instead of the square of all base parameters. The result is that of
// folding the full base-regressor rows (streaming_least_squares.hpp).

#include <vector>

#include "dynid/ident/base_parameters.hpp"
#include "dynid/ident/streaming_least_squares.hpp"

namespace dynid {

/// Per selected equation row (base.rows order): the base parameters (ascending indices into
/// base.independent) that can act on it at some state.
std::vector<std::vector<int>> equation_row_supports(const Model& model, const BaseParameters& base);

class RegressorRowFolder {
 public:
  /// Declares one column group per distinct support in `ls` (base.num_base() parameters); rows whose
  /// support is every base parameter go to the full factor. `model` and `base` must outlive it.
  RegressorRowFolder(const Model& model, const BaseParameters& base, StreamingLeastSquares& ls);

  /// Folds one sample into `ls` (the stream given to the constructor, or one set up by setup() from
  /// the same model and base). `Y`: a regressor whose row r is equation r and whose columns are the
  /// standard parameters (joint_torque_regressor; base_link_regressor when only base-link rows are
  /// selected); `y`: the observed generalized forces of the selected rows (base.rows order);
  /// `weights`: per selected row, or empty for 1. Allocates nothing per sample (a fold, once per
  /// 1024 buffered rows of a group, lets Eigen's QR take its workspace).
  void add(StreamingLeastSquares& ls, const Eigen::Ref<const MatrixX>& Y, const Eigen::Ref<const VectorX>& y,
           const Eigen::Ref<const VectorX>& weights = VectorX());

  /// Declares the same column groups in another stream (one stream per thread, merged afterwards).
  void setup(StreamingLeastSquares& ls);

 private:
  struct Group {
    int id = 0;                  ///< column group in the stream (0: all columns)
    std::vector<int> rows;       ///< positions in base.rows
    std::vector<int> equations;  ///< the equation rows themselves (rows of Y)
    std::vector<int> base;       ///< base parameters (columns of the group)
    std::vector<int> standard;   ///< their standard parameters (columns of Y)
    MatrixX A;                   ///< rows x base.size() scratch
    VectorX b, w;
  };
  const BaseParameters& base_;
  std::vector<Group> groups_;
};

}  // namespace dynid
