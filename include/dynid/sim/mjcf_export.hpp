#pragma once
// dynid Model -> MuJoCo MJCF text. Bodies nest as in the tree with their joint placements, each
// body's inertial is the dynid body inertia (merged fixed links included), a floating base becomes
// a free joint. MuJoCo's dynamics are independent of dynid's, so a model exported here and
// simulated there is an external check of every algorithm.
//
// MuJoCo conventions differ from dynid's: free-joint qpos = [position, quaternion w x y z],
// qvel = [linear velocity in world, angular velocity in body]. mujoco_state.hpp converts.

#include <string>

#include "dynid/model/model.hpp"

namespace dynid {

struct MjcfOptions {
  double timestep = 0.001;   ///< [s]
  bool joint_limits = true;  ///< export joint ranges
};

std::string to_mjcf(const Model& model, const MjcfOptions& options = {});

}  // namespace dynid
