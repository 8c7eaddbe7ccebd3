// The encoders' backlash as a rotor crossing the gear's play (actuator/gear_dead_band.hpp): against the
// closed-form motion of a mass under a constant force with and without viscous damping, and in a
// recorded data set against the truth stream (written by another path of the recorder).

#include "dynid/actuator/gear_dead_band.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "dynid/io/csv_stream.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

constexpr double kWidth = 0.0017;  // [rad] the realistic testbed's 0.1 deg

TEST(GearDeadBand, ReversedTorqueCarriesTheRotorAcrossThePlayAsAFreeMass) {
  const double inertia = 0.004, torque = 0.05, dt = 1e-6;
  GearDeadBand band(kWidth, inertia);
  band.settle(+1.0);
  EXPECT_EQ(band.offset(), 0.5 * kWidth);
  // s(t) = w/2 - tau t^2 / (2 I) until the far flank, reached at sqrt(2 w I / tau).
  const double crossing = std::sqrt(2.0 * kWidth * inertia / torque);
  double t = 0.0, reached = -1.0;
  while (t < 2.0 * crossing) {
    const double s = band.step(-torque, dt);
    t += dt;
    if (t < 0.99 * crossing) {
      EXPECT_NEAR(s, 0.5 * kWidth - 0.5 * torque / inertia * t * t, 1e-3 * kWidth);
    }
    if (reached < 0.0 && s <= -0.5 * kWidth) reached = t;
  }
  EXPECT_NEAR(reached, crossing, 2.0 * dt);
  // At the flank and pressed against it: at rest there.
  EXPECT_EQ(band.offset(), -0.5 * kWidth);
  EXPECT_EQ(band.rate(), 0.0);
}

TEST(GearDeadBand, DampingSlowsTheCrossingAsTheClosedFormSays) {
  const double inertia = 0.25, damping = 2.0, torque = 1.0, dt = 1e-6;
  GearDeadBand band(kWidth, inertia, damping);
  band.settle(-1.0);
  // s(t) = -w/2 + (tau/D) (t - (I/D)(1 - exp(-D t / I))).
  for (double t = dt; t < 0.02; t += dt) {
    const double s = band.step(torque, dt);
    const double expected =
        -0.5 * kWidth + torque / damping * (t - inertia / damping * (1.0 - std::exp(-damping * t / inertia)));
    if (expected < 0.49 * kWidth) {
      ASSERT_NEAR(s, expected, 1e-3 * kWidth) << "t = " << t;
    }
  }
}

TEST(GearDeadBand, TorqueChatterMovesTheRotorOnlyAsFarAsItsImpulses) {
  // A torque reversing every millisecond moves a 0.004 kg m^2 rotor by at most tau/I * dt^2 per
  // step: no step of the whole play as an instant model would make.
  GearDeadBand band(kWidth, 0.004);
  band.settle(1.0);
  double largest_step = 0.0, previous = band.offset();
  for (int k = 0; k < 2000; ++k) {
    const double s = band.step(k % 2 == 0 ? -0.05 : 0.05, 1e-3);
    largest_step = std::max(largest_step, std::abs(s - previous));
    previous = s;
  }
  EXPECT_LE(largest_step, 2.0 * 0.05 / 0.004 * 1e-6 + 1e-15);
  // Without an armature the play is crossed at once, the sign of the torque naming the flank.
  GearDeadBand instant(kWidth, 0.0);
  EXPECT_EQ(instant.step(-0.01, 1e-3), -0.5 * kWidth);
  EXPECT_EQ(instant.step(0.01, 1e-3), 0.5 * kWidth);
}

TEST(GearDeadBand, RefusesWhatIsNoGear) {
  EXPECT_THROW(GearDeadBand(-1e-3, 0.01), std::invalid_argument);
  EXPECT_THROW(GearDeadBand(1e-3, -0.01), std::invalid_argument);
  EXPECT_THROW(GearDeadBand(std::nan(""), 0.01), std::invalid_argument);
  EXPECT_THROW(GearDeadBand(1e-3, 0.01, std::nan("")), std::invalid_argument);
}

TEST(GearDeadBand, RecordedEncodersCrossThePlayInMillisecondsNotAtOnce) {
  // biped16's drives (armature 0.25 kg m^2, sidecar) on the realistic testbed's encoders, one
  // second of the evaluation motion, the other perturbations off: encoder - true link angle is the
  // rotor's place in the play plus the 17-bit quantisation.
  const std::string dir = test::fresh_dir("gear_dead_band", "biped16");
  ScenarioOptions o;
  o.scenario = "excite";
  o.out_dir = dir;
  o.noise = NoiseLevel::Realistic;
  o.motion = "evaluation";
  o.duration_s = 1.0;
  o.perturbations = {};
  run_scenario(test::bundled_robot("biped16"), o);
  const CsvStream encoders = read_csv_stream(dir + "/encoders.csv");
  const CsvStream truth = read_csv_stream(dir + "/truth.csv");
  ASSERT_EQ(encoders.values.rows(), truth.values.rows());
  const double resolution = 2.0 * M_PI / 131072.0;
  double outside = 0.0, largest_step = 0.0;
  int inside = 0, samples = 0;
  for (const char* joint : {"l_hip_flexion", "l_knee", "r_ankle_flexion", "r_hip_adduction"}) {
    const Eigen::Index e = encoders.column(std::string("q.") + joint), q = truth.column(std::string("q.") + joint);
    double previous = std::nan("");
    for (Eigen::Index r = 0; r < encoders.values.rows(); ++r) {
      const double s = encoders.values(r, e) - truth.values(r, q);
      outside = std::max(outside, std::abs(s) - 0.5 * kWidth);
      if (std::abs(s) < 0.5 * kWidth - resolution) ++inside;
      ++samples;
      if (!std::isnan(previous)) largest_step = std::max(largest_step, std::abs(s - previous));
      previous = s;
    }
  }
  EXPECT_LE(outside, resolution);  // within the play, give or take a count
  EXPECT_GT(inside, 0);            // crossings take time: some samples are inside the play
  EXPECT_LT(inside, samples / 2);  // and most of the time the gear carries torque on a flank
  // No sample-to-sample step of the whole play (an instant model's); the motion's own quantised
  // 1 ms changes are a few counts.
  EXPECT_LT(largest_step, 0.5 * kWidth);
}

}  // namespace
}  // namespace dynid
