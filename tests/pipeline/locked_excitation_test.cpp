// An excitation designed with locked joints (`dynid excite --lock`), played on the standing robot
// (`dynid simulate --scenario excite --motion TRAJ`) and identified with the same locks: the
// simulation welds the locked joints where the design held them, so the data obey the locked model
// exactly and noise-free data give its base parameters without error. Checked against the truth
// the simulation writes (truth.urdf, the truth stream).

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "dynid/dynamics/rnea.hpp"
#include "dynid/ident/excitation.hpp"
#include "dynid/io/csv_stream.hpp"
#include "dynid/model/lock_joints.hpp"
#include "dynid/model/random_state.hpp"
#include "dynid/model/urdf_reader.hpp"
#include "dynid/pipeline/inertial_identification.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

using json = nlohmann::json;

TEST(LockedExcitation, LockedJointsAreWeldedAndTheLockedModelIsRecoveredExactly) {
  const Robot kid = test::bundled_robot("kid_humanoid");
  ExcitationOptions design;
  design.fixed_feet = true;
  design.duration_s = 4.0;
  design.harmonics = 3;
  design.iterations = 1;
  design.restarts = 1;
  // Away from the standing pose and from zero, so a joint left to the servos or the IK would show.
  design.locks = {{"l_elbow", -0.6}, {"r_shoulder_yaw", 0.3}};
  const ExcitationDesign d = design_excitation(kid, design);
  const std::string traj = test::write_temp_file(to_json(d.trajectory, design.duration_s, 50.0, {}).dump(), ".json");
  ASSERT_EQ(read_fourier_trajectory(traj).held.size(), 2u + 12u);  // the locks and the legs

  ScenarioOptions sim;
  sim.scenario = "excite";
  sim.out_dir = test::fresh_dir("locked_excitation", "kid");
  sim.noise = NoiseLevel::None;
  sim.motion = traj;
  sim.duration_s = design.duration_s;
  const ScenarioSummary s = run_scenario(kid, sim);
  ASSERT_FALSE(s.fell);
  EXPECT_LT(s.consistency_max_rel_error, 1e-6);

  const CsvStream truth = read_csv_stream(sim.out_dir + "/truth.csv");
  const CsvStream encoders = read_csv_stream(sim.out_dir + "/encoders.csv");
  ASSERT_GT(truth.values.rows(), 1000);
  for (const JointLock& lock : design.locks) {
    EXPECT_TRUE((truth.values.col(truth.column("q." + lock.joint)).array() == lock.position).all()) << lock.joint;
    EXPECT_TRUE((truth.values.col(truth.column("v." + lock.joint)).array() == 0.0).all()) << lock.joint;
    EXPECT_TRUE((truth.values.col(truth.column("a." + lock.joint)).array() == 0.0).all()) << lock.joint;
    EXPECT_TRUE((encoders.values.col(encoders.column("q." + lock.joint)).array() == lock.position).all()) << lock.joint;
  }
  // The other arm joints follow the trajectory, the legs keep the balance: both move.
  for (const char* moving : {"l_shoulder_pitch", "r_elbow", "l_knee"}) {
    const auto q = truth.values.col(truth.column(std::string("q.") + moving)).array();
    EXPECT_GT(q.maxCoeff() - q.minCoeff(), 0.01) << moving;
  }
  const json welded = json::parse(test::read_file(sim.out_dir + "/dataset.json"))["welded_joints"];
  ASSERT_EQ(welded.size(), design.locks.size());
  for (const JointLock& lock : design.locks) {
    bool listed = false;
    for (const json& w : welded)
      listed = listed || (w["joint"] == lock.joint && w["position"].get<double>() == lock.position);
    EXPECT_TRUE(listed) << lock.joint;
  }

  InertialIdentificationOptions ident;
  ident.model = "kid_humanoid";
  ident.data = sim.out_dir;
  ident.sensors = "full";
  ident.source = "truth";  // the oracle: the simulator's noise-free stream
  ident.locks = design.locks;
  ident.truth_urdf = sim.out_dir + "/truth.urdf";
  ident.out_dir = test::fresh_dir("locked_excitation", "identified");
  // Standing, the feet stay planted and the legs only keep the balance: some of their inertia
  // products are barely excited. As in the walk tests (inertial_identification_test.cpp), every base
  // parameter lies within a few of its own standard deviations (what the truth stream's printed
  // digits leave), those the data pin down within 1e-6, and the fit leaves no residual. With the
  // locked joints held by servos instead, the residual is 2e-4 of the base force and no parameter
  // meets 1e-6.
  const InertialIdentificationResult r = run_inertial_identification(ident);
  EXPECT_EQ(r.identified_model.nv, kid.model.nv - 2);
  ASSERT_TRUE(r.base_truth);
  int pinned = 0, within_1e6 = 0;
  for (int k = 0; k < r.base.num_base(); ++k) {
    const double truth_k = std::abs((*r.base_truth)[k]);
    const double err = std::abs(r.base_values[k] - (*r.base_truth)[k]);
    EXPECT_LT(err, 8.0 * r.base_std[k]) << r.base.name(k);
    if (err <= 1e-6 * truth_k) ++within_1e6;
    if (r.base_std[k] <= 1e-8 * truth_k) {
      ++pinned;
      EXPECT_LE(err, 1e-6 * truth_k) << r.base.name(k);
    }
  }
  std::printf(
      "%d base parameters, %d pinned by the data (std <= 1e-8), %d within 1e-6 of the truth; base force "
      "RMS %.3g N (nominal model %.3g N)\n",
      r.base.num_base(), pinned, within_1e6, r.identified_rms.force, r.nominal_rms.force);
  // Most of the locked model is recovered exactly (106 of 136 within 1e-6 since the simulator's
  // streams are read at their time stamps; 62 pinned by std <= 1e-8).
  EXPECT_GT(2 * within_1e6, r.base.num_base());
  EXPECT_GT(pinned, 0);
  EXPECT_NEAR(r.total_mass, *r.truth_total_mass, 1e-9 * *r.truth_total_mass);
  EXPECT_LT(r.identified_rms.force, 1e-8 * r.nominal_rms.force);
  EXPECT_LT(r.identified_rms.moment, 1e-8 * r.nominal_rms.moment);

  // The identified URDF the command wrote, read back as a user would (its locked joints now fixed
  // joints at their lock value, so no lock is given), is the identified model: the same joints and
  // the same torques at random states.
  const std::string written = ident.out_dir + "/kid_humanoid_identified.urdf";
  const Model reread = read_urdf_file(written, {});
  ASSERT_EQ(reread.velocity_names(), r.identified_model.velocity_names());
  Data d_reread(reread), d_identified(r.identified_model);
  std::mt19937 rng(17);
  for (int k = 0; k < 10; ++k) {
    const StateSample x = random_state(r.identified_model, rng);
    const VectorX expected = rnea(r.identified_model, d_identified, x.q, x.v, x.a);
    EXPECT_LT((rnea(reread, d_reread, x.q, x.v, x.a) - expected).norm(), 1e-9 * expected.norm());
  }
  // summary.json says what the file changed: each locked joint made fixed.
  const json summary = json::parse(test::read_file(ident.out_dir + "/summary.json"));
  EXPECT_EQ(summary["identified_urdf"]["file"], "kid_humanoid_identified.urdf");
  for (const JointLock& lock : design.locks) {
    bool said = false;
    for (const json& c : summary["identified_urdf"]["changes"])
      said = said || c.get<std::string>() == "joint '" + lock.joint + "': locked, written as a fixed joint";
    EXPECT_TRUE(said) << lock.joint;
  }
}

TEST(LockedExcitation, AHeldJointThatIsAlsoMovedOrOutOfRangeIsRefused) {
  const Robot kid = test::bundled_robot("kid_humanoid");
  ScenarioOptions sim;
  sim.scenario = "excite";
  sim.out_dir = test::fresh_dir("locked_excitation", "bad");
  const std::string moving =
      R"({"format": "dynid-excitation", "base_frequency_hz": 0.25, "joints": [{"name": "l_elbow", "q0": -0.5, "a": [0.1], "b": [0]}], )";
  auto refused = [&](const std::string& held, const std::string& named) {
    sim.motion = test::write_temp_file(moving + R"("held_joints": )" + held + "}", ".json");
    try {
      check_scenario(kid, sim);
      ADD_FAILURE() << held << " was accepted";
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find(named), std::string::npos) << e.what();
    }
  };
  refused(R"([{"joint": "l_elbow", "position": -0.5}])", "both moved and held");
  refused(R"([{"joint": "r_elbow", "position": 1.0}])", "r_elbow");  // above its 0 rad limit
  refused(R"([{"joint": "tail", "position": 0.0}])", "tail");
  refused(R"([{"joint": "r_elbow"}])", "position");
  EXPECT_FALSE(std::filesystem::exists(sim.out_dir + "/dataset.json"));
}

}  // namespace
}  // namespace dynid
