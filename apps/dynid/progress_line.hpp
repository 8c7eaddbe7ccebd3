#pragma once
// Progress of long commands on stderr: a carriage-return line on a terminal, one line per 10 % in
// logs and CI.

#include <unistd.h>

#include <functional>
#include <iostream>
#include <string>

namespace dynid::cli {

inline std::function<void(double, const std::string&)> progress_line() {
  return [last_decile = -1](double fraction, const std::string& what) mutable {
    const int percent = static_cast<int>(100.0 * fraction);
    if (isatty(STDERR_FILENO)) {
      std::cerr << "\r[" << percent << " %] " << what << "        " << std::flush;
      if (percent >= 100) std::cerr << "\n";
    } else if (percent / 10 != last_decile) {
      last_decile = percent / 10;
      std::cerr << "[" << percent << " %] " << what << "\n";
    }
  };
}

}  // namespace dynid::cli
