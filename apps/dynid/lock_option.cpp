// --lock JOINT=VALUE, shared by the commands that hold joints still (analyze base-parameters, excite).

#include <stdexcept>

#include "commands.hpp"

namespace dynid::cli {

/// "l_elbow=0.3" -> {l_elbow, 0.3}; the value in rad (m for a prismatic joint).
JointLock parse_lock(const std::string& text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw std::invalid_argument("--lock '" + text + "' is not JOINT=VALUE");
  const std::string value = text.substr(eq + 1);
  std::size_t used = 0;
  double position = 0.0;
  try {
    position = std::stod(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size()) throw std::invalid_argument("--lock '" + text + "': '" + value + "' is not a number");
  return {text.substr(0, eq), position};
}

}  // namespace dynid::cli
