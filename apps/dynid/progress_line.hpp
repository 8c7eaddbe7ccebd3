#pragma once
// Progress of long commands on stderr: a carriage-return line on a terminal; in logs and CI one
// line per 10 %, and one at least every 5 s of a stage that stays within its 10 % (a clock search's
// fits, a long recording's pass), so a log never goes quiet on long work.

#include <unistd.h>

#include <chrono>
#include <functional>
#include <iostream>
#include <string>

namespace dynid::cli {

inline std::function<void(double, const std::string&)> progress_line() {
  using Clock = std::chrono::steady_clock;
  return [last_decile = -1, last_line = Clock::now()](double fraction, const std::string& what) mutable {
    const int percent = static_cast<int>(100.0 * fraction);
    if (isatty(STDERR_FILENO)) {
      std::cerr << "\r[" << percent << " %] " << what << "        " << std::flush;
      if (percent >= 100) std::cerr << "\n";
    } else if (percent / 10 != last_decile || Clock::now() - last_line >= std::chrono::seconds(5)) {
      last_decile = percent / 10;
      last_line = Clock::now();
      std::cerr << "[" << percent << " %] " << what << "\n";
    }
  };
}

}  // namespace dynid::cli
