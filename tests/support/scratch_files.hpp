#pragma once
// Scratch directories and whole-file reads for tests that run scenarios and compare their output.

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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

/// Names of the files in directory `a` whose bytes differ from the file of the same name in `b`;
/// `compared` counts the files compared. summary.json is skipped: it holds the wall-clock
/// real-time factor.
inline std::vector<std::string> differing_files(const std::string& a, const std::string& b, int& compared) {
  std::vector<std::string> differ;
  compared = 0;
  for (const auto& entry : std::filesystem::directory_iterator(a)) {
    const std::string name = entry.path().filename().string();
    if (name == "summary.json") continue;
    if (read_file(entry.path().string()) != read_file(b + "/" + name)) differ.push_back(name);
    ++compared;
  }
  return differ;
}

}  // namespace dynid::test
