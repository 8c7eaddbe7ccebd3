// Streaming least squares against a direct solve of all rows at once, and recovering a robot's
// base parameters from its base-link equations (paper 003: contact forces only).

#include "dynid/ident/streaming_least_squares.hpp"

#include <gtest/gtest.h>

#include <Eigen/QR>
#include <algorithm>
#include <random>

#include "dynid/dynamics/regressor.hpp"
#include "dynid/dynamics/rnea.hpp"
#include "dynid/ident/base_parameters.hpp"
#include "dynid/model/lock_joints.hpp"
#include "dynid/model/random_state.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

TEST(StreamingLeastSquares, EqualsTheDirectSolution) {
  std::mt19937 rng(1);
  std::normal_distribution<double> g(0.0, 1.0);
  const int p = 12, m = 5003;
  MatrixX A(m, p);
  VectorX x_true(p), b(m), w(m);
  for (int i = 0; i < p; ++i) x_true[i] = g(rng);
  for (int r = 0; r < m; ++r) {
    for (int c = 0; c < p; ++c) A(r, c) = g(rng) * (1.0 + c);  // uneven column scales
    w[r] = r % 3 == 0 ? 100.0 : 1.0;                           // mixed row weights
  }
  b = A * x_true + 0.01 * VectorX::NullaryExpr(m, [&] { return g(rng); });
  StreamingLeastSquares ls(p, 37);  // an odd block size: folds at arbitrary places
  for (int r = 0; r < m; r += 250) {
    const int n = std::min(250, m - r);
    ls.add(A.middleRows(r, n), b.segment(r, n), w.segment(r, n));
  }
  const LeastSquaresSolution s = ls.solve();
  const VectorX sw = w.cwiseSqrt();
  const MatrixX Aw = sw.asDiagonal() * A;
  const VectorX bw = sw.asDiagonal() * b;
  const VectorX direct = Aw.colPivHouseholderQr().solve(bw);
  EXPECT_LT((s.x - direct).norm(), 1e-10 * direct.norm());
  const double rss = (Aw * direct - bw).squaredNorm();
  EXPECT_NEAR(s.residual_rms, std::sqrt(rss / m), 1e-10);
  const MatrixX cov = (Aw.transpose() * Aw).inverse() * (rss / (m - p));
  EXPECT_LT((s.standard_deviation - cov.diagonal().cwiseSqrt()).norm(), 1e-8 * cov.diagonal().cwiseSqrt().norm());
  EXPECT_EQ(s.rows, m);
}

// A random problem whose rows come in three kinds: dense, and zero outside one of two column sets.
struct SparseRowsProblem {
  static constexpr int p = 24;
  std::vector<int> set_a{0, 3, 4, 5, 9, 10, 11, 17, 23}, set_b{1, 2, 6, 7, 8, 20};
  MatrixX A;
  VectorX b, w;
  std::vector<int> kind;  ///< per row: 0 dense, 1 set_a, 2 set_b

  explicit SparseRowsProblem(int m) : A(MatrixX::Zero(m, p)), b(m), w(m), kind(static_cast<std::size_t>(m)) {
    std::mt19937 rng(3);
    std::normal_distribution<double> g(0.0, 1.0);
    VectorX x_true(p);
    for (int i = 0; i < p; ++i) x_true[i] = g(rng);
    for (int r = 0; r < m; ++r) {
      const int k = kind[static_cast<std::size_t>(r)] = r % 7 == 0 ? 0 : (r % 2 ? 1 : 2);
      for (int c = 0; c < p; ++c) {
        const std::vector<int>& set = k == 1 ? set_a : set_b;
        if (k == 0 || std::find(set.begin(), set.end(), c) != set.end()) A(r, c) = g(rng) * (1.0 + 0.3 * c);
      }
      w[r] = r % 5 == 0 ? 50.0 : 1.0;
    }
    b = A * x_true + 0.01 * VectorX::NullaryExpr(m, [&] { return g(rng); });
  }

  /// Adds rows [begin, end) to `ls` through the column groups `ga`, `gb` (or all through add() if < 0).
  void add_to(StreamingLeastSquares& ls, int begin, int end, int ga, int gb) const {
    for (int r = begin; r < end; ++r) {
      const int k = kind[static_cast<std::size_t>(r)];
      const VectorX wr = w.segment(r, 1), br = b.segment(r, 1);
      if (k == 0 || ga < 0)
        ls.add(A.row(r), br, wr);
      else
        ls.add(k == 1 ? ga : gb, A(Eigen::seq(r, r), k == 1 ? set_a : set_b), br, wr);
    }
  }
};

TEST(StreamingLeastSquares, ColumnGroupsEqualTheDenseHouseholderQr) {
  const SparseRowsProblem P(3001);
  StreamingLeastSquares grouped(P.p, 29), plain(P.p, 29);
  const int ga = grouped.add_column_group(P.set_a), gb = grouped.add_column_group(P.set_b);
  P.add_to(grouped, 0, 3001, ga, gb);
  P.add_to(plain, 0, 3001, -1, -1);
  const LeastSquaresSolution s = grouped.solve(), t = plain.solve();
  EXPECT_EQ(s.rows, 3001);
  EXPECT_LT((s.x - t.x).norm(), 1e-12 * t.x.norm());
  EXPECT_NEAR(s.residual_rms, t.residual_rms, 1e-12 * t.residual_rms);
  EXPECT_LT((s.standard_deviation - t.standard_deviation).norm(), 1e-12 * t.standard_deviation.norm());
  // Against one dense Householder QR of all weighted rows.
  const VectorX sw = P.w.cwiseSqrt();
  const MatrixX Aw = sw.asDiagonal() * P.A;
  const VectorX bw = sw.asDiagonal() * P.b;
  const VectorX direct = Aw.householderQr().solve(bw);
  EXPECT_LT((s.x - direct).norm(), 1e-12 * direct.norm());
  const MatrixX& R = grouped.information_factor();
  const MatrixX AtA = Aw.transpose() * Aw;
  EXPECT_LT((R.transpose() * R - AtA).norm(), 1e-12 * AtA.norm());
  EXPECT_NEAR(grouped.residual_sum_of_squares(), (Aw * direct - bw).squaredNorm(), 1e-10);
  // Rows after a solve keep accumulating in the groups.
  grouped.add(ga, P.A(Eigen::seq(1, 1), P.set_a), P.b.segment(1, 1));
  plain.add(P.A.row(1), P.b.segment(1, 1));
  EXPECT_LT((grouped.solve().x - plain.solve().x).norm(), 1e-12 * t.x.norm());
}

TEST(StreamingLeastSquares, MergedStreamsEqualOneStream) {
  const SparseRowsProblem P(2000);
  StreamingLeastSquares one(P.p);
  const int ga = one.add_column_group(P.set_a), gb = one.add_column_group(P.set_b);
  P.add_to(one, 0, 2000, ga, gb);
  // Three streams; the second declares its groups in the other order, the third has none and
  // leaves rows pending (fewer than a block).
  StreamingLeastSquares s1(P.p), s2(P.p), s3(P.p, 500);
  const int a1 = s1.add_column_group(P.set_a), b1 = s1.add_column_group(P.set_b);
  const int b2 = s2.add_column_group(P.set_b), a2 = s2.add_column_group(P.set_a);
  P.add_to(s1, 0, 900, a1, b1);
  P.add_to(s2, 900, 1700, a2, b2);
  P.add_to(s3, 1700, 2000, -1, -1);
  s1.merge(s2);
  s1.merge(s3);
  const LeastSquaresSolution merged = s1.solve(), single = one.solve();
  EXPECT_EQ(merged.rows, 2000);
  EXPECT_LT((merged.x - single.x).norm(), 1e-12 * single.x.norm());
  EXPECT_NEAR(merged.residual_rms, single.residual_rms, 1e-12 * single.residual_rms);
  EXPECT_LT((merged.standard_deviation - single.standard_deviation).norm(), 1e-12 * single.standard_deviation.norm());
  // The merged-in stream is unchanged and still solves its own rows.
  EXPECT_EQ(s3.rows(), 300);
  EXPECT_NO_THROW(s3.solve());
}

TEST(StreamingLeastSquares, BadColumnGroupsAreRejected) {
  StreamingLeastSquares ls(5);
  EXPECT_THROW(ls.add_column_group({0, 2, 1}), std::invalid_argument);
  EXPECT_THROW(ls.add_column_group({0, 5}), std::invalid_argument);
  EXPECT_THROW(ls.add_column_group({-1, 2}), std::invalid_argument);
  const int g = ls.add_column_group({1, 3});
  EXPECT_THROW(ls.add(g, MatrixX::Ones(2, 3), VectorX::Ones(2)), std::invalid_argument);
  EXPECT_THROW(ls.add(g + 1, MatrixX::Ones(2, 2), VectorX::Ones(2)), std::invalid_argument);
  StreamingLeastSquares other(4);
  EXPECT_THROW(ls.merge(other), std::invalid_argument);
  EXPECT_THROW(ls.merge(ls), std::invalid_argument);
}

TEST(StreamingLeastSquares, RankDeficiencyNamesTheParameters) {
  StreamingLeastSquares ls(3);
  MatrixX A(50, 3);
  VectorX b = VectorX::Ones(50);
  for (int r = 0; r < 50; ++r) A.row(r) << r, 2.0 * r, 1.0;  // columns 0 and 1 are parallel
  ls.add(A, b);
  try {
    ls.solve({"arm.m", "arm.mcx", "arm.Izz"});
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("arm.m"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("arm.mcx"), std::string::npos) << e.what();
  }
  StreamingLeastSquares few(3);
  few.add(A.topRows(2), b.head(2));
  EXPECT_THROW(few.solve(), std::runtime_error);
  EXPECT_THROW(few.add(A.topRows(1), VectorX::Constant(1, NAN)), std::invalid_argument);
}

TEST(StreamingLeastSquares, ContactOnlyRowsRecoverTheBaseParameters) {
  // Kid-size humanoid, arms locked (18 DOF): the base wrench needed for random motions is all the
  // data (paper 003); the 94 base parameters come back exactly from noise-free rows.
  const Robot kid = test::bundled_robot("kid_humanoid");
  std::vector<JointLock> locks;
  for (const Body& b : kid.model.bodies)
    if (b.joint_name.find("shoulder") != std::string::npos || b.joint_name.find("elbow") != std::string::npos)
      locks.push_back({b.joint_name, 0.0});
  const Model model = lock_joints(kid.model, locks);
  BaseParameterOptions options;
  options.rows = base_link_rows(model);
  const BaseParameters base = compute_base_parameters(model, options);
  ASSERT_EQ(base.num_base(), 94);

  Data data(model);
  std::mt19937 rng(9);
  StreamingLeastSquares ls(base.num_base());
  for (int k = 0; k < 400; ++k) {
    const auto s = random_state(model, rng);
    const VectorX wrench = rnea(model, data, s.q, s.v, s.a).head<6>();
    const MatrixX Y = joint_torque_regressor(model, data, s.q, s.v, s.a).topRows<6>();
    ls.add(base_regressor(base, Y), wrench);
  }
  std::vector<std::string> names;
  for (int k = 0; k < base.num_base(); ++k) names.push_back(base.name(k));
  const LeastSquaresSolution sol = ls.solve(names);
  const VectorX truth = base_parameter_values(base, model.inertial_parameters());
  EXPECT_LT((sol.x - truth).cwiseAbs().maxCoeff() / truth.cwiseAbs().maxCoeff(), 1e-6);
}

}  // namespace
}  // namespace dynid
