// The least-squares fit of paper 002 (eqs. 22-27) on synthetic servo trials whose voltages come from
// the physical motor and friction equations written out here: it must find the alphas, the
// reaction time and the Stribeck shape, and refuse broken input with a reason.

#include "dynid/actuator/actuator_fit.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace dynid {
namespace {

struct Truth {
  double n = 225.0, k = 0.011318, r = 3.9, cv = 1.0, tc = 1.0, ts = 1.25, j = 0.0044;
  double qs = 0.1, delta = 0.75;
  int delay = 16;  // samples of 1 ms
};

/// A trial: the joint moves along a sum of sines under gravity-like load; the firmware applied
/// the voltage of the physical equations at each instant, from a command sent `delay` earlier.
ActuatorTrialSeries synthetic_trial(const Truth& t, double gain, int samples) {
  ActuatorTrialSeries s;
  s.dt_s = 1e-3;
  s.gain_per_rad = gain;
  std::vector<double> u(std::size_t(samples + t.delay));
  for (int i = 0; i < samples + t.delay; ++i) {
    const double time = i * 1e-3;
    const double q = 0.4 * std::sin(2.0 * time) + 0.2 * std::sin(5.3 * time + 1.0);
    const double qd = 0.8 * std::cos(2.0 * time) + 1.06 * std::cos(5.3 * time + 1.0);
    const double qdd = -1.6 * std::sin(2.0 * time) - 5.618 * std::sin(5.3 * time + 1.0);
    const double tau_o = 0.05 * qdd + 2.0 * std::sin(q);
    const double beta = std::exp(-std::pow(std::abs(qd) / t.qs, t.delta));
    const double sign = qd > 0 ? 1.0 : (qd < 0 ? -1.0 : 0.0);
    const double friction = sign * ((1 - beta) * t.tc + beta * t.ts) + t.cv * qd;
    const double current = (tau_o + friction + t.j * qdd) / (t.n * t.k);
    u[std::size_t(i)] = t.r * current + t.k * t.n * qd;
    s.position_rad.push_back(q);
    s.qdot_rad_s.push_back(qd);
    s.qddot_rad_s2.push_back(qdd);
    s.tau_o_nm.push_back(tau_o);
    s.supply_v.push_back(14.8 - 0.3 * std::abs(current));
  }
  // The command sent at i acts at i + delay: U(i + d) = gain U_bat (q_d(i) - q(i + d)).
  for (int i = 0; i < samples + t.delay; ++i) {
    const std::size_t m = std::size_t(std::min(i + t.delay, samples + t.delay - 1));
    s.command_rad.push_back(s.position_rad[m] + u[m] / (gain * s.supply_v[m]));
  }
  return s;
}

TEST(ActuatorFit, FindsTheAlphasReactionTimeAndStribeckShapeOfSyntheticTrials) {
  const Truth t;
  const ActuatorTrialSeries trial = synthetic_trial(t, 2.5, 12000);
  ActuatorFitOptions o;
  o.reaction_times_s = {0.0, 0.008, 0.016, 0.024, 0.032};
  const ActuatorFit fit = fit_actuator({trial}, o);
  EXPECT_NEAR(fit.model.reaction_time_s, 0.016, 1e-12);
  EXPECT_NEAR(fit.model.stribeck.velocity_rad_s, 0.1, 1e-12);
  EXPECT_NEAR(fit.model.stribeck.exponent, 0.75, 1e-12);
  const double kn = t.n * t.k, a0 = t.r / kn;
  const ActuatorAlpha expected{a0, kn + a0 * t.cv, a0 * t.tc, a0 * t.ts, a0 * t.j};
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_NEAR(fit.model.alpha[i], expected[i], 1e-6 * std::abs(expected[i])) << "alpha" << i;
    EXPECT_LT(fit.alpha_std[i], 1e-6 * std::abs(expected[i]) + 1e-9);
  }
  EXPECT_LT(fit.rms_v, 1e-8);
}

TEST(ActuatorFit, NoisyVoltagesGiveStandardDeviationsThatCoverTheError) {
  const Truth t;
  ActuatorTrialSeries trial = synthetic_trial(t, 2.5, 12000);
  // A measurement error on the position (what a quantised encoder adds to U_hat).
  unsigned state = 7;
  for (double& q : trial.position_rad) {
    state = state * 1103515245u + 12345u;
    q += 1e-3 * (double(state % 1000) / 1000.0 - 0.5);
  }
  ActuatorFitOptions o;
  o.reaction_times_s = {0.016};
  o.stribeck_velocities = {0.1};
  o.stribeck_exponents = {0.75};
  const ActuatorFit fit = fit_actuator({trial}, o);
  const double kn = t.n * t.k, a0 = t.r / kn;
  const ActuatorAlpha expected{a0, kn + a0 * t.cv, a0 * t.tc, a0 * t.ts, a0 * t.j};
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_GT(fit.alpha_std[i], 0.0);
    EXPECT_LT(std::abs(fit.model.alpha[i] - expected[i]), 5.0 * fit.alpha_std[i]) << "alpha" << i;
  }
}

TEST(ActuatorFit, RefusesBrokenTrials) {
  const Truth t;
  ActuatorTrialSeries trial = synthetic_trial(t, 2.5, 3000);
  EXPECT_THROW(fit_actuator({}), std::invalid_argument);
  ActuatorTrialSeries nan = trial;
  nan.supply_v[10] = std::nan("");
  EXPECT_THROW(fit_actuator({nan}), std::invalid_argument);
  ActuatorTrialSeries short_one = trial;
  short_one.position_rad.pop_back();
  EXPECT_THROW(fit_actuator({short_one}), std::invalid_argument);
  ActuatorTrialSeries no_gain = trial;
  no_gain.gain_per_rad = 0.0;
  EXPECT_THROW(fit_actuator({no_gain}), std::invalid_argument);
}

}  // namespace
}  // namespace dynid
