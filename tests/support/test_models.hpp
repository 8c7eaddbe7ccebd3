#pragma once
// Shared test fixtures: random URDF trees, random states, bundled robots, MuJoCo loading.

#include <mujoco/mujoco.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "dynid/model/random_state.hpp"
#include "dynid/model/robot.hpp"

namespace dynid::test {

/// A random kinematic tree as URDF text: `num_links` links with mass, each attached to a random
/// earlier link by a revolute, continuous, prismatic or (some) fixed joint with random axis, origin
/// (xyz + rpy) and a physically consistent inertial with a rotated inertial frame. With
/// `principal_tensors` the <inertia> is diagonal (rotation only through the inertial rpy), which
/// MuJoCo's URDF importer takes without its own, looser, eigen-decomposition.
std::string random_tree_urdf(int num_links, unsigned seed, bool include_fixed = true, bool principal_tensors = false);

/// Random states come from the library (model/random_state.hpp) so tests and analyses sample alike.
using State = StateSample;
using dynid::random_state;

/// Stems of the bundled robots (models/*.urdf).
std::vector<std::string> bundled_robots();

/// Bundled robot by stem, with its sidecar.
Robot bundled_robot(const std::string& stem);

/// Relative difference ||a - b|| / max(1, ||b||) (the tests' scale-aware error).
double relative_error(const MatrixX& a, const MatrixX& b);

struct MjModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct MjDataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using MjModelPtr = std::unique_ptr<mjModel, MjModelDeleter>;
using MjDataPtr = std::unique_ptr<mjData, MjDataDeleter>;

/// Loads MJCF or URDF text with MuJoCo's own parser (through a temporary file); fails the test on error.
MjModelPtr load_mujoco(const std::string& xml, const std::string& suffix = ".xml");

/// Writes text to a fresh temporary file and returns its path.
std::string write_temp_file(const std::string& text, const std::string& suffix);

}  // namespace dynid::test
