// URDF reading (fixed-link merging, floating base, errors) and writing back inertials.

#include <gtest/gtest.h>
#include <tinyxml2.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "dynid/model/urdf_reader.hpp"
#include "dynid/model/urdf_writer.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

const char* kArm = R"(<?xml version="1.0"?>
<robot name="arm">
  <!-- a comment the writer must keep -->
  <link name="base"><inertial><origin xyz="0 0 0.05"/><mass value="2"/>
    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <link name="upper"><inertial><origin xyz="0 0 0.2" rpy="0.1 0.2 0.3"/><mass value="1.5"/>
    <inertia ixx="0.02" ixy="0.001" ixz="0" iyy="0.021" iyz="0" izz="0.005"/></inertial>
    <visual><geometry><cylinder radius="0.03" length="0.4"/></geometry></visual></link>
  <link name="camera"><inertial><origin xyz="0.02 0 0"/><mass value="0.3"/>
    <inertia ixx="0.0004" ixy="0" ixz="0" iyy="0.0003" iyz="0" izz="0.0003"/></inertial></link>
  <link name="tool_frame"/>
  <link name="lower"><inertial><origin xyz="0 0 0.15"/><mass value="0.8"/>
    <inertia ixx="0.006" ixy="0" ixz="0" iyy="0.006" iyz="0" izz="0.001"/></inertial></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
    <origin xyz="0 0 0.1" rpy="0 0 0.5"/><axis xyz="0 1 0"/><limit lower="-2" upper="2" effort="50" velocity="3"/></joint>
  <joint name="camera_mount" type="fixed"><parent link="upper"/><child link="camera"/><origin xyz="0.05 0 0.3" rpy="0 1.57 0"/></joint>
  <joint name="tool" type="fixed"><parent link="lower"/><child link="tool_frame"/><origin xyz="0 0 0.3"/></joint>
  <joint name="elbow" type="continuous"><parent link="upper"/><child link="lower"/>
    <origin xyz="0 0 0.4"/><axis xyz="0 0.6 0.8"/></joint>
</robot>
)";

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

TEST(UrdfReader, MergesFixedLinksAndKeepsTheirFrames) {
  const Model model = read_urdf_string(kArm, "arm.urdf");
  EXPECT_TRUE(model.floating_base);
  EXPECT_EQ(model.num_moving_bodies(), 3);  // base (free flyer), upper, lower
  EXPECT_EQ(model.nq, 7 + 2);
  EXPECT_EQ(model.nv, 6 + 2);
  EXPECT_NEAR(model.total_mass(), 2 + 1.5 + 0.3 + 0.8, 1e-15);
  const Body& upper = model.bodies[static_cast<std::size_t>(model.joint_index("shoulder"))];
  EXPECT_NEAR(upper.inertia.mass, 1.8, 1e-15);
  EXPECT_EQ(model.body_index("camera"), model.joint_index("shoulder"));
  ASSERT_TRUE(model.find_frame("tool_frame"));
  EXPECT_LT((model.frames[static_cast<std::size_t>(*model.find_frame("tool_frame"))].placement.translation -
             Vector3(0, 0, 0.3))
                .norm(),
            1e-15);
  const Body& lower = model.bodies[static_cast<std::size_t>(model.joint_index("elbow"))];
  EXPECT_LT((lower.axis - Vector3(0, 0.6, 0.8)).norm(), 1e-15);
  EXPECT_FALSE(std::isfinite(lower.limits.lower));  // continuous
  EXPECT_TRUE(model.warnings.empty());
}

TEST(UrdfReader, WorldRootMeansFixedBase) {
  const std::string fixed =
      replace(kArm, "<link name=\"base\">",
              "<link name=\"world\"/><joint name=\"anchor\" type=\"fixed\"><parent link=\"world\"/>"
              "<child link=\"base\"/></joint><link name=\"base\">");
  const Model model = read_urdf_string(fixed, "arm.urdf");
  EXPECT_FALSE(model.floating_base);
  EXPECT_EQ(model.nv, 2);
  EXPECT_NEAR(model.bodies[0].inertia.mass, 2.0, 1e-15);
  UrdfReadOptions fixed_base;
  fixed_base.floating_base = false;
  EXPECT_EQ(read_urdf_string(kArm, "arm.urdf", fixed_base).nv, 2);
}

void expect_error(const std::string& urdf, const std::string& fragment) {
  try {
    read_urdf_string(urdf, "bad.urdf");
    ADD_FAILURE() << "no error for: " << fragment;
  } catch (const std::runtime_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(fragment), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << "one line: " << msg;
    EXPECT_EQ(msg.rfind("bad.urdf", 0), 0u) << msg;
  }
}

TEST(UrdfReader, BadInputGivesOneClearLine) {
  expect_error("<robot name='x'><link name='a'>", "invalid URDF");
  expect_error("not xml at all", "invalid URDF");
  expect_error(replace(kArm, "<mass value=\"0.8\"/>", "<mass value=\"-0.8\"/>"), "negative mass");
  // A kinematic loop: 'base' becomes the child of 'lower' as well.
  expect_error(
      replace(kArm, "</robot>",
              "<joint name=\"loop\" type=\"fixed\"><parent link=\"lower\"/><child link=\"base\"/></joint></robot>"),
      "invalid URDF");
  expect_error(replace(kArm, "<axis xyz=\"0 0.6 0.8\"/>", "<axis xyz=\"0 0 0\"/>"), "axis");
  EXPECT_THROW(read_urdf_file("/nonexistent/robot.urdf"), std::runtime_error);
}

// Bodies come in depth-first order, each link's children in urdfdom's order (by joint name, which is
// Pinocchio's order too), fixed children merged where they are met: written out by hand here.
TEST(UrdfReader, BodiesAreInDepthFirstChildOrder) {
  const auto link = [](const std::string& name) {
    return "<link name='" + name +
           "'><inertial><mass value='1'/><inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/></inertial></link>";
  };
  const auto joint = [](const std::string& type, const std::string& parent, const std::string& child) {
    return "<joint name='" + parent + "_" + child + "' type='" + type + "'><parent link='" + parent +
           "'/><child link='" + child + "'/><axis xyz='0 0 1'/><limit lower='-1' upper='1' effort='1' velocity='1'/>" +
           "</joint>";
  };
  // trunk -> a -> (a1, a_fixed -> a2), trunk -> b -> b1; joints listed in another order.
  const std::string urdf = "<robot name='tree'>" + link("trunk") + link("a") + link("a1") + link("a_fixed") +
                           link("a2") + link("b") + link("b1") + joint("revolute", "trunk", "a") +
                           joint("revolute", "a", "a1") + joint("prismatic", "b", "b1") +
                           joint("fixed", "a", "a_fixed") + joint("revolute", "a_fixed", "a2") +
                           joint("revolute", "trunk", "b") + "</robot>";
  const Model model = read_urdf_string(urdf, "tree.urdf");
  std::vector<std::string> bodies, parents;
  for (std::size_t i = 1; i < model.bodies.size(); ++i) {
    bodies.push_back(model.bodies[i].name);
    parents.push_back(model.bodies[static_cast<std::size_t>(model.bodies[i].parent)].name);
  }
  EXPECT_EQ(bodies, (std::vector<std::string>{"trunk", "a", "a1", "a2", "b", "b1"}));
  EXPECT_EQ(parents, (std::vector<std::string>{"universe", "trunk", "a", "a", "trunk", "b"}));
  EXPECT_EQ(model.bodies[static_cast<std::size_t>(model.body_index("a"))].links,
            (std::vector<std::string>{"a", "a_fixed"}));
  std::vector<std::string> links;
  for (const LinkRecord& l : model.links) links.push_back(l.name);
  EXPECT_EQ(links, (std::vector<std::string>{"trunk", "a", "a1", "a_fixed", "a2", "b", "b1"}));
}

// A serial chain of 20,000 moving links (a 5.7 MB file) is read like a short one. The walk recursed
// once per link before and `dynid info` of this chain died of a stack overflow.
TEST(UrdfReader, AVeryLongChainIsRead) {
  constexpr int kLinks = 20001;
  std::string urdf = "<robot name='chain'>";
  for (int i = 0; i < kLinks; ++i)
    urdf += "<link name='l" + std::to_string(i) +
            "'><inertial><mass value='1'/><inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/></inertial></link>";
  for (int i = 0; i + 1 < kLinks; ++i)
    urdf += "<joint name='j" + std::to_string(i) + "' type='revolute'><parent link='l" + std::to_string(i) +
            "'/><child link='l" + std::to_string(i + 1) +
            "'/><axis xyz='0 0 1'/><limit lower='-1' upper='1' effort='1' velocity='1'/></joint>";
  urdf += "</robot>";
  const Model model = read_urdf_string(urdf, "chain.urdf");
  ASSERT_EQ(model.num_moving_bodies(), kLinks);  // the free-flying l0 and 20,000 revolute links
  EXPECT_EQ(model.nv, 6 + kLinks - 1);
  EXPECT_EQ(model.total_mass(), kLinks);
  for (std::size_t i = 2; i < model.bodies.size(); ++i) {
    EXPECT_EQ(model.bodies[i].parent, static_cast<int>(i) - 1);
    EXPECT_EQ(model.bodies[i].name, "l" + std::to_string(i - 1));
  }
}

TEST(UrdfReader, InconsistentInertiaIsAWarning) {
  const Model model = read_urdf_string(replace(kArm, "izz=\"0.001\"", "izz=\"0.5\""), "arm.urdf");
  ASSERT_EQ(model.warnings.size(), 1u);
  EXPECT_NE(model.warnings[0].find("lower"), std::string::npos);
}

/// Every element except <inertial>, printed, in document order.
std::vector<std::string> non_inertial_elements(const std::string& xml) {
  tinyxml2::XMLDocument doc;
  doc.Parse(xml.c_str());
  std::vector<std::string> out;
  for (tinyxml2::XMLElement* e = doc.FirstChildElement("robot")->FirstChildElement(); e; e = e->NextSiblingElement()) {
    tinyxml2::XMLElement* copy = e->DeepClone(&doc)->ToElement();
    while (tinyxml2::XMLElement* in = copy->FirstChildElement("inertial")) copy->DeleteChild(in);
    tinyxml2::XMLPrinter p;
    copy->Accept(&p);
    out.push_back(p.CStr());
  }
  return out;
}

void expect_same_inertials(const Model& a, const Model& b, double tol) {
  ASSERT_EQ(a.bodies.size(), b.bodies.size());
  for (std::size_t i = 0; i < a.bodies.size(); ++i)
    EXPECT_LT((a.bodies[i].inertia.to_parameters() - b.bodies[i].inertia.to_parameters()).norm(), tol)
        << a.bodies[i].name;
}

TEST(UrdfWriter, RoundTripKeepsEverything) {
  std::vector<std::string> texts = {kArm};
  for (const std::string& stem : test::bundled_robots()) {
    std::ifstream in(std::string(DYNID_MODELS_DIR) + "/" + stem + ".urdf");
    std::stringstream s;
    s << in.rdbuf();
    texts.push_back(s.str());
  }
  for (const std::string& text : texts) {
    const std::string path = test::write_temp_file(text, ".urdf");
    const Model model = read_urdf_file(path);
    const UrdfWriteReport unchanged = write_urdf_inertials(model, path);
    EXPECT_TRUE(unchanged.changes.empty()) << unchanged.changes.front();
    // Change every body's inertia, write, read back.
    Model modified = model;
    for (std::size_t i = 1; i < modified.bodies.size(); ++i) {
      Inertia& I = modified.bodies[i].inertia;
      I = I.transformed(SE3(rotation_from_rpy(Vector3(0.1, 0.0, 0.05)), Vector3(0.01, -0.02, 0.005)));
      I.mass *= 1.0;  // stays consistent: a rigid move of the same body
      I = I + Inertia::from_com(0.25, Vector3(0.01, 0.02, -0.03), Vector3(1e-3, 2e-3, 2.5e-3).asDiagonal());
    }
    const std::string out = test::write_temp_file("", ".urdf");
    const UrdfWriteReport report = write_urdf_file(modified, path, out);
    const Model reread = read_urdf_file(out);
    expect_same_inertials(reread, modified, 1e-12);
    EXPECT_EQ(non_inertial_elements(report.urdf), non_inertial_elements(text));
    if (text == kArm) {
      EXPECT_NE(report.urdf.find("a comment the writer must keep"), std::string::npos);
    }
    // load(write(load(x))) == load(x)
    const std::string same = test::write_temp_file("", ".urdf");
    write_urdf_file(model, path, same);
    expect_same_inertials(read_urdf_file(same), model, 1e-12);
  }
}

TEST(UrdfWriter, RefusesToOverwriteTheInput) {
  const std::string path = test::write_temp_file(kArm, ".urdf");
  const Model model = read_urdf_file(path);
  EXPECT_THROW(write_urdf_file(model, path, path), std::runtime_error);
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_EQ(s.str(), kArm);
}

}  // namespace
}  // namespace dynid
