#include "dynid/mocap/mocap_recording.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <stdexcept>

#include "dynid/mocap/c3d_reader.hpp"
#include "dynid/mocap/trc_reader.hpp"

namespace dynid {

std::optional<Eigen::Index> MocapRecording::find_marker(const std::string& label) const {
  const auto it = std::find(marker_labels.begin(), marker_labels.end(), label);
  if (it == marker_labels.end()) return std::nullopt;
  return static_cast<Eigen::Index>(it - marker_labels.begin());
}

MocapFileType mocap_file_type(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (ext == ".c3d") return MocapFileType::C3d;
  if (ext == ".trc") return MocapFileType::Trc;
  throw std::runtime_error(path + ": unknown motion-capture file type (expected .c3d or .trc)");
}

MocapRecording read_mocap_file(const std::string& path) {
  return mocap_file_type(path) == MocapFileType::C3d ? read_c3d(path) : read_trc(path);
}

}  // namespace dynid
