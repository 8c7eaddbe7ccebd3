#pragma once
// A command's output directory written as a whole. The command writes into a temporary sibling,
// `DIR.dynid-partial-PID`; commit() puts it in place of DIR in one rename (an atomic exchange with the
// previous output where the file system offers one), so a kill -9 at any moment leaves DIR holding
// either the previous complete output or nothing, never a mix of two runs. Inputs are never touched.

#include <string>

namespace dynid {

/// Suffix of the temporary siblings (`DIR` + suffix + pid): leftovers of a killed run carry it and
/// are removed by the next run into the same DIR.
inline constexpr const char* kPartialOutputSuffix = ".dynid-partial-";

class StagedDirectory {
 public:
  /// Prepares the staging directory beside `dir` for `command` (e.g. "identify inertial"). An
  /// existing DIR is replaced at commit only if it is empty or holds a previous output of the same
  /// command (its `.dynid-output` marker); anything else is refused here, before any work, so a user's
  /// own files or another command's output (a data set) are never deleted.
  StagedDirectory(const std::string& dir, const std::string& command);
  ~StagedDirectory();  ///< removes the staging directory unless committed
  StagedDirectory(const StagedDirectory&) = delete;
  StagedDirectory& operator=(const StagedDirectory&) = delete;

  /// Where the command writes its files.
  const std::string& path() const { return staging_; }
  /// Moves the finished output into place of DIR (the previous output, if any, is then removed).
  void commit();

 private:
  std::string final_, staging_, command_;
  bool committed_ = false;
};

}  // namespace dynid
