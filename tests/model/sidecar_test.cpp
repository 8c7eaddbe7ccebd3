// Robot sidecar: parsing, name checks against the URDF, frames added to the model.

#include "dynid/model/sidecar_reader.hpp"

#include <gtest/gtest.h>

#include "dynid/model/urdf_reader.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

const char* kUrdf = R"(<robot name="leg">
  <link name="pelvis"><inertial><mass value="3"/><inertia ixx="0.03" ixy="0" ixz="0" iyy="0.03" iyz="0" izz="0.03"/></inertial></link>
  <link name="foot"><inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <joint name="knee" type="revolute"><parent link="pelvis"/><child link="foot"/><origin xyz="0 0 -0.4"/>
    <axis xyz="0 1 0"/><limit lower="-2" upper="0" effort="10" velocity="5"/></joint>
</robot>)";

const char* kSidecar = R"(
robot: leg
base_link: pelvis
imu: {name: imu, link: pelvis, position: [0, 0, 0.05], rpy: [0, 0, 0]}
ft_sensors:
  - {name: foot_ft, link: foot, position: [0, 0, -0.05], rpy: [0, 0, 0], measures: external}
joint_torque_sensors: all
contacts:
  - {name: sole, link: foot, position: [0, 0, -0.06], rpy: [0, 0, 0], polygon: [[0.1, 0.05], [-0.1, 0.05], [-0.1, -0.05], [0.1, -0.05]]}
markers:
  - {name: KNE, link: foot, position: [0.05, 0, 0.02]}
actuators:
  - {joint: knee, gear_ratio: 100, armature: 0.01}
)";

TEST(Sidecar, ReadsAndAttachesFrames) {
  Model model = read_urdf_string(kUrdf, "leg.urdf");
  RobotSidecar s = read_sidecar_string(kSidecar, "leg.yaml");
  attach_sidecar(model, s);
  EXPECT_EQ(s.joint_torque_sensors, std::vector<std::string>{"knee"});
  ASSERT_TRUE(model.find_frame("sole"));
  const Frame& sole = model.frames[static_cast<std::size_t>(*model.find_frame("sole"))];
  EXPECT_EQ(sole.kind, FrameKind::Contact);
  EXPECT_EQ(sole.body, model.joint_index("knee"));
  EXPECT_EQ(s.contacts[0].polygon.size(), 4u);
  EXPECT_DOUBLE_EQ(*s.actuators[0].gear_ratio, 100.0);
}

void expect_error(const std::string& yaml, const std::string& fragment) {
  Model model = read_urdf_string(kUrdf, "leg.urdf");
  try {
    RobotSidecar s = read_sidecar_string(yaml, "leg.yaml");
    attach_sidecar(model, s);
    ADD_FAILURE() << "no error for: " << fragment;
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("leg.yaml: ", 0), 0u) << e.what();
  }
}

std::string edit(std::string s, const std::string& from, const std::string& to) {
  s.replace(s.find(from), from.size(), to);
  return s;
}

TEST(Sidecar, WrongNamesAndTypesAreClearErrors) {
  expect_error(edit(kSidecar, "base_link: pelvis", "base_link: torso"), "base_link 'torso'");
  expect_error(edit(kSidecar, "name: KNE, link: foot", "name: KNE, link: shin"), "link 'shin'");
  expect_error(edit(kSidecar, "joint_torque_sensors: all", "joint_torque_sensors: [ankle]"), "joint 'ankle'");
  expect_error(edit(kSidecar, "{joint: knee,", "{joint: hip,"), "joint 'hip'");
  expect_error(edit(kSidecar, "measures: external", "measures: sideways"), "measures");
  expect_error(edit(kSidecar, "position: [0.05, 0, 0.02]", "position: [0.05, 0]"), "list of 3 numbers");
  expect_error(edit(kSidecar, "name: KNE", "name: imu"), "used twice");
  expect_error(edit(kSidecar, "robot: leg", "robto: leg"), "unknown key 'robto'");
  expect_error("base_link: [", "malformed YAML");
  expect_error(edit(kSidecar, "base_link: pelvis\n", ""), "missing 'base_link'");
  // Keys that are not names (a list, a mapping): yaml-cpp's conversion error, with the file and line.
  expect_error("base_link: pelvis\n? [a]\n: 1\n", "line 2: bad conversion");
  expect_error(edit(kSidecar, "{joint: knee,", "{? {x: 1} : 2, joint: knee,"), "bad conversion");
}

TEST(Sidecar, BundledRobotsHaveValidSidecars) {
  for (const std::string& stem : test::bundled_robots()) {
    const Robot robot = test::bundled_robot(stem);
    EXPECT_TRUE(robot.sidecar.has_value()) << stem;
  }
}

}  // namespace
}  // namespace dynid
