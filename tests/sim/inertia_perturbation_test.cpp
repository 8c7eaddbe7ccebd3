// `--perturb inertia` (sim/inertia_perturbation.hpp): each true body keeps its mass and centre of
// mass, its mass spread about the COM changes within the documented band (read back from MuJoCo's
// own compiled principal moments, not from dynid's arithmetic), the bodies stay physically
// consistent, the errors fill the band (neither all small nor beyond it), and a scenario run with it
// simulates, records and lists the true inertias.

#include "dynid/sim/inertia_perturbation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <nlohmann/json.hpp>

#include "dynid/model/urdf_reader.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "dynid/sim/mjcf_export.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

/// Principal second moments of the mass distribution (ascending) from principal moments of inertia.
std::array<double, 3> spreads_from_principal_moments(const Vector3& J) {
  std::array<double, 3> s = {0.5 * (J[1] + J[2] - J[0]), 0.5 * (J[0] + J[2] - J[1]), 0.5 * (J[0] + J[1] - J[2])};
  std::sort(s.begin(), s.end());
  return s;
}

TEST(InertiaPerturbation, MujocoSeesTheTrueSpreadWithinTheBandMassAndComKept) {
  double sum_scale = 0.0, sum_angle = 0.0;
  int scales = 0, angles = 0;
  for (const std::string robot : {"kid_humanoid", "adult_humanoid", "biped16"}) {
    const Model nominal = test::bundled_robot(robot).model;
    Model truth = nominal;
    const std::vector<BodyInertiaError> errors = perturb_inertia(truth, 3);
    const test::MjModelPtr m_true = test::load_mujoco(to_mjcf(truth));
    const test::MjModelPtr m_nominal = test::load_mujoco(to_mjcf(nominal));
    ASSERT_FALSE(errors.empty());
    for (const BodyInertiaError& e : errors) {
      const int b = nominal.body_index(e.body);
      ASSERT_GT(b, 0) << e.body;
      const Inertia& n = nominal.bodies[static_cast<std::size_t>(b)].inertia;
      const Inertia& t = truth.bodies[static_cast<std::size_t>(b)].inertia;
      EXPECT_NEAR(t.mass, n.mass, 1e-15 * n.mass) << e.body;
      EXPECT_LT((t.com() - n.com()).norm(), 1e-15) << e.body;
      // MuJoCo compiles each body's inertia to principal moments (it refuses a body that breaks a
      // triangle inequality): the true second moments are the nominal ones times the listed scales.
      const int mt = mj_name2id(m_true.get(), mjOBJ_BODY, e.body.c_str());
      const int mn = mj_name2id(m_nominal.get(), mjOBJ_BODY, e.body.c_str());
      ASSERT_GE(mt, 0);
      ASSERT_GE(mn, 0);
      const auto s_true = spreads_from_principal_moments(
          Vector3(m_true->body_inertia[3 * mt], m_true->body_inertia[3 * mt + 1], m_true->body_inertia[3 * mt + 2]));
      const auto s_nom = spreads_from_principal_moments(Vector3(
          m_nominal->body_inertia[3 * mn], m_nominal->body_inertia[3 * mn + 1], m_nominal->body_inertia[3 * mn + 2]));
      const double scale_of_largest = s_true[2] / s_nom[2];
      // The largest spread's scale is within the band (the others too; their order may swap).
      EXPECT_GE(scale_of_largest, (1.0 - kInertiaSpreadTolerance) - 1e-9) << e.body;
      EXPECT_LE(scale_of_largest, (1.0 + kInertiaSpreadTolerance) + 1e-9) << e.body;
      for (int k = 0; k < 3; ++k) {
        EXPECT_GE(s_true[static_cast<std::size_t>(k)], -1e-12) << e.body;
        EXPECT_GE(e.spread_scale[k], 1.0 - kInertiaSpreadTolerance) << e.body;
        EXPECT_LE(e.spread_scale[k], 1.0 + kInertiaSpreadTolerance) << e.body;
        sum_scale += std::abs(e.spread_scale[k] - 1.0) / kInertiaSpreadTolerance;
        ++scales;
      }
      EXPECT_NEAR(s_true[0] + s_true[1] + s_true[2],
                  s_nom[0] * e.spread_scale[0] + s_nom[1] * e.spread_scale[1] + s_nom[2] * e.spread_scale[2],
                  1e-9 * (s_nom[2] + 1e-12))
          << e.body;
      EXPECT_LE(e.axes_rotation_rad, kInertiaAxesToleranceDeg * M_PI / 180.0 + 1e-12) << e.body;
      sum_angle += e.axes_rotation_rad / (kInertiaAxesToleranceDeg * M_PI / 180.0);
      ++angles;
      // The inertia about the COM changed by what is listed, and by something.
      const double change = (t.inertia_com() - n.inertia_com()).norm() / n.inertia_com().norm();
      EXPECT_NEAR(change, e.inertia_change, 1e-12) << e.body;
      EXPECT_GT(change, 1e-3) << e.body;
      EXPECT_LT(change, 1.0) << e.body;
    }
  }
  // Uniform draws fill the band: their mean fraction of it is near one half.
  EXPECT_NEAR(sum_scale / scales, 0.5, 0.12);
  EXPECT_NEAR(sum_angle / angles, 0.5, 0.12);
}

TEST(InertiaPerturbation, WalkRecordsAndListsTheTrueInertias) {
  const Robot robot = test::bundled_robot("kid_humanoid");
  auto walk = [&](const std::string& name, const std::vector<std::string>& perturbations) {
    ScenarioOptions o;
    o.scenario = "walk";
    o.seed = 2;
    o.noise = NoiseLevel::None;
    o.walk_steps = 1;
    o.walk_speed_mps = 0.1;
    o.perturbations = perturbations;
    o.out_dir = test::fresh_dir("inertia_perturbation", name);
    run_scenario(robot, o);
    return o.out_dir;
  };
  const std::string with = walk("inertia", {"inertia"}), without = walk("none", {});
  const nlohmann::json listed =
      nlohmann::json::parse(test::read_file(with + "/dataset.json"))["perturbations"]["inertia"];
  ASSERT_TRUE(listed.is_object());
  // truth.urdf of the same seed with and without: the same point masses (masses and COMs equal),
  // the inertias about the COMs apart by the listed change.
  const Model perturbed = read_urdf_file(with + "/truth.urdf"), plain = read_urdf_file(without + "/truth.urdf");
  int checked = 0;
  for (const auto& [body, e] : listed["bodies"].items()) {
    const Inertia& a = perturbed.bodies[static_cast<std::size_t>(perturbed.body_index(body))].inertia;
    const Inertia& b = plain.bodies[static_cast<std::size_t>(plain.body_index(body))].inertia;
    EXPECT_NEAR(a.mass, b.mass, 1e-9 * b.mass) << body;
    EXPECT_LT((a.com() - b.com()).norm(), 1e-9) << body;
    const double change = (a.inertia_com() - b.inertia_com()).norm() / b.inertia_com().norm();
    EXPECT_NEAR(change, e["inertia_change"].get<double>(), 1e-6) << body;
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(robot.model.bodies.size()) - 1);
}

}  // namespace
}  // namespace dynid
