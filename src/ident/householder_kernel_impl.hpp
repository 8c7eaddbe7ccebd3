// The Householder triangularization both kernels compile (householder_kernel.cpp, portable, and
// householder_kernel_avx2.cpp, AVX2 + FMA). Deliberately without an include guard or dynid
// headers: the AVX2 file includes it with Eigen's namespace renamed, so that none of the Eigen code
// compiled there with AVX2 instructions shares a symbol with the portable build of the same
// templates (the linker keeps one copy of each inline function; an AVX2 one would break CPUs
// without AVX2).

#include <Eigen/QR>

namespace {

/// Eigen's blocked Householder QR in place. Panels of 16 columns rather than HouseholderQR's 48:
/// the panel is factored column by column (level-2 work at memory speed), so narrow panels leave
/// more of the p = 100-odd columns of an identification fold to the blocked products.
void triangularize_in_place(double* A, Eigen::Index m, Eigen::Index n, Eigen::Index lda, double* work) {
  using Matrix = Eigen::Map<Eigen::MatrixXd, 0, Eigen::OuterStride<>>;
  using Vector = Eigen::Map<Eigen::VectorXd>;
  Matrix a(A, m, n, Eigen::OuterStride<>(lda));
  Vector h(work, n);
  Eigen::internal::householder_qr_inplace_blocked<Matrix, Vector>::run(a, h, 16, work + n);
}

}  // namespace
