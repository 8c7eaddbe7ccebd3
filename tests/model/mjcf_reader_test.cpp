// MJCF models (model/mjcf_reader.hpp, model/mjcf_compat.hpp) against what could disagree: the same
// robot read from its URDF (`dynid info` of both files), MuJoCo's own mj_rne / mass matrix / COM on
// the file, and MuJoCo's own inertias of a Menagerie-style file once the attributes 2.2.2 does not
// know are removed by hand.

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <tuple>

#include "dynid/dynamics/rnea.hpp"
#include "dynid/model/mjcf_compat.hpp"
#include "dynid/model/mjcf_reader.hpp"
#include "dynid/model/urdf_reader.hpp"
#include "dynid/model/urdf_writer.hpp"
#include "dynid/sim/mjcf_export.hpp"
#include "support/mujoco_comparison.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const std::string kFixture = std::string(DYNID_TEST_FIXTURES_DIR) + "/mjcf/menagerie_style.xml";

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The fixture as MuJoCo 2.2.2 reads it with no help: the 3.x attributes, sensors and actuators
/// removed by hand, autolimits set (MuJoCo 3's default).
std::string fixture_for_mujoco_222() {
  std::string x = file_text(kFixture);
  for (const char* re :
       {R"( actuatorfrcrange="[^"]*")", R"( actuatorfrclimited="[^"]*")", R"( integrator="implicitfast")",
        R"(<position kp="100" inheritrange="1"/>)", R"(<actuator>[\s\S]*</actuator>)", R"(<sensor>[\s\S]*</sensor>)"})
    x = std::regex_replace(x, std::regex(re), "");
  return std::regex_replace(x, std::regex(R"(<compiler angle="radian"/>)"),
                            R"(<compiler angle="radian" autolimits="true"/>)");
}

bool has_warning(const Model& m, const std::string& fragment) {
  for (const std::string& w : m.warnings)
    if (w.find(fragment) != std::string::npos) return true;
  return false;
}

std::string thrown_by(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

std::string write_mjcf(const std::string& dir, const std::string& name, const std::string& text) {
  fs::create_directories(dir);
  const std::string path = dir + "/" + name;
  std::ofstream(path) << text;
  return path;
}

std::string scratch_dir(const std::string& name) {
  return (fs::temp_directory_path() / ("dynid_mjcf_" + std::to_string(::getpid())) / name).string();
}

TEST(MjcfReader, MenagerieStyleFileLoadsWithWarnings) {
  const MjcfRead r = read_mjcf_file(kFixture);
  const Model& m = r.model;
  EXPECT_TRUE(m.floating_base);
  EXPECT_EQ(m.name, "menagerie_style");
  // pelvis (free), thigh's two hinges (a massless body for hip_roll), knee, ankle slide, shoulder;
  // the hand has no joint and is welded to the arm.
  std::vector<std::string> names;
  for (const Body& b : m.bodies) names.push_back(b.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"universe", "pelvis", "thigh__hip_roll", "thigh", "shin", "foot_slider", "arm"}));
  EXPECT_EQ(m.nq, 12);
  EXPECT_EQ(m.nv, 11);
  EXPECT_EQ(m.bodies[1].joint_name, "floating_base");
  EXPECT_EQ(m.bodies[2].inertia.mass, 0.0);
  EXPECT_EQ(m.bodies[5].joint_type, JointType::Prismatic);
  EXPECT_EQ(m.bodies[static_cast<std::size_t>(m.body_index("hand"))].name, "arm");
  // Every joint is listed (dynid info's joints) with its parent and child link.
  std::vector<std::string> joints;
  for (const LinkRecord& l : m.links)
    if (!l.parent_joint.empty()) joints.push_back(l.parent_link + ">" + l.parent_joint + ">" + l.name);
  EXPECT_EQ(joints,
            (std::vector<std::string>{"pelvis>hip_roll>thigh__hip_roll", "thigh__hip_roll>hip_pitch>thigh",
                                      "thigh>knee>shin", "shin>ankle_slide>foot_slider", "pelvis>shoulder>arm"}));
  for (const char* w : {"actuatorfrcrange", "<joint actuatorfrclimited>", "implicitfast",
                        "not read: 2 <sensor> entries, 2 <actuator> entries"})
    EXPECT_TRUE(has_warning(m, w)) << w;
  // Limits from `range` without `limited`; effort limits from actuatorfrcrange through the classes.
  const Body& knee = m.bodies[static_cast<std::size_t>(m.joint_index("knee"))];
  EXPECT_EQ(knee.limits.lower, 0.0);
  EXPECT_EQ(knee.limits.upper, 2.5);
  EXPECT_EQ(knee.limits.effort, 88.0);
  EXPECT_EQ(m.bodies[static_cast<std::size_t>(m.joint_index("hip_roll"))].limits.lower, -1.5);
  EXPECT_EQ(m.bodies[static_cast<std::size_t>(m.joint_index("shoulder"))].limits.effort, 40.0);
  // Joint armature, damping and frictionloss as the nominal actuator values.
  ASSERT_EQ(r.actuators.size(), 5u);
  for (const ActuatorInfo& a : r.actuators) {
    SCOPED_TRACE(a.joint);
    EXPECT_EQ(*a.armature, a.joint == "shoulder" ? 0.01 : 0.03);
    EXPECT_EQ(*a.damping, 0.5);
    EXPECT_EQ(*a.coulomb_friction, 0.2);
  }
  // Sites are named frames.
  for (const char* site : {"imu", "sole", "palm"}) {
    const auto f = m.find_frame(site);
    ASSERT_TRUE(f) << site;
    EXPECT_EQ(m.frames[static_cast<std::size_t>(*f)].kind, FrameKind::Site);
  }
}

TEST(MjcfReader, MenagerieStyleInertiasAreMujocosOwn) {
  const Model m = read_mjcf_file(kFixture).model;
  const test::MjModelPtr mj = test::load_mujoco(fixture_for_mujoco_222());
  ASSERT_TRUE(mj);
  int compared = 0;
  for (int b = 1; b < mj->nbody; ++b) {
    const std::string name = mj_id2name(mj.get(), mjOBJ_BODY, b);
    SCOPED_TRACE(name);
    const auto it = std::find_if(m.links.begin(), m.links.end(), [&](const LinkRecord& l) { return l.name == name; });
    ASSERT_NE(it, m.links.end());
    const Matrix3 R = Eigen::Quaterniond(mj->body_iquat[4 * b], mj->body_iquat[4 * b + 1], mj->body_iquat[4 * b + 2],
                                         mj->body_iquat[4 * b + 3])
                          .toRotationMatrix();
    const Matrix3 I =
        R * Vector3(mj->body_inertia[3 * b], mj->body_inertia[3 * b + 1], mj->body_inertia[3 * b + 2]).asDiagonal() *
        R.transpose();
    EXPECT_NEAR(it->inertia.mass, mj->body_mass[b], 1e-12 * mj->body_mass[b]);
    EXPECT_LT(
        (it->inertia.com() - Vector3(mj->body_ipos[3 * b], mj->body_ipos[3 * b + 1], mj->body_ipos[3 * b + 2])).norm(),
        1e-12);
    EXPECT_LT((it->inertia.inertia_com() - I).norm(), 1e-12 * I.norm());
    ++compared;
  }
  EXPECT_EQ(compared, 6);
  // The geoms' inertias are MuJoCo's: a capsule of density 1000 is not the 1 kg a missing inertial
  // would give, and the shin carries two geoms.
  const auto thigh =
      std::find_if(m.links.begin(), m.links.end(), [](const LinkRecord& l) { return l.name == "thigh"; });
  EXPECT_GT(thigh->inertia.mass, 2.0);
}

TEST(MjcfReader, MenagerieStyleDynamicsEqualMujocos) {
  const Model m = read_mjcf_file(kFixture).model;
  // mj_fullM includes the joints' armature, dynid's mass matrix does not: compare the links alone.
  const std::string links_only = std::regex_replace(fixture_for_mujoco_222(), std::regex(R"( armature="[^"]*")"), "");
  const test::MjModelPtr mj = test::load_mujoco(links_only);
  ASSERT_TRUE(mj);
  test::MujocoComparison cmp(m, mj.get());
  std::mt19937 rng(14);
  for (int k = 0; k < 10; ++k) cmp.compare(test::random_state(m, rng, 2.0), 1e-12, true);
}

/// `dynid ARGS --json`, parsed.
json dynid_json(const std::string& args) {
  const std::string cmd = std::string(DYNID_EXE) + " " + args + " --json 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf{};
  while (std::size_t n = fread(buf.data(), 1, buf.size(), pipe)) out.append(buf.data(), n);
  EXPECT_EQ(pclose(pipe), 0) << out;
  return json::parse(out);
}

/// `dynid info --json` of a file.
json info(const std::string& path) { return dynid_json("info " + path); }

double max_difference(const json& a, const json& b) {
  if (a.is_number()) return std::abs(a.get<double>() - b.get<double>());
  double d = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, max_difference(a[i], b[i]));
  return d;
}

TEST(MjcfReader, BundledRobotsExportedToMjcfDescribeAsTheirUrdf) {
  for (const char* stem : {"arm7", "kid_humanoid"}) {
    SCOPED_TRACE(stem);
    const Robot robot = test::bundled_robot(stem);
    const std::string mjcf = write_mjcf(scratch_dir("bundled"), std::string(stem) + ".xml", to_mjcf(robot.model));
    const json u = info(robot.urdf_path), x = info(mjcf);
    EXPECT_EQ(u["floating_base"], x["floating_base"]);
    EXPECT_EQ(u["nq"], x["nq"]);
    EXPECT_EQ(u["nv"], x["nv"]);
    EXPECT_NEAR(u["total_mass"].get<double>(), x["total_mass"].get<double>(), 1e-9);
    ASSERT_EQ(u["bodies"].size(), x["bodies"].size());
    for (std::size_t i = 0; i < u["bodies"].size(); ++i) {
      const json& a = u["bodies"][i];
      const json& b = x["bodies"][i];
      SCOPED_TRACE(a["name"].get<std::string>());
      for (const char* key : {"name", "joint", "type", "parent"}) EXPECT_EQ(a[key], b[key]) << key;
      for (const char* key : {"axis", "mass", "com", "inertia"}) EXPECT_LT(max_difference(a[key], b[key]), 1e-9) << key;
      EXPECT_LT(max_difference(a["placement"]["xyz"], b["placement"]["xyz"]), 1e-9);
      EXPECT_LT(max_difference(a["placement"]["rotation"], b["placement"]["rotation"]), 1e-9);
    }
    std::map<std::string, json> urdf_limits;
    for (const json& j : u["joints"])
      if (j.contains("limits")) urdf_limits[j["name"]] = j["limits"];
    int moving = 0;
    for (const json& j : x["joints"]) {
      if (!j.contains("limits") || j["type"] == "floating") continue;
      SCOPED_TRACE(j["name"].get<std::string>());
      ASSERT_TRUE(urdf_limits.count(j["name"]));
      EXPECT_EQ(urdf_limits[j["name"]]["lower"], j["limits"]["lower"]);
      EXPECT_EQ(urdf_limits[j["name"]]["upper"], j["limits"]["upper"]);
      ++moving;
    }
    EXPECT_EQ(moving,
              robot.model.floating_base ? robot.model.num_moving_bodies() - 1 : robot.model.num_moving_bodies());
    // And the dynamics of the model read from MJCF are MuJoCo's own for that file.
    const Model from_mjcf = read_mjcf_file(mjcf).model;
    const test::MjModelPtr mj = test::load_mujoco(file_text(mjcf));
    ASSERT_TRUE(mj);
    test::MujocoComparison cmp(from_mjcf, mj.get());
    std::mt19937 rng(7);
    for (int k = 0; k < 5; ++k) cmp.compare(test::random_state(from_mjcf, rng, 2.0), 1e-12, true);
    // The command line on the MJCF file: `dynid compute --quantity rnea` gives those torques.
    if (from_mjcf.floating_base) continue;  // a joint state suffices on the fixed-base arm
    const test::State st = test::random_state(from_mjcf, rng, 2.0);
    json state;
    for (std::size_t b = 1; b < from_mjcf.bodies.size(); ++b) {
      const Body& body = from_mjcf.bodies[b];
      state["joints"][body.joint_name] = {{"q", st.q[body.idx_q]}, {"v", st.v[body.idx_v]}, {"a", st.a[body.idx_v]}};
    }
    const json c =
        dynid_json("compute " + mjcf + " --state " + test::write_temp_file(state.dump(), ".json") + " --quantity rnea");
    Data d(from_mjcf);
    const VectorX expected = rnea(from_mjcf, d, st.q, st.v, st.a);
    ASSERT_EQ(c["values"].size(), static_cast<std::size_t>(expected.size()));
    for (Eigen::Index i = 0; i < expected.size(); ++i)
      EXPECT_NEAR(c["values"][static_cast<std::size_t>(i)][0].get<double>(), expected[i],
                  1e-12 * (1.0 + expected.norm()));
  }
}

TEST(MjcfReader, ModelOfAnMjcfFileIsWrittenAsAUrdfThatReadsBackTheSame) {
  // What identify and simulate write for an MJCF input (model/urdf_from_model.hpp).
  const Model m = read_mjcf_file(kFixture).model;
  const UrdfWriteReport w = write_urdf_inertials(m, kFixture);
  const Model back = read_urdf_string(w.urdf, "written.urdf");
  ASSERT_EQ(back.bodies.size(), m.bodies.size());
  EXPECT_EQ(back.floating_base, m.floating_base);
  for (std::size_t i = 1; i < m.bodies.size(); ++i) {
    SCOPED_TRACE(m.bodies[i].name);
    EXPECT_EQ(back.bodies[i].name, m.bodies[i].name);
    if (i > 1) {
      EXPECT_EQ(back.bodies[i].joint_name, m.bodies[i].joint_name);
    }
    EXPECT_EQ(back.bodies[i].parent, m.bodies[i].parent);
    EXPECT_LT((back.bodies[i].inertia.to_parameters() - m.bodies[i].inertia.to_parameters()).norm(), 1e-12);
  }
  EXPECT_TRUE(back.find_frame("hand"));
  Data d1(m), d2(back);
  std::mt19937 rng(3);
  for (int k = 0; k < 5; ++k) {
    const test::State s = test::random_state(m, rng, 2.0);
    EXPECT_LT(test::relative_error(rnea(back, d2, s.q, s.v, s.a), rnea(m, d1, s.q, s.v, s.a)), 1e-12);
  }
}

const char* kPendulum = R"(<mujoco model="p"><worldbody>
  <body name="link" pos="0 0 1"><joint name="swing" axis="0 1 0"/>BODY_EXTRA
    <inertial pos="0 0 -0.5" mass="2" diaginertia="0.01 0.01 0.001"/></body>
</worldbody>ASSETS</mujoco>)";

std::string pendulum(const std::string& body_extra, const std::string& assets = "") {
  return std::regex_replace(std::regex_replace(kPendulum, std::regex("BODY_EXTRA"), body_extra), std::regex("ASSETS"),
                            assets);
}

/// Two readings of the same robot: bodies in the same order with the same names, joints, parents,
/// placements, axes, inertias (to 1e-12) and limits (equal, or to `limit_tolerance` where one file
/// gives them in another angle unit).
void expect_same_bodies(const Model& a, const Model& b, double limit_tolerance = 0.0) {
  ASSERT_EQ(a.bodies.size(), b.bodies.size());
  for (std::size_t i = 1; i < a.bodies.size(); ++i) {
    SCOPED_TRACE(a.bodies[i].name);
    const Body &x = a.bodies[i], &y = b.bodies[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.joint_name, y.joint_name);
    EXPECT_EQ(x.parent, y.parent);
    EXPECT_LT((x.joint_placement.translation - y.joint_placement.translation).norm(), 1e-12);
    EXPECT_LT((x.joint_placement.rotation - y.joint_placement.rotation).norm(), 1e-12);
    EXPECT_LT((x.axis - y.axis).norm(), 1e-12);
    EXPECT_LT((x.inertia.to_parameters() - y.inertia.to_parameters()).norm(), 1e-12);
    for (const auto& [u, v] : {std::pair{x.limits.lower, y.limits.lower}, std::pair{x.limits.upper, y.limits.upper}})
      if (u != v) {
        EXPECT_NEAR(u, v, limit_tolerance);  // equal infinities are equal, not NaN apart
      }
  }
}

TEST(MjcfReader, RefusesWhatDynidCannotModelInOneLine) {
  const std::string dir = scratch_dir("refuse");
  const std::string ball = write_mjcf(dir, "ball.xml", pendulum(R"(<body name="b"><joint name="wrist" type="ball"/>
    <geom size="0.1"/></body>)"));
  EXPECT_NE(thrown_by([&] { read_mjcf_file(ball); }).find("joint 'wrist' of body 'b' is a ball joint"),
            std::string::npos);
  const std::string unknown_body =
      write_mjcf(dir, "unknown.xml",
                 std::regex_replace(pendulum(""), std::regex(R"(name="link")"), R"(name="link" futureattr="1")"));
  const std::string why = thrown_by([&] { read_mjcf_file(unknown_body); });
  EXPECT_NE(why.find("unknown.xml:2: <body futureattr>"), std::string::npos) << why;
  EXPECT_NE(why.find("may change the tree or the inertias"), std::string::npos) << why;
  // An <attach> (MuJoCo >= 3.2) of a model the file does not declare: file and line.
  const std::string attach =
      write_mjcf(dir, "attach.xml", pendulum(R"(<attach model="other" body="hand" prefix="h_"/>)"));
  EXPECT_NE(thrown_by([&] {
              read_mjcf_file(attach);
            }).find("attach.xml:2: <attach model=\"other\">: no <model name=\"other\"> asset"),
            std::string::npos)
      << thrown_by([&] { read_mjcf_file(attach); });
  // A <replicate> that cannot be expanded: one line naming what.
  const std::string bad_count = write_mjcf(
      dir, "count.xml", pendulum(R"(<replicate count="2.5" offset="0.1 0 0"><geom size="0.1"/></replicate>)"));
  EXPECT_NE(thrown_by([&] { read_mjcf_file(bad_count); }).find("count.xml:2: <replicate count> must be a whole number"),
            std::string::npos)
      << thrown_by([&] { read_mjcf_file(bad_count); });
  const std::string joint_in =
      write_mjcf(dir, "joint_in.xml", pendulum(R"(<replicate count="2"><joint name="extra"/></replicate>)"));
  EXPECT_NE(thrown_by([&] { read_mjcf_file(joint_in); }).find("<joint> inside <replicate> is not supported"),
            std::string::npos)
      << thrown_by([&] { read_mjcf_file(joint_in); });
  for (const std::string& what : {ball, unknown_body, attach, bad_count, joint_in})
    EXPECT_EQ(thrown_by([&] { read_mjcf_file(what); }).find('\n'), std::string::npos);
}

// <frame> (MuJoCo >= 3.1) folded into its children: the same robot written with nested frames (every
// orientation notation, degrees and a custom eulerseq, a body, inertia-carrying geoms, a fromto
// capsule and sites inside frames) and written by hand without them (each child's pose composed
// here, as numbers) give the same bodies, joints, inertias and sites.
TEST(MjcfReader, FramesAreFoldedIntoTheirChildren) {
  const std::string dir = scratch_dir("frames");
  const std::string with = write_mjcf(dir, "with.xml", R"(<mujoco model="f">
  <compiler angle="degree" eulerseq="zyx"/>
  <worldbody>
    <body name="base" pos="0 0 1"><freejoint name="root"/>
      <geom type="box" size="0.1 0.1 0.1" mass="2"/>
      <frame pos="0.2 0 0" euler="90 0 0">
        <frame pos="0 0.1 0" axisangle="1 0 0 90">
          <body name="arm" pos="0 0 0.05" quat="1 0 0 0"><joint name="shoulder" axis="0 1 0"/>
            <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" mass="1"/>
            <frame pos="0.3 0 0" xyaxes="0 1 0 -1 0 0">
              <geom type="sphere" pos="0.01 0 0" size="0.04" mass="0.5"/>
              <site name="tip" pos="0.05 0 0" zaxis="0 0 1"/>
            </frame>
          </body>
        </frame>
        <site name="mount" pos="0 0 0.02" zaxis="1 0 0"/>
      </frame>
    </body>
  </worldbody></mujoco>)");
  // By hand. Outer frame F1: p = (0.2, 0, 0), euler zyx (90, 0, 0) = 90 deg about z. Inner F2 in F1:
  // p = (0, 0.1, 0), 90 deg about x. F1*F2: p = (0.2, 0, 0) + Rz90 (0, 0.1, 0) = (0.1, 0, 0); R = Rz90 Rx90.
  // arm at (0, 0, 0.05) in F2: p = (0.1, 0, 0) + Rz90 Rx90 (0, 0, 0.05) = (0.1, 0, 0) + Rz90 (0, -0.05, 0)
  // = (0.15, 0, 0); quat of Rz90 Rx90 = (0.5, 0.5, 0.5, 0.5).
  // Frame F3 in arm: p = (0.3, 0, 0), xyaxes x = (0, 1, 0), y = (-1, 0, 0): 90 deg about z, quat
  // (cos 45, 0, 0, sin 45). Sphere at (0.01, 0, 0) in F3: (0.3, 0.01, 0). Site tip at (0.05, 0, 0): (0.3,
  // 0.05, 0), orientation Rz90. Site mount in F1 at (0, 0, 0.02), zaxis x: (0.2, 0, 0.02), Rz90 Ry90.
  const std::string without = write_mjcf(dir, "without.xml", R"(<mujoco model="f">
  <worldbody>
    <body name="base" pos="0 0 1"><freejoint name="root"/>
      <geom type="box" size="0.1 0.1 0.1" mass="2"/>
      <body name="arm" pos="0.15 0 0" quat="0.5 0.5 0.5 0.5"><joint name="shoulder" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" mass="1"/>
        <geom type="sphere" pos="0.3 0.01 0" size="0.04" mass="0.5"/>
        <site name="tip" pos="0.3 0.05 0" quat="0.70710678118654752 0 0 0.70710678118654752"/>
      </body>
      <site name="mount" pos="0.2 0 0.02" quat="0.5 -0.5 0.5 0.5"/>
    </body>
  </worldbody></mujoco>)");
  const MjcfRead a = read_mjcf_file(with), b = read_mjcf_file(without);
  expect_same_bodies(a.model, b.model);
  for (const char* site : {"tip", "mount"}) {
    SCOPED_TRACE(site);
    const Frame& fa = a.model.frames[static_cast<std::size_t>(a.model.frame_index(site))];
    const Frame& fb = b.model.frames[static_cast<std::size_t>(b.model.frame_index(site))];
    EXPECT_EQ(fa.body, fb.body);
    EXPECT_LT((fa.placement.translation - fb.placement.translation).norm(), 1e-12);
    EXPECT_LT((fa.placement.rotation - fb.placement.rotation).norm(), 1e-12);
  }
  EXPECT_TRUE(has_warning(a.model, "3 <frame> element(s) folded"));
}

// <replicate> (MuJoCo >= 3.1.5), which Debian's MuJoCo 2.2.2 cannot read. First MuJoCo's own documented
// example (XML reference, "replicate": nested replicates, its published result with names Alice-00 ...
// Alice-11 and their poses), with sites on a body; then a robot whose four legs (bodies with joints and
// mass-carrying geoms) are one replicated leg, against the same robot written out by hand (each leg's
// pose worked out here as numbers): the same bodies, joints, inertias and sites, and dynid's dynamics
// of the replicated file equal MuJoCo's (mj_rne, mass matrix, COM) of the hand-written one.
TEST(MjcfReader, ReplicateCopiesAsMujocoDocumentsIt) {
  const std::string dir = scratch_dir("replicate");
  const std::string documented = write_mjcf(dir, "documented.xml", R"(<mujoco model="d">
  <worldbody>
    <body name="base" pos="0 0 1"><joint name="j" axis="0 1 0"/>
      <inertial pos="0 0 0" mass="1" diaginertia="0.1 0.1 0.1"/>
      <replicate count="2" offset="0 1 0" euler="90 0 0">
        <replicate count="2" sep="-" offset="1 0 0" euler="0 90 0">
          <site name="Alice" size=".1"/>
        </replicate>
      </replicate>
    </body>
  </worldbody></mujoco>)");
  const MjcfRead doc = read_mjcf_file(documented);
  const double h = std::sqrt(0.5);
  const std::vector<std::tuple<std::string, Eigen::Vector3d, Eigen::Quaterniond>> published = {
      {"Alice-00", {0, 0, 0}, {1, 0, 0, 0}},
      {"Alice-10", {1, 0, 0}, {h, 0, h, 0}},
      {"Alice-01", {0, 1, 0}, {h, h, 0, 0}},
      {"Alice-11", {1, 1, 0}, {0.5, 0.5, 0.5, 0.5}}};
  for (const auto& [name, pos, quat] : published) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(doc.model.find_frame(name));
    const Frame& f = doc.model.frames[static_cast<std::size_t>(doc.model.frame_index(name))];
    EXPECT_LT((f.placement.translation - pos).norm(), 1e-12);
    EXPECT_LT((f.placement.rotation - quat.toRotationMatrix()).norm(), 1e-12);
  }
  EXPECT_TRUE(has_warning(doc.model, "2 <replicate> element(s) expanded"));

  // Four legs around the trunk: copy i at pos_i, turned i * 90 deg about z; pos_{i+1} = pos_i + R_i
  // (0.3, 0, 0) puts them at (0, 0, 0), (0.3, 0, 0), (0.3, 0.3, 0), (0, 0.3, 0); radians this time.
  const std::string legs = write_mjcf(dir, "legs.xml", R"(<mujoco model="q">
  <compiler angle="radian"/>
  <worldbody>
    <body name="trunk" pos="0 0 0.5"><freejoint name="root"/>
      <geom type="box" size="0.2 0.2 0.05" mass="4"/>
      <replicate count="4" sep="_" offset="0.3 0 0" euler="0 0 1.5707963267948966">
        <body name="hip" pos="0.05 0 0" euler="0 0 0.3"><joint name="hip" axis="0 1 0"/>
          <geom type="capsule" fromto="0 0 0 0.1 0 -0.2" size="0.02" mass="0.7"/>
          <body name="shin" pos="0.1 0 -0.2"><joint name="knee" axis="0 1 0"/>
            <geom type="sphere" pos="0 0 -0.1" size="0.03" mass="0.3"/>
            <site name="foot" pos="0 0 -0.15"/>
          </body>
        </body>
      </replicate>
    </body>
  </worldbody></mujoco>)");
  // By hand: leg i's frame at p_i with Rz(i 90 deg); its hip at p_i + Rz(i 90) (0.05, 0, 0), turned
  // Rz(i 90 + 0.3 rad) (quaternion (cos a/2, 0, 0, sin a/2)).
  std::string hand = R"(<mujoco model="q">
  <compiler angle="radian"/>
  <worldbody>
    <body name="trunk" pos="0 0 0.5"><freejoint name="root"/>
      <geom type="box" size="0.2 0.2 0.05" mass="4"/>)";
  const Eigen::Vector3d leg_origin[4] = {{0, 0, 0}, {0.3, 0, 0}, {0.3, 0.3, 0}, {0, 0.3, 0}};
  const Eigen::Vector3d hip_offset[4] = {{0.05, 0, 0}, {0, 0.05, 0}, {-0.05, 0, 0}, {0, -0.05, 0}};
  for (int i = 0; i < 4; ++i) {
    const double a = i * M_PI / 2 + 0.3;
    const Eigen::Vector3d p = leg_origin[i] + hip_offset[i];
    std::ostringstream body;
    body.precision(17);
    body << "\n      <body name=\"hip_" << i << "\" pos=\"" << p.x() << " " << p.y() << " " << p.z() << "\" quat=\""
         << std::cos(a / 2) << " 0 0 " << std::sin(a / 2) << "\"><joint name=\"hip_" << i << "\" axis=\"0 1 0\"/>"
         << "<geom type=\"capsule\" fromto=\"0 0 0 0.1 0 -0.2\" size=\"0.02\" mass=\"0.7\"/>"
         << "<body name=\"shin_" << i << "\" pos=\"0.1 0 -0.2\"><joint name=\"knee_" << i << "\" axis=\"0 1 0\"/>"
         << "<geom type=\"sphere\" pos=\"0 0 -0.1\" size=\"0.03\" mass=\"0.3\"/><site name=\"foot_" << i
         << "\" pos=\"0 0 -0.15\"/></body></body>";
    hand += body.str();
  }
  hand += "\n    </body>\n  </worldbody></mujoco>";
  const std::string by_hand = write_mjcf(dir, "by_hand.xml", hand);
  const MjcfRead a = read_mjcf_file(legs), b = read_mjcf_file(by_hand);
  ASSERT_EQ(a.model.bodies.size(), 10u);
  expect_same_bodies(a.model, b.model);
  for (int i = 0; i < 4; ++i) {
    const std::string site = "foot_" + std::to_string(i);
    ASSERT_TRUE(a.model.find_frame(site)) << site;
    const Frame& fa = a.model.frames[static_cast<std::size_t>(a.model.frame_index(site))];
    const Frame& fb = b.model.frames[static_cast<std::size_t>(b.model.frame_index(site))];
    EXPECT_EQ(a.model.bodies[static_cast<std::size_t>(fa.body)].name, "shin_" + std::to_string(i));
    EXPECT_LT((fa.placement.translation - fb.placement.translation).norm(), 1e-12);
  }
  const test::MjModelPtr mj = test::load_mujoco(hand);
  ASSERT_TRUE(mj);
  test::MujocoComparison cmp(a.model, mj.get());
  std::mt19937 rng(5);
  for (int k = 0; k < 5; ++k) cmp.compare(test::random_state(a.model, rng, 2.0), 1e-12, true);
}

// <frame childclass> (MuJoCo >= 3.1): the class reaches every element below the frame that has none,
// down to a body or frame with its own childclass, as a body's childclass does. The same robot written
// with frame childclasses (nested frames, a frame's own childclass inside another's, an explicit class
// that wins, a body under the frame and a body below it with its own childclass) and by hand without
// any class (each default's values written out) gives the same bodies, joints, limits, inertias and
// sites.
TEST(MjcfReader, FrameChildclassReachesWhatTheFrameHolds) {
  const std::string dir = scratch_dir("frame_childclass");
  const std::string with = write_mjcf(dir, "with.xml", R"(<mujoco model="c">
  <compiler angle="radian"/>
  <default>
    <default class="heavy"><geom mass="3" size="0.05"/><joint axis="1 0 0" range="-1 1"/><site pos="0 0 0.2"/></default>
    <default class="light"><geom mass="0.25" size="0.02"/><joint axis="0 0 1"/></default>
  </default>
  <worldbody>
    <body name="base" pos="0 0 1"><freejoint name="root"/>
      <geom type="box" size="0.1 0.1 0.1" mass="2"/>
      <frame pos="0.2 0 0" childclass="heavy">
        <geom type="sphere" pos="0 0.1 0"/>
        <site name="s1"/>
        <frame pos="0 0 -0.1"><geom type="sphere" class="light"/><geom type="sphere" pos="0.05 0 0"/></frame>
        <frame pos="0 0.3 0" childclass="light">
          <body name="b2"><joint name="j2"/><geom type="sphere"/></body>
        </frame>
        <body name="b1" pos="0.1 0 0"><joint name="j1"/><geom type="sphere"/>
          <body name="b3" childclass="light" pos="0 0 -0.2"><joint name="j3"/><geom type="sphere"/></body>
        </body>
      </frame>
    </body>
  </worldbody></mujoco>)");
  const std::string without = write_mjcf(dir, "without.xml", R"(<mujoco model="c">
  <compiler angle="radian"/>
  <worldbody>
    <body name="base" pos="0 0 1"><freejoint name="root"/>
      <geom type="box" size="0.1 0.1 0.1" mass="2"/>
      <geom type="sphere" pos="0.2 0.1 0" size="0.05" mass="3"/>
      <site name="s1" pos="0.2 0 0.2"/>
      <geom type="sphere" pos="0.2 0 -0.1" size="0.02" mass="0.25"/>
      <geom type="sphere" pos="0.25 0 -0.1" size="0.05" mass="3"/>
      <body name="b2" pos="0.2 0.3 0"><joint name="j2" axis="0 0 1"/><geom type="sphere" size="0.02" mass="0.25"/></body>
      <body name="b1" pos="0.3 0 0"><joint name="j1" axis="1 0 0" range="-1 1"/><geom type="sphere" size="0.05" mass="3"/>
        <body name="b3" pos="0 0 -0.2"><joint name="j3" axis="0 0 1"/><geom type="sphere" size="0.02" mass="0.25"/></body>
      </body>
    </body>
  </worldbody></mujoco>)");
  const MjcfRead a = read_mjcf_file(with), b = read_mjcf_file(without);
  ASSERT_EQ(a.model.bodies.size(), b.model.bodies.size());
  EXPECT_NEAR(a.model.total_mass(), 2.0 + 3.0 + 0.25 + 3.0 + 0.25 + 3.0 + 0.25, 1e-12);
  expect_same_bodies(a.model, b.model);
  const Frame& fa = a.model.frames[static_cast<std::size_t>(a.model.frame_index("s1"))];
  const Frame& fb = b.model.frames[static_cast<std::size_t>(b.model.frame_index("s1"))];
  EXPECT_EQ(fa.body, fb.body);
  EXPECT_LT((fa.placement.translation - fb.placement.translation).norm(), 1e-12);
  EXPECT_TRUE(has_warning(a.model, "2 <frame childclass> given"));
}

// <attach> (MuJoCo >= 3.2), expanded by dynid as MuJoCo's source does it (docs/mjcf.md): the model
// file is parsed on its own (its compiler angle unit and eulerseq, its defaults, its meshdir), the
// attached body keeps its own pose relative to the attaching body or frame, every name takes the prefix.

/// A binary STL cube of half side `half`, centred on the origin (MuJoCo 2.2.2 reads binary STL).
void write_cube_stl(const std::string& path, float half) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream out(path, std::ios::binary);
  const std::string header(80, ' ');
  out.write(header.data(), 80);
  const std::array<std::array<int, 3>, 12> faces = {{{0, 2, 1},
                                                     {1, 2, 3},
                                                     {4, 5, 6},
                                                     {5, 7, 6},
                                                     {0, 1, 4},
                                                     {1, 5, 4},
                                                     {2, 6, 3},
                                                     {3, 6, 7},
                                                     {0, 4, 2},
                                                     {2, 4, 6},
                                                     {1, 3, 5},
                                                     {3, 7, 5}}};
  const std::uint32_t n = faces.size();
  out.write(reinterpret_cast<const char*>(&n), 4);
  for (const auto& f : faces) {
    std::array<float, 12> v{};  // normal (left zero: MuJoCo computes its own), then the three corners
    for (int k = 0; k < 3; ++k)
      for (int c = 0; c < 3; ++c) v[3 + 3 * k + c] = (f[k] >> c & 1) ? half : -half;
    out.write(reinterpret_cast<const char*>(v.data()), sizeof v);
    const std::uint16_t attribute = 0;
    out.write(reinterpret_cast<const char*>(&attribute), 2);
  }
}

std::string numbers_text(std::initializer_list<double> values) {
  std::ostringstream out;
  out.precision(17);
  for (double v : values) out << (out.tellp() > 0 ? " " : "") << v;
  return out.str();
}

std::string quat_text(const Eigen::Quaterniond& q) { return numbers_text({q.w(), q.x(), q.y(), q.z()}); }

Eigen::Quaterniond about(double angle, const Eigen::Vector3d& axis) {
  return Eigen::Quaterniond(Eigen::AngleAxisd(angle, axis));
}

// A robot whose two arms are one arm body of another file, attached twice (once inside a frame),
// against the same robot written by hand in one file. The arm's file differs from the robot's in all
// that MuJoCo compiles the attached elements with: radians and eulerseq="ZYX" (the robot: degrees,
// xyz), its own top-level default (geom density 800, mesh scale 0.5) and classes (one with an euler
// orientation), its own meshdir; the arm body sits in a <frame> of its file (MuJoCo gives the attached
// body the attaching frame instead, so that frame's pose is not carried). The robot's top-level default
// (density 500, rgba, geom type box, joint axis and damping) and its body's childclass reach its own
// geom and not the arms (a sphere and a slide there take MuJoCo's defaults through the arm file's
// top-level class). Same bodies, joints, limits, inertias and sites; dynid's RNEA, mass matrix and COM of the
// attached file equal MuJoCo 2.2.2's own on the hand-written one.
TEST(MjcfReader, AttachedArmEqualsTheArmWrittenByHand) {
  const std::string dir = scratch_dir("attach_arm");
  write_cube_stl(dir + "/arm/meshes/cube.stl", 0.125f);
  write_mjcf(dir + "/arm", "arm.xml", R"(<mujoco model="arm_model">
  <compiler angle="radian" eulerseq="ZYX" meshdir="meshes"/>
  <default>
    <geom density="800"/>
    <mesh scale="0.5 0.5 0.5"/>
    <default class="link">
      <joint axis="0 1 0" range="-1 1" damping="0.5"/>
      <geom type="capsule" size="0.03"/>
      <default class="tilted"><geom euler="0.2 0 0"/></default>
    </default>
  </default>
  <asset><mesh name="shell" file="cube.stl"/></asset>
  <worldbody>
    <frame pos="5 5 5" euler="1 0 0">
      <body name="arm" pos="0.1 0 0.2" euler="0.3 0.2 0.1" childclass="link">
        <joint name="shoulder" ref="0.1"/>
        <geom fromto="0 0 0 0.3 0 0"/>
        <geom class="tilted" type="box" size="0.02 0.03 0.05" pos="0.1 0 0"/>
        <geom class="main" size="0.02" pos="0 0 0.05"/>
        <body name="forearm" pos="0.3 0 0" axisangle="0 0 1 0.5">
          <joint name="elbow" range="-2 0.5"/>
          <joint name="slide" class="main" type="slide" range="0 0.1"/>
          <geom type="mesh" mesh="shell"/>
          <site name="tool" pos="0.1 0 0" euler="0 0 0.7"/>
        </body>
      </body>
    </frame>
    <body name="unused"><geom size="0.1"/></body>
  </worldbody></mujoco>)");
  const std::string robot = write_mjcf(dir, "robot.xml", R"(<mujoco model="robot">
  <compiler angle="degree"/>
  <default>
    <geom density="500" rgba="1 0 0 1" type="box"/>
    <joint damping="3" axis="1 0 0"/>
    <default class="parentclass"><geom type="box" size="0.1 0.1 0.1"/></default>
  </default>
  <asset><model name="arm" file="arm/arm.xml"/></asset>
  <worldbody>
    <body name="base" pos="0 0 1" childclass="parentclass"><freejoint name="root"/>
      <geom/>
      <frame pos="0.2 0 0" euler="0 0 90">
        <attach model="arm" body="arm" prefix="left_"/>
      </frame>
      <attach model="arm" body="arm" prefix="right_"/>
    </body>
  </worldbody></mujoco>)");
  // By hand, in radians. The arm's euler (0.3, 0.2, 0.1) in ZYX (extrinsic): Rx(0.1) Ry(0.2) Rz(0.3);
  // the tilted class's euler (0.2, 0, 0): Rz(0.2); the forearm's axisangle: Rz(0.5); the tool's euler
  // (0, 0, 0.7): Rx(0.7). The left arm in the frame (0.2, 0, 0), Rz(90 deg): at (0.2, 0, 0) + Rz90
  // (0.1, 0, 0.2) = (0.2, 0.1, 0.2), turned Rz90 times the arm's own.
  const Eigen::Vector3d X = Eigen::Vector3d::UnitX(), Y = Eigen::Vector3d::UnitY(), Z = Eigen::Vector3d::UnitZ();
  const Eigen::Quaterniond arm = about(0.1, X) * about(0.2, Y) * about(0.3, Z);
  const std::string mesh = (fs::path(dir) / "arm" / "meshes" / "cube.stl").string();
  const auto arm_by_hand = [&](const std::string& p, const std::string& pos, const Eigen::Quaterniond& q) {
    return R"(
      <body name=")" +
           p + R"(arm" pos=")" + pos + R"(" quat=")" + quat_text(q) + R"(">
        <joint name=")" +
           p + R"(shoulder" axis="0 1 0" range="-1 1" ref="0.1" damping="0.5"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" density="800"/>
        <geom type="box" size="0.02 0.03 0.05" pos="0.1 0 0" quat=")" +
           quat_text(about(0.2, Z)) + R"(" density="800"/>
        <geom type="sphere" size="0.02" pos="0 0 0.05" density="800"/>
        <body name=")" +
           p + R"(forearm" pos="0.3 0 0" quat=")" + quat_text(about(0.5, Z)) + R"(">
          <joint name=")" +
           p + R"(elbow" axis="0 1 0" range="-2 0.5" damping="0.5"/>
          <joint name=")" +
           p + R"(slide" type="slide" axis="0 0 1" range="0 0.1"/>
          <geom type="mesh" mesh="shell" density="800"/>
          <site name=")" +
           p + R"(tool" pos="0.1 0 0" quat=")" + quat_text(about(0.7, X)) + R"("/>
        </body>
      </body>)";
  };
  const std::string hand = R"(<mujoco model="robot">
  <compiler angle="radian" autolimits="true"/>
  <asset><mesh name="shell" file=")" +
                           mesh + R"(" scale="0.5 0.5 0.5"/></asset>
  <worldbody>
    <body name="base" pos="0 0 1"><freejoint name="root"/>
      <geom type="box" size="0.1 0.1 0.1" density="500"/>)" +
                           arm_by_hand("left_", "0.2 0.1 0.2", about(M_PI / 2, Z) * arm) +
                           arm_by_hand("right_", "0.1 0 0.2", arm) + R"(
    </body>
  </worldbody></mujoco>)";
  const std::string by_hand = write_mjcf(dir, "by_hand.xml", hand);
  const MjcfRead a = read_mjcf_file(robot), b = read_mjcf_file(by_hand);
  std::vector<std::string> names;
  for (const Body& body : a.model.bodies) names.push_back(body.name);
  EXPECT_EQ(names, (std::vector<std::string>{"universe", "base", "left_arm", "left_forearm__left_elbow", "left_forearm",
                                             "right_arm", "right_forearm__right_elbow", "right_forearm"}));
  // The limits come through degrees (the robot's unit) and back: equal to a few ulps.
  expect_same_bodies(a.model, b.model, 1e-15);
  for (const char* site : {"left_tool", "right_tool"}) {
    SCOPED_TRACE(site);
    const Frame& fa = a.model.frames[static_cast<std::size_t>(a.model.frame_index(site))];
    const Frame& fb = b.model.frames[static_cast<std::size_t>(b.model.frame_index(site))];
    EXPECT_EQ(fa.body, fb.body);
    EXPECT_LT((fa.placement.translation - fb.placement.translation).norm(), 1e-12);
    EXPECT_LT((fa.placement.rotation - fb.placement.rotation).norm(), 1e-12);
  }
  // Independent of the hand-written file: the base's box has the robot's density, each arm the arm
  // file's (capsule and box), the forearm the cube scaled by the arm file's mesh default (side 0.1).
  EXPECT_NEAR(a.model.bodies[1].inertia.mass, 500.0 * 0.2 * 0.2 * 0.2, 1e-12);
  const double r = 0.03, arm_mass = 800.0 * (M_PI * r * r * 0.3 + 4.0 / 3.0 * M_PI * r * r * r + 0.04 * 0.06 * 0.1 +
                                             4.0 / 3.0 * M_PI * 0.02 * 0.02 * 0.02);
  EXPECT_NEAR(a.model.bodies[2].inertia.mass, arm_mass, 1e-12);
  EXPECT_NEAR(a.model.bodies[4].inertia.mass, 800.0 * 0.125 * 0.125 * 0.125, 1e-12);
  EXPECT_NEAR(a.model.bodies[static_cast<std::size_t>(a.model.joint_index("left_elbow"))].limits.lower, -2.0, 1e-15);
  EXPECT_FALSE(a.model.find_frame("left_unused"));
  // The joints' damping (dynid's nominal actuator values): the arm file's class, or MuJoCo's 0 for the
  // slide in the arm file's top-level class, never the robot's top-level 3.
  ASSERT_EQ(a.actuators.size(), b.actuators.size());
  for (std::size_t i = 0; i < a.actuators.size(); ++i) {
    SCOPED_TRACE(a.actuators[i].joint);
    EXPECT_EQ(a.actuators[i].joint, b.actuators[i].joint);
    EXPECT_EQ(a.actuators[i].damping.value_or(-1.0), b.actuators[i].damping.value_or(-1.0));
  }
  EXPECT_TRUE(has_warning(a.model, "2 <attach> element(s) expanded"));
  // MuJoCo 2.2.2's own dynamics of the hand-written file.
  const test::MjModelPtr mj = test::load_mujoco(hand);
  ASSERT_TRUE(mj);
  test::MujocoComparison cmp(a.model, mj.get());
  std::mt19937 rng(21);
  for (int k = 0; k < 5; ++k) cmp.compare(test::random_state(a.model, rng, 2.0), 1e-12, true);
}

/// The links (MJCF bodies) of a model by name: body index, placement and own inertia.
void expect_same_links(const Model& a, const Model& b) {
  ASSERT_EQ(a.links.size(), b.links.size());
  for (const LinkRecord& la : a.links) {
    SCOPED_TRACE(la.name);
    const auto lb =
        std::find_if(b.links.begin(), b.links.end(), [&](const LinkRecord& l) { return l.name == la.name; });
    ASSERT_NE(lb, b.links.end());
    EXPECT_EQ(la.body, lb->body);
    EXPECT_LT((la.placement_in_body.translation - lb->placement_in_body.translation).norm(), 1e-12);
    EXPECT_LT((la.placement_in_body.rotation - lb->placement_in_body.rotation).norm(), 1e-12);
    EXPECT_LT((la.inertia.to_parameters() - lb->inertia.to_parameters()).norm(), 1e-12);
  }
}

// MuJoCo's own <attach> tests (test/xml/xml_native_reader_test.cc, test/user/user_model_test.cc) and
// their published results, read through dynid.
TEST(MjcfReader, AttachReproducesMujocosOwnAttachTests) {
  const std::string dir = scratch_dir("attach_mujoco");
  // AttachSpecAssets: an <attach> in a <replicate>; the copies' names take the prefix and the
  // replicate's suffix ("otherbody0"), and the model equals the published expected one. (A hinge in
  // "parent", in both files, that dynid has a joint to read.)
  write_mjcf(dir, "xml_child.xml", R"(<mujoco>
    <worldbody>
      <body name="body">
        <geom name="geom" size="1" pos="2 0 0"/>
      </body>
    </worldbody>
  </mujoco>)");
  const std::string replicated = write_mjcf(dir, "xml_parent.xml", R"(<mujoco>
    <asset>
      <model name="child" file="xml_child.xml"/>
    </asset>
    <worldbody>
      <body name="parent"><joint name="hinge"/>
        <geom name="geom" size="2"/>
        <replicate count="2" offset="0 0 1">
          <attach model="child" body="body" prefix="other"/>
        </replicate>
      </body>
    </worldbody>
  </mujoco>)");
  const std::string expected = write_mjcf(dir, "xml_expected.xml", R"(<mujoco>
    <worldbody>
      <body name="parent"><joint name="hinge"/>
        <geom name="geom" size="2"/>
        <body name="otherbody0">
          <geom name="othergeom0" size="1" pos="2 0 0"/>
        </body>
        <body name="otherbody1" pos="0 0 1">
          <geom name="othergeom1" size="1" pos="2 0 0"/>
        </body>
      </body>
    </worldbody>
  </mujoco>)");
  expect_same_links(read_mjcf_file(replicated).model, read_mjcf_file(expected).model);
  const std::string compat = MjcfCompat(replicated).xml();
  for (const char* name : {"otherbody0", "othergeom0", "otherbody1", "othergeom1"})
    EXPECT_NE(compat.find(std::string("name=\"") + name + "\""), std::string::npos) << name;

  // LookupCompilerOptionWithoutSpecCopy: the child's joint range in radians, the parent's in degrees,
  // both +-pi (MuJoCo's test: 1e-5).
  write_mjcf(dir, "child.xml", R"(<mujoco>
    <compiler angle="radian"/>
    <worldbody>
      <body name="child">
        <geom type="box" size="1 1 1"/>
        <joint name="child_joint" range="-3.1415926 3.1415926"/>
      </body>
    </worldbody>
  </mujoco>)");
  const std::string units = write_mjcf(dir, "parent.xml", R"(<mujoco>
    <asset>
      <model name="child" file="child.xml"/>
    </asset>
    <worldbody>
      <body name="parent">
        <geom type="box" size="1 1 1"/>
        <joint name="parent_joint" range="-180 180"/>
        <attach model="child" body="child" prefix="child_"/>
      </body>
    </worldbody>
  </mujoco>)");
  const Model u = read_mjcf_file(units).model;
  ASSERT_EQ(u.nv, 2);
  for (const char* joint : {"parent_joint", "child_child_joint"}) {
    SCOPED_TRACE(joint);
    const Body& body = u.bodies[static_cast<std::size_t>(u.joint_index(joint))];
    EXPECT_NEAR(body.limits.lower, -3.14159, 1e-5);
    EXPECT_NEAR(body.limits.upper, 3.14159, 1e-5);
  }
  EXPECT_NEAR(u.bodies[static_cast<std::size_t>(u.joint_index("child_child_joint"))].limits.upper, 3.1415926, 1e-15);

  // NestedMeshDir: a grandparent attaches a parent that attaches a child, each with its own meshdir
  // and a mesh named "m"; each mesh is read from its own file's meshdir. The cubes differ here (half
  // sides 1, 0.5, 0.25) so that a mesh read from the wrong directory shows in the masses (and the
  // parent's body has a hinge, that dynid has a joint to read).
  write_cube_stl(dir + "/nested/child_meshdir/child_mesh.stl", 1.0f);
  write_cube_stl(dir + "/nested/parent_meshdir/parent_mesh.stl", 0.5f);
  write_cube_stl(dir + "/nested/grandparent_meshdir/grandparent_mesh.stl", 0.25f);
  write_mjcf(dir + "/nested", "child.xml", R"(<mujoco>
    <compiler meshdir="child_meshdir"/>
    <asset>
      <mesh name="m" file="child_mesh.stl"/>
    </asset>
    <worldbody>
      <body name="child">
        <geom type="mesh" mesh="m"/>
      </body>
    </worldbody>
  </mujoco>)");
  write_mjcf(dir + "/nested", "parent.xml", R"(<mujoco>
    <compiler meshdir="parent_meshdir"/>
    <asset>
      <mesh name="m" file="parent_mesh.stl"/>
      <model name="child" file="child.xml"/>
    </asset>
    <worldbody>
      <body name="parent"><joint name="j"/>
        <geom type="mesh" mesh="m"/>
        <attach model="child" body="child" prefix="child_"/>
      </body>
    </worldbody>
  </mujoco>)");
  const std::string grandparent = write_mjcf(dir + "/nested", "grandparent.xml", R"(<mujoco>
    <compiler meshdir="grandparent_meshdir"/>
    <asset>
      <mesh name="m" file="grandparent_mesh.stl"/>
      <model name="parent" file="parent.xml"/>
    </asset>
    <worldbody>
      <geom type="mesh" mesh="m"/>
      <attach model="parent" body="parent" prefix="parent_"/>
    </worldbody>
  </mujoco>)");
  const Model g = read_mjcf_file(grandparent).model;
  std::map<std::string, double> link_mass;
  for (const LinkRecord& l : g.links) link_mass[l.name] = l.inertia.mass;
  EXPECT_NEAR(link_mass["parent_parent"], 1000.0 * 1.0, 1e-9);
  EXPECT_NEAR(link_mass["parent_child_child"], 1000.0 * 8.0, 1e-9);
  const std::string nested = MjcfCompat(grandparent).xml();
  for (const char* mesh : {"name=\"m\"", "name=\"parent_m\"", "name=\"parent_child_m\""})
    EXPECT_NE(nested.find(mesh), std::string::npos) << mesh;

  // ResizeKeyframeAfterParsing: body="world" attaches the child's world body itself, as a body named
  // prefix + "world" holding the child's bodies.
  write_mjcf(dir + "/world", "child.xml", R"(<mujoco>
    <worldbody>
      <body name="body">
        <joint name="joint"/>
        <geom size="1"/>
      </body>
    </worldbody>
  </mujoco>)");
  const std::string world = write_mjcf(dir + "/world", "parent.xml", R"(<mujoco>
    <asset>
      <model name="child" file="child.xml"/>
    </asset>
    <worldbody>
      <attach model="child" body="world" prefix="child_"/>
      <body name="body">
        <joint name="joint"/>
        <geom size="1"/>
      </body>
    </worldbody>
  </mujoco>)");
  const Model w = read_mjcf_file(world).model;
  std::vector<std::string> joints;
  for (const LinkRecord& l : w.links)
    if (!l.parent_joint.empty()) joints.push_back(l.parent_link + ">" + l.parent_joint + ">" + l.name);
  EXPECT_EQ(joints, (std::vector<std::string>{"child_world>child_joint>child_body", "world>joint>body"}));
}

// Attachment without body or frame (the child's world contents in a frame at the attaching point),
// frame="F" (the frame and what it holds), and an attached model that attaches a third one: the same
// bodies, joints and inertias as the robot written by hand.
TEST(MjcfReader, AttachWholeWorldFramesAndNestedModels) {
  const std::string dir = scratch_dir("attach_world");
  write_mjcf(dir + "/parts", "finger.xml", R"(<mujoco model="finger">
  <worldbody>
    <body name="tip" pos="0 0 0.05"><joint name="bend" axis="1 0 0" range="0 90"/>
      <geom type="box" size="0.01 0.01 0.02" mass="0.05"/></body>
  </worldbody></mujoco>)");
  write_mjcf(dir + "/parts", "hand.xml", R"(<mujoco model="hand">
  <asset><model file="finger.xml"/></asset>
  <worldbody>
    <geom name="plate" type="box" size="0.05 0.05 0.01" mass="0.3"/>
    <body name="palm" pos="0 0 0.1"><joint name="wrist" axis="0 0 1"/>
      <geom type="sphere" size="0.03" mass="0.2"/>
      <frame name="fingers" pos="0.02 0 0.02" euler="0 0 90">
        <attach model="finger" body="tip" prefix="f1_"/>
        <site name="mark"/>
      </frame>
    </body>
  </worldbody></mujoco>)");
  const std::string robot = write_mjcf(dir, "robot.xml", R"(<mujoco model="r">
  <asset><model name="hand" file="parts/hand.xml"/></asset>
  <worldbody>
    <body name="arm" pos="0 0 1"><joint name="lift" type="slide" axis="0 0 1"/>
      <geom type="capsule" fromto="0 0 0 0 0 0.3" size="0.02" mass="1"/>
      <attach model="hand" prefix="h_"/>
      <body name="other" pos="0.3 0 0"><joint name="spin" axis="0 0 1"/>
        <geom size="0.05" mass="0.5"/>
        <attach model="hand" frame="fingers" prefix="g_"/>
      </body>
    </body>
  </worldbody></mujoco>)");
  // By hand: h_'s plate is a geom of the arm (the child's world geoms go to the attaching body); the
  // finger sits in the frame at (0.02, 0, 0.02), Rz(90 deg): its tip at (0.02, 0, 0.07) turned
  // Rz90. g_ brings the frame alone (the finger and the site) into "other".
  const std::string rz90 = quat_text(about(M_PI / 2, Eigen::Vector3d::UnitZ()));
  const std::string finger = R"(<body name="PREFIXf1_tip" pos="0.02 0 0.07" quat=")" + rz90 +
                             R"("><joint name="PREFIXf1_bend" axis="1 0 0" range="0 90"/>
        <geom type="box" size="0.01 0.01 0.02" mass="0.05"/></body>
        <site name="PREFIXmark" pos="0.02 0 0.02" quat=")" +
                             rz90 + R"("/>)";
  const std::string hand = R"(<mujoco model="r">
  <compiler autolimits="true"/>
  <worldbody>
    <body name="arm" pos="0 0 1"><joint name="lift" type="slide" axis="0 0 1"/>
      <geom type="capsule" fromto="0 0 0 0 0 0.3" size="0.02" mass="1"/>
      <geom name="h_plate" type="box" size="0.05 0.05 0.01" mass="0.3"/>
      <body name="h_palm" pos="0 0 0.1"><joint name="h_wrist" axis="0 0 1"/>
        <geom type="sphere" size="0.03" mass="0.2"/>
        )" + std::regex_replace(finger, std::regex("PREFIX"), "h_") +
                           R"(
      </body>
      <body name="other" pos="0.3 0 0"><joint name="spin" axis="0 0 1"/>
        <geom size="0.05" mass="0.5"/>
        )" + std::regex_replace(finger, std::regex("PREFIX"), "g_") +
                           R"(
      </body>
    </body>
  </worldbody></mujoco>)";
  const MjcfRead a = read_mjcf_file(robot), b = read_mjcf_file(write_mjcf(dir, "by_hand.xml", hand));
  expect_same_bodies(a.model, b.model);
  for (const char* site : {"h_mark", "g_mark"}) {
    SCOPED_TRACE(site);
    const Frame& fa = a.model.frames[static_cast<std::size_t>(a.model.frame_index(site))];
    const Frame& fb = b.model.frames[static_cast<std::size_t>(b.model.frame_index(site))];
    EXPECT_EQ(fa.body, fb.body);
    EXPECT_LT((fa.placement.translation - fb.placement.translation).norm(), 1e-12);
  }
  EXPECT_NEAR(a.model.total_mass(), 1.0 + 0.3 + 0.2 + 0.05 + 0.5 + 0.05, 1e-12);
}

// What the expansion cannot carry, or MuJoCo refuses: one line naming the file and line of the
// <attach> (or of what is wrong in the attached file).
TEST(MjcfReader, AttachRefusesInOneLine) {
  const std::string dir = scratch_dir("attach_refuse");
  write_mjcf(dir, "arm.xml", R"(<mujoco model="arm">
  <worldbody><body name="arm"><joint name="j"/><geom size="0.1" mass="1"/></body></worldbody></mujoco>)");
  const auto parent = [&](const std::string& name, const std::string& model_assets, const std::string& body_extra) {
    return write_mjcf(dir, name, pendulum(body_extra, "<asset>" + model_assets + "</asset>"));
  };
  const std::string arm_asset = R"(<model name="arm" file="arm.xml"/>)";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {parent("no_file.xml", R"(<model name="arm" file="absent.xml"/>)", ""),
       "no_file.xml:4: <model> file " + (fs::path(dir) / "absent.xml").string() + " does not exist"},
      {parent("no_body.xml", arm_asset, R"(<attach model="arm" body="hand" prefix="a_"/>)"),
       "no_body.xml:2: <attach body=\"hand\">: no body named 'hand' in " + (fs::path(dir) / "arm.xml").string()},
      {parent("no_prefix.xml", arm_asset, R"(<attach model="arm" body="arm"/>)"),
       "no_prefix.xml:2: <attach> has no prefix"},
      {parent("self.xml", arm_asset, R"(<attach body="link" prefix="a_"/>)"),
       "self.xml:2: <attach> without model (attaching from this same file) is not supported"},
      // MuJoCo's RepeatedPrefix: the same prefix twice gives the same names.
      {parent("twice.xml", arm_asset,
              R"(<attach model="arm" body="arm" prefix="a_"/><attach model="arm" body="arm" prefix="a_"/>)"),
       "twice.xml:2: <attach prefix=\"a_\">: the attached body 'a_arm' has the name of one already in this model"},
      {parent("clash.xml", arm_asset, R"(<attach model="arm" body="arm" prefix="sw"/>)"),
       "clash.xml:2: <attach prefix=\"sw\">: the attached joint 'swj'"},
  };
  // A joint named like the attached one ("sw" + "j" = "swj") in the attaching file.
  const std::string clash =
      std::regex_replace(file_text(dir + "/clash.xml"), std::regex("name=\"swing\""), "name=\"swj\"");
  std::ofstream(dir + "/clash.xml") << clash;
  std::vector<std::pair<std::string, std::string>> all = cases;
  // A cycle: a attaches b, which attaches a.
  write_mjcf(dir, "b.xml", R"(<mujoco><asset><model name="a" file="a.xml"/></asset>
  <worldbody><body name="b"><attach model="a" body="a" prefix="x_"/></body></worldbody></mujoco>)");
  all.emplace_back(write_mjcf(dir, "a.xml", R"(<mujoco><asset><model name="b" file="b.xml"/></asset>
  <worldbody><body name="a"><attach model="b" body="b" prefix="y_"/></body></worldbody></mujoco>)"),
                   "b.xml:2: <attach model=\"a\"> makes a cycle: " + (fs::path(dir) / "a.xml").string() + " -> " +
                       (fs::path(dir) / "b.xml").string() + " -> " + (fs::path(dir) / "a.xml").string());
  // A child compiled with another inertiafromgeom: MuJoCo applies it to the attached bodies.
  write_mjcf(dir, "fromgeom.xml", R"(<mujoco><compiler inertiafromgeom="true"/>
  <worldbody><body name="arm"><joint name="j"/><geom size="0.1" mass="1"/></body></worldbody></mujoco>)");
  all.emplace_back(parent("inertia.xml", R"(<model name="g" file="fromgeom.xml"/>)",
                          R"(<attach model="g" body="arm" prefix="g_"/>)"),
                   "inertia.xml:2: <compiler inertiafromgeom=\"true\"> of " +
                       (fs::path(dir) / "fromgeom.xml").string() + " differs from this file's (\"auto\")");
  // This file's top-level default gives geoms a mass: MuJoCo does not give it to the attached geoms,
  // and there is no MuJoCo value of "mass" to write instead.
  all.emplace_back(
      write_mjcf(dir, "mass.xml",
                 std::regex_replace(
                     pendulum(R"(<attach model="arm" body="arm" prefix="a_"/>)", "<asset>" + arm_asset + "</asset>"),
                     std::regex("<worldbody>"), R"(<default><geom mass="2"/></default><worldbody>)")),
      "mass.xml:2: this file's top-level <default> sets <geom mass>");
  for (const auto& [file, message] : all) {
    SCOPED_TRACE(file);
    const std::string path = file;  // clang before 16 does not capture structured bindings
    const std::string why = thrown_by([&] { read_mjcf_file(path); });
    EXPECT_NE(why.find(message), std::string::npos) << why;
    EXPECT_EQ(why.find('\n'), std::string::npos) << why;
  }
}

TEST(MjcfReader, MissingMeshesAreErrorsOnlyWhereAnInertiaNeedsThem) {
  const std::string dir = scratch_dir("meshes");
  const std::string assets = R"(<compiler meshdir="meshes"/><asset><mesh name="shell" file="shell.stl"/></asset>)";
  // The body has an <inertial>: the mesh is only geometry, dropped with a warning.
  const std::string visual = write_mjcf(dir, "visual.xml", pendulum(R"(<geom type="mesh" mesh="shell"/>)", assets));
  const MjcfRead r = read_mjcf_file(visual);
  EXPECT_TRUE(has_warning(r.model, "mesh 'shell' dropped with its 1 geom(s)"));
  EXPECT_EQ(r.model.bodies[1].inertia.mass, 2.0);
  // A body without <inertial> whose mass would come from the mesh: an error naming file and body.
  const std::string needed = write_mjcf(dir, "needed.xml",
                                        pendulum(R"(<body name="tool" pos="0 0 -1">
    <joint name="roll" axis="1 0 0"/><geom type="mesh" mesh="shell"/></body>)",
                                                 assets));
  const std::string why = thrown_by([&] { read_mjcf_file(needed); });
  EXPECT_NE(why.find((fs::path(dir) / "meshes" / "shell.stl").string() + " does not exist"), std::string::npos) << why;
  EXPECT_NE(why.find("body 'tool' has no <inertial>"), std::string::npos) << why;
  // A Git LFS pointer is named as such.
  fs::create_directories(dir + "/meshes");
  std::ofstream(dir + "/meshes/shell.stl") << "version https://git-lfs.github.com/spec/v1\noid sha256:00\nsize 10\n";
  EXPECT_NE(thrown_by([&] { read_mjcf_file(needed); }).find("Git LFS pointer"), std::string::npos);
}

TEST(MjcfReader, IncludesAreInlinedAndTheFileIsNotModified) {
  const std::string dir = scratch_dir("include");
  write_mjcf(dir, "arm_body.xml", R"(<mujoco><worldbody><body name="link" pos="0 0 1">
    <joint name="swing" axis="0 1 0" range="-1 1"/><geom type="box" size="0.1 0.1 0.5"/></body></worldbody></mujoco>)");
  const std::string main_text = R"(<mujoco model="with_include"><include file="arm_body.xml"/></mujoco>)";
  const std::string main = write_mjcf(dir, "main.xml", main_text);
  const Model m = read_mjcf_file(main).model;
  EXPECT_EQ(m.num_moving_bodies(), 1);
  EXPECT_NEAR(m.bodies[1].inertia.mass, 1000.0 * 0.2 * 0.2 * 1.0, 1e-9);
  EXPECT_NEAR(m.bodies[1].limits.upper, 3.14159265358979323846 / 180.0, 1e-15);  // MJCF's default unit: degrees
  EXPECT_EQ(file_text(main), main_text);
}

TEST(MjcfReader, UnknownElementsNestedInEachOtherAreDroppedOnce) {
  // Found by the mjcf fuzz harness (tests/fixtures/fuzz/mjcf/): an element MuJoCo 2.2.2 does not know,
  // inside another of the same name, was deleted with its parent and then again (a crash).
  const std::string path = write_mjcf(scratch_dir("nested_unknown"), "nested.xml", R"(<mujoco model="nested">
    <default><tosition kp="100"><tosition kp="50"/></tosition></default>
    <worldbody><body name="b" pos="0 0 1"><freejoint/><geom type="sphere" size="0.1"/></body></worldbody></mujoco>)");
  const auto r = read_mjcf_file(path);
  EXPECT_NEAR(r.model.bodies[1].inertia.mass, 1000.0 * 4.0 / 3.0 * 3.14159265358979323846 * 1e-3, 1e-9);
  bool named = false;
  for (const std::string& w : r.model.warnings) named = named || w.find("<tosition> dropped (2 places)") == 0;
  EXPECT_TRUE(named);
}

TEST(MjcfReader, AMujocoElementNestedInTheModelIsRefusedNotTakenForTheRoot) {
  // Found by the mjcf fuzz harness (tests/fixtures/fuzz/mjcf/nested_mujoco_root.xml): MuJoCo calls a
  // <mujoco> inside the model an unrecognized element; dynid dropped every element of that name,
  // the root first, and handed MuJoCo an empty file, which MuJoCo's error handler answers by
  // ending the process ("Press Enter to exit"). The nested one holds bodies: refused, naming it.
  const std::string dir = scratch_dir("nested_mujoco");
  const std::string path = write_mjcf(dir, "nested.xml", R"(<mujoco model="outer">
    <mujoco model="inner"><worldbody><body name="hidden"><geom size="0.1"/></body></worldbody></mujoco>
    <worldbody><body name="b" pos="0 0 1"><freejoint/><geom type="sphere" size="0.1"/></body></worldbody></mujoco>)");
  try {
    read_mjcf_file(path);
    FAIL() << "a nested <mujoco> with bodies was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("nested.xml:2: <mujoco> is not known"), std::string::npos) << e.what();
  }
  // An unknown element without any of the tree's elements in it is still dropped, with a warning.
  const std::string plain = write_mjcf(dir, "plain.xml", R"(<mujoco model="outer">
    <mujoco model="inner"><option timestep="0.01"/></mujoco>
    <worldbody><body name="b" pos="0 0 1"><freejoint/><geom type="sphere" size="0.1"/></body></worldbody></mujoco>)");
  const auto r = read_mjcf_file(plain);
  EXPECT_EQ(r.model.bodies[1].name, "b");
  bool named = false;
  for (const std::string& w : r.model.warnings) named = named || w.find("<mujoco> dropped") == 0;
  EXPECT_TRUE(named);
}

TEST(MjcfReader, ForcedBaseKinds) {
  // A fixed-base arm made floating, and a floating robot welded where it stands.
  const std::string dir = scratch_dir("base");
  const std::string arm = write_mjcf(dir, "arm.xml", R"(<mujoco><worldbody><body name="base" pos="0 0 0.5">
    <geom size="0.1"/><body name="link"><joint name="j" axis="0 0 1"/><geom type="box" size="0.1 0.2 0.3"/></body>
    </body></worldbody></mujoco>)");
  UrdfReadOptions floating;
  floating.floating_base = true;
  const Model f = read_mjcf_file(arm, floating).model;
  EXPECT_TRUE(f.floating_base);
  EXPECT_EQ(f.bodies[1].name, "base");
  EXPECT_EQ(f.nv, 7);
  const Model fixed = read_mjcf_file(arm).model;
  EXPECT_FALSE(fixed.floating_base);
  EXPECT_EQ(fixed.links[0].name, "world");
  EXPECT_NEAR(fixed.bodies[0].inertia.mass, 1000.0 * 4.0 / 3.0 * 3.14159265358979 * 1e-3, 1e-6);
  UrdfReadOptions welded;
  welded.floating_base = false;
  const Model w = read_mjcf_file(kFixture, welded).model;
  EXPECT_FALSE(w.floating_base);
  EXPECT_EQ(w.nv, 5);
  EXPECT_NEAR(w.bodies[0].inertia.com().z(), 0.9 + 0.05, 1e-9);
}

}  // namespace
}  // namespace dynid
