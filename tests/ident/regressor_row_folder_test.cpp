// Folding regressor rows by their support against folding every base column of every row, and the
// supports against the zeros of the regressor at random states.

#include "dynid/ident/regressor_row_folder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "dynid/dynamics/regressor.hpp"
#include "dynid/dynamics/rnea.hpp"
#include "dynid/model/urdf_reader.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

/// Random tree with revolute, prismatic and fixed joints, floating or not.
Model random_model(unsigned seed, bool floating) {
  UrdfReadOptions options;
  options.floating_base = floating;
  return read_urdf_string(test::random_tree_urdf(14, seed), "random", options);
}

TEST(RegressorRowFolder, SupportsContainEveryNonzeroEntry) {
  for (unsigned seed = 0; seed < 4; ++seed)
    for (bool floating : {false, true}) {
      const Model model = random_model(seed, floating);
      const BaseParameters base = compute_base_parameters(model);
      const std::vector<std::vector<int>> supports = equation_row_supports(model, base);
      ASSERT_EQ(supports.size(), base.rows.size());
      Data data(model);
      std::mt19937 rng(seed);
      int outside = 0;
      for (int k = 0; k < 5; ++k) {
        const test::State s = test::random_state(model, rng, 2.0);
        const MatrixX Yb = base_regressor(base, joint_torque_regressor(model, data, s.q, s.v, s.a));
        for (std::size_t r = 0; r < base.rows.size(); ++r) {
          const std::vector<int>& sup = supports[r];
          for (int c = 0; c < base.num_base(); ++c) {
            const bool in = std::find(sup.begin(), sup.end(), c) != sup.end();
            if (!in && Yb(base.rows[r], c) != 0.0) ++outside;
          }
        }
      }
      EXPECT_EQ(outside, 0) << "seed " << seed << " floating " << floating;
    }
}

TEST(RegressorRowFolder, EqualsFoldingAllBaseColumns) {
  const Model model = test::bundled_robot("biped16").model;
  for (bool contact : {true, false}) {
    BaseParameterOptions options;
    if (contact) options.rows = base_link_rows(model);
    const BaseParameters base = compute_base_parameters(model, options);
    const Eigen::Index n = static_cast<Eigen::Index>(base.rows.size());
    StreamingLeastSquares structured(base.num_base()), plain(base.num_base());
    RegressorRowFolder folder(model, base, structured);
    Data data(model);
    std::mt19937 rng(4);
    std::normal_distribution<double> noise(0.0, 0.5);
    VectorX weights(n);
    for (Eigen::Index r = 0; r < n; ++r) weights[r] = r % 3 == 0 ? 4.0 : 0.25;
    for (int k = 0; k < 300; ++k) {
      const StateSample s = random_state(model, rng);
      VectorX y = rnea(model, data, s.q, s.v, s.a)(base.rows);
      for (Eigen::Index r = 0; r < n; ++r) y[r] += noise(rng);
      const MatrixX& Y = contact ? MatrixX(base_link_regressor(model, data, s.q, s.v, s.a))
                                 : joint_torque_regressor(model, data, s.q, s.v, s.a);
      folder.add(structured, Y, y, weights);
      plain.add(base_regressor(base, Y(base.rows, Eigen::all)), y, weights);
    }
    const LeastSquaresSolution a = structured.solve(), b = plain.solve();
    EXPECT_EQ(a.rows, 300 * n);
    EXPECT_LT((a.x - b.x).norm(), 1e-12 * b.x.norm()) << (contact ? "contact" : "full");
    EXPECT_NEAR(a.residual_rms, b.residual_rms, 1e-12 * b.residual_rms);
    EXPECT_LT((a.standard_deviation - b.standard_deviation).norm(), 1e-12 * b.standard_deviation.norm());
  }
}

TEST(RegressorRowFolder, StreamsOnTwoThreadsMergeToOneStream) {
  const Model model = test::bundled_robot("biped16").model;
  const BaseParameters base = compute_base_parameters(model);
  StreamingLeastSquares one(base.num_base()), first(base.num_base()), second(base.num_base());
  RegressorRowFolder folder(model, base, one);
  folder.setup(first);
  folder.setup(second);
  Data data(model);
  std::mt19937 rng(6);
  for (int k = 0; k < 200; ++k) {
    const StateSample s = random_state(model, rng);
    const VectorX y = rnea(model, data, s.q, s.v, s.a) + VectorX::Constant(model.nv, 0.1 * (k % 5));
    const MatrixX& Y = joint_torque_regressor(model, data, s.q, s.v, s.a);
    folder.add(one, Y, y);
    folder.add(k < 120 ? first : second, Y, y);
  }
  first.merge(second);
  const LeastSquaresSolution a = first.solve(), b = one.solve();
  EXPECT_LT((a.x - b.x).norm(), 1e-12 * b.x.norm());
  EXPECT_NEAR(a.residual_rms, b.residual_rms, 1e-12 * b.residual_rms);
}

TEST(RegressorRowFolder, BadInputIsRejected) {
  const Model model = test::bundled_robot("biped16").model;
  const BaseParameters base = compute_base_parameters(model);
  StreamingLeastSquares wrong(3), ls(base.num_base());
  EXPECT_THROW(RegressorRowFolder(model, base, wrong), std::invalid_argument);
  RegressorRowFolder folder(model, base, ls);
  EXPECT_THROW(folder.add(ls, MatrixX::Zero(model.nv, 5), VectorX::Zero(model.nv)), std::invalid_argument);
  EXPECT_THROW(folder.add(ls, MatrixX::Zero(6, base.num_standard()), VectorX::Zero(model.nv)), std::invalid_argument);
}

}  // namespace
}  // namespace dynid
