#pragma once
// The Householder triangularization at the heart of StreamingLeastSquares::fold, in two builds of
// the same Eigen algorithm: the portable one (SSE2, dynid's Release flags) and, on x86-64, one
// compiled for AVX2 + FMA and chosen at run time when the CPU has both. Identification folds
// millions of rows (72,000 biped samples: 1.6 M), and the fold is most of its time
// (docs/performance.md); the wider instructions take about half of it. Both give R to rounding
// (the order of the sums differs, not the algorithm).

#include "dynid/core/types.hpp"

namespace dynid {

enum class FoldKernel {
  Portable,  ///< the instruction set the library was compiled for
  Avx2Fma,   ///< AVX2 + FMA (x86-64 CPUs since 2013-2015), when available
};

/// True when this build has the AVX2 + FMA kernel and the CPU running it supports both.
bool fold_kernel_available(FoldKernel kernel);
/// The kernel folds use now: Avx2Fma when available, unless the environment variable
/// DYNID_FOLD_KERNEL=portable (read once; `auto`, `avx2-fma` also accepted, anything else throws
/// std::invalid_argument at the first fold) or set_fold_kernel chose otherwise.
FoldKernel fold_kernel();
/// Chooses the kernel for every later fold in the process (benchmarks and tests compare them).
/// Throws std::invalid_argument when `kernel` is not available here.
void set_fold_kernel(FoldKernel kernel);
const char* fold_kernel_name(FoldKernel kernel);

/// Householder QR of A (m x n, m >= n, column-major with outer stride `lda`) in place: on return
/// A's upper triangle is R of A = Q R (the entries below it are the reflectors, overwritten freely).
/// `work`: 2 n doubles of scratch. Allocates only inside Eigen's blocked matrix products.
void householder_triangularize(double* A, Eigen::Index m, Eigen::Index n, Eigen::Index lda, double* work);

}  // namespace dynid
