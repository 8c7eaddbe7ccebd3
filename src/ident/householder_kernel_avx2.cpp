// The AVX2 + FMA build of the Householder fold (householder_kernel.hpp). CMakeLists.txt compiles
// this file alone with -mavx2 -mfma on x86-64; elsewhere it is empty. Eigen is renamed for this
// file (householder_kernel_impl.hpp says why), so it includes no dynid header that uses Eigen.

#if defined(__AVX2__) && defined(__FMA__)
#include <cstddef>

#define Eigen dynid_eigen_avx2_fma
#include "householder_kernel_impl.hpp"

namespace dynid::detail {

void householder_triangularize_avx2_fma(double* A, std::ptrdiff_t m, std::ptrdiff_t n, std::ptrdiff_t lda,
                                        double* work) {
  triangularize_in_place(A, m, n, lda, work);
}

}  // namespace dynid::detail
#endif
