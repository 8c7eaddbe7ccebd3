#pragma once
// The whole content of a file (private to src/mocap); the readers parse from memory.

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace dynid::mocap_detail {

/// Throws std::runtime_error "PATH: cannot open the file".
inline std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open the file");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

}  // namespace dynid::mocap_detail
