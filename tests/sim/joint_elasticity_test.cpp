// `--perturb joint-elasticity` (issue 19): the recorded encoders read each link's angle plus its
// gear's wind-up, link torque / stiffness, with the stiffness dataset.json lists — checked against
// the truth stream's link angles and torques (written by another path of the recorder), and the
// drawn wind-ups within the documented 0.1-0.3 deg at the effort limit.

#include "dynid/sim/joint_elasticity_perturbation.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "dynid/io/csv_stream.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

using json = nlohmann::json;

TEST(JointElasticity, WindupsAreWithinTheDocumentedRangeAndSeeded) {
  const Model model = test::bundled_robot("biped16").model;
  const JointElasticity a = perturb_joint_elasticity(model, 4), b = perturb_joint_elasticity(model, 4),
                        c = perturb_joint_elasticity(model, 5);
  EXPECT_EQ(a.compliance, b.compliance);
  EXPECT_NE(a.compliance, c.compliance);
  int elastic = 0;
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const Body& body = model.bodies[i];
    if (body.nv != 1) {
      EXPECT_EQ(a.compliance[i], 0.0);
      continue;
    }
    ++elastic;
    const double deg = a.windup_at_effort_limit[i] * 180.0 / M_PI;
    EXPECT_GE(deg, kJointWindupMinDeg);
    EXPECT_LE(deg, kJointWindupMaxDeg);
    EXPECT_NEAR(a.compliance[i] * body.limits.effort, a.windup_at_effort_limit[i], 1e-15);
  }
  EXPECT_EQ(elastic, 16);
}

TEST(JointElasticity, EncodersReadTheLinkAnglePlusTheWindupOfTheLinkTorque) {
  const std::string dir = test::fresh_dir("joint_elasticity", "biped16");
  ScenarioOptions o;
  o.scenario = "excite";
  o.out_dir = dir;
  o.noise = NoiseLevel::None;
  o.motion = "evaluation";
  o.duration_s = 1.0;
  o.perturbations = {"joint-elasticity"};
  run_scenario(test::bundled_robot("biped16"), o);
  const json dataset = json::parse(test::read_file(dir + "/dataset.json"));
  const json& listed = dataset["perturbations"]["joint-elasticity"];
  ASSERT_EQ(listed["stiffness_nm_per_rad"].size(), 16u);
  const CsvStream encoders = read_csv_stream(dir + "/encoders.csv");
  const CsvStream truth = read_csv_stream(dir + "/truth.csv");
  ASSERT_EQ(encoders.values.rows(), truth.values.rows());
  double worst = 0.0, largest_windup = 0.0;
  for (const auto& [joint, stiffness] : listed["stiffness_nm_per_rad"].items()) {
    const Eigen::Index e = encoders.column("q." + joint), q = truth.column("q." + joint),
                       tau = truth.column("tau." + joint);
    for (Eigen::Index r = 0; r < encoders.values.rows(); ++r) {
      const double windup = truth.values(r, tau) / stiffness.get<double>();
      worst = std::max(worst, std::abs(encoders.values(r, e) - truth.values(r, q) - windup));
      largest_windup = std::max(largest_windup, std::abs(windup));
    }
  }
  EXPECT_LT(worst, 1e-9);           // the encoders are written with 10 significant digits
  EXPECT_GT(largest_windup, 1e-4);  // the torques of the motion wind the joints up visibly
}

}  // namespace
}  // namespace dynid
