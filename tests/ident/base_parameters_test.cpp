// Base parameters checked against what could disagree with them: the regressor itself at states the
// computation never saw, the analytic count of paper 003 appendix A, the base-link-rows claim of
// paper 003 section 2.2, and groupings derived by hand.

#include "dynid/ident/base_parameters.hpp"

#include <gtest/gtest.h>

#include <map>

#include "dynid/dynamics/regressor.hpp"
#include "dynid/model/lock_joints.hpp"
#include "dynid/model/urdf_reader.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

/// Y_base K == Y (selected rows) at fresh random states (a different seed from the computation's).
void expect_reproduces_regressor(const Model& model, const BaseParameters& base, unsigned seed) {
  Data data(model);
  std::mt19937 rng(seed);
  for (int k = 0; k < 10; ++k) {
    const StateSample s = random_state(model, rng, 2.0);
    const MatrixX Y = joint_torque_regressor(model, data, s.q, s.v, s.a)(base.rows, Eigen::all);
    EXPECT_LT(test::relative_error(base_regressor(base, Y) * base.K, Y), 1e-10)
        << model.name << " (" << base.rows_label << ") state " << k;
    // The same with the model's own parameters: Y_base pi_base == Y pi.
    const VectorX pi = model.inertial_parameters();
    EXPECT_LT(test::relative_error(base_regressor(base, Y) * base_parameter_values(base, pi), Y * pi), 1e-10);
  }
}

/// Paper 003 appendix A (eqs. 11-17, Khalil's grouping), counted from the joint types alone: a
/// floating base link keeps all 10 parameters; the child body of every revolute joint loses 3 (its
/// mass M, its first moment along the joint axis MS_z and the inertia J_yy that is the same about
/// every axis perpendicular to the joint axis: they act like a point mass and an axisymmetric body
/// on the parent); the child body of a prismatic joint loses its 6 rotational inertia components
/// (it turns with its parent). Valid for a floating base, whose links all can turn about any axis.
int floating_base_count_by_rule(const Model& model) {
  int count = 0;
  for (std::size_t i = 1; i < model.bodies.size(); ++i) {
    switch (model.bodies[i].joint_type) {
      case JointType::FreeFlyer:
        count += 10;
        break;
      case JointType::Revolute:
        count += 7;
        break;
      case JointType::Prismatic:
        count += 4;
        break;
    }
  }
  return count;
}

Model random_tree(int links, unsigned seed, bool floating, bool include_fixed = true) {
  UrdfReadOptions options;
  options.floating_base = floating;
  return read_urdf_string(test::random_tree_urdf(links, seed, include_fixed), "random", options);
}

Model kid_with_arms_locked() {
  const Model kid = test::bundled_robot("kid_humanoid").model;
  std::vector<JointLock> locks;
  for (const char* joint : {"l_shoulder_pitch", "l_shoulder_roll", "l_shoulder_yaw", "l_elbow", "r_shoulder_pitch",
                            "r_shoulder_roll", "r_shoulder_yaw", "r_elbow"})
    locks.push_back({joint, 0.0});
  return lock_joints(kid, locks);
}

TEST(BaseParameters, ReproduceTheRegressorOnRandomTrees) {
  for (unsigned seed = 0; seed < 4; ++seed) {
    for (bool floating : {false, true}) {
      const Model model = random_tree(30, seed, floating);
      const BaseParameters all = compute_base_parameters(model);
      EXPECT_LT(all.num_base(), all.num_standard());
      expect_reproduces_regressor(model, all, seed + 1000);
      if (!floating) continue;
      BaseParameterOptions base_rows;
      base_rows.rows = base_link_rows(model);
      expect_reproduces_regressor(model, compute_base_parameters(model, base_rows), seed + 2000);
    }
  }
}

TEST(BaseParameters, ReproduceTheRegressorOnBundledRobots) {
  for (const std::string& stem : test::bundled_robots()) {
    const Model model = test::bundled_robot(stem).model;
    expect_reproduces_regressor(model, compute_base_parameters(model), 3000);
    if (!model.floating_base) continue;
    BaseParameterOptions base_rows;
    base_rows.rows = base_link_rows(model);
    expect_reproduces_regressor(model, compute_base_parameters(model, base_rows), 4000);
  }
}

TEST(BaseParameters, KidHumanoidWithArmsLockedHas94) {
  // Paper 003 appendix B: 13 bodies x 10 = 130 standard parameters; each of the 12 leg links loses
  // M, MS_z and J_yy (eq. 17): 130 - 3 x 12 = 94, from all rows and from the base rows alone.
  const Model model = kid_with_arms_locked();
  ASSERT_EQ(model.num_moving_bodies(), 13);
  EXPECT_EQ(floating_base_count_by_rule(model), 94);
  const BaseParameters all = compute_base_parameters(model);
  EXPECT_EQ(all.num_standard(), 130);
  EXPECT_EQ(all.num_base(), 94);
  EXPECT_TRUE(all.unidentifiable.empty());
  BaseParameterOptions contact;
  contact.rows = base_link_rows(model);
  EXPECT_EQ(compute_base_parameters(model, contact).num_base(), 94);
}

TEST(BaseParameters, CountFollowsTheGroupingRuleOnFloatingBaseTrees) {
  for (const std::string& stem : test::bundled_robots()) {
    const Model model = test::bundled_robot(stem).model;
    if (!model.floating_base) continue;
    EXPECT_EQ(compute_base_parameters(model).num_base(), floating_base_count_by_rule(model)) << stem;
  }
  for (unsigned seed = 0; seed < 6; ++seed) {
    const Model model = random_tree(25, seed, true);
    EXPECT_EQ(compute_base_parameters(model).num_base(), floating_base_count_by_rule(model)) << "seed " << seed;
  }
  // A fixed base breaks the rule: the servo bench's leg only turns about one fixed horizontal axis,
  // so only its inertia about that axis and its two first moments across it (through gravity) act.
  const Model bench = test::bundled_robot("servo_bench").model;
  ASSERT_EQ(bench.num_moving_bodies(), 1);
  const Vector3 axis_world = bench.bodies[1].joint_placement.rotation * bench.bodies[1].axis;
  ASSERT_LT(std::abs(axis_world.z()), 1e-12);
  const BaseParameters servo = compute_base_parameters(bench);
  EXPECT_EQ(servo.num_base(), 3);
  EXPECT_EQ(servo.unidentifiable.size(), 7u);
}

TEST(BaseParameters, BaseRowsGiveTheSameBaseParametersAsAllRows) {
  // Paper 003 section 2.2 / 004 section III.A: for a floating base the 6 base-link equations determine
  // every base parameter of the whole-body equations: same independent set, same regrouping.
  std::vector<Model> models = {kid_with_arms_locked()};
  for (const std::string& stem : test::bundled_robots())
    if (test::bundled_robot(stem).model.floating_base) models.push_back(test::bundled_robot(stem).model);
  for (unsigned seed = 0; seed < 4; ++seed) models.push_back(random_tree(25, seed, true));
  for (const Model& model : models) {
    const BaseParameters all = compute_base_parameters(model);
    BaseParameterOptions contact;
    contact.rows = base_link_rows(model);
    const BaseParameters base = compute_base_parameters(model, contact);
    EXPECT_EQ(base.independent, all.independent) << model.name;
    EXPECT_EQ(base.dependent, all.dependent) << model.name;
    EXPECT_LT(test::relative_error(base.K, all.K), 1e-9) << model.name;  // infinite if sizes differ
  }
}

TEST(BaseParameters, IndependentOfTheSamplingSeed) {
  const Model model = random_tree(20, 3, true);
  BaseParameterOptions other;
  other.seed = 77;
  other.num_samples = 60;
  const BaseParameters a = compute_base_parameters(model), b = compute_base_parameters(model, other);
  EXPECT_EQ(a.independent, b.independent);
  EXPECT_LT(test::relative_error(a.K, b.K), 1e-9);
}

/// Terms of base parameter `name` as name -> coefficient.
std::map<std::string, double> group_of(const BaseParameters& base, const std::string& name) {
  std::map<std::string, double> terms;
  for (int k = 0; k < base.num_base(); ++k) {
    if (base.name(k) != name) continue;
    for (const ParameterTerm& t : base.groups[static_cast<std::size_t>(k)])
      terms[base.parameter_names[static_cast<std::size_t>(t.parameter)]] = t.coefficient;
  }
  return terms;
}

void expect_group(const BaseParameters& base, const std::string& name, const std::map<std::string, double>& expected) {
  const auto actual = group_of(base, name);
  ASSERT_EQ(actual.size(), expected.size()) << name << " = " << ::testing::PrintToString(actual);
  for (const auto& [parameter, coefficient] : expected) {
    ASSERT_TRUE(actual.count(parameter)) << name << " lacks " << parameter;
    EXPECT_NEAR(actual.at(parameter), coefficient, 1e-9) << name << ": " << parameter;
  }
}

Body revolute(const std::string& name, int parent, const Vector3& axis, const Vector3& offset) {
  Body b;
  b.name = name;
  b.joint_name = name + "_joint";
  b.joint_type = JointType::Revolute;
  b.parent = parent;
  b.axis = axis;
  b.joint_placement = SE3(Matrix3::Identity(), offset);
  return b;
}

Model empty_model(const std::string& name) {
  Model model;
  model.name = name;
  Body universe;
  universe.name = "universe";
  model.bodies.push_back(universe);
  return model;
}

TEST(BaseParameters, PlanarDoublePendulumGroupingByHand) {
  // Two pitch joints (axis y), the second L1 below the first, gravity -z: motion in the x-z plane.
  // Torques are y components, so link i acts only through m c_x, m c_z and I_yy (about its origin);
  // the rest never enters (zero columns), except link2.m, which acts exactly like a point mass at
  // (0, 0, -L1) on link 1: m c_z,1 -= L1 m2 and I_yy,1 += L1^2 m2. Six base parameters (Khalil's
  // MX1, MZ1R, YY1R, MX2, MZ2, YY2 for this frame choice).
  const double L1 = 0.3;
  Model model = empty_model("double_pendulum");
  model.add_body(revolute("link1", 0, Vector3::UnitY(), Vector3::Zero()));
  model.add_body(revolute("link2", 1, Vector3::UnitY(), Vector3(0.0, 0.0, -L1)));
  const BaseParameters base = compute_base_parameters(model);
  ASSERT_EQ(base.num_base(), 6) << format_report(base);
  expect_group(base, "link1.mcx", {{"link1.mcx", 1.0}});
  expect_group(base, "link1.mcz", {{"link1.mcz", 1.0}, {"link2.m", -L1}});
  expect_group(base, "link1.Iyy", {{"link1.Iyy", 1.0}, {"link2.m", L1 * L1}});
  expect_group(base, "link2.mcx", {{"link2.mcx", 1.0}});
  expect_group(base, "link2.mcz", {{"link2.mcz", 1.0}});
  expect_group(base, "link2.Iyy", {{"link2.Iyy", 1.0}});
  EXPECT_EQ(base.expression(1), "link1.mcz - 0.3*link2.m");
  EXPECT_EQ(base.expression(2), "link1.Iyy + 0.09*link2.m");

  std::vector<std::string> unidentifiable;
  for (const UnidentifiableParameter& u : base.unidentifiable) {
    unidentifiable.push_back(base.parameter_names[static_cast<std::size_t>(u.parameter)]);
    EXPECT_EQ(u.reason, "does not affect any selected equation");
  }
  const std::vector<std::string> expected = {"link1.m",   "link1.mcy", "link1.Ixx", "link1.Ixy", "link1.Ixz",
                                             "link1.Iyz", "link1.Izz", "link2.mcy", "link2.Ixx", "link2.Ixy",
                                             "link2.Ixz", "link2.Iyz", "link2.Izz"};
  EXPECT_EQ(unidentifiable, expected);
}

TEST(BaseParameters, NearlyParallelAxesRegroupAsParallelOnes) {
  // A knee axis 1e-5 rad (0.0006 deg) off parallel to the hip and ankle pitch axes, as a URDF's
  // rounded numbers or a measured geometry give it. Exactly, the shank's m c_y is then independent, but
  // its column lies 7.5e-6 from the others' span: kept, it gives the base parameters coefficients of
  // 1 / 7.5e-6, which no prior or least squares survives in double precision. Regrouped, the model
  // keeps the exactly parallel knee's base parameters, and Y_base K reproduces Y to about the tilt.
  const Model nominal = test::bundled_robot("biped16").model;
  Model tilted = nominal;
  const double tilt = 1e-5;
  Body& knee = tilted.bodies[static_cast<std::size_t>(tilted.joint_index("l_knee"))];
  knee.axis = (knee.axis + tilt * Vector3::UnitZ()).normalized();

  const BaseParameters reference = compute_base_parameters(nominal);
  const BaseParameters base = compute_base_parameters(tilted);
  EXPECT_EQ(base.independent, reference.independent) << format_report(base);
  ASSERT_EQ(base.nearly_dependent.size(), 1u) << format_report(base);
  EXPECT_EQ(base.parameter_names[static_cast<std::size_t>(base.nearly_dependent[0].first)], "l_shank.mcy");
  EXPECT_GT(base.nearly_dependent[0].second, base.rank_tolerance);
  EXPECT_LT(base.nearly_dependent[0].second, 10 * tilt);
  EXPECT_LT(base.K.cwiseAbs().maxCoeff(), 2 * reference.K.cwiseAbs().maxCoeff());
  EXPECT_NE(format_report(base).find("nearly dependent:    1 regrouped"), std::string::npos);
  Data data(tilted);
  std::mt19937 rng(5000);
  for (int k = 0; k < 5; ++k) {
    const StateSample s = random_state(tilted, rng, 2.0);
    const MatrixX Y = joint_torque_regressor(tilted, data, s.q, s.v, s.a);
    const VectorX pi = tilted.inertial_parameters();
    const double error = test::relative_error(base_regressor(base, Y) * base_parameter_values(base, pi), Y * pi);
    EXPECT_LT(error, 10 * tilt) << "state " << k;
  }

  // Exact dependence only (near_dependence_tolerance 0): the shank's m c_y is its own base
  // parameter, and the others carry it with coefficients near 1 / distance.
  BaseParameterOptions exact;
  exact.near_dependence_tolerance = 0.0;
  const BaseParameters kept = compute_base_parameters(tilted, exact);
  EXPECT_TRUE(kept.nearly_dependent.empty());
  EXPECT_EQ(kept.num_base(), base.num_base());
  EXPECT_GT(kept.K.cwiseAbs().maxCoeff(), 1e3 * reference.K.cwiseAbs().maxCoeff());
  expect_reproduces_regressor(tilted, kept, 6000);

  BaseParameterOptions bad;
  bad.near_dependence_tolerance = 1.0;
  EXPECT_THROW(compute_base_parameters(tilted, bad), std::invalid_argument);
}

TEST(BaseParameters, FloatingBodyWithOneRevoluteChildByHand) {
  // Paper 003 eqs. 11-14 for one child (axis z, origin at p = (px, 0, 0) in the base frame, R = 1):
  // the child's m is a point mass at p, its m c_z a first moment along z at p, and its I_yy an
  // inertia diag(1, 1, 0) (equal about every axis perpendicular to the joint) added to the base;
  // what remains of the child's I_xx is I_xx - I_yy (Khalil's XX_R). 10 + 7 base parameters.
  const double px = 0.2;
  Model model = empty_model("body_and_arm");
  Body base_body;
  base_body.name = "base";
  base_body.joint_name = "root_joint";
  base_body.joint_type = JointType::FreeFlyer;
  base_body.parent = 0;
  model.add_body(base_body);
  model.add_body(revolute("arm", 1, Vector3::UnitZ(), Vector3(px, 0.0, 0.0)));
  for (const auto& rows : {all_equation_rows(model), base_link_rows(model)}) {
    BaseParameterOptions options;
    options.rows = rows;
    const BaseParameters base = compute_base_parameters(model, options);
    ASSERT_EQ(base.num_base(), 17) << format_report(base);
    expect_group(base, "base.m", {{"base.m", 1.0}, {"arm.m", 1.0}});
    expect_group(base, "base.mcx", {{"base.mcx", 1.0}, {"arm.m", px}});
    expect_group(base, "base.mcy", {{"base.mcy", 1.0}});
    expect_group(base, "base.mcz", {{"base.mcz", 1.0}, {"arm.mcz", 1.0}});
    expect_group(base, "base.Ixx", {{"base.Ixx", 1.0}, {"arm.Iyy", 1.0}});
    expect_group(base, "base.Ixy", {{"base.Ixy", 1.0}});
    expect_group(base, "base.Iyy", {{"base.Iyy", 1.0}, {"arm.m", px * px}, {"arm.Iyy", 1.0}});
    expect_group(base, "base.Ixz", {{"base.Ixz", 1.0}, {"arm.mcz", -px}});
    expect_group(base, "base.Iyz", {{"base.Iyz", 1.0}});
    expect_group(base, "base.Izz", {{"base.Izz", 1.0}, {"arm.m", px * px}});
    expect_group(base, "arm.Ixx", {{"arm.Ixx", 1.0}, {"arm.Iyy", -1.0}});
    for (const char* p : {"arm.mcx", "arm.mcy", "arm.Ixy", "arm.Ixz", "arm.Iyz", "arm.Izz"})
      expect_group(base, p, {{p, 1.0}});
    EXPECT_TRUE(base.unidentifiable.empty());
  }
}

TEST(BaseParameters, RowSelectionAndErrors) {
  const Model fixed = random_tree(5, 2, false, false);
  try {
    base_link_rows(fixed);
    ADD_FAILURE() << "a fixed base has no base-link rows";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("fixed base"), std::string::npos) << e.what();
  }
  BaseParameterOptions options;
  options.rows = {0, 0};
  EXPECT_THROW(compute_base_parameters(fixed, options), std::invalid_argument);
  options.rows = {fixed.nv};
  EXPECT_THROW(compute_base_parameters(fixed, options), std::invalid_argument);
  EXPECT_THROW(equation_rows(fixed, {"no_such_joint"}), std::invalid_argument);

  // One joint's row alone: only what that joint carries acts, so fewer base parameters.
  const std::string last = fixed.velocity_names().back();
  options.rows = equation_rows(fixed, {last});
  const BaseParameters one = compute_base_parameters(fixed, options);
  EXPECT_EQ(one.row_names, std::vector<std::string>{last});
  EXPECT_LT(one.num_base(), compute_base_parameters(fixed).num_base());
  expect_reproduces_regressor(fixed, one, 9);
}

TEST(BaseParameters, ReportListsCountsGroupsAndUnidentifiable) {
  Model model = empty_model("double_pendulum");
  model.add_body(revolute("link1", 0, Vector3::UnitY(), Vector3::Zero()));
  model.add_body(revolute("link2", 1, Vector3::UnitY(), Vector3(0.0, 0.0, -0.3)));
  const std::string report = format_report(compute_base_parameters(model));
  EXPECT_NE(report.find("base parameters:     6"), std::string::npos) << report;
  EXPECT_NE(report.find("link1.Iyy + 0.09*link2.m"), std::string::npos) << report;
  EXPECT_NE(report.find("does not affect any selected equation"), std::string::npos) << report;
}

}  // namespace
}  // namespace dynid
