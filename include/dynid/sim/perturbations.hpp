#pragma once
// The switchable imperfections of the simulated testbed (issue 19): `dynid simulate --perturb
// none|all|LIST`, listed with their magnitudes in dataset.json's `perturbations`
// (docs/scenarios.md). Built so far: `inertia` (sim/inertia_perturbation.hpp), `geometry`
// (sim/geometry_perturbation.hpp), `joint-elasticity` (sim/joint_elasticity_perturbation.hpp),
// `time` (sim/stream_clock_perturbation.hpp), `markers`, `force-plates`, `imu` and `ft`. The other
// error sources issue 19 names are refused as not yet built, by name, so a script written for
// them fails loudly instead of running without them. `simulate` and Python's simulate() switch
// them all on by default with realistic sensors (a user's lab and robot), off with `--noise none`.

#include <string>
#include <vector>

namespace dynid {

/// The perturbations `--perturb` accepts (built), in the order they are applied.
std::vector<std::string> perturbation_names();

/// "none" -> {}, "all" -> every built perturbation, else a comma-separated list of names (each
/// once). Throws with a one-line reason on an unknown or not-yet-built name.
std::vector<std::string> parse_perturbations(const std::string& text);

/// What `--perturb` means when it is not given: "all" with realistic sensor noise (`noise` ==
/// "realistic"), "none" with noise-free sensors ("none", the idealised testbed).
std::string default_perturb_argument(const std::string& noise);

/// Whether `name` is in `enabled`.
bool perturbation_enabled(const std::vector<std::string>& enabled, const std::string& name);

}  // namespace dynid
