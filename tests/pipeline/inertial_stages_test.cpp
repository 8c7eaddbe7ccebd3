// The stages of pipeline/inertial_identification.hpp called one by one, as a script would, give
// the same files as `dynid identify inertial` (the command runs the same chain through
// run_inertial_identification): summary.json, base_parameters.json/.txt and report.html byte for
// byte, on the kid's squat with realistic sensors and the consistent fit.

#include <gtest/gtest.h>

#include <filesystem>

#include "cli/run_dynid.hpp"
#include "dynid/pipeline/inertial_identification.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

TEST(InertialStages, OneByOneGiveTheCommandsFiles) {
  ScenarioOptions so;
  so.scenario = "squat";
  so.out_dir = test::fresh_dir("inertial_stages", "squat");
  so.noise = NoiseLevel::Realistic;
  so.seed = 1;
  run_scenario(test::bundled_robot("kid_humanoid"), so);
  const std::string model = std::string(DYNID_MODELS_DIR) + "/kid_humanoid.urdf";

  InertialIdentificationOptions o;
  o.model = model;
  o.data = so.out_dir;
  o.source = "sensors";
  o.sensors = "contact";
  o.consistent = true;
  o.truth_urdf = so.out_dir + "/truth.urdf";
  const InertialProblem problem = prepare_inertial_identification(o);
  EXPECT_EQ(problem.base.num_base(), static_cast<int>(problem.unknown_names.size()));
  const InertialEstimate estimate = estimate_inertial_parameters(problem);
  EXPECT_GT(estimate.samples, 1000);
  InertialIdentificationResult result = identified_parameters(problem, estimate);
  EXPECT_TRUE(result.physically_consistent);
  const std::optional<Model> truth = load_truth_model(problem);
  ASSERT_TRUE(truth);
  compare_with_truth(problem, *truth, result);
  validate_identification(problem, &*truth, result);
  result.summary_json = inertial_summary_json(problem, result);
  const std::string by_stages = test::fresh_dir("inertial_stages", "stages");
  std::filesystem::create_directories(by_stages);
  const std::vector<std::string> written = write_inertial_identification(problem, result, by_stages);
  EXPECT_EQ(written.size(), 5u);  // the URDF, base_parameters.json/.txt, summary.json, report.html

  const std::string by_command = test::fresh_dir("inertial_stages", "command");
  const Result cli = run("identify inertial " + model + " " + so.out_dir +
                         " --sensors contact --source sensors --consistent --truth " + o.truth_urdf + " --out " +
                         by_command + " --quiet");
  ASSERT_EQ(cli.code, 0) << cli.err;
  for (const std::string file :
       {"summary.json", "base_parameters.json", "base_parameters.txt", "report.html", "kid_humanoid_identified.urdf"}) {
    const std::string a = test::read_file(by_stages + "/" + file), b = test::read_file(by_command + "/" + file);
    EXPECT_FALSE(a.empty()) << file;
    EXPECT_TRUE(a == b) << file << " differs between the stages and the command";
  }
}

}  // namespace
}  // namespace dynid
