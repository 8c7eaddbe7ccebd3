#pragma once
// A copy of a data set whose stream reads differently: miscalibrated or noisy sensors written into a
// noise-free recording, for tests of the calibration unknowns (--torque-offsets, --torque-gains) and
// of the sensor path's noise model.

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "support/scratch_files.hpp"

namespace dynid::test {

/// Copies data set `dir` to fresh_dir(suite, name) with `stream_file`'s channel k (0-based, after
/// the time column) replaced by reading(k, value).
inline std::string with_stream_readings(const std::string& dir, const std::string& stream_file,
                                        const std::string& suite, const std::string& name,
                                        const std::function<double(int, double)>& reading) {
  const std::string out = fresh_dir(suite, name);
  std::filesystem::create_directories(out);
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    std::filesystem::copy(entry.path(), out + "/" + entry.path().filename().string(),
                          std::filesystem::copy_options::recursive | std::filesystem::copy_options::overwrite_existing);
  std::istringstream in(read_file(dir + "/" + stream_file));
  std::ofstream csv(out + "/" + stream_file);
  std::string line;
  std::getline(in, line);
  csv << line << "\n";  // header
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string field;
    for (int c = 0; std::getline(fields, field, ','); ++c) {
      if (c == 0) {
        csv << field;
        continue;
      }
      char text[40];
      std::snprintf(text, sizeof text, "%.12g", reading(c - 1, std::stod(field)));
      csv << "," << text;
    }
    csv << "\n";
  }
  return out;
}

/// The same for the joint torque stream (torques.csv).
inline std::string with_torque_readings(const std::string& dir, const std::string& suite, const std::string& name,
                                        const std::function<double(int, double)>& reading) {
  return with_stream_readings(dir, "torques.csv", suite, name, reading);
}

}  // namespace dynid::test
