#pragma once
// Outputs are written atomically: to a temporary file beside the target, then renamed over it, so a
// crash or a full disk never leaves a half-written result (and never touches an input).

#include <string>

namespace dynid {

/// Writes `content` to `path` atomically; creates missing parent directories. Throws on failure.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace dynid
