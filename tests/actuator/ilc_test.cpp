// Paper 002's learning update (eq. 21) and windowed error (eq. 28) on cases with known answers.

#include "dynid/actuator/ilc.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace dynid {
namespace {

TEST(Ilc, WindowedErrorForgivesADelayShorterThanTheWindow) {
  // A reference at rest, a smooth move, at rest again; the measurement is it 10 samples late.
  std::vector<double> ref(400), late(400);
  for (int i = 0; i < 400; ++i)
    ref[std::size_t(i)] = i < 100 ? 0.0 : (i > 300 ? 1.0 : 0.5 - 0.5 * std::cos(M_PI * (i - 100) / 200.0));
  for (int i = 0; i < 400; ++i) late[std::size_t(i)] = ref[std::size_t(std::max(0, i - 10))];
  EXPECT_NEAR(max_windowed_error(ref, late, 25), 0.0, 1e-15);
  // Window 1 is the plain maximum error; a window shorter than the delay leaves part of it.
  double plain = 0.0;
  for (int i = 0; i < 400; ++i) plain = std::max(plain, std::abs(ref[std::size_t(i)] - late[std::size_t(i)]));
  EXPECT_DOUBLE_EQ(max_windowed_error(ref, late, 1), plain);
  EXPECT_GT(max_windowed_error(ref, late, 5), 0.3 * plain);
  EXPECT_LT(max_windowed_error(ref, late, 5), plain);
  // An offset is not forgiven.
  std::vector<double> offset(ref);
  for (double& x : offset) x += 0.02;
  EXPECT_NEAR(max_windowed_error(ref, offset, 25), 0.02, 1e-12);
}

TEST(Ilc, ArimotoUpdateConvergesGeometricallyOnAStaticPlant) {
  // y = 0.5 u + 0.1 sin: e_{k+1} = (1 - lambda 0.5) e_k.
  const std::size_t n = 50;
  std::vector<double> ref(n), u(n);
  for (std::size_t i = 0; i < n; ++i) ref[i] = std::sin(0.1 * double(i));
  u = ref;
  auto plant = [&](const std::vector<double>& c) {
    std::vector<double> y(n);
    for (std::size_t i = 0; i < n; ++i) y[i] = 0.5 * c[i] + 0.1 * std::sin(0.3 * double(i));
    return y;
  };
  double previous = max_windowed_error(ref, plant(u), 1);
  for (int k = 0; k < 10; ++k) {
    u = ilc_update(u, ref, plant(u), 0.8, 0);
    const double e = max_windowed_error(ref, plant(u), 1);
    EXPECT_NEAR(e, 0.6 * previous, 1e-12 + 1e-9 * previous);
    previous = e;
  }
}

TEST(Ilc, UpdateUsesTheErrorOneReactionTimeLater) {
  const std::vector<double> u{0, 0, 0, 0}, ref{0, 1, 2, 3}, y{0, 0, 0, 0};
  const std::vector<double> next = ilc_update(u, ref, y, 0.5, 2);
  EXPECT_EQ(next, (std::vector<double>{1.0, 1.5, 1.5, 1.5}));
  EXPECT_THROW(ilc_update(u, ref, std::vector<double>{0, 0}, 0.5, 0), std::invalid_argument);
}

TEST(Ilc, ReactionTimeOfADelayedResponse) {
  std::vector<double> ref(2000), y(2000);
  for (int i = 0; i < 2000; ++i)
    ref[std::size_t(i)] = std::sin(2 * M_PI * 1.3 * i * 1e-3) + 0.3 * std::sin(2 * M_PI * 3.1 * i * 1e-3);
  for (int i = 0; i < 2000; ++i) y[std::size_t(i)] = 0.9 * ref[std::size_t(std::max(0, i - 23))] + 0.05;
  EXPECT_EQ(estimate_reaction_samples(ref, y, 100), 23);
}

}  // namespace
}  // namespace dynid
