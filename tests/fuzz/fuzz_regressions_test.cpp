// The inputs the fuzz harnesses found (tests/fixtures/fuzz/HARNESS/, docs/reliability.md) read
// again by the same readers: each returns or gives one error naming the input. Run in the normal
// and the sanitizer build (scripts/test.sh --sanitize), so a finding that was a memory error is
// re-checked under ASan/UBSan too.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "fuzz/fuzz_readers.hpp"

namespace dynid {
namespace {

namespace fs = std::filesystem;

std::string bytes_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(FuzzRegressions, PastFindingsGiveAnErrorNamingTheInput) {
  const fs::path root = fs::path(DYNID_TEST_FIXTURES_DIR) / "fuzz";
  int inputs = 0;
  for (const std::string& name : fuzz::harness_names()) {
    if (!fs::is_directory(root / name)) continue;
    for (const auto& entry : fs::directory_iterator(root / name)) {
      EXPECT_EQ(fuzz::read_input(name, bytes_of(entry.path())), "") << entry.path();
      ++inputs;
    }
  }
  EXPECT_GE(inputs, 3);                                   // the findings of the first runs (docs/reliability.md)
  for (const auto& entry : fs::directory_iterator(root))  // every directory is a harness
    EXPECT_NO_THROW(fuzz::read_input(entry.path().filename().string(), "")) << entry.path();
}

// Errors of bad inputs keep the rule: one line naming the input.
TEST(FuzzRegressions, ErrorsOfBadInputsNameTheInput) {
  EXPECT_EQ(fuzz::read_input("state_json", R"({"gravity": 1})"), "");
  EXPECT_EQ(fuzz::read_input("trc", "PathFileType\t4\n"), "");
  EXPECT_EQ(fuzz::read_input("mjcf", "<mujoco><worldbody><body name=\"b\"><joint/>"), "");
  EXPECT_EQ(fuzz::read_input("mjcf",
                             "<mujoco><worldbody><body><inertial mass=\"-1\" pos=\"0 0 0\"/>"
                             "<joint/></body></worldbody></mujoco>"),
            "");
  EXPECT_EQ(fuzz::read_input("labels", "labels: 3\n"), "");
  EXPECT_EQ(fuzz::read_input("plate_layout", "plates: [{corners: [[0, 0]]}]\n"), "");
  EXPECT_THROW(fuzz::read_input("no_such_reader", ""), std::invalid_argument);
}

}  // namespace
}  // namespace dynid
