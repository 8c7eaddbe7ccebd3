#include "dynid/core/staged_directory.hpp"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "dynid/core/atomic_file.hpp"

namespace dynid {

namespace fs = std::filesystem;

namespace {

constexpr const char* kMarker = ".dynid-output";  // names the command whose output the directory is
constexpr const char* kPreviousSuffix = ".dynid-previous-";

/// The pid at the end of a leftover's name, or 0.
pid_t leftover_pid(const std::string& name, const std::string& prefix) {
  if (name.rfind(prefix, 0) != 0) return 0;
  const std::string digits = name.substr(prefix.size());
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) return 0;
  return static_cast<pid_t>(std::stol(digits));
}

/// Removes the staging and previous-output leftovers of runs into `target` that were killed (their
/// process is gone); those of a run still going are left alone.
void remove_dead_leftovers(const fs::path& target) {
  const fs::path parent = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    const std::string name = entry.path().filename().string();
    for (const char* suffix : {kPartialOutputSuffix, kPreviousSuffix}) {
      const pid_t pid = leftover_pid(name, target.filename().string() + suffix);
      if (pid > 0 && pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH) fs::remove_all(entry.path(), ec);
    }
  }
}

std::string marker_of(const fs::path& dir) {
  std::ifstream in(dir / kMarker);
  if (!in) return "";
  std::string text((std::istreambuf_iterator<char>(in)), {});
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

}  // namespace

StagedDirectory::StagedDirectory(const std::string& dir, const std::string& command) : command_(command) {
  if (dir.empty()) throw std::invalid_argument("no output directory (--out)");
  fs::path target = fs::path(dir).lexically_normal();
  if (!target.has_filename()) target = target.parent_path();  // "out/" -> "out"
  if (target.empty() || target == "." || target == "..")
    throw std::invalid_argument(dir + ": name a directory of its own for the output (--out)");
  final_ = target.string();
  std::error_code ec;
  if (fs::exists(target, ec)) {
    if (!fs::is_directory(target, ec)) throw std::runtime_error(final_ + ": exists and is not a directory");
    if (!fs::is_empty(target, ec)) {
      const std::string previous = marker_of(target);
      if (previous.empty())
        throw std::runtime_error(final_ +
                                 ": exists and holds files dynid did not write (dynid replaces its output "
                                 "directory as a whole): choose another --out");
      if (previous != command_)
        throw std::runtime_error(final_ + ": holds the output of `dynid " + previous + "`; choose another --out");
    }
  }
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (ec) throw std::runtime_error(final_ + ": cannot create the parent directory (" + ec.message() + ")");
  remove_dead_leftovers(target);
  staging_ = final_ + kPartialOutputSuffix + std::to_string(::getpid());
  fs::remove_all(staging_, ec);
  if (!fs::create_directory(staging_, ec) || ec)
    throw std::runtime_error(final_ + ": cannot create " + staging_ + " (" + ec.message() + ")");
}

StagedDirectory::~StagedDirectory() {
  if (committed_) return;
  std::error_code ec;
  fs::remove_all(staging_, ec);
}

void StagedDirectory::commit() {
  if (committed_) return;
  write_file_atomically((fs::path(staging_) / kMarker).string(), command_ + "\n");
  std::error_code ec;
  if (!fs::exists(final_, ec)) {
    fs::rename(staging_, final_, ec);
    if (ec) throw std::runtime_error(final_ + ": cannot move the output into place (" + ec.message() + ")");
    committed_ = true;
    return;
  }
  // One atomic step: the new output takes DIR's name, the previous one the staging name.
  if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, final_.c_str(), RENAME_EXCHANGE) == 0) {
    committed_ = true;
    fs::remove_all(staging_, ec);
    return;
  }
  // A file system without the exchange: two renames; a kill between them leaves no DIR (never a mix)
  // and the previous output under DIR.dynid-previous-PID, removed by the next run.
  const std::string previous = final_ + kPreviousSuffix + std::to_string(::getpid());
  fs::rename(final_, previous, ec);
  if (ec) throw std::runtime_error(final_ + ": cannot move the previous output aside (" + ec.message() + ")");
  fs::rename(staging_, final_, ec);
  if (ec) throw std::runtime_error(final_ + ": cannot move the output into place (" + ec.message() + ")");
  committed_ = true;
  fs::remove_all(previous, ec);
}

}  // namespace dynid
