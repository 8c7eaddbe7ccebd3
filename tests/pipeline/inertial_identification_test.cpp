// `identify inertial` end to end on simulated squats of the kid-size humanoid: noise-free truth
// recovers the true base parameters (paper 003: "without error"), the robot's own noisy sensors
// recover the total mass and explain the held-out base wrench far better than the nominal model,
// the physically consistent estimate loses almost nothing, and bad inputs are refused by name.

#include "dynid/pipeline/inertial_identification.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <map>

#include "dynid/data/truth_source.hpp"
#include "dynid/ident/identification_rows.hpp"
#include "dynid/model/urdf_reader.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

namespace fs = std::filesystem;

class InertialIdentificationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    for (const NoiseLevel noise : {NoiseLevel::None, NoiseLevel::Realistic}) {
      ScenarioOptions o;
      o.scenario = "squat";
      o.out_dir = test::fresh_dir("ident", noise == NoiseLevel::None ? "squat_none" : "squat_noisy");
      o.noise = noise;
      o.seed = 1;
      run_scenario(test::bundled_robot("kid_humanoid"), o);
      (noise == NoiseLevel::None ? clean_ : noisy_) = o.out_dir;
    }
  }
  static InertialIdentificationOptions options(const std::string& data, const std::string& source) {
    InertialIdentificationOptions o;
    o.model = "kid_humanoid";
    o.data = data;
    o.source = source;
    o.sensors = "contact";
    o.truth_urdf = data + "/truth.urdf";
    return o;
  }
  static std::string clean_, noisy_;
};
std::string InertialIdentificationTest::clean_, InertialIdentificationTest::noisy_;

TEST_F(InertialIdentificationTest, RowsOfTheTruthModelMatchTheMeasuredForces) {
  // The rows' two sides computed independently: P Y_base K pi_truth against P A_m f_m.
  const Robot robot = test::bundled_robot("kid_humanoid");
  const DatasetInfo info = read_dataset_info(clean_);
  UrdfReadOptions ro;
  ro.floating_base = true;
  const Model truth = read_urdf_file(info.truth_urdf, ro);
  for (const std::string spec : {"contact", "full", "joints"}) {
    const BaseParameters base = compute_base_parameters(robot.model);
    const VectorX pi_base = base_parameter_values(base, truth.inertial_parameters());
    IdentificationRows rows(robot.model, *robot.sidecar, base, parse_sensor_set(robot.model, *robot.sidecar, spec), {});
    TruthSource source(robot.model, *robot.sidecar, info);
    MotionSample s;
    double worst = 0.0;
    for (int k = 0; k < 400 && source.next(s); ++k) {
      rows.build(s);
      const VectorX lhs = rows.rows() * pi_base;
      worst = std::max(worst, (lhs - rows.measured()).norm() / (1.0 + rows.measured().norm()));
      EXPECT_TRUE((rows.weights().array() > 0).all());
    }
    EXPECT_LT(worst, 1e-6) << spec;
  }
}

TEST_F(InertialIdentificationTest, NoiseFreeContactOnlyRecoversTheTrueBaseParameters) {
  InertialIdentificationOptions o = options(clean_, "truth");
  o.out_dir = test::fresh_dir("ident", "out_clean");
  const InertialIdentificationResult r = run_inertial_identification(o);
  // Paper 003's "without error": every base parameter within 3e-6 of the truth (relative, a near-zero
  // parameter on the scale of its unit), and each within a few of its own standard deviations, which
  // the truth stream's 12 printed digits set. The bound is the data's, not the solver's: the largest
  // of the 150 errors follows the simulated squat's last digits, and 1e-15 relative changes of the
  // servo gains (JointServo takes them from M's diagonal) spread it over 3.8e-7 .. 1.65e-6 in 24 runs
  // (6 above 1e-6, with either CRBA); the same runs written with 17 digits give 1.3e-9 .. 5.9e-9
  // (docs/performance.md, "CRBA in the reference frame, and the test it moved").
  ASSERT_TRUE(r.base_truth);
  int within_1e6 = 0;
  for (int k = 0; k < r.base.num_base(); ++k) {
    const double err = std::abs(r.base_values[k] - (*r.base_truth)[k]);
    EXPECT_LT(err, 8.0 * r.base_std[k]) << r.base.name(k);
    if (err <= 1e-6 * std::abs((*r.base_truth)[k])) ++within_1e6;
    if (r.base_std[k] <= 1e-8 * std::abs((*r.base_truth)[k])) {
      EXPECT_LE(err, 1e-6 * std::abs((*r.base_truth)[k])) << r.base.name(k);
    }
  }
  std::printf("%d base parameters, %d within 1e-6 of the truth, largest relative error %.3g\n", r.base.num_base(),
              within_1e6, *r.base_param_max_rel_error);
  EXPECT_LT(*r.base_param_max_rel_error, 3e-6);
  EXPECT_NEAR(r.total_mass, *r.truth_total_mass, 1e-9 * *r.truth_total_mass);
  EXPECT_LT(r.identified_rms.force, 1e-8 * r.nominal_rms.force);
  EXPECT_LT(r.identified_rms.moment, 1e-7 * r.nominal_rms.moment);
  for (const char* f :
       {"summary.json", "base_parameters.json", "base_parameters.txt", "report.html", "kid_humanoid_identified.urdf"})
    EXPECT_TRUE(fs::exists(o.out_dir + "/" + f)) << f;
  // The written URDF reads back with the identified inertias.
  UrdfReadOptions ro;
  ro.floating_base = true;
  const Model back = read_urdf_file(o.out_dir + "/kid_humanoid_identified.urdf", ro);
  EXPECT_LT((back.inertial_parameters() - r.standard_parameters).norm(), 1e-8 * r.standard_parameters.norm());
}

TEST_F(InertialIdentificationTest, RealisticSensorsRecoverTheMassAndTheBaseWrench) {
  InertialIdentificationOptions o = options(noisy_, "sensors");
  const InertialIdentificationResult r = run_inertial_identification(o);
  EXPECT_LT(std::abs(r.total_mass - *r.truth_total_mass), 0.01 * *r.truth_total_mass)
      << r.total_mass << " vs " << *r.truth_total_mass;
  EXPECT_LT(r.identified_rms.force, 0.2 * r.nominal_rms.force) << r.summary_json;
  EXPECT_LT(r.identified_rms.moment, 0.5 * r.nominal_rms.moment) << r.summary_json;
}

TEST_F(InertialIdentificationTest, ConsistentEstimateKeepsTheFit) {
  InertialIdentificationOptions o = options(noisy_, "sensors");
  const InertialIdentificationResult free = run_inertial_identification(o);
  o.consistent = true;
  const InertialIdentificationResult fit = run_inertial_identification(o);
  EXPECT_TRUE(fit.physically_consistent);
  EXPECT_TRUE(fit.inconsistent_links.empty());
  EXPECT_FALSE(free.physically_consistent);  // the squat leaves inertia directions the data cannot fix
  // The constrained optimum explains held-out motion almost as well as least squares: the data do not
  // ask for an impossible body, only the noise does. The interior-point fit reaches that optimum (a
  // fit stopping early, as a local method from the nominal model did, lands at about 2x).
  std::printf("held-out base force RMS: nominal %.3g N, least squares %.3g N, consistent %.3g N\n",
              free.nominal_rms.force, free.identified_rms.force, fit.identified_rms.force);
  std::printf("held-out base moment RMS: nominal %.3g N m, least squares %.3g N m, consistent %.3g N m\n",
              free.nominal_rms.moment, free.identified_rms.moment, fit.identified_rms.moment);
  ASSERT_TRUE(fit.consistent_fit.has_value());
  EXPECT_TRUE(fit.consistent_fit->converged);
  EXPECT_LT(fit.identified_rms.force, 1.10 * free.identified_rms.force);
  EXPECT_LT(fit.identified_rms.moment, 0.3 * free.nominal_rms.moment);
  EXPECT_LT(std::abs(fit.total_mass - *fit.truth_total_mass), 0.01 * *fit.truth_total_mass);
}

TEST_F(InertialIdentificationTest, TwoPhaseKeepsTheGivenMassesAndComs) {
  // Masses and COMs from a static identification (here: the truth's), the rotational inertias from
  // the motion. The kept values are inputs: they are checked only to come back unchanged (the
  // option's contract, not an estimate), and the total mass, their sum, not at all. What is
  // estimated is checked: the held-out base wrench the identified inertias explain.
  InertialIdentificationOptions o = options(clean_, "truth");
  o.fix_mass_com = clean_ + "/truth.urdf";
  const InertialIdentificationResult r = run_inertial_identification(o);
  UrdfReadOptions ro;
  ro.floating_base = true;
  const VectorX truth = read_urdf_file(o.fix_mass_com, ro).inertial_parameters();
  for (Eigen::Index i = 0; i < truth.size(); ++i)
    if (i % 10 < 4) {
      EXPECT_EQ(r.standard_parameters[i], truth[i]) << r.base.parameter_names[static_cast<std::size_t>(i)];
    }
  EXPECT_LT(r.identified_rms.force, 1e-8 * r.nominal_rms.force);
  EXPECT_LT(r.identified_rms.moment, 1e-3 * r.nominal_rms.moment);
  // With --consistent only the rotational inertias move, every link stays a real body, and the fit
  // keeps explaining the held-out motion (the truth is a real body, so the constraint costs nothing).
  o.consistent = true;
  const InertialIdentificationResult c = run_inertial_identification(o);
  for (Eigen::Index i = 0; i < truth.size(); ++i)
    if (i % 10 < 4) {
      EXPECT_EQ(c.standard_parameters[i], truth[i]) << c.base.parameter_names[static_cast<std::size_t>(i)];
    }
  EXPECT_TRUE(c.physically_consistent) << (c.inconsistent_links.empty() ? "" : c.inconsistent_links.front());
  std::printf("two-phase held-out base force RMS: least squares %.3g N, consistent %.3g N (nominal %.3g N)\n",
              r.identified_rms.force, c.identified_rms.force, c.nominal_rms.force);
  EXPECT_LT(c.identified_rms.force, 1e-6 * c.nominal_rms.force);
  EXPECT_LT(c.identified_rms.moment, 1e-3 * c.nominal_rms.moment);
}

TEST(InertialIdentificationWalk, UpperBodyLockedHas94BaseParametersRecoveredWithoutError) {
  // Paper 003's setting: the kid-size humanoid with its arms locked (18 DOF), 10 steps, contact
  // wrenches only. The simulation welds the locked joints, so the data obey the 18-DOF model
  // exactly and the base parameters come out "without error" (paper 003).
  ScenarioOptions sim;
  sim.scenario = "walk";
  sim.out_dir = test::fresh_dir("ident", "walk_locked");
  sim.noise = NoiseLevel::None;
  sim.walk_steps = 10;
  sim.lock_upper_body = true;
  const ScenarioSummary walked = run_scenario(test::bundled_robot("kid_humanoid"), sim);
  ASSERT_FALSE(walked.fell);
  EXPECT_LT(walked.consistency_max_rel_error, 1e-6);
  InertialIdentificationOptions o;
  o.model = "kid_humanoid";
  o.data = sim.out_dir;
  o.sensors = "contact";
  o.source = "truth";  // the oracle: the simulator's noise-free stream
  o.lock_upper_body = true;
  o.truth_urdf = sim.out_dir + "/truth.urdf";
  const InertialIdentificationResult r = run_inertial_identification(o);
  EXPECT_EQ(r.base.num_base(), 94);
  EXPECT_EQ(r.identified_model.nv, 18);
  ASSERT_TRUE(r.base_param_max_rel_error.has_value());
  EXPECT_LT(*r.base_param_max_rel_error, 3e-6);
  EXPECT_LT(std::abs(r.total_mass - *r.truth_total_mass), 1e-6 * *r.truth_total_mass);
  EXPECT_LT(r.identified_rms.force, 1e-6 * r.nominal_rms.force);
  EXPECT_LT(r.identified_rms.moment, 1e-6 * r.nominal_rms.moment);

  // The same noise-free walk through the robot's own sensors (encoders, IMU, foot F/T) with the CAD
  // prior: each stream read at its time stamp, the identified model is closer to the truth than the
  // CAD model by an order of magnitude in every class of parameter (issue 20: at most 0.1), and the
  // held-out fit sits at the true model's floor, not below it.
  o.source = "sensors";
  const InertialIdentificationResult raw = run_inertial_identification(o);
  ASSERT_EQ(raw.parameter_error_vs_nominal.size(), 6u);
  for (const auto& [label, ratio] : raw.parameter_error_vs_nominal) EXPECT_LT(ratio, 0.1) << label;
  ASSERT_TRUE(raw.truth_rms);
  EXPECT_LT(raw.identified_rms.force, 1.1 * raw.truth_rms->force);
  EXPECT_GT(raw.identified_rms.force, 0.9 * raw.truth_rms->force);
  o.source = "truth";

  // Realistic noise, the robot's own sensors: base acceleration from the accelerometer, orientation
  // and position from the stance leg (the anchor changes at every step).
  sim.out_dir = test::fresh_dir("ident", "walk_locked_noisy");
  sim.noise = NoiseLevel::Realistic;
  ASSERT_FALSE(run_scenario(test::bundled_robot("kid_humanoid"), sim).fell);
  o.data = sim.out_dir;
  o.truth_urdf = sim.out_dir + "/truth.urdf";
  o.source = "sensors";
  o.gear_backlash_deg = 0.1;  // the encoders see the gears' play (docs/identification.md, "Gear backlash")
  const InertialIdentificationResult noisy = run_inertial_identification(o);
  ASSERT_TRUE(noisy.truth_rms);
  std::printf(
      "walk, realistic sensors: total mass %.4f kg (truth %.4f), base force RMS %.3g -> %.3g N (true model "
      "%.3g N), moment RMS %.3g -> %.3g N m (true model %.3g N m)\n",
      noisy.total_mass, *noisy.truth_total_mass, noisy.nominal_rms.force, noisy.identified_rms.force,
      noisy.truth_rms->force, noisy.nominal_rms.moment, noisy.identified_rms.moment, noisy.truth_rms->moment);
  EXPECT_LT(std::abs(noisy.total_mass - *noisy.truth_total_mass), 0.005 * *noisy.truth_total_mass);
  // Force plates quantize at 0.7 N: the reconstructed base force is at that class and below.
  EXPECT_LT(noisy.identified_rms.force, 0.4);
  EXPECT_LT(noisy.identified_rms.moment, 0.08);
  // The true model on the same samples: what the data path itself leaves.
  EXPECT_LT(noisy.truth_rms->force, 0.4);
  EXPECT_LT(noisy.truth_rms->moment, 0.08);
  EXPECT_LT(noisy.nominal_rms.force, 20.0);  // the base estimate itself adds no large forces

  // Parameter by parameter (issue 20): without a prior the weakly excited inertias absorb the data
  // path's errors (about 60x CAD's error on the demo's walk); the CAD prior keeps what the walk does not
  // determine at CAD. Not yet below CAD's error on realistic data (docs/identification.md).
  o.prior = 0.0;
  const InertialIdentificationResult unregularized = run_inertial_identification(o);
  const auto ratio = [](const InertialIdentificationResult& res, const std::string& label) {
    for (const auto& [l, v] : res.parameter_error_vs_nominal)
      if (l == label) return v;
    return std::numeric_limits<double>::quiet_NaN();
  };
  std::printf("walk, realistic: inertia error vs CAD's %.3g with the CAD prior, %.3g without a prior\n",
              ratio(noisy, "inertia"), ratio(unregularized, "inertia"));
  EXPECT_LT(ratio(noisy, "inertia"), 0.25 * ratio(unregularized, "inertia"));
  EXPECT_LT(ratio(noisy, "first_moment"), ratio(unregularized, "first_moment"));
  EXPECT_LT(ratio(noisy, "mass"), 0.05);

  // Gautier's parallel filter (data/parallel_filter.hpp): the encoders differentiated after a light
  // 20 Hz low-pass, both sides of the equations low-passed at 3 Hz. Less filter distortion in the
  // regressor: every class closer to the truth (seed 1, learned prior scale, the gears' play taken
  // off: inertias 7.1 -> 1.6 times CAD's error), and the held-out force, compared in the same band,
  // at the true model's level.
  o.prior.reset();
  o.sensor_options.cutoff_hz = 20.0;
  o.parallel_filter.cutoff_hz = 3.0;
  const InertialIdentificationResult parallel = run_inertial_identification(o);
  ASSERT_TRUE(parallel.parallel_filter && parallel.truth_rms);
  EXPECT_GT(parallel.parallel_filter->decimation, 50);
  std::printf("walk, realistic, parallel filter: mass %.3g first moments %.3g inertias %.3g x CAD's error\n",
              ratio(parallel, "mass"), ratio(parallel, "first_moment"), ratio(parallel, "inertia"));
  EXPECT_LT(ratio(parallel, "mass"), 0.5 * ratio(noisy, "mass"));
  EXPECT_LT(ratio(parallel, "first_moment"), 0.8 * ratio(noisy, "first_moment"));
  EXPECT_LT(ratio(parallel, "inertia"), 0.8 * ratio(noisy, "inertia"));
  EXPECT_NEAR(parallel.identified_rms.force / parallel.truth_rms->force, 1.0, 0.1);
  // No trade of the fit for the parameters: the held-out moment no worse than the true model's. It
  // is better (0.76 of it, seed 1): the walk repeats its backlash pattern, and the model fits some of
  // it; the summary warns of that (compare parameter_error_vs_nominal).
  EXPECT_LT(parallel.identified_rms.moment, 1.1 * parallel.truth_rms->moment);

  // The CAD prior's scale learned per class of parameter (ident/cad_prior.hpp) against one fraction
  // of every body's scale for all (0.3, what dynid used before): the data find that products of
  // inertia are closer to CAD than masses, and keep the weakly determined ones there (seed 1:
  // inertias 2.32 -> 1.58 times CAD's error; the first moments 1.11 -> 1.85, worse, since the
  // testbed's encoders cross the gears' play physically: 1.65 -> 1.57 when they jumped with the
  // motor torque).
  // Where the walk speaks, it is far closer to the truth than CAD (issue 20's goal of 0.3 on realistic
  // data; seed 1: first moments 0.04, inertias 0.11 over the base parameters it determines).
  int classes_checked = 0;
  for (const auto& [label, value] : parallel.parameter_error_vs_nominal_determined)
    if (label == "first_moment" || label == "inertia") {
      EXPECT_LT(value, 0.3) << label;
      ++classes_checked;
    }
  EXPECT_EQ(classes_checked, 2);
  ASSERT_TRUE(parallel.cad_prior_fractions);
  const auto& learned = *parallel.cad_prior_fractions;
  std::printf("walk, realistic, parallel filter: learned prior fractions mass %.3f, products of inertia %.3f\n",
              learned[static_cast<std::size_t>(CadParameterClass::Mass)],
              learned[static_cast<std::size_t>(CadParameterClass::ProductOfInertia)]);
  EXPECT_LT(learned[static_cast<std::size_t>(CadParameterClass::ProductOfInertia)],
            0.6 * learned[static_cast<std::size_t>(CadParameterClass::Mass)]);
  // The contact rows' weights follow the posture (the F/T wrenches' map to the base does), so by
  // default every sample is a run of its own: decimated, not filtered. With all_rows the rows are
  // whitened first and the training walk is filtered as one run (docs/identification.md,
  // "Parallel filtering"; on this short walk it does not yet beat the default).
  EXPECT_EQ(parallel.parallel_filter->runs, parallel.parallel_filter->samples_in);
  o.parallel_filter_all_rows = true;
  const InertialIdentificationResult all_rows = run_inertial_identification(o);
  ASSERT_TRUE(all_rows.parallel_filter && all_rows.truth_rms);
  EXPECT_EQ(all_rows.parallel_filter->runs, 1);
  EXPECT_EQ(all_rows.parallel_filter->samples_out, parallel.parallel_filter->samples_out);
  EXPECT_NEAR(all_rows.identified_rms.force / all_rows.truth_rms->force, 1.0, 0.1);
  std::printf("walk, realistic, parallel filter on all rows: first moments %.3g inertias %.3g x CAD's error\n",
              ratio(all_rows, "first_moment"), ratio(all_rows, "inertia"));
  o.parallel_filter_all_rows = false;
  o.learn_cad_prior_scale = false;
  const InertialIdentificationResult one_fraction = run_inertial_identification(o);
  std::printf("walk, realistic, parallel filter, one prior fraction: first moments %.3g inertias %.3g x CAD's error\n",
              ratio(one_fraction, "first_moment"), ratio(one_fraction, "inertia"));
  EXPECT_LT(ratio(parallel, "inertia"), 0.75 * ratio(one_fraction, "inertia"));
  o.learn_cad_prior_scale = true;

  // The demo's prior: on each body's mass, COM and inertia about the COM (--prior-frame com) instead
  // of the standard parameters independently (the default): the inertias about the joints follow
  // the masses and COMs the walk determines, as the parallel-axis theorem says, and the first
  // moments come closer to the truth (issue 20; seed 1: first moments 1.67 -> 1.02, inertias 0.86 ->
  // 0.78 times CAD's error; 1.85 -> 0.99 and 1.58 -> 1.40 before the soles had torsional friction:
  // on this 8 s walk one seed's classes are a draw from a wide distribution, docs/identification.md,
  // "Why the COM frame", so the bounds are relative to the origin frame's).
  o.cad_prior_coordinates = CadPriorCoordinates::Com;
  const InertialIdentificationResult com = run_inertial_identification(o);
  std::printf(
      "walk, realistic, parallel filter, prior in the COM frame: first moments %.3g inertias %.3g x CAD's "
      "error\n",
      ratio(com, "first_moment"), ratio(com, "inertia"));
  EXPECT_LT(ratio(com, "first_moment"), 0.8 * ratio(parallel, "first_moment"));
  EXPECT_LT(ratio(com, "inertia"), 1.1 * ratio(parallel, "inertia"));
  EXPECT_NEAR(com.identified_rms.force / parallel.identified_rms.force, 1.0, 0.05);
}

TEST(InertialIdentificationWalk, IdentifiedFromTheWalkValidatesOnTrunkBending) {
  // Paper 003's validation: the kid humanoid identified from walking (arms locked, foot F/T only)
  // predicts the base wrench of a different motion, trunk bending on both feet (`simulate --scenario
  // excite --motion trunk-bend --lock-upper-body`, the same true robot: the same seed), as well as
  // the true model does. The true model's RMS on the same held-out samples is the floor the sensor
  // path leaves; the nominal (CAD) model is 10^2-10^6 times above it.
  const Robot kid = test::bundled_robot("kid_humanoid");
  for (const NoiseLevel noise : {NoiseLevel::None, NoiseLevel::Realistic}) {
    const std::string tag = noise == NoiseLevel::None ? "clean" : "noisy";
    ScenarioOptions walk;
    walk.scenario = "walk";
    walk.out_dir = test::fresh_dir("ident", "trunk_validation_walk_" + tag);
    walk.seed = 2;
    walk.noise = noise;
    walk.walk_steps = 6;
    walk.lock_upper_body = true;
    ASSERT_FALSE(run_scenario(kid, walk).fell);
    ScenarioOptions bend = walk;
    bend.scenario = "excite";
    bend.motion = "trunk-bend";
    bend.duration_s = 6.0;
    bend.out_dir = test::fresh_dir("ident", "trunk_validation_bend_" + tag);
    ASSERT_FALSE(run_scenario(kid, bend).fell);
    InertialIdentificationOptions o;
    o.model = "kid_humanoid";
    o.data = walk.out_dir;
    o.validate = bend.out_dir;
    o.sensors = "contact";
    o.source = "sensors";
    o.lock_upper_body = true;
    o.truth_urdf = walk.out_dir + "/truth.urdf";
    if (noise == NoiseLevel::Realistic) {  // the demo's options
      o.consistent = true;
      o.sensor_options.cutoff_hz = 20.0;
      o.parallel_filter.cutoff_hz = 3.0;
      o.cad_prior_coordinates = CadPriorCoordinates::Com;
    }
    const InertialIdentificationResult r = run_inertial_identification(o);
    ASSERT_TRUE(r.truth_rms);
    std::printf(
        "%s walk -> trunk bend: base force RMS %.3g -> %.3g N (true model %.3g N), moment %.3g -> %.3g N m "
        "(true model %.3g N m)\n",
        tag.c_str(), r.nominal_rms.force, r.identified_rms.force, r.truth_rms->force, r.nominal_rms.moment,
        r.identified_rms.moment, r.truth_rms->moment);
    EXPECT_GT(r.validation_samples, 5000);       // the held-out set is the trunk bending (6 s at 1 kHz), not the walk
    EXPECT_EQ(r.validation_data, bend.out_dir);  // named so in summary.json and report.html
    if (noise == NoiseLevel::None) {
      // Every base parameter the walk determines is exact; the rest stay at CAD under the prior and
      // trunk bending barely sees them: at the floor, within 5 % (force) and 10 % (moment).
      EXPECT_LT(r.identified_rms.force, 1.05 * r.truth_rms->force);
      EXPECT_LT(r.identified_rms.moment, 1.1 * r.truth_rms->moment);
      EXPECT_LT(r.truth_rms->force, 1e-5 * r.nominal_rms.force);
    } else {
      // Realistic sensors: the force at the floor within 20 %, the moment within a factor 2 (what
      // the walk's systematic errors leave, docs/identification.md), both far below CAD's.
      EXPECT_LT(r.identified_rms.force, 1.2 * r.truth_rms->force);
      EXPECT_LT(r.identified_rms.moment, 2.0 * r.truth_rms->moment);
      EXPECT_LT(r.identified_rms.force, 0.02 * r.nominal_rms.force);
      EXPECT_LT(r.identified_rms.moment, 0.2 * r.nominal_rms.moment);
    }
  }
}

TEST(InertialIdentificationWalk, ParallelFilteredStandardDeviationsCoverTheTruthOverFiveSeeds) {
  // Issue 20: the standard deviations must cover the error. Five seeds of the realistic walk (the
  // demo's configuration: the robot's own sensors, CAD prior in the COM frame, consistent fit,
  // parallel filter), every base parameter pooled: at least 90 % lie within 2 std of the truth
  // (measured: 469 of 470, and 87 of the 87 the walk determines; with the prior on the standard
  // parameters 446 and 83 of 85; with the 10 Hz signal filter alone 82 % and 57 %,
  // docs/identification.md).
  int inside = 0, total = 0, determined_inside = 0, determined = 0;
  for (unsigned seed = 2; seed <= 6; ++seed) {
    ScenarioOptions sim;
    sim.scenario = "walk";
    sim.out_dir = test::fresh_dir("ident", "walk_coverage_" + std::to_string(seed));
    sim.seed = seed;
    sim.lock_upper_body = true;
    ASSERT_FALSE(run_scenario(test::bundled_robot("kid_humanoid"), sim).fell) << seed;
    InertialIdentificationOptions o;
    o.model = "kid_humanoid";
    o.data = sim.out_dir;
    o.sensors = "contact";
    o.source = "sensors";
    o.lock_upper_body = true;
    o.consistent = true;
    o.sensor_options.cutoff_hz = 20.0;
    o.parallel_filter.cutoff_hz = 3.0;
    o.cad_prior_coordinates = CadPriorCoordinates::Com;
    o.truth_urdf = sim.out_dir + "/truth.urdf";
    const InertialIdentificationResult r = run_inertial_identification(o);
    ASSERT_TRUE(r.base_truth);
    for (Eigen::Index k = 0; k < r.base_values.size(); ++k) {
      const bool covered = std::abs(r.base_values[k] - (*r.base_truth)[k]) <= 2.0 * r.base_std[k];
      inside += covered;
      ++total;
      if (r.determination[k] >= 0.75) {
        determined_inside += covered;
        ++determined;
      }
    }
  }
  std::printf("coverage over seeds 2-6: %d of %d base parameters within 2 std (%d of %d determined)\n", inside, total,
              determined_inside, determined);
  EXPECT_GE(inside, 0.9 * total);
  EXPECT_GE(determined_inside, 0.9 * determined);
}

TEST_F(InertialIdentificationTest, BadInputsAreRefusedByName) {
  InertialIdentificationOptions o = options(clean_, "truth");
  o.sensors = "l_sole,no_such_joint";
  EXPECT_THROW(
      {
        try {
          run_inertial_identification(o);
        } catch (const std::exception& e) {
          EXPECT_NE(std::string(e.what()).find("no_such_joint"), std::string::npos) << e.what();
          throw;
        }
      },
      std::invalid_argument);
  // One foot's F/T in double support cannot identify the base.
  o.sensors = "l_sole";
  try {
    run_inertial_identification(o);
    ADD_FAILURE() << "an insufficient sensor set was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("rank"), std::string::npos) << e.what();
  }
  // A data set whose truth stream lacks a channel.
  const std::string broken = test::fresh_dir("ident", "broken");
  fs::create_directories(broken);
  for (const char* f : {"dataset.json", "encoders.csv", "ft.csv", "imu.csv", "plates.csv", "markers.csv", "truth.urdf"})
    fs::copy_file(clean_ + "/" + f, broken + "/" + f);
  {
    std::ifstream in(clean_ + "/truth.csv");
    std::ofstream out(broken + "/truth.csv");
    std::string line;
    for (int k = 0; k < 50 && std::getline(in, line); ++k) {
      if (k == 0) {
        const auto at = line.find("v.l_knee");
        line.replace(at, 8, "v.l_kneX");
      }
      out << line << "\n";
    }
  }
  o = options(broken, "truth");
  try {
    run_inertial_identification(o);
    ADD_FAILURE() << "a missing channel was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("v.l_knee"), std::string::npos) << e.what();
  }
  o = options(test::fresh_dir("ident", "nothing_here"), "truth");
  EXPECT_THROW(run_inertial_identification(o), std::runtime_error);
}

TEST(InertialIdentificationBiped16, NoiseFreeSensorsPutEveryClassTenTimesCloserThanCad) {
  // Issue 20 on paper 004's robot: the first 20 s of its training set, the robot's own sensors
  // (encoders, IMU, foot F/T, joint torque sensors) noise-free, full sensing, the consistent fit.
  // Before issue 20 the data path made this 9 (first moments) to 63 (inertias) times CAD's error;
  // measured now: at most 0.01.
  ScenarioOptions sim;
  sim.scenario = "excite";
  sim.motion = "paper004";
  sim.duration_s = 20.0;
  sim.noise = NoiseLevel::None;
  sim.seed = 3;
  sim.out_dir = test::fresh_dir("ident", "biped16_paper004_20s");
  ASSERT_FALSE(run_scenario(test::bundled_robot("biped16"), sim).fell);
  InertialIdentificationOptions o;
  o.model = "biped16";
  o.data = sim.out_dir;
  o.source = "sensors";
  o.sensors = "full";
  o.consistent = true;
  o.truth_urdf = sim.out_dir + "/truth.urdf";
  o.out_dir = test::fresh_dir("ident", "biped16_paper004_20s_id");
  const InertialIdentificationResult r = run_inertial_identification(o);
  ASSERT_EQ(r.parameter_error_vs_nominal.size(), 6u);
  for (const auto& [label, ratio] : r.parameter_error_vs_nominal) EXPECT_LT(ratio, 0.1) << label;
  // And the fit: the held-out torques at the true model's floor, not below it.
  ASSERT_TRUE(r.identified_rms.torque && r.truth_rms && r.truth_rms->torque);
  EXPECT_NEAR(*r.identified_rms.torque / *r.truth_rms->torque, 1.0, 0.1);
}

TEST(InertialIdentificationBiped16, RealisticSensorsKeptAtCadPutEveryClassCloserThanCad) {
  // Issue 20 on paper 004's whole training set (60 s, seed 3) with realistic sensors: encoder
  // play and quantisation, IMU, F/T and joint torque sensor noise, torque sensor gains and
  // offsets. The encoders' play is taken off with the predicted link torques (--gear-backlash); what
  // is left of it is broadband in the accelerations, so the parallel filter's band is 1.5 Hz; the
  // CAD prior in each body's COM frame, and what it marks "kept at CAD" held there (--keep-at-cad:
  // without it those parameters move with the determined ones through the prior's correlations).
  // Measured: first moments 0.32, inertias 0.92 times CAD's error (without --keep-at-cad 0.44 /
  // 1.04; seeds 1 / 2: 0.70 / 1.67 and 0.57 / 0.82, docs/identification.md, "Keeping at CAD").
  ScenarioOptions sim;
  sim.scenario = "excite";
  sim.motion = "paper004";
  sim.noise = NoiseLevel::Realistic;
  sim.seed = 3;
  sim.out_dir = test::fresh_dir("ident", "biped16_paper004_realistic");
  ASSERT_FALSE(run_scenario(test::bundled_robot("biped16"), sim).fell);
  InertialIdentificationOptions o;
  o.model = "biped16";
  o.data = sim.out_dir;
  o.source = "sensors";
  o.sensors = "full";
  o.consistent = true;
  o.sensor_options.cutoff_hz = 20.0;
  o.parallel_filter.cutoff_hz = 1.5;
  o.parallel_filter_all_rows = true;
  o.torque_gains = true;
  o.torque_offsets = true;
  o.cad_prior_coordinates = CadPriorCoordinates::Com;
  o.gear_backlash_deg = 0.1;
  o.keep_at_cad = true;
  o.truth_urdf = sim.out_dir + "/truth.urdf";
  o.out_dir = test::fresh_dir("ident", "biped16_paper004_realistic_id");
  const InertialIdentificationResult r = run_inertial_identification(o);
  std::map<std::string, double> ratio(r.parameter_error_vs_nominal.begin(), r.parameter_error_vs_nominal.end());
  EXPECT_LT(ratio.at("mass"), 0.01);
  EXPECT_LT(ratio.at("first_moment"), 0.5);
  EXPECT_LT(ratio.at("inertia"), 1.0);
  // The held-out base wrench and joint torques (the last 30 %) at the true model's level, the true
  // model read through its own calibration of the torque sensors (measured 0.0903 vs 0.0902 N m;
  // through the identified model's calibration it was 0.101, 19 % above).
  ASSERT_TRUE(r.truth_rms && r.truth_rms->torque && r.identified_rms.torque);
  EXPECT_NEAR(r.identified_rms.force / r.truth_rms->force, 1.0, 0.1);
  EXPECT_NEAR(r.identified_rms.moment / r.truth_rms->moment, 1.0, 0.1);
  EXPECT_NEAR(*r.identified_rms.torque / *r.truth_rms->torque, 1.0, 0.1);
}

}  // namespace
}  // namespace dynid
