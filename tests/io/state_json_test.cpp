// Robot state files of `dynid compute` (docs/cli.md): what a file sets lands in q, v, a; a
// malformed file is one error naming it.

#include "dynid/io/state_json.hpp"

#include <gtest/gtest.h>

#include "dynid/model/urdf_reader.hpp"

namespace dynid {
namespace {

const Model& kid() {
  static const Model model = read_urdf_file(std::string(DYNID_MODELS_DIR) + "/kid_humanoid.urdf");
  return model;
}

TEST(StateJson, TheDocumentedExampleSetsTheNamedJoints) {
  const RobotState s =
      read_state_json_file(kid(), std::string(DYNID_MODELS_DIR) + "/../docs/examples/kid_humanoid_state.json");
  const Body& knee = kid().bodies[static_cast<std::size_t>(*kid().find_joint("l_knee"))];
  EXPECT_EQ(s.q[knee.idx_q], 0.8);
  EXPECT_EQ(s.v[knee.idx_v], -2.0);
  EXPECT_EQ(s.a[knee.idx_v], -4.0);
  EXPECT_EQ(s.q[2], 0.32);  // base z
}

void expect_error(const std::string& json, const std::string& fragment) {
  try {
    read_state_json_string(kid(), json, "state.json");
    ADD_FAILURE() << "accepted " << json;
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("state.json: ", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(StateJson, MalformedFilesAreOneErrorNamingTheFile) {
  expect_error("{", "malformed JSON");
  // A number past double (found by fuzz/, tests/fixtures/fuzz/state_json/): nlohmann's out_of_range,
  // once let through without the file's name.
  expect_error(R"({"gravity": [0, 0, 1e999999]})", "malformed JSON");
  expect_error(R"({"joints": {"l_knee": {"q": "x"}}})", "joints.l_knee.q is not a number");
  expect_error(R"({"joints": {"no_such_joint": {"q": 1}}})", "joint 'no_such_joint'");
}

}  // namespace
}  // namespace dynid
