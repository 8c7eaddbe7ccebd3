#pragma once
// Runs the dynid tool as a user would (models from the source tree) and captures its exit code,
// stdout and stderr.

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

struct Result {
  int code;
  std::string out, err;
};

Result run(const std::string& args) {
  const std::string err_path = std::filesystem::temp_directory_path() / ("dynid_cli_err_" + std::to_string(::getpid()));
  const std::string cmd =
      std::string("DYNID_MODELS_DIR=") + DYNID_MODELS_DIR + " " + DYNID_EXE + " " + args + " 2>" + err_path;
  Result r{0, "", ""};
  FILE* pipe = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf{};
  while (std::size_t n = fread(buf.data(), 1, buf.size(), pipe)) r.out.append(buf.data(), n);
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream e(err_path);
  r.err.assign(std::istreambuf_iterator<char>(e), {});
  return r;
}

}  // namespace
