// The identification fold's two Householder kernels (portable and AVX2 + FMA) against Eigen's own
// HouseholderQR, and a whole identification with each against a dense QR of all its rows.

#include "dynid/ident/householder_kernel.hpp"

#include <gtest/gtest.h>

#include <Eigen/QR>
#include <random>

#include "dynid/dynamics/regressor.hpp"
#include "dynid/dynamics/rnea.hpp"
#include "dynid/ident/regressor_row_folder.hpp"
#include "dynid/model/random_state.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

std::vector<FoldKernel> available_kernels() {
  std::vector<FoldKernel> out;
  for (const FoldKernel k : {FoldKernel::Portable, FoldKernel::Avx2Fma})
    if (fold_kernel_available(k)) out.push_back(k);
  return out;
}

/// Restores the process's kernel when a test ends.
struct KernelScope {
  FoldKernel saved = fold_kernel();
  ~KernelScope() { set_fold_kernel(saved); }
};

/// R with each row's sign chosen so that its diagonal is non-negative (QR is unique up to that).
MatrixX sign_normalized(MatrixX R) {
  for (Eigen::Index i = 0; i < R.rows(); ++i)
    if (R(i, i) < 0.0) R.row(i) *= -1.0;
  return R;
}

TEST(HouseholderKernel, TriangularizesLikeEigensHouseholderQr) {
  KernelScope scope;
  std::mt19937 rng(11);
  std::normal_distribution<double> g(0.0, 1.0);
  const std::vector<std::pair<int, int>> shapes = {{1, 1}, {5, 5}, {40, 7}, {300, 37}, {1147, 123}, {200, 130}};
  for (const FoldKernel kernel : available_kernels()) {
    set_fold_kernel(kernel);
    for (const auto& [m, n] : shapes) {
      MatrixX A(m, n);
      for (Eigen::Index k = 0; k < A.size(); ++k) A.data()[k] = g(rng);
      A.col(n - 1) *= 1e6;  // columns of very different scales, as base parameters have
      // In a larger buffer (outer stride m + 3), whose rows below A must stay untouched.
      MatrixX buffer = MatrixX::Constant(m + 3, n, 42.0);
      buffer.topRows(m) = A;
      VectorX work(2 * n);
      householder_triangularize(buffer.data(), m, n, buffer.rows(), work.data());
      const MatrixX R = buffer.topRows(std::min(m, n)).triangularView<Eigen::Upper>();
      const Eigen::HouseholderQR<MatrixX> qr(A);
      const MatrixX expected = qr.matrixQR().topRows(std::min(m, n)).triangularView<Eigen::Upper>();
      EXPECT_LT((sign_normalized(R) - sign_normalized(expected)).norm(), 1e-13 * A.norm())
          << fold_kernel_name(kernel) << " " << m << " x " << n;
      EXPECT_TRUE((buffer.bottomRows(3).array() == 42.0).all()) << fold_kernel_name(kernel);
    }
  }
}

TEST(HouseholderKernel, UnavailableKernelIsRefusedByName) {
  KernelScope scope;
  if (fold_kernel_available(FoldKernel::Avx2Fma)) {
    EXPECT_EQ(fold_kernel(), FoldKernel::Avx2Fma);  // the default where the CPU has it
    GTEST_SKIP() << "this CPU has AVX2 and FMA: nothing to refuse";
  }
  try {
    set_fold_kernel(FoldKernel::Avx2Fma);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("avx2-fma"), std::string::npos) << e.what();
  }
}

// Identification of 2000 biped16 samples (contact and full sensing, rows folded by their support,
// two streams merged) equals, with either kernel, the solution of one dense QR of all the rows.
TEST(HouseholderKernel, IdentificationIsTheSameWithEitherKernel) {
  KernelScope scope;
  const Model model = test::bundled_robot("biped16").model;
  for (const bool contact : {true, false}) {
    BaseParameterOptions options;
    if (contact) options.rows = base_link_rows(model);
    const BaseParameters base = compute_base_parameters(model, options);
    const Eigen::Index n = static_cast<Eigen::Index>(base.rows.size());
    const int samples = 2000;
    std::mt19937 rng(7);
    std::normal_distribution<double> noise(0.0, 0.3);
    Data data(model);
    std::vector<MatrixX> Ys;
    std::vector<VectorX> ys;
    MatrixX dense(samples * n, base.num_base());
    VectorX rhs(samples * n);
    for (int k = 0; k < samples; ++k) {
      const StateSample s = random_state(model, rng);
      VectorX y = rnea(model, data, s.q, s.v, s.a)(base.rows);
      for (Eigen::Index r = 0; r < n; ++r) y[r] += noise(rng);
      Ys.push_back(contact ? MatrixX(base_link_regressor(model, data, s.q, s.v, s.a))
                           : joint_torque_regressor(model, data, s.q, s.v, s.a));
      ys.push_back(y);
      dense.middleRows(k * n, n) = base_regressor(base, Ys.back()(base.rows, Eigen::all));
      rhs.segment(k * n, n) = y;
    }
    const VectorX reference = dense.householderQr().solve(rhs);
    for (const FoldKernel kernel : available_kernels()) {
      set_fold_kernel(kernel);
      StreamingLeastSquares first(base.num_base()), second(base.num_base());
      RegressorRowFolder folder(model, base, first);
      folder.setup(second);
      for (int k = 0; k < samples; ++k)
        folder.add(k < samples / 2 ? first : second, Ys[static_cast<std::size_t>(k)], ys[static_cast<std::size_t>(k)]);
      first.merge(second);
      const LeastSquaresSolution x = first.solve();
      EXPECT_LT((x.x - reference).norm(), 1e-10 * reference.norm())
          << fold_kernel_name(kernel) << (contact ? " contact" : " full");
      EXPECT_LT((x.x - reference).cwiseAbs().maxCoeff(), 1e-10 * reference.cwiseAbs().maxCoeff());
    }
  }
}

}  // namespace
}  // namespace dynid
