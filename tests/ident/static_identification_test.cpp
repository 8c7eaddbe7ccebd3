// Static identification against poses whose COP is the GCOM of a known true model (center_of_mass of
// that model: a different computation from the estimator's own first moments).

#include "dynid/ident/static_identification.hpp"

#include <gtest/gtest.h>

#include <random>

#include "dynid/dynamics/center_of_mass.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

VectorX random_pose(const Model& model, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  VectorX q = model.neutral_configuration();
  // Drawn one per statement, in the order GCC evaluated them when they were arguments and operands
  // (unspecified in C++; clang draws the other way), so both compilers test the same poses.
  const double y = u(rng), x = u(rng);
  q.head<3>() = Vector3(0.2 * x, 0.2 * y, 0.9);
  const double tilt_y = u(rng), tilt_x = u(rng), yaw = u(rng);
  const Eigen::Quaterniond quat(Eigen::AngleAxisd(3.0 * yaw, Vector3::UnitZ()) *
                                Eigen::AngleAxisd(0.02 * tilt_x, Vector3::UnitX()) *
                                Eigen::AngleAxisd(0.02 * tilt_y, Vector3::UnitY()));  // near upright
  q.segment<4>(3) = quat.coeffs();
  for (std::size_t i = 2; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    q[b.idx_q] = 0.5 * (b.limits.lower + b.limits.upper) + 0.45 * (b.limits.upper - b.limits.lower) * u(rng);
  }
  return q;
}

// Truth: the default segments heavier by 5-25 % with COMs moved by up to 2 cm; other bodies as nominal.
Model perturbed_truth(const Model& nominal, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Model truth = nominal;
  for (int s : default_static_segments(nominal)) {
    Inertia& I = truth.bodies[static_cast<std::size_t>(s)].inertia;
    const double m = I.mass * (1.15 + 0.1 * u(rng));
    // Drawn one per statement, in GCC's order (see random_pose).
    const double dz = u(rng), dy = u(rng), dx = u(rng);
    const Vector3 c = I.com() + 0.02 * Vector3(dx, dy, dz);
    I = Inertia::from_com(m, c, I.inertia_com());
  }
  return truth;
}

std::vector<MeasuredStaticPose> poses_of(const Model& truth, int count, std::mt19937& rng) {
  std::vector<MeasuredStaticPose> poses;
  Data data(truth);
  for (int n = 0; n < count; ++n) {
    MeasuredStaticPose p;
    p.label = "pose " + std::to_string(n);
    p.q = random_pose(truth, rng);
    center_of_mass(truth, data, p.q);
    p.cop = ground_projected_com(truth, data.com);
    p.heldout = n % 4 == 3;
    poses.push_back(p);
  }
  return poses;
}

TEST(StaticIdentification, DefaultSegmentsArePaperMainSegments) {
  const Model model = test::bundled_robot("adult_humanoid").model;
  std::vector<std::string> names;
  for (int s : default_static_segments(model)) names.push_back(model.bodies[static_cast<std::size_t>(s)].name);
  const std::vector<std::string> expected{"pelvis",      "l_thigh",   "l_shank", "r_thigh",     "r_shank",   "torso",
                                          "l_upper_arm", "l_forearm", "l_hand",  "r_upper_arm", "r_forearm", "r_hand"};
  std::vector<std::string> a = names, b = expected;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  EXPECT_EQ(a, b);
}

TEST(StaticIdentification, NoiseFreePosesFitExactlyAndKeepTheWeighedMass) {
  const Model nominal = test::bundled_robot("adult_humanoid").model;
  std::mt19937 rng(21);
  const Model truth = perturbed_truth(nominal, rng);
  const std::vector<MeasuredStaticPose> poses = poses_of(truth, 40, rng);
  StaticIdentificationOptions o;
  o.total_mass = truth.total_mass();
  o.prior = StaticPrior::Nominal;  // fixed bodies are right at their nominal values here
  o.cop_sigma = 1e-6;              // noise-free data: the prior only settles what the poses cannot see
  const StaticIdentificationResult r = identify_static(nominal, poses, o);
  // The total mass is the fit's equality constraint (an input), so matching it shows nothing; what
  // the poses estimate is the GCOM map, checked on held-out poses. Segment by segment the truth is
  // not recovered here (masses up to 14 % off, the nominal 19 %): the poses leave directions
  // unobservable (below) and the nominal prior settles them.
  double worst_nominal = 0.0, worst_identified = 0.0;
  for (const MeasuredStaticPose& p : poses) {
    if (!p.heldout) continue;
    worst_nominal = std::max(worst_nominal, gcom_error(nominal, p.q, p.cop));
    worst_identified = std::max(worst_identified, gcom_error(r.identified, p.q, p.cop));
  }
  EXPECT_GT(worst_nominal, 5e-3);
  EXPECT_LT(worst_identified, 1e-6);  // held-out poses: 1 micrometre
  // What the poses cannot see (at the default 0.5 mm COP noise) is named: a thigh's mass only moves
  // the COM through the hip joint, which sits on the pelvis whatever the hip angles (it trades with
  // the pelvis COM; only the small base tilts show it).
  o.cop_sigma = StaticIdentificationOptions{}.cop_sigma;
  const StaticIdentificationResult d = identify_static(nominal, poses, o);
  EXPECT_TRUE(d.converged) << d.iterations;
  bool thigh_mass_named = false;
  for (const UnobservableDirection& dir : d.directions)
    for (const auto& [name, weight] : dir.parameters) thigh_mass_named = thigh_mass_named || name == "l_thigh.mass";
  EXPECT_TRUE(thigh_mass_named);
  EXPECT_NE(std::find(d.unobservable.begin(), d.unobservable.end(), "torso.com_z"), d.unobservable.end());
  EXPECT_GT(d.rank, 10);
  EXPECT_LT(d.rank, static_cast<int>(d.parameter_names.size()) - 1);
}

TEST(StaticIdentification, PoseWeightsAndHeldOutPosesAreHonoured) {
  const Model nominal = test::bundled_robot("adult_humanoid").model;
  std::mt19937 rng(4);
  const Model truth = perturbed_truth(nominal, rng);
  std::vector<MeasuredStaticPose> poses = poses_of(truth, 24, rng);
  StaticIdentificationOptions o;
  o.total_mass = truth.total_mass();
  o.prior = StaticPrior::Nominal;
  o.cop_sigma = 1e-6;
  // A corrupted pose with zero weight, and one held out, change nothing.
  const StaticIdentificationResult clean = identify_static(nominal, poses, o);
  poses[0].cop.x() += 0.05;
  poses[0].weight = 0.0;
  poses[1].cop.y() -= 0.05;
  poses[1].heldout = true;
  const StaticIdentificationResult r = identify_static(nominal, poses, o);
  EXPECT_LT(gcom_error(r.identified, poses[2].q, poses[2].cop), 1e-6);
  EXPECT_GT(gcom_error(r.identified, poses[1].q, poses[1].cop), 0.04);
}

TEST(StaticIdentification, RejectsBadInput) {
  const Model nominal = test::bundled_robot("adult_humanoid").model;
  std::mt19937 rng(2);
  std::vector<MeasuredStaticPose> poses = poses_of(nominal, 4, rng);
  StaticIdentificationOptions o;
  o.prior = StaticPrior::Nominal;
  o.total_mass = 1.0;  // below the fixed bodies' mass
  EXPECT_THROW(identify_static(nominal, poses, o), std::invalid_argument);
  o.total_mass = -5.0;
  EXPECT_THROW(identify_static(nominal, poses, o), std::invalid_argument);
  o.total_mass = 70.0;
  poses[0].q[10] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(identify_static(nominal, poses, o), std::invalid_argument);
  EXPECT_THROW(identify_static(nominal, {}, o), std::invalid_argument);
  o.segments = {0};
  EXPECT_THROW(identify_static(nominal, poses_of(nominal, 4, rng), o), std::invalid_argument);
}

}  // namespace
}  // namespace dynid
