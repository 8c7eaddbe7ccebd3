// Outputs that survive a crash, inputs never modified: a `dynid identify inertial` killed with
// SIGKILL leaves the previous output intact (no partial directory under its name), the next run
// removes the killed run's clearly named leftover; read-only inputs are read, their bytes unchanged;
// an --out that holds something dynid did not write there (a data set) is refused, not replaced.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>

#include "run_dynid.hpp"

namespace {

namespace fs = std::filesystem;

std::string scratch(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("dynid_output_safety_" + std::to_string(::getpid())) / name;
  fs::remove_all(p);
  return p.string();
}

/// Every regular file under `dir` (relative path -> bytes).
std::map<std::string, std::string> contents(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) {
      std::ifstream in(e.path(), std::ios::binary);
      files[fs::relative(e.path(), dir).string()] = std::string(std::istreambuf_iterator<char>(in), {});
    }
  return files;
}

/// Starts dynid with `args` as a child process (output discarded); returns its pid.
pid_t start_dynid(const std::vector<std::string>& args) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setenv("DYNID_MODELS_DIR", DYNID_MODELS_DIR, 1);
    if (!std::freopen("/dev/null", "w", stdout) || !std::freopen("/dev/null", "w", stderr)) ::_exit(126);
    std::vector<char*> argv{const_cast<char*>(DYNID_EXE)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(DYNID_EXE, argv.data());
    ::_exit(127);
  }
  return pid;
}

/// Waits (up to 60 s) until `ready()` or the child exits; true when `ready()` came first.
template <class Ready>
bool wait_for(pid_t pid, Ready ready) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    if (ready()) return true;
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return false;
}

class OutputSafety : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    data_ = scratch("squat");
    ASSERT_EQ(run("simulate kid_humanoid --scenario squat --noise none --quiet --out " + data_).code, 0);
  }
  static std::string data_;
};
std::string OutputSafety::data_;

TEST_F(OutputSafety, AKilledIdentificationLeavesThePreviousOutputIntact) {
  const std::string out = scratch("id");
  const std::vector<std::string> args{"identify", "inertial", "kid_humanoid", data_,   "--sensors", "contact",
                                      "--source", "truth",    "--quiet",      "--out", out};
  std::string line;
  for (const std::string& a : args) line += (a == "identify" ? "" : " ") + a;
  ASSERT_EQ(run(line).code, 0);
  const auto previous = contents(out);
  ASSERT_TRUE(previous.count("summary.json") && previous.count("report.html"));

  // Killed twice: mid-computation (0.3 s after the staging directory appears) and as soon as the
  // first output file exists in it (mid-write). The second can finish before it is seen; the first
  // must be caught running.
  int killed = 0;
  for (const bool at_first_file : {false, true}) {
    const pid_t pid = start_dynid(args);
    const std::string partial = out + ".dynid-partial-" + std::to_string(pid);
    const bool running = wait_for(pid, [&] {
      if (!fs::exists(partial)) return false;
      if (!at_first_file) return true;
      return !fs::is_empty(partial);
    });
    bool was_killed = false;
    if (running) {
      if (!at_first_file) std::this_thread::sleep_for(std::chrono::milliseconds(300));
      ::kill(pid, SIGKILL);
      int status = 0;
      ::waitpid(pid, &status, 0);
      was_killed = WIFSIGNALED(status);
    }
    if (!at_first_file) {
      EXPECT_TRUE(was_killed) << "the run ended before it could be killed mid-computation";
    }
    killed += was_killed;
    // Killed: the previous complete output, byte for byte. Finished first: a new complete one.
    const auto now = contents(out);
    if (was_killed) {
      EXPECT_EQ(now, previous);
    } else {
      EXPECT_EQ(now.size(), previous.size());
    }
  }
  EXPECT_GE(killed, 1);

  // The leftover is clearly named beside the output; the next run removes it and completes.
  int leftovers = 0;
  for (const auto& e : fs::directory_iterator(fs::path(out).parent_path()))
    leftovers += e.path().filename().string().rfind("id.dynid-partial-", 0) == 0;
  EXPECT_GE(leftovers, 1);
  ASSERT_EQ(run(line).code, 0);
  for (const auto& e : fs::directory_iterator(fs::path(out).parent_path()))
    EXPECT_NE(e.path().filename().string().rfind("id.dynid-partial-", 0), 0u) << e.path();
  EXPECT_EQ(contents(out).size(), previous.size());
}

TEST_F(OutputSafety, ReadOnlyInputsAreReadAndLeftByteForByte) {
  const std::string data = scratch("read_only");
  fs::copy(data_, data, fs::copy_options::recursive);
  const auto before = contents(data);
  for (const auto& e : fs::recursive_directory_iterator(data))
    fs::permissions(e.path(), fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                    fs::perm_options::remove);
  fs::permissions(data, fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                  fs::perm_options::remove);
  const Result r =
      run("identify inertial kid_humanoid " + data + " --sensors contact --quiet --out " + scratch("from_read_only"));
  EXPECT_EQ(r.code, 0) << r.err;
  // An --out naming the data set itself is refused in one line; the data set is left as it was.
  const Result onto_input = run("identify inertial kid_humanoid " + data + " --sensors contact --quiet --out " + data);
  EXPECT_EQ(onto_input.code, 1);
  EXPECT_NE(onto_input.err.find("holds the output of `dynid simulate`; choose another --out"), std::string::npos)
      << onto_input.err;
  EXPECT_EQ(std::count(onto_input.err.begin(), onto_input.err.end(), '\n'), 1) << onto_input.err;
  fs::permissions(data, fs::perms::owner_write, fs::perm_options::add);
  for (const auto& e : fs::recursive_directory_iterator(data))
    fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add);
  EXPECT_EQ(contents(data), before);
}

}  // namespace
