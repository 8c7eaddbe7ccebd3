// Joints-only identification (paper 004's projected equations) on a robot that lifts its feet: the
// segments' support tells which sole is off the ground, so the lifted leg's joint torques stay in
// the equations and the feet's parameters are identified; without that, both feet count as
// constrained at every instant and their parameters are out of sight.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "dynid/pipeline/inertial_identification.hpp"
#include "dynid/scenarios/scenario.hpp"
#include "support/scratch_files.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

namespace fs = std::filesystem;

TEST(LiftedFoot, JointsOnlyIdentifiesBiped16FromOneSwayCycle) {
  ScenarioOptions so;
  so.scenario = "excite";
  so.motion = "paper004-sway";
  so.duration_s = 6.0;  // one 6 s cycle: each foot lifted once
  so.noise = NoiseLevel::None;
  so.out_dir = test::fresh_dir("ident", "biped16_sway");
  ASSERT_FALSE(run_scenario(test::bundled_robot("biped16"), so).fell);

  InertialIdentificationOptions o;
  o.model = "biped16";
  o.data = so.out_dir;
  o.validate = so.out_dir;  // all of the cycle for training: each lift is in it
  o.sensors = "joints";
  o.source = "truth";  // the oracle: the simulator's noise-free stream
  o.truth_urdf = so.out_dir + "/truth.urdf";
  const InertialIdentificationResult r = run_inertial_identification(o);
  ASSERT_TRUE(r.base_param_max_rel_error.has_value());
  EXPECT_LT(*r.base_param_max_rel_error, 1e-6);
  EXPECT_NEAR(r.total_mass, *r.truth_total_mass, 1e-6 * *r.truth_total_mass);

  // The same recording with the support left out of its segments: the feet are never seen.
  const std::string blind = test::fresh_dir("ident", "biped16_sway_no_support");
  fs::copy(so.out_dir, blind, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  nlohmann::json dataset = nlohmann::json::parse(test::read_file(blind + "/dataset.json"));
  for (nlohmann::json& seg : dataset["segments"]) seg.erase("support");
  std::ofstream(blind + "/dataset.json") << dataset.dump(2);
  o.data = o.validate = blind;
  o.truth_urdf = blind + "/truth.urdf";
  try {
    run_inertial_identification(o);
    FAIL() << "joints-only identification without the support should be refused";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("_foot."), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace dynid
