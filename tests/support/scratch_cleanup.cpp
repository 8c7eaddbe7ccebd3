// Removes the scratch files a test program wrote under the system's temporary directory
// (`dynid_*_PID`, fresh_dir's and the CLI tests' naming) when every test it ran passed: CTest runs
// each test in its own process, and a CI machine's /tmp otherwise gains a directory per test and
// run. After a failure they stay, for a look at what the test wrote.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace {

class ScratchCleanup : public ::testing::Environment {
 public:
  void TearDown() override {
    if (!::testing::UnitTest::GetInstance()->Passed()) return;
    const std::string suffix = "_" + std::to_string(::getpid());
    std::error_code ec;
    const std::filesystem::path tmp = std::filesystem::temp_directory_path(ec);
    if (ec) return;
    for (const auto& entry : std::filesystem::directory_iterator(tmp, ec)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("dynid_", 0) == 0 && name.size() > suffix.size() &&
          name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
        std::filesystem::remove_all(entry.path(), ec);
    }
  }
};

// Registered before main runs (gtest_main calls RUN_ALL_TESTS, which owns and deletes it).
[[maybe_unused]] ::testing::Environment* const kScratchCleanup =
    ::testing::AddGlobalTestEnvironment(new ScratchCleanup);

}  // namespace
