#include "dynid/core/atomic_file.hpp"

#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>

namespace dynid {

namespace fs = std::filesystem;

void write_file_atomically(const std::string& path, const std::string& content) {
  const fs::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (ec) throw std::runtime_error(path + ": cannot create the directory (" + ec.message() + ")");
  std::random_device rd;
  const fs::path tmp = target.string() + ".tmp" + std::to_string(rd());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(path + ": cannot write (" + tmp.string() + ")");
    out << content;
    out.flush();
    if (!out) {
      out.close();
      fs::remove(tmp, ec);
      throw std::runtime_error(path + ": write failed (disk full?)");
    }
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw std::runtime_error(path + ": cannot replace the file (" + ec.message() + ")");
  }
}

}  // namespace dynid
