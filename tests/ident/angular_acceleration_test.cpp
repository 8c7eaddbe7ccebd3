// The root's angular acceleration from accelerometers (paper 001, eqs. 23-29): exact readings give
// omega_dot exactly, noisy ones scatter as the least-squares covariance predicts, and a layout that
// cannot determine it is refused. The differences of the ACD against polynomials they must be exact on.

#include <gtest/gtest.h>

#include <random>

#include "dynid/ident/actuator_differentiation.hpp"
#include "dynid/ident/angular_acceleration.hpp"
#include "dynid/spatial/explog.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

Vector3 random_vector(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return {u(rng), u(rng), u(rng)};
}

// A rigid body's specific force at r (body axes), read in a sensor's axes R (sensor -> body).
Vector3 reading(const AccelerometerMount& m, const Vector3& a_origin, const Vector3& w, const Vector3& wd) {
  const Vector3 a = a_origin + wd.cross(m.position) + w.cross(w.cross(m.position));
  return m.rotation.transpose() * a;
}

AccelerometerArray walker_array() {
  const Robot robot = test::bundled_robot("walker");
  std::vector<std::string> names;
  for (const auto& a : robot.sidecar->accelerometers) names.push_back(a.name);
  return AccelerometerArray::from_model(robot.model, robot.sidecar->imu->name, names);
}

TEST(AngularAcceleration, ExactReadingsGiveOmegaDotExactly) {
  std::mt19937 rng(1);
  // The walker's layout, and a random one with misaligned sensors.
  std::vector<AccelerometerArray> arrays{walker_array()};
  AccelerometerMount ref{"imu", random_vector(rng, 0.1), exp3(random_vector(rng, 1.0))};
  std::vector<AccelerometerMount> others;
  for (int j = 0; j < 4; ++j)
    others.push_back({"acc" + std::to_string(j), random_vector(rng, 0.1), exp3(random_vector(rng, 1.0))});
  arrays.emplace_back(ref, others);
  for (const AccelerometerArray& array : arrays) {
    for (int trial = 0; trial < 20; ++trial) {
      const Vector3 a = random_vector(rng, 20.0), w = random_vector(rng, 5.0), wd = random_vector(rng, 50.0);
      Eigen::Matrix3Xd readings(3, array.others().size());
      for (std::size_t j = 0; j < array.others().size(); ++j)
        readings.col(static_cast<Eigen::Index>(j)) = reading(array.others()[j], a, w, wd);
      const Vector3 a0 = reading(array.reference(), a, w, wd);
      const Vector3 got = array.angular_acceleration(w, a0, readings);
      EXPECT_LT((got - wd).norm(), 1e-9 * wd.norm());
      // And the specific force moved to the body origin.
      EXPECT_LT((array.specific_force_at(Vector3::Zero(), w, wd, a0) - a).norm(), 1e-9 * a.norm());
    }
  }
}

TEST(AngularAcceleration, NoisyReadingsScatterAsTheLeastSquaresPredicts) {
  const AccelerometerArray array = walker_array();
  // BMI088-class accelerometer at 500 Hz: 175 ug/sqrt(Hz) * sqrt(500) (sim/sensor_noise.hpp).
  const double sigma = 175e-6 * 9.80665 * std::sqrt(500.0);
  std::mt19937 rng(2);
  std::normal_distribution<double> noise(0.0, sigma);
  const int n = 4000;
  Matrix3 scatter = Matrix3::Zero();
  for (int trial = 0; trial < n; ++trial) {
    const Vector3 a = random_vector(rng, 10.0), w = random_vector(rng, 3.0), wd = random_vector(rng, 20.0);
    Eigen::Matrix3Xd readings(3, 3);
    for (int j = 0; j < 3; ++j)
      readings.col(j) =
          reading(array.others()[static_cast<std::size_t>(j)], a, w, wd) + Vector3(noise(rng), noise(rng), noise(rng));
    const Vector3 a0 = reading(array.reference(), a, w, wd) + Vector3(noise(rng), noise(rng), noise(rng));
    const Vector3 e = array.angular_acceleration(w, a0, readings) - wd;
    scatter += e * e.transpose() / n;
  }
  const Matrix3 predicted = sigma * sigma * array.noise_covariance_per_unit_variance();
  for (int axis = 0; axis < 3; ++axis) {
    SCOPED_TRACE(axis);
    // 4000 samples: the sample variance is within 5 % of the true one (4.5 standard errors).
    EXPECT_NEAR(std::sqrt(scatter(axis, axis)), std::sqrt(predicted(axis, axis)),
                0.05 * std::sqrt(predicted(axis, axis)));
  }
  // With the walker's 4-8 cm offsets, omega_dot's noise is of order sigma / r: about 1 rad/s^2.
  EXPECT_LT(std::sqrt(predicted.trace()), 3.0);
}

TEST(AngularAcceleration, ACollinearLayoutIsRefusedNamingTheSensors) {
  const AccelerometerMount ref{"imu", Vector3::Zero(), Matrix3::Identity()};
  const std::vector<AccelerometerMount> line{{"acc_a", Vector3(0.05, 0, 0), Matrix3::Identity()},
                                             {"acc_b", Vector3(-0.08, 0, 0), Matrix3::Identity()}};
  try {
    AccelerometerArray array(ref, line);
    FAIL() << "collinear accelerometers accepted";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("acc_a"), std::string::npos) << what;
    EXPECT_NE(what.find("acc_b"), std::string::npos) << what;
    EXPECT_NE(what.find("one line"), std::string::npos) << what;
  }
  EXPECT_THROW(AccelerometerArray(ref, {}), std::invalid_argument);
  // Two offsets that are not parallel determine all three components.
  EXPECT_NO_THROW(AccelerometerArray(ref, {line[0], {"acc_c", Vector3(0, 0.06, 0), Matrix3::Identity()}}));
}

TEST(ActuatorDifferentiation, DifferencesAreExactOnQuadratics) {
  const double dt_sample = 0.001;
  MatrixX q(50, 2);
  for (int k = 0; k < 50; ++k) {
    const double t = k * dt_sample;
    q(k, 0) = 1.0 + 2.0 * t + 3.0 * t * t;
    q(k, 1) = -0.5 * t * t;
  }
  VectorX rate(2), acc(2);
  const Eigen::Index stride = 2, k = 20;
  const double dt = stride * dt_sample, t = k * dt_sample;
  actuator_derivatives(q, k, stride, dt, DifferenceScheme::Central, rate, acc);
  EXPECT_NEAR(rate[0], 2.0 + 6.0 * t, 1e-9);
  EXPECT_NEAR(acc[0], 6.0, 1e-6);
  EXPECT_NEAR(acc[1], -1.0, 1e-6);
  actuator_derivatives(q, k, stride, dt, DifferenceScheme::Backward, rate, acc);
  // The backward quotient is the rate half a step earlier; its acceleration is exact on quadratics.
  EXPECT_NEAR(rate[0], 2.0 + 6.0 * (t - dt / 2), 1e-9);
  EXPECT_NEAR(acc[0], 6.0, 1e-6);
}

}  // namespace
}  // namespace dynid
