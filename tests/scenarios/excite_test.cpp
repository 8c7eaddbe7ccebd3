// The excite scenario: paper 004's training set (squats, sway, foot lifts), its evaluation motion
// and Fourier trajectories played on a standing robot. The true robot stays up, the recorded
// physics agrees with dynid, the parts are in dataset.json with their contact state, and the feet
// really leave the ground when the plan lifts them.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "dynid/dynamics/kinematics.hpp"
#include "dynid/ident/excitation.hpp"
#include "dynid/io/csv_stream.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

using json = nlohmann::json;

ScenarioSummary excite(const char* robot, const std::string& dir, const std::string& motion, double duration) {
  ScenarioOptions o;
  o.scenario = "excite";
  o.out_dir = dir;
  o.noise = NoiseLevel::None;
  o.motion = motion;
  o.duration_s = duration;
  return run_scenario(test::bundled_robot(robot), o);
}

// How far a sole frame strays from its pose at the first row from `from` [s] over the rows up to
// `to` [s] of the truth stream (forward kinematics of the true q): horizontal slide and vertical
// motion [m], tilt of its normal [deg].
struct SoleExcursion {
  double slide_m = 0.0, vertical_m = 0.0, tilt_deg = 0.0;
};

SoleExcursion sole_excursion(const Robot& robot, const CsvStream& truth, const std::string& contact,
                             double from = -1e300, double to = 1e300) {
  std::vector<Eigen::Index> cols;
  for (const std::string& n : robot.model.configuration_names()) cols.push_back(truth.column("q." + n));
  Data data(robot.model);
  VectorX q(robot.model.nq);
  const int frame = robot.model.frame_index(contact);
  SE3 first;
  bool started = false;
  SoleExcursion e;
  for (Eigen::Index r = 0; r < truth.values.rows(); ++r) {
    for (std::size_t k = 0; k < cols.size(); ++k) q[static_cast<Eigen::Index>(k)] = truth.values(r, cols[k]);
    forward_kinematics(robot.model, data, q);
    const SE3 sole = frame_placement(robot.model, data, frame);
    if (truth.values(r, 0) < from || truth.values(r, 0) > to) continue;
    if (!started) first = sole;
    started = true;
    const Vector3 d = sole.translation - first.translation;
    e.slide_m = std::max(e.slide_m, d.head<2>().norm());
    e.vertical_m = std::max(e.vertical_m, std::abs(d.z()));
    const double cos_tilt = std::clamp(first.rotation.col(2).dot(sole.rotation.col(2)), -1.0, 1.0);
    e.tilt_deg = std::max(e.tilt_deg, std::acos(cos_tilt) * 180.0 / M_PI);
  }
  return e;
}

TEST(Excite, IsOffered) {
  const std::vector<std::string> names = scenario_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "excite"), names.end());
}

TEST(Excite, KidHumanoidTrainingSetWithFootLifts) {
  const std::string dir = test::fresh_dir("excite", "kid_paper004");
  // 12 s: every squat frequency once, then one 6 s sway cycle with both foot lifts.
  const ScenarioSummary s = excite("kid_humanoid", dir, "paper004", 12.0);
  EXPECT_FALSE(s.fell);
  EXPECT_LT(s.consistency_max_rel_error, 1e-6);
  const json dataset = json::parse(test::read_file(dir + "/dataset.json"));
  int lifts_left = 0, lifts_right = 0, squats = 0;
  double lift_start = 0.0, lift_end = 0.0;
  for (const json& seg : dataset["segments"]) {
    ASSERT_TRUE(seg.contains("support"));
    if (seg["category"] == "squat") ++squats;
    if (seg["support"] == "left") {
      ++lifts_right;
      lift_start = seg["start"];
      lift_end = seg["end"];
    }
    if (seg["support"] == "right") ++lifts_left;
  }
  EXPECT_EQ(squats, 7);
  EXPECT_EQ(lifts_left, 1);
  EXPECT_EQ(lifts_right, 1);
  // In the middle of the right-foot lift the right sole carries nothing, the left the whole robot.
  const CsvStream truth = read_csv_stream(dir + "/truth.csv");
  const double mid = 0.5 * (lift_start + lift_end);
  Eigen::Index row = 0;
  while (row + 1 < truth.values.rows() && truth.values(row, 0) < mid) ++row;
  const double weight = s.true_total_mass * 9.81;
  EXPECT_EQ(truth.values(row, truth.column("wrench.r_sole.fz")), 0.0);
  EXPECT_GT(std::abs(truth.values(row, truth.column("wrench.l_sole.fz"))), 0.8 * weight);
}

TEST(Excite, KidHumanoidEvaluationMotion) {
  const std::string dir = test::fresh_dir("excite", "kid_evaluation");
  const ScenarioSummary s = excite("kid_humanoid", dir, "evaluation", 3.0);
  EXPECT_FALSE(s.fell);
  EXPECT_LT(s.consistency_max_rel_error, 1e-6);
  EXPECT_NEAR(s.duration_s, 4.0, 1e-6);  // 1 s settling + 3 s
  const json summary = json::parse(test::read_file(dir + "/summary.json"));
  EXPECT_EQ(summary["motion"], "evaluation");
  EXPECT_GT(summary["com_height_range_m"].get<double>(), 0.003);
}

TEST(Excite, Biped16EvaluationMotion) {
  // Paper 004's robot: 16 joints, feet on four contact points each.
  const std::string dir = test::fresh_dir("excite", "biped16_evaluation");
  const ScenarioSummary s = excite("biped16", dir, "evaluation", 2.0);
  EXPECT_FALSE(s.fell);
  EXPECT_LT(s.consistency_max_rel_error, 1e-6);
  const json dataset = json::parse(test::read_file(dir + "/dataset.json"));
  ASSERT_EQ(dataset["segments"].size(), 1u);
  EXPECT_EQ(dataset["segments"][0]["support"], "both");
}

TEST(Excite, Biped16SquatsAtEveryPaper004Frequency) {
  const std::string dir = test::fresh_dir("excite", "biped16_squats");
  const ScenarioSummary s = excite("biped16", dir, "paper004-squats", 4.0);
  EXPECT_FALSE(s.fell);
  EXPECT_LT(s.consistency_max_rel_error, 1e-6);
  const json dataset = json::parse(test::read_file(dir + "/dataset.json"));
  ASSERT_EQ(dataset["segments"].size(), 7u);  // 0.5, 1.0, ... 3.5 Hz
  EXPECT_EQ(dataset["segments"][6]["label"], "squat 3.5 Hz");
  // Standing on four points per foot, the soles stay put: no hopping, rocking or creeping.
  const Robot robot = test::bundled_robot("biped16");
  const CsvStream truth = read_csv_stream(dir + "/truth.csv");
  for (const char* sole : {"l_foot_points", "r_foot_points"}) {
    const SoleExcursion e = sole_excursion(robot, truth, sole);
    EXPECT_LT(e.slide_m, 1e-3) << sole;
    EXPECT_LT(e.vertical_m, 2e-4) << sole;
    EXPECT_LT(e.tilt_deg, 0.1) << sole;
  }
}

TEST(Excite, Biped16SwaysAndLiftsEachFoot) {
  // Paper 004's second training part on its robot: one 6 s sway cycle (COM over the left foot,
  // right foot lifted, over the right foot, left foot lifted, back), planned with the crouch its
  // ankles allow and played with the planned joint torques fed forward.
  const std::string dir = test::fresh_dir("excite", "biped16_sway");
  const ScenarioSummary s = excite("biped16", dir, "paper004-sway", 6.0);
  EXPECT_FALSE(s.fell);
  EXPECT_LT(s.consistency_max_rel_error, 1e-6);
  const json dataset = json::parse(test::read_file(dir + "/dataset.json"));
  const Robot robot = test::bundled_robot("biped16");
  const CsvStream truth = read_csv_stream(dir + "/truth.csv");
  const double weight = s.true_total_mass * 9.81;
  int lifts = 0;
  for (const json& seg : dataset["segments"]) {
    if (seg["support"] == "both") continue;
    ++lifts;
    const bool left_stands = seg["support"] == "left";
    const std::string lifted = left_stands ? "r_foot_points" : "l_foot_points";
    const std::string stance = left_stands ? "l_foot_points" : "r_foot_points";
    // The middle half of the lift: the lifted sole carries nothing, the stance sole the robot.
    const double start = seg["start"], end = seg["end"];
    int rows = 0;
    for (Eigen::Index r = 0; r < truth.values.rows(); ++r) {
      const double t = truth.values(r, 0);
      if (t < start + 0.25 * (end - start) || t > end - 0.25 * (end - start)) continue;
      ++rows;
      ASSERT_EQ(truth.values(r, truth.column("wrench." + lifted + ".fz")), 0.0) << lifted << " at t = " << t;
      ASSERT_GT(truth.values(r, truth.column("wrench." + stance + ".fz")), 0.8 * weight) << stance << " at t = " << t;
    }
    EXPECT_GT(rows, 100);
    // The lifted foot really rises (2 cm of its 3.4 cm lift at least); the stance foot stays put.
    EXPECT_GT(sole_excursion(robot, truth, lifted, start, end).vertical_m, 0.02) << lifted;
    const SoleExcursion e = sole_excursion(robot, truth, stance, start, end);
    EXPECT_LT(e.slide_m, 1e-3) << stance;
    EXPECT_LT(e.vertical_m, 5e-4) << stance;
    EXPECT_LT(e.tilt_deg, 0.2) << stance;
  }
  EXPECT_EQ(lifts, 2);
  // Over the whole cycle the feet land within 1.5 cm of where they took off (the swing foot moves
  // with the body the stabilizer leans over the stance foot).
  for (const char* sole : {"l_foot_points", "r_foot_points"})
    EXPECT_LT(sole_excursion(robot, truth, sole).slide_m, 0.015) << sole;
}

TEST(Excite, PlaysADesignedTrajectory) {
  const Robot robot = test::bundled_robot("kid_humanoid");
  ExcitationOptions o;
  o.fixed_feet = true;
  o.duration_s = 3.0;
  o.harmonics = 2;
  o.iterations = 1;
  o.restarts = 1;
  const ExcitationDesign d = design_excitation(robot, o);
  const std::string traj = test::write_temp_file(to_json(d.trajectory, 3.0, 50.0, {}).dump(), ".json");
  const std::string dir = test::fresh_dir("excite", "kid_traj");
  const ScenarioSummary s = excite("kid_humanoid", dir, traj, 3.0);
  EXPECT_FALSE(s.fell);
  EXPECT_LT(s.consistency_max_rel_error, 1e-6);
  // After the 1 s fade-in, the arms follow the file: encoders against the trajectory.
  const CsvStream truth = read_csv_stream(dir + "/truth.csv");
  const Eigen::Index col = truth.column("q." + d.trajectory.joints[0]);
  VectorX q(8), qd(8), qdd(8);
  double worst = 0.0;
  const double t0 = truth.values(0, 0);
  for (Eigen::Index r = 0; r < truth.values.rows(); ++r) {
    const double t = truth.values(r, 0) - t0;
    if (t < 1.2) continue;
    d.trajectory.evaluate(t, q, qd, qdd);
    worst = std::max(worst, std::abs(truth.values(r, col) - q[0]));
  }
  EXPECT_LT(worst, 0.05);
}

// Paper 003's validation motion: the trunk bends forward, sideways and twists over planted feet.
// What a fall or a tip would show: the soles slide or tilt, the ground reaction's ZMP (from the
// recorded wrenches, independent of the plan) reaches the edge of the feet, one foot unloads.
struct TrunkBendCheck {
  double pitch = 0.0, roll = 0.0, yaw = 0.0;  ///< largest base rotation from the first sample [rad]
  double zmp_margin_m = 1e300;                ///< least distance of the ZMP inside the feet's bounding box
  double min_sole_share = 1.0;                ///< least share of the weight on one sole (40 ms means)
};

TrunkBendCheck check_trunk_bend(const Robot& robot, const CsvStream& truth) {
  const Model& model = robot.model;
  std::vector<Eigen::Index> cols;
  for (const std::string& n : model.configuration_names()) cols.push_back(truth.column("q." + n));
  Data data(model);
  VectorX q(model.nq);
  const auto state = [&](Eigen::Index r) {
    for (std::size_t k = 0; k < cols.size(); ++k) q[static_cast<Eigen::Index>(k)] = truth.values(r, cols[k]);
    forward_kinematics(model, data, q);
  };
  // The feet's bounding box from the soles' polygons at the first sample (world x-y).
  state(0);
  const Matrix3 base0 = data.oMi[1].rotation;
  Eigen::Vector2d lo(1e300, 1e300), hi(-1e300, -1e300);
  for (const ContactSurface& c : robot.sidecar->contacts) {
    const SE3 sole = frame_placement(model, data, model.frame_index(c.name));
    for (const Eigen::Vector2d& v : c.polygon) {
      const Vector3 p = sole.act(Vector3(v.x(), v.y(), 0.0));
      lo = lo.cwiseMin(p.head<2>());
      hi = hi.cwiseMax(p.head<2>());
    }
  }
  TrunkBendCheck out;
  const Eigen::Index rows = truth.values.rows(), window = 40;  // 40 ms at 1 kHz
  for (Eigen::Index r = 0; r + window <= rows; r += window) {
    state(r);
    const Vector3 turn = (base0.transpose() * data.oMi[1].rotation).eulerAngles(2, 1, 0);  // yaw, pitch, roll
    const auto wrapped = [](double a) { return std::abs(std::remainder(a, M_PI)); };
    out.yaw = std::max(out.yaw, wrapped(turn[0]));
    out.pitch = std::max(out.pitch, wrapped(turn[1]));
    out.roll = std::max(out.roll, wrapped(turn[2]));
    // Ground wrench about the world origin (docs/data-format.md), both soles, averaged over the window.
    Vector3 force = Vector3::Zero(), moment = Vector3::Zero();
    double left = 0.0, right = 0.0;
    for (Eigen::Index k = r; k < r + window; ++k) {
      for (const char* sole : {"l_sole", "r_sole"}) {
        const std::string w = std::string("wrench.") + sole + ".";
        force += Vector3(truth.values(k, truth.column(w + "fx")), truth.values(k, truth.column(w + "fy")),
                         truth.values(k, truth.column(w + "fz")));
        moment += Vector3(truth.values(k, truth.column(w + "tx")), truth.values(k, truth.column(w + "ty")),
                          truth.values(k, truth.column(w + "tz")));
      }
      left += truth.values(k, truth.column("wrench.l_sole.fz"));
      right += truth.values(k, truth.column("wrench.r_sole.fz"));
    }
    // The floor is z = 0: the ZMP is where the moment's horizontal part vanishes.
    const Eigen::Vector2d zmp(-moment.y() / force.z(), moment.x() / force.z());
    out.zmp_margin_m =
        std::min({out.zmp_margin_m, zmp.x() - lo.x(), hi.x() - zmp.x(), zmp.y() - lo.y(), hi.y() - zmp.y()});
    out.min_sole_share = std::min(out.min_sole_share, std::min(left, right) / (left + right));
  }
  return out;
}

TEST(Excite, KidHumanoidBendsItsTrunkOnPlantedFeet) {
  const std::string dir = test::fresh_dir("excite", "kid_trunk_bend");
  const ScenarioSummary s = excite("kid_humanoid", dir, "trunk-bend", 8.0);
  EXPECT_FALSE(s.fell);
  EXPECT_LT(s.consistency_max_rel_error, 1e-6);
  const json dataset = json::parse(test::read_file(dir + "/dataset.json"));
  ASSERT_EQ(dataset["segments"].size(), 4u);
  EXPECT_EQ(dataset["segments"][0]["label"], "trunk bends forward");
  for (const json& seg : dataset["segments"]) EXPECT_EQ(seg["support"], "both");
  const Robot robot = test::bundled_robot("kid_humanoid");
  const CsvStream truth = read_csv_stream(dir + "/truth.csv");
  const TrunkBendCheck c = check_trunk_bend(robot, truth);
  std::printf("kid trunk bend: base pitch %.3f roll %.3f yaw %.3f rad, ZMP margin %.1f mm, least sole share %.2f\n",
              c.pitch, c.roll, c.yaw, 1e3 * c.zmp_margin_m, c.min_sole_share);
  // The plan's 0.3 / 0.1 / 0.2 rad (forward, sideways, twist), tracked to 20 %.
  EXPECT_GT(c.pitch, 0.24);
  EXPECT_GT(c.roll, 0.08);
  EXPECT_GT(c.yaw, 0.16);
  EXPECT_GT(c.zmp_margin_m, 0.01);
  EXPECT_GT(c.min_sole_share, 0.2);
  for (const char* sole : {"l_sole", "r_sole"}) {
    const SoleExcursion e = sole_excursion(robot, truth, sole);
    EXPECT_LT(e.slide_m, 1e-3) << sole;
    EXPECT_LT(e.tilt_deg, 0.5) << sole;
  }
}

TEST(Excite, AdultHumanoidBendsItsTrunkWithTheUpperBodyWelded) {
  // --lock-upper-body: every joint off the legs welded at its neutral value (the walk's lock), so a
  // model identified with the upper body locked validates on this motion.
  ScenarioOptions o;
  o.scenario = "excite";
  o.out_dir = test::fresh_dir("excite", "adult_trunk_bend");
  o.noise = NoiseLevel::None;
  o.motion = "trunk-bend";
  o.duration_s = 8.0;
  o.lock_upper_body = true;
  const Robot robot = test::bundled_robot("adult_humanoid");
  const ScenarioSummary s = run_scenario(robot, o);
  EXPECT_FALSE(s.fell);
  EXPECT_LT(s.consistency_max_rel_error, 1e-6);
  const json dataset = json::parse(test::read_file(o.out_dir + "/dataset.json"));
  const VectorX neutral = robot.model.neutral_configuration();
  ASSERT_TRUE(dataset.contains("welded_joints"));
  EXPECT_EQ(dataset["welded_joints"].size(), 18u);  // waist 2, head 2, arms 2 x 7
  const CsvStream truth = read_csv_stream(o.out_dir + "/truth.csv");
  const Eigen::Index waist = truth.column("q.waist_pitch");
  EXPECT_NEAR(truth.values.col(waist).maxCoeff(),
              neutral[robot.model.bodies[*robot.model.find_joint("waist_pitch")].idx_q], 1e-9);
  const TrunkBendCheck c = check_trunk_bend(robot, truth);
  std::printf("adult trunk bend: base pitch %.3f roll %.3f yaw %.3f rad, ZMP margin %.1f mm, least sole share %.2f\n",
              c.pitch, c.roll, c.yaw, 1e3 * c.zmp_margin_m, c.min_sole_share);
  EXPECT_GT(c.pitch, 0.24);
  EXPECT_GT(c.zmp_margin_m, 0.02);
  EXPECT_GT(c.min_sole_share, 0.1);
  // The lock applies to this motion only; a trunk bending too short for slow cycles is refused.
  o.motion = "paper004";
  EXPECT_THROW(check_scenario(robot, o), std::invalid_argument);
  o.motion = "trunk-bend";
  o.duration_s = 2.0;
  EXPECT_THROW(check_scenario(robot, o), std::invalid_argument);
}

TEST(Excite, BadMotionsAreRefusedBeforeSimulating) {
  const Robot robot = test::bundled_robot("kid_humanoid");
  ScenarioOptions o;
  o.scenario = "excite";
  o.out_dir = test::fresh_dir("excite", "bad");
  o.motion = "/nonexistent/motion.json";
  EXPECT_THROW(check_scenario(robot, o), std::invalid_argument);
  o.motion = test::write_temp_file("{\"format\": \"nope\"}", ".json");
  EXPECT_THROW(check_scenario(robot, o), std::runtime_error);
  o.motion = test::write_temp_file(
      R"({"format": "dynid-excitation", "base_frequency_hz": 0.1, "joints": [{"name": "tail", "q0": 0, "a": [1], "b": [1]}]})",
      ".json");
  try {
    check_scenario(robot, o);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'tail'"), std::string::npos) << e.what();
  }
  o.motion = "paper004";
  o.duration_s = -1.0;
  EXPECT_THROW(check_scenario(robot, o), std::invalid_argument);
  EXPECT_FALSE(std::filesystem::exists(o.out_dir));
}

}  // namespace
}  // namespace dynid
