// tests/fixtures/mocap/four_plates.c3d, the fixture of the command-line tests, is this test's
// synthetic C3D (Intel, integer storage; mocap_fixtures.hpp). The test fails if the file and the
// generator disagree; DYNID_WRITE_FIXTURES=1 rewrites the file:
//   DYNID_WRITE_FIXTURES=1 build/tests/dynid_tests --gtest_filter=C3dFixture.*

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "dynid/mocap/c3d_writer.hpp"
#include "mocap/mocap_fixtures.hpp"

namespace dynid {
namespace {

TEST(C3dFixture, CommittedFileMatchesTheGenerator) {
  const std::string path = std::string(DYNID_TEST_FIXTURES_DIR) + "/mocap/four_plates.c3d";
  const std::string bytes = c3d_bytes(testing::synthetic_c3d(C3dProcessor::Intel, false).file);
  if (const char* write = std::getenv("DYNID_WRITE_FIXTURES"); write && std::string(write) == "1")
    write_c3d_file(path, testing::synthetic_c3d(C3dProcessor::Intel, false).file);
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << path << " is missing; run with DYNID_WRITE_FIXTURES=1";
  std::ostringstream committed;
  committed << in.rdbuf();
  EXPECT_EQ(committed.str(), bytes) << path << " is stale; run with DYNID_WRITE_FIXTURES=1";
}

}  // namespace
}  // namespace dynid
