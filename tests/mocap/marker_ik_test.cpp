// Marker IK against markers generated from the model at known configurations (frame placements of
// the sidecar's marker frames, not the IK's own marker code).

#include "dynid/mocap/marker_ik.hpp"

#include <gtest/gtest.h>

#include <random>

#include "dynid/dynamics/kinematics.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

// Configuration inside the limits (10 % margin), base upright within 0.3 rad, near the origin.
VectorX random_configuration(const Model& model, std::mt19937& rng, double spread = 1.0) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  VectorX q = model.neutral_configuration();
  q.head<3>() = Vector3(0.1 * u(rng), 0.1 * u(rng), 0.9 + 0.05 * u(rng));
  const Eigen::Quaterniond quat(Eigen::AngleAxisd(3.0 * u(rng), Vector3::UnitZ()) *
                                Eigen::AngleAxisd(0.3 * u(rng), Vector3::UnitX()) *
                                Eigen::AngleAxisd(0.3 * u(rng), Vector3::UnitY()));
  q.segment<4>(3) = quat.coeffs();
  for (std::size_t i = 2; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    const double mid = 0.5 * (b.limits.lower + b.limits.upper), half = 0.45 * (b.limits.upper - b.limits.lower);
    q[b.idx_q] = mid + spread * half * u(rng);
  }
  return q;
}

// Measured markers: the marker frames' world positions at q (3 x markers, model order).
Eigen::Matrix3Xd markers_at(const Model& model, const VectorX& q) {
  Data data(model);
  forward_kinematics(model, data, q);
  std::vector<Vector3> cols;
  for (std::size_t f = 0; f < model.frames.size(); ++f)
    if (model.frames[f].kind == FrameKind::Marker)
      cols.push_back(frame_placement(model, data, static_cast<int>(f)).translation);
  Eigen::Matrix3Xd out(3, static_cast<Eigen::Index>(cols.size()));
  for (std::size_t m = 0; m < cols.size(); ++m) out.col(static_cast<Eigen::Index>(m)) = cols[m];
  return out;
}

double joint_error(const Model& model, const VectorX& a, const VectorX& b) {
  double e = (a.head<3>() - b.head<3>()).cwiseAbs().maxCoeff();
  const Eigen::Quaterniond qa(a[6], a[3], a[4], a[5]), qb(b[6], b[3], b[4], b[5]);
  e = std::max(e, qa.angularDistance(qb));
  return std::max(e, (a.tail(model.nq - 7) - b.tail(model.nq - 7)).cwiseAbs().maxCoeff());
}

TEST(MarkerIk, AdultHumanoidHas51MarkersOn36Dof) {
  const Model model = test::bundled_robot("adult_humanoid").model;
  EXPECT_EQ(model_markers(model).size(), 51u);
  EXPECT_EQ(model.nv, 36);
}

TEST(MarkerIk, RecoversConfigurationFromNoiseFreeMarkers) {
  const Model model = test::bundled_robot("adult_humanoid").model;
  MarkerIk ik(model, model_markers(model));
  std::mt19937 rng(11);
  for (int trial = 0; trial < 10; ++trial) {
    const VectorX q_true = random_configuration(model, rng);
    const Eigen::Matrix3Xd y = markers_at(model, q_true);
    // Warm start as from a previous frame: every joint off by up to 0.15 rad, base by 2 cm.
    VectorX q = q_true;
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (Eigen::Index k = 7; k < q.size(); ++k) q[k] += 0.15 * u(rng);
    q.head<3>() += Vector3(0.02 * u(rng), 0.02 * u(rng), 0.02 * u(rng));
    const MarkerIkFrame r = ik.solve(y, q);
    EXPECT_TRUE(r.converged) << trial;
    EXPECT_EQ(r.markers_used, 51);
    EXPECT_LT(joint_error(model, q, q_true), 1e-6) << trial;
    EXPECT_LT(r.max, 1e-9) << trial;
  }
}

TEST(MarkerIk, FirstFrameFromBaseMarkers) {
  // No warm start: the base from its markers (Kabsch), joints from neutral. Local LM from neutral
  // finds poses within about a quarter of each joint's range (far poses need a warm start).
  const Model model = test::bundled_robot("adult_humanoid").model;
  MarkerIk ik(model, model_markers(model));
  std::mt19937 rng(3);
  for (int trial = 0; trial < 5; ++trial) {
    const VectorX q_true = random_configuration(model, rng, 0.25);
    const Eigen::Matrix3Xd y = markers_at(model, q_true);
    VectorX q = ik.initial_configuration(y);
    EXPECT_LT((q.head<3>() - q_true.head<3>()).norm(), 1e-9);  // the base markers alone fix the base
    ik.solve(y, q);
    EXPECT_LT(joint_error(model, q, q_true), 1e-6) << trial;
  }
}

TEST(MarkerIk, SkipsMissingMarkersAndReportsResiduals) {
  const Model model = test::bundled_robot("adult_humanoid").model;
  MarkerIk ik(model, model_markers(model));
  std::mt19937 rng(5);
  const VectorX q_true = random_configuration(model, rng);
  Eigen::Matrix3Xd y = markers_at(model, q_true);
  // One marker off each of five bodies that keep three or more.
  for (int m : {0, 5, 10, 15, 31}) y.col(m).setConstant(std::numeric_limits<double>::quiet_NaN());
  VectorX q = q_true;
  q.tail(model.nq - 7).array() += 0.05;
  const MarkerIkFrame r = ik.solve(y, q);
  EXPECT_EQ(r.markers_used, 46);
  EXPECT_LT(joint_error(model, q, q_true), 1e-6);
  // A marker 3 mm off: RMS and max say so.
  Eigen::Matrix3Xd y2 = markers_at(model, q_true);
  y2(0, 5) += 0.003;
  const MarkerIkFrame r2 = ik.solve(y2, q);
  EXPECT_GT(r2.max, 1e-3);
  EXPECT_LT(r2.max, 3e-3);
  EXPECT_GT(r2.rms, 1e-5);
}

TEST(MarkerIk, RespectsJointLimits) {
  const Model model = test::bundled_robot("adult_humanoid").model;
  MarkerIk ik(model, model_markers(model));
  std::mt19937 rng(7);
  VectorX q_true = random_configuration(model, rng, 0.3);
  const int knee = model.joint_index("l_knee");
  const Body& b = model.bodies[static_cast<std::size_t>(knee)];
  q_true[b.idx_q] = b.limits.upper + 0.2;  // markers of a knee bent beyond its range
  const Eigen::Matrix3Xd y = markers_at(model, q_true);
  VectorX q = q_true;
  q[b.idx_q] = b.limits.upper - 0.1;
  ik.solve(y, q);
  for (std::size_t i = 2; i < model.bodies.size(); ++i) {
    const Body& bi = model.bodies[i];
    EXPECT_GE(q[bi.idx_q], bi.limits.lower) << bi.name;
    EXPECT_LE(q[bi.idx_q], bi.limits.upper) << bi.name;
  }
  EXPECT_DOUBLE_EQ(q[b.idx_q], b.limits.upper);
}

TEST(MarkerIk, CalibratesMarkerOffsetsFromKnownConfigurations) {
  const Model model = test::bundled_robot("adult_humanoid").model;
  const std::vector<ModelMarker> truth = model_markers(model);
  std::mt19937 rng(9);
  std::vector<Eigen::Matrix3Xd> frames;
  std::vector<VectorX> qs;
  for (int f = 0; f < 4; ++f) {
    qs.push_back(random_configuration(model, rng, 0.5));
    frames.push_back(markers_at(model, qs.back()));
  }
  frames[1].col(3).setConstant(std::numeric_limits<double>::quiet_NaN());  // a dropout
  std::vector<ModelMarker> wrong = truth;
  for (ModelMarker& m : wrong) m.offset += Vector3(0.01, -0.02, 0.005);
  const std::vector<Vector3> fitted = calibrate_marker_offsets(model, wrong, frames, qs);
  for (std::size_t m = 0; m < truth.size(); ++m)
    EXPECT_LT((fitted[m] - truth[m].offset).norm(), 1e-12) << truth[m].name;
}

TEST(MarkerIk, NeutralTrialCalibrationKeepsConsistentOffsets) {
  // Offsets already right and a noise-free neutral trial: calibration must not move them.
  const Model model = test::bundled_robot("adult_humanoid").model;
  MarkerIk ik(model, model_markers(model));
  std::mt19937 rng(13);
  const VectorX q_true = random_configuration(model, rng, 0.2);
  const std::vector<Eigen::Matrix3Xd> trial(3, markers_at(model, q_true));
  const std::vector<VectorX> q = calibrate_from_neutral_trial(ik, trial, 2);
  EXPECT_LT(joint_error(model, q.back(), q_true), 1e-6);
  const std::vector<ModelMarker> ref = model_markers(model);
  for (std::size_t m = 0; m < ref.size(); ++m) EXPECT_LT((ik.markers()[m].offset - ref[m].offset).norm(), 1e-8);
}

TEST(MarkerIk, RejectsBadInput) {
  const Model model = test::bundled_robot("adult_humanoid").model;
  EXPECT_THROW(MarkerIk(model, {}), std::invalid_argument);
  MarkerIk ik(model, model_markers(model));
  VectorX q = model.neutral_configuration();
  EXPECT_THROW(ik.solve(Eigen::Matrix3Xd::Zero(3, 5), q), std::invalid_argument);
  // Fewer than 3 visible markers: nothing to solve, q unchanged.
  Eigen::Matrix3Xd y = Eigen::Matrix3Xd::Constant(3, 51, std::numeric_limits<double>::quiet_NaN());
  y.col(0).setZero();
  const VectorX before = q;
  EXPECT_EQ(ik.solve(y, q).markers_used, 1);
  EXPECT_EQ(q, before);
}

}  // namespace
}  // namespace dynid
