#include "dynid/sim/perturbations.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace dynid {
namespace {

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

std::vector<std::string> perturbation_names() {
  return {"inertia", "geometry", "joint-elasticity", "time", "markers", "force-plates", "imu", "ft", "sensor-bus"};
}

std::vector<std::string> parse_perturbations(const std::string& text) {
  if (text == "none") return {};
  if (text == "all") return perturbation_names();
  const std::vector<std::string> known = perturbation_names();
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string name;
  while (std::getline(in, name, ',')) {
    if (std::find(known.begin(), known.end(), name) != known.end()) {
      if (std::find(out.begin(), out.end(), name) != out.end())
        throw std::invalid_argument("--perturb lists '" + name + "' twice");
      out.push_back(name);
      continue;
    }
    throw std::invalid_argument("unknown --perturb '" + name +
                                "' (none, all, or a comma-separated list of: " + join(known) + ")");
  }
  if (out.empty()) throw std::invalid_argument("--perturb '" + text + "' names no perturbation (none, all, or a list)");
  // Application order is the documented one, whatever order the list gives.
  std::vector<std::string> ordered;
  for (const std::string& n : known)
    if (std::find(out.begin(), out.end(), n) != out.end()) ordered.push_back(n);
  return ordered;
}

std::string default_perturb_argument(const std::string& noise) { return noise == "none" ? "none" : "all"; }

bool perturbation_enabled(const std::vector<std::string>& enabled, const std::string& name) {
  return std::find(enabled.begin(), enabled.end(), name) != enabled.end();
}

}  // namespace dynid
