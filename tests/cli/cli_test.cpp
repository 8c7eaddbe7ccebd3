// The dynid command line as users and scripts see it: exit codes, one-line errors, JSON keys.

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_dynid.hpp"

namespace {

using json = nlohmann::json;

std::string temp_file(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("dynid_cli_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(path) << text;
  return path.string();
}

const char* kUrdf = R"(<robot name="pendulum">
  <link name="world"/>
  <link name="rod"><inertial><origin xyz="0 0 -0.5"/><mass value="2"/>
    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.001"/></inertial></link>
  <joint name="anchor" type="fixed"><parent link="world"/><child link="base"/></joint>
  <link name="base"/>
  <joint name="swing" type="revolute"><parent link="base"/><child link="rod"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="10" velocity="5"/></joint>
</robot>)";

void expect_one_line_error(const Result& r, const std::string& fragment) {
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find(fragment), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.find("terminate"), std::string::npos) << r.err;
}

TEST(Cli, VersionAndHelp) {
  const Result v = run("--version");
  EXPECT_EQ(v.code, 0);
  EXPECT_EQ(v.out.rfind("dynid ", 0), 0u);
  EXPECT_EQ(run("help").code, 0);
  const Result h = run("help compute");
  EXPECT_EQ(h.code, 0);
  EXPECT_NE(h.out.find("--quantity"), std::string::npos);
  expect_one_line_error(run("frobnicate"), "dynid:");
  expect_one_line_error(run("help frobnicate"), "unknown command");
  expect_one_line_error(run(""), "dynid:");
}

TEST(Cli, InfoJsonHasTheContractKeys) {
  const Result r = run("info " + temp_file("p.urdf", kUrdf) + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  for (const char* key : {"name", "floating_base", "nq", "nv", "total_mass", "joints", "links", "warnings"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["floating_base"], false);
  EXPECT_EQ(j["nv"], 1);
  EXPECT_DOUBLE_EQ(j["total_mass"].get<double>(), 2.0);
  bool found = false;
  for (const auto& joint : j["joints"])
    if (joint["name"] == "swing") {
      found = true;
      EXPECT_EQ(joint["type"], "revolute");
      EXPECT_EQ(joint["parent"], "base");
      EXPECT_EQ(joint["child"], "rod");
    }
  EXPECT_TRUE(found);
  for (const auto& link : j["links"])
    for (const char* key : {"name", "mass", "com", "inertia", "physically_consistent"})
      EXPECT_TRUE(link.contains(key)) << key;
}

TEST(Cli, InfoTextKeepsLongNamesApartFromTheNextColumn) {
  // Public robots have joint and link names longer than the default column (Talos's
  // gripper_right_inner_double_joint): the name, then two spaces, then the type or mass.
  const std::string long_joint = "gripper_right_inner_double_joint_of_a_long_name";
  const std::string long_link = "gripper_right_inner_double_link_of_a_long_name";
  std::string urdf = kUrdf;
  urdf.replace(urdf.find("\"swing\""), 7, "\"" + long_joint + "\"");
  for (std::size_t at = urdf.find("\"rod\""); at != std::string::npos; at = urdf.find("\"rod\""))
    urdf.replace(at, 5, "\"" + long_link + "\"");
  const Result r = run("info " + temp_file("long.urdf", urdf));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find(long_joint + "  revolute"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("    " + long_link + "     2.0000"), std::string::npos) << r.out;
  // The other rows line up with the widest name.
  EXPECT_NE(r.out.find("    anchor" + std::string(long_joint.size() + 2 - 6, ' ') + "fixed"), std::string::npos)
      << r.out;
}

TEST(Cli, ComputeRneaOfAPendulumMatchesTheAnalyticTorque) {
  // tau = I_pivot qdd + m g l sin(q): an analytic case independent of the implementation.
  const std::string urdf = temp_file("p.urdf", kUrdf);
  const double q = 0.7, qd = 1.3, qdd = -2.1, m = 2.0, l = 0.5, g = 9.81;
  const std::string state = temp_file("s.json", "{\"joints\": {\"swing\": {\"q\": 0.7, \"v\": 1.3, \"a\": -2.1}}}");
  const Result r = run("compute " + urdf + " --state " + state + " --quantity rnea --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["rows"], json::array({"swing"}));
  EXPECT_EQ(j["cols"], json::array({"tau"}));
  const double expected = (0.01 + m * l * l) * qdd + m * g * l * std::sin(q);
  EXPECT_NEAR(j["values"][0][0].get<double>(), expected, 1e-12);
  (void)qd;
  for (const char* q_name : {"regressor", "com", "mass-matrix"}) {
    const Result rr = run("compute " + urdf + " --state " + state + " --quantity " + q_name + " --json");
    ASSERT_EQ(rr.code, 0) << rr.err;
    const json jj = json::parse(rr.out);
    EXPECT_EQ(jj["values"].size(), jj["rows"].size());
    EXPECT_EQ(jj["values"][0].size(), jj["cols"].size());
  }
}

TEST(Cli, BadInputIsOneLineAndNonZero) {
  const std::string urdf = temp_file("p.urdf", kUrdf);
  expect_one_line_error(run("info /nonexistent/robot.urdf"), "no such file");
  expect_one_line_error(run("info no_such_robot"), "bundled");
  expect_one_line_error(run("info " + temp_file("bad.urdf", "<robot name='x'><link")), "invalid URDF");
  // Neither URDF nor MJCF: one line saying what was expected, never a parse error of the wrong kind.
  expect_one_line_error(run("info " + temp_file("robot.sdf", "<sdf version='1.6'><model name='m'/></sdf>")),
                        "root element <sdf>; expected a URDF (<robot>) or MJCF (<mujoco>) model");
  expect_one_line_error(run("info " + temp_file("trial.c3d", std::string("\x02P\x00\x01\xff", 5))), "not an XML file");
  expect_one_line_error(run("info " + temp_file("bad.xml", "<mujoco><worldbody>")), "invalid MJCF");
  expect_one_line_error(run("info " + temp_file("ball.xml",
                                                "<mujoco><worldbody><body name='b'><joint name='neck' type='ball'/>"
                                                "<geom size='0.1'/></body></worldbody></mujoco>")),
                        "joint 'neck' of body 'b' is a ball joint");
  const std::string unknown = temp_file("u.json", "{\"joints\": {\"elbow\": {\"q\": 1}}}");
  expect_one_line_error(run("compute " + urdf + " --state " + unknown + " --quantity rnea"), "joint 'elbow'");
  const std::string nan = temp_file("n.json", "{\"joints\": {\"swing\": {\"q\": NaN}}}");
  expect_one_line_error(run("compute " + urdf + " --state " + nan + " --quantity rnea"), "malformed JSON");
  const std::string str = temp_file("t.json", "{\"joints\": {\"swing\": {\"q\": \"x\"}}}");
  expect_one_line_error(run("compute " + urdf + " --state " + str + " --quantity rnea"), "not a number");
  expect_one_line_error(run("compute " + urdf + " --state " + str + " --quantity torque"), "quantity");
  const std::string base = temp_file("b.json", "{\"base\": {\"position\": [0, 0, 1]}}");
  expect_one_line_error(run("compute " + urdf + " --state " + base + " --quantity rnea"), "fixed base");
}

TEST(Cli, AnalyzeBaseParametersOfAPendulum) {
  // One pitch joint fixed to the world, gravity -z: the torque is the y component, so only m c_x,
  // m c_z (through gravity) and I_yy about the pivot act; the other 7 parameters never do.
  const Result r = run("analyze base-parameters " + temp_file("p.urdf", kUrdf) + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  for (const char* key :
       {"model", "floating_base", "rows", "equations", "locked_joints", "num_standard_parameters",
        "num_base_parameters", "base_parameters", "regrouped_parameters", "unidentifiable_parameters", "rank_decision"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["num_standard_parameters"], 10);
  EXPECT_EQ(j["num_base_parameters"], 3);
  std::vector<std::string> names;
  for (const auto& p : j["base_parameters"]) names.push_back(p["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"rod.mcx", "rod.mcz", "rod.Iyy"}));
  std::vector<std::string> unidentifiable;
  for (const auto& u : j["unidentifiable_parameters"]) {
    unidentifiable.push_back(u["parameter"]);
    EXPECT_EQ(u["reason"], "does not affect any selected equation");
  }
  EXPECT_EQ(unidentifiable,
            (std::vector<std::string>{"rod.m", "rod.mcy", "rod.Ixx", "rod.Ixy", "rod.Ixz", "rod.Iyz", "rod.Izz"}));
  expect_one_line_error(run("analyze base-parameters " + temp_file("p.urdf", kUrdf) + " --rows base"), "fixed base");
}

TEST(Cli, AnalyzeBaseParametersOfTheKidHumanoidWithArmsLocked) {
  // Paper 003 appendix B: 13 bodies x 10 - 3 x 12 leg links = 94, from all rows and base rows alike.
  std::string locks;
  for (const char* side : {"l_", "r_"})
    for (const char* joint : {"shoulder_pitch", "shoulder_roll", "shoulder_yaw", "elbow"})
      locks += std::string(" --lock ") + side + joint + (std::string(joint) == "elbow" ? "=-0.3" : "=0.1");
  for (const char* rows : {"all", "base"}) {
    const Result r = run("analyze base-parameters kid_humanoid --rows " + std::string(rows) + locks + " --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["num_standard_parameters"], 130);
    EXPECT_EQ(j["num_base_parameters"], 94) << rows;
    EXPECT_EQ(j["locked_joints"].size(), 8u);
  }
  const Result text = run("analyze base-parameters kid_humanoid" + locks);
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("base parameters:     94"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("pelvis.m "), std::string::npos) << text.out;
  expect_one_line_error(run("analyze base-parameters kid_humanoid --lock l_wrist=0"), "joint 'l_wrist'");
  expect_one_line_error(run("analyze base-parameters kid_humanoid --lock l_knee"), "JOINT=VALUE");
  expect_one_line_error(run("analyze base-parameters kid_humanoid --lock l_knee=abc"), "not a number");
  expect_one_line_error(run("analyze base-parameters kid_humanoid --rows some"), "dynid:");
}

// dynid mocap inspect on the synthetic C3D of tests/fixtures/mocap (c3d_fixture_test.cpp) and a TRC.
TEST(Cli, MocapInspectC3dJson) {
  const Result r = run("mocap inspect " + std::string(DYNID_TEST_FIXTURES_DIR) + "/mocap/four_plates.c3d --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["points"]["count"], 3);
  EXPECT_EQ(j["points"]["rate"], 100.0);
  EXPECT_EQ(j["points"]["labels"], json::array({"LASI", "RASI", "LTOE"}));
  EXPECT_EQ(j["frames"]["first"], 1);
  EXPECT_EQ(j["frames"]["last"], 12);
  EXPECT_EQ(j["frames"]["count"], 12);
  EXPECT_EQ(j["analogs"]["count"], 27);
  EXPECT_EQ(j["analogs"]["rate"], 200.0);
  ASSERT_EQ(j["force_plates"].size(), 4u);
  const int types[] = {2, 3, 4, 1};
  for (std::size_t i = 0; i < 4; ++i) {
    const json& p = j["force_plates"][i];
    EXPECT_EQ(p["type"], types[i]);
    ASSERT_EQ(p["corners"].size(), 4u);
    EXPECT_EQ(p["origin"].size(), 3u);
    EXPECT_TRUE(p["cop_first"].is_null()) << "the first frame is unloaded (4 N)";
    // Frame 2 loads each plate at its centre + (-4 cm, 2.6 cm), world frame, metres.
    const json& cop = p["first_loaded"]["cop"];
    EXPECT_EQ(p["first_loaded"]["frame"], 2);
    EXPECT_NEAR(cop[0].get<double>(), 0.3 + 0.7 * static_cast<double>(i) - 0.04, 1e-3);
    EXPECT_NEAR(cop[1].get<double>(), 0.276, 1e-3);
  }
  EXPECT_EQ(
      run("mocap inspect " + std::string(DYNID_TEST_FIXTURES_DIR) + "/mocap/four_plates.c3d --cop-threshold 1 --json")
          .out.find("\"cop_first\": null"),
      std::string::npos);
}

TEST(Cli, MocapInspectTrc) {
  const std::string trc = temp_file("m.trc",
                                    "PathFileType\t4\t(X/Y/Z)\tm.trc\n"
                                    "DataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits\n"
                                    "60\t60\t2\t1\tmm\n"
                                    "Frame#\tTime\tHEAD\t\t\n"
                                    "\t\tX1\tY1\tZ1\n"
                                    "1\t0\t1\t2\t1700\n"
                                    "2\t0.0167\t\t\t\n");
  const Result r = run("mocap inspect " + trc + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["points"]["count"], 1);
  EXPECT_EQ(j["points"]["rate"], 60.0);
  EXPECT_EQ(j["frames"]["count"], 2);
  EXPECT_EQ(j["analogs"]["count"], 0);
  EXPECT_TRUE(j["force_plates"].empty());
  EXPECT_EQ(run("mocap inspect " + trc).code, 0);
}

TEST(Cli, MocapInspectErrorsAreOneLine) {
  std::ifstream in(std::string(DYNID_TEST_FIXTURES_DIR) + "/mocap/four_plates.c3d", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), {});
  const std::string cut = temp_file("cut.c3d", bytes.substr(0, 1500));
  expect_one_line_error(run("mocap inspect " + cut), cut + ": truncated");
  expect_one_line_error(run("mocap inspect /nonexistent/x.c3d"), "cannot open");
  expect_one_line_error(run("mocap inspect " + temp_file("x.csv", "a,b\n")), "unknown motion-capture file type");
  expect_one_line_error(run("mocap inspect " + temp_file("bad.trc", "hello\n")), "not a TRC file");
  expect_one_line_error(run("mocap"), "dynid:");
}

}  // namespace

namespace {

TEST(Cli, AnalyzeSensorsListsEveryContactState) {
  const Result r = run("analyze sensors biped16");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("no contact (flight)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("l_foot_points: 7 minimal sets (exhaustive)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("... and 37 more (--json lists every set)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("every state at once (smallest): l_foot_points, r_foot_points"), std::string::npos) << r.out;
  const Result j = run("analyze sensors biped16 --minimal --json");
  ASSERT_EQ(j.code, 0) << j.err;
  const json s = json::parse(j.out);
  ASSERT_EQ(s["states"].size(), 4u);
  EXPECT_EQ(s["states"][3]["minimal_sets"].size(), 49u);
  EXPECT_TRUE(s["states"][3]["exact"].get<bool>());
  EXPECT_EQ(s["union"], json({"l_foot_points", "r_foot_points"}));
  expect_one_line_error(run("analyze sensors servo_bench"), "fixed base");
}

TEST(Cli, AnalyzeSensorsOnADataSetChecksTheContactStatesItVisits) {
  // Paper 004's sway on biped16 (6 s: double support, the right foot lifted, then the left): the
  // states are those of dataset.json's segments, each with its segments, and the sets of each state
  // are the same as in the model-wide analysis (the data set only chooses the states).
  const std::string data =
      (std::filesystem::temp_directory_path() / ("dynid_cli_sensors_" + std::to_string(::getpid()))).string();
  ASSERT_EQ(
      run("simulate biped16 --scenario excite --motion paper004-sway --duration 6 --noise none --quiet --out " + data)
          .code,
      0);
  std::ifstream dataset_file(data + "/dataset.json");
  const json dataset = json::parse(dataset_file);
  const Result r = run("analyze sensors biped16 " + data + " --minimal --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const json s = json::parse(r.out);
  const json every = json::parse(run("analyze sensors biped16 --json").out);
  ASSERT_EQ(s["states"].size(), 3u);  // no flight in the data
  std::size_t left_segments = 0, right_segments = 0;
  for (const json& seg : dataset["segments"]) {
    left_segments += seg["support"] == "left";
    right_segments += seg["support"] == "right";
  }
  ASSERT_GT(left_segments, 0u);
  ASSERT_GT(right_segments, 0u);
  for (const json& state : s["states"]) {
    const auto& contacts = state["contacts"];
    // A single-support segment is also in the double-support state (every contact at its ends).
    const std::size_t expected = contacts.size() == 2             ? dataset["segments"].size()
                                 : contacts[0] == "l_foot_points" ? left_segments
                                                                  : right_segments;
    EXPECT_EQ(state["segments"].size(), expected) << state["state"];
    for (const json& seg : state["segments"]) EXPECT_LT(seg["start"].get<double>(), seg["end"].get<double>());
    bool found = false;
    for (const json& model_state : every["states"])
      if (model_state["state"] == state["state"]) {
        found = true;
        EXPECT_EQ(model_state["minimal_sets"], state["minimal_sets"]) << state["state"];
      }
    EXPECT_TRUE(found) << state["state"];
  }
  EXPECT_EQ(s["union"], json({"l_foot_points", "r_foot_points"}));
  // Why: each foot's F/T is needed in double support and while that foot alone is down.
  EXPECT_EQ(s["union_needed_in"]["l_foot_points"], json({"l_foot_points + r_foot_points", "l_foot_points"}));
  const Result text = run("analyze sensors biped16 " + data);
  EXPECT_NE(text.out.find("l_foot_points (" + std::to_string(left_segments) + " segment"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("every state of the motion (smallest): l_foot_points, r_foot_points"), std::string::npos)
      << text.out;
  expect_one_line_error(run("analyze sensors biped16 /nonexistent/data"), "/nonexistent/data");
  std::filesystem::remove_all(data);
}

TEST(Cli, SimulateWalkRejectsBadOptionsBeforeRunning) {
  const std::string out =
      (std::filesystem::temp_directory_path() / ("dynid_cli_walk_" + std::to_string(::getpid()))).string();
  const std::string walk = "simulate kid_humanoid --scenario walk --out " + out;
  expect_one_line_error(run(walk + " --speed -0.1"), "--speed");
  expect_one_line_error(run(walk + " --slope 30"), "--slope");
  expect_one_line_error(run(walk + " --steps 0"), "--steps");
  expect_one_line_error(run(walk + " --bus-rate 300"), "field-bus rate");
  expect_one_line_error(run(walk + " --still 2"), "--still records a still period before an excite motion");
  expect_one_line_error(run(walk + " --base-tilt 5"), "--base-tilt tilts the base of static poses");
  expect_one_line_error(run("simulate arm7 --scenario excite --still 2 --out " + out), "has a fixed base");
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(Cli, SimulateSaysOnStderrThatTheRobotFell) {
  // Paper 004's 60 s motion squeezed into 4 s is too fast for biped16 to balance (seed 1): exit 1,
  // the summary on stdout, and a line on stderr saying so.
  const std::string out =
      (std::filesystem::temp_directory_path() / ("dynid_cli_fell_" + std::to_string(::getpid()))).string();
  const Result r =
      run("simulate biped16 --scenario excite --motion paper004 --duration 4 --noise none --quiet --out " + out);
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(json::parse(r.out)["fell"].get<bool>());
  EXPECT_NE(r.err.find("dynid: the simulated robot fell (base tilted more than 60 deg) after"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("a short --duration squeezes"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  std::filesystem::remove_all(out);
}

}  // namespace

namespace {

TEST(Cli, ExciteDesignsAndSimulatePlaysTheTrajectory) {
  const std::string traj = temp_file("excite_kid.json", "");
  const Result r =
      run("excite kid_humanoid --fixed-feet --out " + traj + " --duration 3 --harmonics 2 --iterations 2 --restarts 1");
  ASSERT_EQ(r.code, 0) << r.err;
  const json summary = json::parse(r.out);
  EXPECT_EQ(summary["mode"], "fixed-feet");
  EXPECT_LT(summary["optimized"]["condition_number"].get<double>(),
            summary["initial"]["condition_number"].get<double>());
  EXPECT_NE(r.err.find("iteration 2/2"), std::string::npos) << r.err;  // progress on stderr
  std::ifstream in(traj);
  const json doc = json::parse(in);
  EXPECT_EQ(doc["format"], "dynid-excitation");
  EXPECT_EQ(doc["joints"].size(), 8u);
  const std::string dir = std::filesystem::temp_directory_path() / ("dynid_cli_excite_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const Result sim = run("simulate kid_humanoid --scenario excite --motion " + traj +
                         " --duration 2 --noise none --quiet --out " + dir);
  ASSERT_EQ(sim.code, 0) << sim.err;
  const json s = json::parse(sim.out);
  EXPECT_FALSE(s["fell"].get<bool>());
  EXPECT_LT(s["consistency_max_rel_error"].get<double>(), 1e-6);
  EXPECT_EQ(s["motion"], traj);
}

TEST(Cli, ExciteErrorsAreOneLine) {
  const std::string out = temp_file("excite_err.json", "");
  expect_one_line_error(run("excite no_such_robot --out " + out), "no_such_robot");
  expect_one_line_error(run("excite servo_bench --sensors contact --out " + out), "fixed base");
  expect_one_line_error(run("excite servo_bench --fixed-feet --out " + out), "floating robot");
  expect_one_line_error(run("excite servo_bench --lock l_hip_pitch --out " + out), "JOINT=VALUE");
  expect_one_line_error(run("excite servo_bench --max-acceleration 0 --out " + out), "acceleration");
  expect_one_line_error(
      run("simulate kid_humanoid --scenario excite --motion " + temp_file("bad.json", "{") + " --out " + out + ".d"),
      "is not JSON");
  expect_one_line_error(run("simulate kid_humanoid --scenario excite --motion wobble --out " + out + ".d"), "wobble");
}

}  // namespace
