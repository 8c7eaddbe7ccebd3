// The minimal force-sensor sets (paper 004 IV-D), checked against the projection the
// identification itself uses (ident/sensor_projection.hpp): every returned set keeps
// rank(S_b V_x) = 6, every set with one sensor less loses it, and the greedy search agrees with
// the exhaustive one.

#include "dynid/ident/minimal_sensor_sets.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "dynid/ident/sensor_projection.hpp"
#include "support/test_models.hpp"

namespace dynid {
namespace {

/// rank(S_b V_x) = 6 at every configuration of the state, by the identification's projection.
bool projection_keeps_base(const Robot& robot, const ContactState& state, const std::vector<std::string>& sensors) {
  std::string spec;
  for (const std::string& n : sensors) spec += (spec.empty() ? "" : ",") + n;
  SensorSet set = spec.empty() ? SensorSet{} : parse_sensor_set(robot.model, *robot.sidecar, spec);
  Data data(robot.model);
  for (const VectorX& q : state.configurations)
    if (project_sensors(robot.model, data, q, set, state.contacts).base_rank < 6) return false;
  return true;
}

TEST(MinimalSensorSets, Biped16SetsAreValidAndMinimalByTheProjection) {
  const Robot robot = test::bundled_robot("biped16");
  const std::vector<ContactState> states = every_contact_state(robot.model, *robot.sidecar, 3, 7);
  ASSERT_EQ(states.size(), 4u);  // flight, left, right, both
  const MinimalSensorReport report = minimal_sensor_sets(robot.model, states);
  ASSERT_EQ(report.states.size(), states.size());
  for (std::size_t s = 0; s < states.size(); ++s) {
    const ContactStateSensors& r = report.states[s];
    EXPECT_TRUE(r.exact) << r.state;
    ASSERT_FALSE(r.minimal_sets.empty()) << r.state;
    for (const std::vector<std::string>& set : r.minimal_sets) {
      EXPECT_TRUE(projection_keeps_base(robot, states[s], set)) << r.state;
      EXPECT_TRUE(sensors_identify_base(robot.model, states[s], set)) << r.state;
      for (std::size_t drop = 0; drop < set.size(); ++drop) {
        std::vector<std::string> fewer = set;
        fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(drop));
        EXPECT_FALSE(projection_keeps_base(robot, states[s], fewer)) << r.state << " without " << set[drop];
      }
    }
  }
  // Flight: nothing to sense. One foot: its F/T, or six of the leg's seven joint torques (the
  // knee always among them). Both feet: the product, 7 x 7.
  EXPECT_EQ(report.states[0].minimal_sets, std::vector<std::vector<std::string>>{{}});
  EXPECT_EQ(report.states[1].minimal_sets.size(), 7u);
  EXPECT_EQ(report.states[1].minimal_sets.front(), std::vector<std::string>{report.states[1].contacts.front()});
  EXPECT_EQ(report.states[3].minimal_sets.size(), 49u);
  EXPECT_EQ(report.union_set.size(), 2u);  // both feet's F/T
  EXPECT_TRUE(report.union_exact);
}

TEST(MinimalSensorSets, EachSensorIsNeededWhereTheProjectionLosesTheBaseWithoutIt) {
  // Why a sensor is in a set: the states where the set keeps rank(S_b V_x) = 6 and the set without
  // it does not, checked with the identification's projection. A redundant sensor (the left knee
  // next to the left foot's F/T) is needed nowhere.
  const Robot robot = test::bundled_robot("biped16");
  const std::vector<ContactState> states = every_contact_state(robot.model, *robot.sidecar, 3, 5);
  const std::vector<std::vector<std::string>> sets = {
      {"l_foot_points", "r_foot_points", "l_knee"},
      {"r_foot_points", "l_hip_flexion", "l_hip_adduction", "l_hip_rotation", "l_knee", "l_ankle_rotation",
       "l_ankle_flexion"}};
  for (const std::vector<std::string>& set : sets) {
    const std::vector<std::vector<std::size_t>> needed = states_needing_each_sensor(robot.model, states, set);
    ASSERT_EQ(needed.size(), set.size());
    for (std::size_t i = 0; i < set.size(); ++i) {
      std::vector<std::string> fewer = set;
      fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(i));
      for (std::size_t s = 0; s < states.size(); ++s) {
        const bool expected =
            projection_keeps_base(robot, states[s], set) && !projection_keeps_base(robot, states[s], fewer);
        const bool listed = std::find(needed[i].begin(), needed[i].end(), s) != needed[i].end();
        EXPECT_EQ(listed, expected) << set[i] << " in " << states[s].label;
      }
    }
  }
  const std::vector<std::vector<std::size_t>> first = states_needing_each_sensor(robot.model, states, sets[0]);
  EXPECT_TRUE(first[2].empty());   // the knee
  EXPECT_EQ(first[0].size(), 2u);  // the left foot's F/T: left foot alone, both feet
  // The second set's six left joint torques also identify the left foot alone: its knee is needed
  // there and in double support.
  EXPECT_EQ(states_needing_each_sensor(robot.model, states, sets[1])[4].size(), 2u);
}

TEST(MinimalSensorSets, GreedySearchFindsOneOfTheExhaustiveSets) {
  for (const char* name : {"biped16", "kid_humanoid"}) {
    const Robot robot = test::bundled_robot(name);
    const std::vector<ContactState> states = every_contact_state(robot.model, *robot.sidecar, 2, 3);
    const MinimalSensorReport exact = minimal_sensor_sets(robot.model, states);
    MinimalSensorOptions greedy_only;
    greedy_only.exact_max_candidates = 0;
    const MinimalSensorReport greedy = minimal_sensor_sets(robot.model, states, greedy_only);
    for (std::size_t s = 0; s < states.size(); ++s) {
      if (states[s].contacts.empty()) continue;
      EXPECT_FALSE(greedy.states[s].exact);
      ASSERT_EQ(greedy.states[s].minimal_sets.size(), 1u) << name << " " << states[s].label;
      const auto& all = exact.states[s].minimal_sets;
      EXPECT_NE(std::find(all.begin(), all.end(), greedy.states[s].minimal_sets.front()), all.end())
          << name << " " << states[s].label;
    }
    EXPECT_FALSE(greedy.union_exact);
    EXPECT_GE(greedy.union_set.size(), exact.union_set.size()) << name;
  }
}

TEST(MinimalSensorSets, KidLegsOfSixJointsNeedEveryJointOrTheFootSensor) {
  const Robot robot = test::bundled_robot("kid_humanoid");
  const MinimalSensorReport report =
      minimal_sensor_sets(robot.model, every_contact_state(robot.model, *robot.sidecar, 3, 1));
  for (const ContactStateSensors& s : report.states) {
    if (s.contacts.size() != 1) continue;
    ASSERT_EQ(s.minimal_sets.size(), 2u) << s.state;
    EXPECT_EQ(s.minimal_sets[0], std::vector<std::string>{s.contacts.front()});
    EXPECT_EQ(s.minimal_sets[1].size(), 6u) << s.state;
  }
}

TEST(MinimalSensorSets, AFixedBaseIsRefused) {
  const Robot arm = test::bundled_robot("servo_bench");  // fixed to the bench
  ASSERT_FALSE(arm.model.floating_base);
  EXPECT_THROW(minimal_sensor_sets(arm.model, {}), std::invalid_argument);
}

}  // namespace
}  // namespace dynid
