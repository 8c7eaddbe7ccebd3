// `--fixed-base` on every command that takes MODEL (issue 14): a robot whose URDF root is not named
// "world" is floating by default; the flag welds its root to the world without a sidecar, and the
// sidecar's `floating_base: false` does the same. Checked against an analytic pendulum and against
// the bundled arm7, whose URDF has a "world" root.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>

#include "run_dynid.hpp"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("dynid_fixed_base_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

std::string write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
  return path.string();
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A pendulum whose root link is "base", not "world": floating unless told.
const char* kPendulum = R"(<robot name="pendulum">
  <link name="base"><inertial><mass value="3"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="rod"><inertial><origin xyz="0 0 -0.5"/><mass value="2"/>
    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.001"/></inertial></link>
  <joint name="swing" type="revolute"><parent link="base"/><child link="rod"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="10" velocity="5"/></joint>
</robot>)";

TEST(FixedBaseCli, PendulumWithoutAWorldRootIsFixedOnEveryModelCommand) {
  const std::string urdf = write(scratch("pendulum.urdf"), kPendulum);
  // Without the flag the root floats (a free-flyer: 6 + 1 velocities).
  const Result floating = run("info " + urdf + " --json");
  ASSERT_EQ(floating.code, 0) << floating.err;
  EXPECT_EQ(json::parse(floating.out)["nv"], 7);
  const Result info = run("info " + urdf + " --json --fixed-base");
  ASSERT_EQ(info.code, 0) << info.err;
  const json i = json::parse(info.out);
  EXPECT_EQ(i["floating_base"], false);
  EXPECT_EQ(i["nv"], 1);
  EXPECT_NE(run("info " + urdf + " --fixed-base").out.find("base: fixed"), std::string::npos);

  // compute: the analytic torque of a pendulum about a fixed pivot, I_pivot qdd + m g l sin(q).
  const std::string state =
      write(scratch("s.json"), "{\"joints\": {\"swing\": {\"q\": 0.7, \"v\": 1.3, \"a\": -2.1}}}");
  const Result rnea = run("compute " + urdf + " --fixed-base --state " + state + " --quantity rnea --json");
  ASSERT_EQ(rnea.code, 0) << rnea.err;
  const double m = 2.0, l = 0.5, g = 9.81;
  EXPECT_NEAR(json::parse(rnea.out)["values"][0][0].get<double>(),
              (0.01 + m * l * l) * -2.1 + m * g * l * std::sin(0.7), 1e-12);
  // Without the flag the pendulum floats: the same state gives the base's six rows and the joint's.
  const Result floating_rnea = run("compute " + urdf + " --state " + state + " --quantity rnea --json");
  ASSERT_EQ(floating_rnea.code, 0) << floating_rnea.err;
  EXPECT_EQ(json::parse(floating_rnea.out)["rows"].size(), 7u);
  EXPECT_EQ(json::parse(rnea.out)["rows"].size(), 1u);

  // analyze base-parameters: a body turning about a fixed horizontal axis under gravity has three
  // identifiable combinations (its inertia about the axis and the two first moments gravity sees).
  const Result base = run("analyze base-parameters " + urdf + " --fixed-base --json");
  ASSERT_EQ(base.code, 0) << base.err;
  EXPECT_EQ(json::parse(base.out)["num_base_parameters"], 3) << base.out;

  // excite: the fixed-base design (every joint torque row), not the floating robot's contact rows.
  const std::string traj = scratch("traj.json").string();
  const Result excite = run("excite " + urdf +
                            " --fixed-base --sensors full --duration 2 --harmonics 2 "
                            "--iterations 3 --restarts 1 --quiet --out " +
                            traj);
  ASSERT_EQ(excite.code, 0) << excite.err;
  EXPECT_NE(slurp(traj).find("fixed-base"), std::string::npos);
}

/// arm7.urdf with its "world" link and the joint welding link 0 to it taken out.
std::string arm7_without_world() {
  std::string text = slurp(fs::path(DYNID_MODELS_DIR) / "arm7.urdf");
  text = std::regex_replace(text, std::regex("<link name=\"world\">\\s*</link>"), "");
  text = std::regex_replace(text, std::regex("<joint name=\"world_to_link_0\"[\\s\\S]*?</joint>"), "");
  EXPECT_EQ(text.find("\"world\""), std::string::npos);
  return text;
}

std::string arm7_sidecar(bool keep_floating_base_key) {
  std::string text = slurp(fs::path(DYNID_MODELS_DIR) / "arm7.yaml");
  const std::string key = "floating_base: false\n";
  EXPECT_NE(text.find(key), std::string::npos);
  if (!keep_floating_base_key) text.erase(text.find(key), key.size());
  return text;
}

TEST(FixedBaseCli, Arm7WithoutItsWorldLinkMatchesTheBundledArmWithTheFlagOrTheSidecarKey) {
  const Result bundled = run("info arm7 --json");
  ASSERT_EQ(bundled.code, 0) << bundled.err;
  const json reference = json::parse(bundled.out);

  // No sidecar: the flag alone.
  const std::string bare = write(scratch("bare/arm.urdf"), arm7_without_world());
  // With a sidecar that says nothing about the base: floating without the flag.
  const std::string silent = write(scratch("silent/arm.urdf"), arm7_without_world());
  write(scratch("silent/arm.yaml"), arm7_sidecar(false));
  // With the sidecar key and no flag.
  const std::string keyed = write(scratch("keyed/arm.urdf"), arm7_without_world());
  write(scratch("keyed/arm.yaml"), arm7_sidecar(true));

  EXPECT_EQ(json::parse(run("info " + silent + " --json").out)["floating_base"], true);
  for (const std::string& command : {"info " + bare + " --json --fixed-base", "info " + silent + " --json --fixed-base",
                                     "info " + keyed + " --json"}) {
    const Result r = run(command);
    ASSERT_EQ(r.code, 0) << command << ": " << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["floating_base"], false) << command;
    EXPECT_EQ(j["nv"], reference["nv"]) << command;
    EXPECT_NEAR(j["total_mass"].get<double>(), reference["total_mass"].get<double>(), 1e-12) << command;
    EXPECT_EQ(j["joints"].size() + 1, reference["joints"].size()) << command;  // less the world weld
  }

  // simulate: the arm's excitation scenario runs on the floating-by-default copy with the flag, and
  // records the same true joint torques as the bundled arm (same trajectory, seed and noise).
  const std::string traj = scratch("arm_traj.json").string();
  const Result excite = run("excite arm7 --duration 2 --harmonics 2 --iterations 2 --restarts 1 --quiet --out " + traj);
  ASSERT_EQ(excite.code, 0) << excite.err;
  const std::string tail = " --scenario excite --motion " + traj + " --noise none --seed 2 --quiet --out ";
  const fs::path ours = scratch("sim_flag"), theirs = scratch("sim_bundled");
  const Result refused = run("simulate " + silent + tail + scratch("sim_refused").string());
  EXPECT_NE(refused.code, 0);
  EXPECT_NE(refused.err.find("contacts"), std::string::npos) << refused.err;
  const Result a = run("simulate " + silent + " --fixed-base" + tail + ours.string());
  ASSERT_EQ(a.code, 0) << a.err;
  const Result b = run("simulate arm7" + tail + theirs.string());
  ASSERT_EQ(b.code, 0) << b.err;
  const std::string truth_a = slurp(ours / "truth.csv"), truth_b = slurp(theirs / "truth.csv");
  EXPECT_GT(truth_a.size(), 1000u);
  EXPECT_EQ(truth_a, truth_b);
}

}  // namespace
