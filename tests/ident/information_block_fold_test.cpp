// The CAD prior's blocks of training rows in bounded memory: each block's information is that of
// its own rows (A^T W A, A^T W b, computed directly here), the total is that of all rows, and past
// the cap neighbouring blocks merge into blocks of twice the length whose information is again
// that of their rows.

#include <gtest/gtest.h>

#include <random>

#include "dynid/ident/cad_prior.hpp"

namespace dynid {
namespace {

struct Rows {
  MatrixX A;
  VectorX b, w;
  double time;
};

std::vector<Rows> random_samples(int count, int p, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> n(0.0, 1.0);
  std::vector<Rows> out;
  for (int k = 0; k < count; ++k) {
    Rows r{MatrixX(3, p), VectorX(3), VectorX(3), 0.01 * k};
    for (Eigen::Index i = 0; i < r.A.size(); ++i) r.A.data()[i] = n(rng);
    for (int i = 0; i < 3; ++i) {
      r.b[i] = n(rng);
      r.w[i] = 0.5 + std::abs(n(rng));
    }
    out.push_back(r);
  }
  return out;
}

/// A^T W A and A^T W b of samples [first, last).
InformationBlock direct(const std::vector<Rows>& s, std::size_t first, std::size_t last, int p) {
  InformationBlock out{MatrixX::Zero(p, p), VectorX::Zero(p)};
  for (std::size_t k = first; k < last; ++k) {
    out.H += s[k].A.transpose() * s[k].w.asDiagonal() * s[k].A;
    out.g += s[k].A.transpose() * s[k].w.asDiagonal() * s[k].b;
  }
  return out;
}

TEST(InformationBlockFold, BlocksHoldTheInformationOfTheirOwnRows) {
  const int p = 5;
  const auto samples = random_samples(1000, p, 3);  // 10 s at 100 Hz
  for (const std::size_t cap : {std::size_t{100}, std::size_t{8}}) {
    StreamingLeastSquares total(p);
    InformationBlockFold fold(total, 0.5, cap);
    for (const Rows& r : samples) fold.add(r.A, r.b, r.w, r.time);
    fold.finish();
    // 20 blocks of 0.5 s; with a cap of 8: merged at 10 into 5 of 1 s, and again into 5 of 2 s.
    const std::size_t expected_blocks = cap == 100 ? 20 : 5;
    ASSERT_EQ(fold.blocks().size(), expected_blocks) << cap;
    EXPECT_DOUBLE_EQ(fold.block_s(), cap == 100 ? 0.5 : 2.0);
    std::size_t first = 0;
    for (std::size_t b = 0; b < fold.blocks().size(); ++b) {
      const std::size_t last = first + static_cast<std::size_t>(fold.samples()[b]);
      ASSERT_LE(last, samples.size());
      const InformationBlock ref = direct(samples, first, last, p);
      EXPECT_LT((fold.blocks()[b].H - ref.H).norm(), 1e-10 * ref.H.norm()) << cap << " block " << b;
      EXPECT_LT((fold.blocks()[b].g - ref.g).norm(), 1e-10 * ref.g.norm()) << cap << " block " << b;
      first = last;
    }
    EXPECT_EQ(first, samples.size());
    for (const long n : fold.samples()) EXPECT_EQ(n, cap == 100 ? 50 : 200);  // one length
    const InformationBlock all = direct(samples, 0, samples.size(), p);
    const MatrixX& R = total.information_factor();
    EXPECT_LT((R.transpose() * R - all.H).norm(), 1e-10 * all.H.norm());
    EXPECT_LT((R.transpose() * total.factor_rhs() - all.g).norm(), 1e-10 * all.g.norm());
  }
}

}  // namespace
}  // namespace dynid
