// Locked model against the full model held at the lock positions: the same motion must need the same
// base wrench and the same torques at the joints that still move, whichever model computes them.

#include "dynid/model/lock_joints.hpp"

#include <gtest/gtest.h>

#include "dynid/dynamics/kinematics.hpp"
#include "dynid/dynamics/regressor.hpp"
#include "dynid/dynamics/rnea.hpp"
#include "dynid/model/random_state.hpp"
#include "dynid/model/urdf_reader.hpp"
#include "dynid/model/urdf_writer.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

/// The full model's state for a state of the locked model: locked joints at their lock position with
/// zero velocity and acceleration, every other coordinate copied by joint name.
StateSample full_state(const Model& full, const Model& locked, const std::vector<JointLock>& locks,
                       const StateSample& s) {
  StateSample out{full.neutral_configuration(), VectorX::Zero(full.nv), VectorX::Zero(full.nv)};
  for (const JointLock& l : locks)
    out.q[full.bodies[static_cast<std::size_t>(full.joint_index(l.joint))].idx_q] = l.position;
  for (std::size_t i = 1; i < locked.bodies.size(); ++i) {
    const Body& b = locked.bodies[i];
    const Body& f = full.bodies[static_cast<std::size_t>(full.joint_index(b.joint_name))];
    out.q.segment(f.idx_q, f.nq) = s.q.segment(b.idx_q, b.nq);
    out.v.segment(f.idx_v, f.nv) = s.v.segment(b.idx_v, b.nv);
    out.a.segment(f.idx_v, f.nv) = s.a.segment(b.idx_v, b.nv);
  }
  return out;
}

/// Rows of the full model's equations that the locked model keeps, in the locked model's order.
std::vector<int> kept_rows(const Model& full, const Model& locked) {
  std::vector<int> rows;
  for (const std::string& name : locked.velocity_names()) {
    const auto names = full.velocity_names();
    rows.push_back(static_cast<int>(std::find(names.begin(), names.end(), name) - names.begin()));
  }
  return rows;
}

void expect_locked_matches_full(const Model& full, const std::vector<JointLock>& locks, unsigned seed) {
  const Model locked = lock_joints(full, locks);
  ASSERT_EQ(locked.num_moving_bodies(), full.num_moving_bodies() - static_cast<int>(locks.size()));
  ASSERT_EQ(locked.nv, full.nv - static_cast<int>(locks.size()));
  EXPECT_NEAR(locked.total_mass(), full.total_mass(), 1e-12 * full.total_mass());
  EXPECT_EQ(locked.frames.size(), full.frames.size());
  EXPECT_EQ(locked.links.size(), full.links.size());

  Data data_full(full), data_locked(locked);
  const std::vector<int> rows = kept_rows(full, locked);
  const VectorX pi_locked = locked.inertial_parameters();
  std::mt19937 rng(seed);
  for (int k = 0; k < 8; ++k) {
    const StateSample s = random_state(locked, rng, 2.0);
    const StateSample sf = full_state(full, locked, locks, s);
    const VectorX tau_full = rnea(full, data_full, sf.q, sf.v, sf.a)(rows);
    const VectorX tau_locked = rnea(locked, data_locked, s.q, s.v, s.a);
    EXPECT_LT(test::relative_error(tau_locked, tau_full), 1e-12) << full.name << " state " << k;
    const VectorX Ypi = joint_torque_regressor(locked, data_locked, s.q, s.v, s.a) * pi_locked;
    EXPECT_LT(test::relative_error(Ypi, tau_full), 1e-12) << full.name << " state " << k;

    // Every frame, wherever it now rides, stays where it was.
    forward_kinematics(full, data_full, sf.q);
    forward_kinematics(locked, data_locked, s.q);
    for (std::size_t f = 0; f < full.frames.size(); ++f) {
      const SE3 a = frame_placement(full, data_full, static_cast<int>(f));
      const SE3 b = frame_placement(locked, data_locked, locked.frame_index(full.frames[f].name));
      EXPECT_TRUE(b.is_approx(a, 1e-12)) << full.frames[f].name;
    }
  }
}

std::vector<JointLock> kid_arm_locks(std::mt19937& rng, const Model& kid) {
  std::vector<JointLock> locks;
  for (const char* side : {"l_", "r_"})
    for (const char* joint : {"shoulder_pitch", "shoulder_roll", "shoulder_yaw", "elbow"}) {
      const Body& b = kid.bodies[static_cast<std::size_t>(kid.joint_index(std::string(side) + joint))];
      std::uniform_real_distribution<double> within(b.limits.lower, b.limits.upper);
      locks.push_back({std::string(side) + joint, within(rng)});
    }
  return locks;
}

TEST(LockJoints, KidHumanoidWithArmsLockedHas18Dof) {
  const Model kid = test::bundled_robot("kid_humanoid").model;
  std::mt19937 rng(5);
  const std::vector<JointLock> locks = kid_arm_locks(rng, kid);
  const Model locked = lock_joints(kid, locks);
  EXPECT_EQ(locked.nv, 18);  // paper 003 appendix B: 6 base + 2 x 6 leg joints
  EXPECT_EQ(locked.num_moving_bodies(), 13);
  EXPECT_EQ(locked.nq, 19);
  // The arms' links now belong to the body that carries the torso.
  EXPECT_EQ(locked.bodies[static_cast<std::size_t>(*locked.find_body("l_forearm"))].name, "pelvis");
  expect_locked_matches_full(kid, locks, 11);
}

TEST(LockJoints, MatchesFullModelOnRandomTrees) {
  for (unsigned seed = 0; seed < 6; ++seed) {
    for (bool floating : {false, true}) {
      UrdfReadOptions options;
      options.floating_base = floating;
      const Model full = read_urdf_string(test::random_tree_urdf(30, seed), "random", options);
      // Lock about a third of the joints, chains of locked joints and joints next to the root included.
      std::mt19937 rng(seed + 40);
      std::uniform_real_distribution<double> coin(0.0, 1.0);
      std::vector<JointLock> locks;
      for (std::size_t i = 1; i < full.bodies.size(); ++i) {
        const Body& b = full.bodies[i];
        if (b.joint_type == JointType::FreeFlyer || coin(rng) > 0.35) continue;
        const double lo = std::isfinite(b.limits.lower) ? b.limits.lower : -3.0;
        const double hi = std::isfinite(b.limits.upper) ? b.limits.upper : 3.0;
        locks.push_back({b.joint_name, lo + (hi - lo) * coin(rng)});
      }
      ASSERT_GE(locks.size(), 5u);
      expect_locked_matches_full(full, locks, seed + 200);
    }
  }
}

TEST(LockJoints, KeepsUnlockedBodiesAndTheirRegressorColumns) {
  // Bodies that still move keep their frame: their 10 columns of Y are the full model's columns.
  const Model kid = test::bundled_robot("kid_humanoid").model;
  std::mt19937 rng(8);
  const std::vector<JointLock> locks = kid_arm_locks(rng, kid);
  const Model locked = lock_joints(kid, locks);
  Data data_full(kid), data_locked(locked);
  const StateSample s = random_state(locked, rng);
  const StateSample sf = full_state(kid, locked, locks, s);
  const MatrixX Y_full = joint_torque_regressor(kid, data_full, sf.q, sf.v, sf.a)(kept_rows(kid, locked), Eigen::all);
  const MatrixX& Y_locked = joint_torque_regressor(locked, data_locked, s.q, s.v, s.a);
  for (std::size_t i = 2; i < locked.bodies.size(); ++i) {  // body 1 (pelvis) now carries the arms
    const int j = kid.body_index(locked.bodies[i].name);
    EXPECT_LT(test::relative_error(Y_locked.middleCols(10 * (static_cast<int>(i) - 1), 10),
                                   Y_full.middleCols(10 * (j - 1), 10)),
              1e-13)
        << locked.bodies[i].name;
  }
}

TEST(LockJoints, IdentifiedInertiasOfALockedModelWriteBackToTheUrdf) {
  // Identification runs on the locked model; its body inertias must go back into the user's URDF.
  // The locked links keep their own inertials, the body's own link takes the rest, and the locked
  // joints are written as fixed joints at their lock position, so reading the written file gives
  // back exactly the identified locked model.
  const Robot kid = test::bundled_robot("kid_humanoid");
  std::mt19937 rng(21);
  const std::vector<JointLock> locks = kid_arm_locks(rng, kid.model);
  Model identified = lock_joints(kid.model, locks);
  for (std::size_t i = 1; i < identified.bodies.size(); ++i)
    identified.bodies[i].inertia += Inertia::from_com(0.05 * static_cast<double>(i), Vector3(0.01, -0.02, 0.015),
                                                      Vector3(1e-4, 2e-4, 1.5e-4).asDiagonal());
  const std::string path = test::write_temp_file(write_urdf_inertials(identified, kid.urdf_path).urdf, ".urdf");
  const Model reread = read_urdf_file(path, {});
  ASSERT_EQ(reread.num_moving_bodies(), identified.num_moving_bodies());
  ASSERT_EQ(reread.velocity_names(), identified.velocity_names());
  EXPECT_LT(test::relative_error(reread.inertial_parameters(), identified.inertial_parameters()), 1e-12);
}

TEST(LockJoints, LockedUrdfReloadedReproducesTheIdentifiedTorques) {
  // The bundled arm with a joint locked mid-chain (a3: moving joints below it) and the last one
  // (a7), the identified bodies off the nominal ones; one body lighter than the link locked to it,
  // so its remainder is not a body and the whole identified inertia goes to its own link (the fold).
  const Robot arm = test::bundled_robot("arm7");
  const std::vector<JointLock> locks = {{"a3", 0.5}, {"a7", -0.3}};
  Model identified = lock_joints(arm.model, locks);
  for (std::size_t i = 1; i < identified.bodies.size(); ++i)
    identified.bodies[i].inertia += Inertia::from_com(0.2 * static_cast<double>(i), Vector3(0.01, -0.02, 0.03),
                                                      Vector3(2e-3, 1e-3, 1.5e-3).asDiagonal());
  const int folded = identified.body_index("arm7_link_6");  // carries link 7 (0.3 kg) after the lock
  identified.bodies[static_cast<std::size_t>(folded)].inertia =
      Inertia::from_com(0.25, Vector3(0.0, 0.0, 0.05), Vector3(1e-3, 1e-3, 5e-4).asDiagonal());
  const UrdfWriteReport report = write_urdf_inertials(identified, arm.urdf_path);
  EXPECT_NE(report.urdf.find("dynid: joint 'a3' (revolute) locked"), std::string::npos);
  const Model reread = read_urdf_file(test::write_temp_file(report.urdf, ".urdf"), {});
  ASSERT_EQ(reread.velocity_names(), identified.velocity_names());
  Data d_reread(reread), d_identified(identified);
  std::mt19937 rng(5);
  for (int k = 0; k < 10; ++k) {
    const StateSample s = random_state(identified, rng);
    const VectorX expected = rnea(identified, d_identified, s.q, s.v, s.a);
    EXPECT_LT(test::relative_error(rnea(reread, d_reread, s.q, s.v, s.a), expected), 1e-9);
  }
  bool fold_reported = false;
  for (const std::string& c : report.changes)
    fold_reported = fold_reported || c.find("whole identified body") != std::string::npos;
  EXPECT_TRUE(fold_reported);
  // Said in the file too, before the link that carries the body, naming the links emptied.
  const std::size_t note = report.urdf.find("dynid: link 'arm7_link_6' carries the whole identified body");
  ASSERT_NE(note, std::string::npos);
  EXPECT_LT(note, report.urdf.find("<link name=\"arm7_link_6\""));
  EXPECT_NE(report.urdf.find("inertials of 'arm7_link_7', fixed to it", note), std::string::npos);
}

TEST(LockJoints, ErrorsNameTheModelAndTheJoint) {
  const Model kid = test::bundled_robot("kid_humanoid").model;
  auto message = [&](const std::vector<JointLock>& locks) {
    try {
      lock_joints(kid, locks);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string unknown = message({{"l_wrist", 0.0}});
  EXPECT_NE(unknown.find("'l_wrist'"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("kid_humanoid"), std::string::npos) << unknown;
  EXPECT_NE(message({{"root_joint", 0.0}}).find("floating base"), std::string::npos);
  EXPECT_NE(message({{"l_elbow", 0.0}, {"l_elbow", 0.1}}).find("locked twice"), std::string::npos);
  EXPECT_NE(message({{"l_knee", 100.0}}).find("outside its limits"), std::string::npos);
  EXPECT_NE(message({{"l_knee", std::nan("")}}).find("not a finite"), std::string::npos);

  UrdfReadOptions fixed;
  fixed.floating_base = false;
  const Model chain = read_urdf_string(test::random_tree_urdf(3, 1, false), "chain", fixed);
  std::vector<JointLock> all;
  for (std::size_t i = 1; i < chain.bodies.size(); ++i) all.push_back({chain.bodies[i].joint_name, 0.0});
  EXPECT_THROW(lock_joints(chain, all), std::invalid_argument);
}

}  // namespace
}  // namespace dynid
