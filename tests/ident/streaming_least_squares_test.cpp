// Streaming least squares against a direct solve of all rows at once, and recovering a robot's
// base parameters from its base-link equations (paper 003: contact forces only).

#include "dynid/ident/streaming_least_squares.hpp"

#include <gtest/gtest.h>

#include <Eigen/QR>
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
