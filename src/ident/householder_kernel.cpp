#include "dynid/ident/householder_kernel.hpp"

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "householder_kernel_impl.hpp"

namespace dynid {
namespace detail {
#ifdef DYNID_AVX2_FOLD_KERNEL
void householder_triangularize_avx2_fma(double* A, std::ptrdiff_t m, std::ptrdiff_t n, std::ptrdiff_t lda,
                                        double* work);
#endif
}  // namespace detail

namespace {

bool cpu_has_avx2_fma() {
#ifdef DYNID_AVX2_FOLD_KERNEL
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
#else
  return false;
#endif
}

/// The default: AVX2 + FMA where available, unless DYNID_FOLD_KERNEL=portable asks for the
/// portable kernel (the same bits on every x86-64 machine).
FoldKernel default_kernel() {
  const char* env = std::getenv("DYNID_FOLD_KERNEL");
  const std::string choice = env ? env : "";
  if (choice == "portable") return FoldKernel::Portable;
  if (!choice.empty() && choice != "auto" && choice != "avx2-fma")
    throw std::invalid_argument("DYNID_FOLD_KERNEL=" + choice + ": expected portable, avx2-fma or auto");
  if (choice == "avx2-fma" && !cpu_has_avx2_fma())
    throw std::invalid_argument("DYNID_FOLD_KERNEL=avx2-fma: this build or CPU has no AVX2 + FMA kernel");
  return cpu_has_avx2_fma() ? FoldKernel::Avx2Fma : FoldKernel::Portable;
}

std::atomic<FoldKernel>& current_kernel() {
  static std::atomic<FoldKernel> kernel(default_kernel());
  return kernel;
}

}  // namespace

bool fold_kernel_available(FoldKernel kernel) { return kernel == FoldKernel::Portable || cpu_has_avx2_fma(); }

FoldKernel fold_kernel() { return current_kernel().load(std::memory_order_relaxed); }

void set_fold_kernel(FoldKernel kernel) {
  if (!fold_kernel_available(kernel))
    throw std::invalid_argument(std::string("fold kernel ") + fold_kernel_name(kernel) +
                                " is not available (not built for this processor, or the CPU lacks AVX2/FMA)");
  current_kernel().store(kernel, std::memory_order_relaxed);
}

const char* fold_kernel_name(FoldKernel kernel) { return kernel == FoldKernel::Avx2Fma ? "avx2-fma" : "portable"; }

void householder_triangularize(double* A, Eigen::Index m, Eigen::Index n, Eigen::Index lda, double* work) {
#ifdef DYNID_AVX2_FOLD_KERNEL
  if (fold_kernel() == FoldKernel::Avx2Fma) {
    detail::householder_triangularize_avx2_fma(A, m, n, lda, work);
    return;
  }
#endif
  triangularize_in_place(A, m, n, lda, work);
}

}  // namespace dynid
