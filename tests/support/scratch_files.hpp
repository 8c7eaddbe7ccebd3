#pragma once
// Scratch directories and whole-file reads for tests that run scenarios and compare their output.

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace dynid::test {

/// An empty directory `name` under the temporary directory of this test process (removed first;
/// not created: the code under test creates it).
inline std::string fresh_dir(const std::string& suite, const std::string& name) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("dynid_" + suite + "_" + std::to_string(::getpid())) / name;
  std::filesystem::remove_all(dir);
  return dir.string();
}

/// The bytes of a file ("" when it cannot be read).
inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace dynid::test
