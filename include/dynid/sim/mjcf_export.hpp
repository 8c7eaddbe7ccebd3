#pragma once
// dynid Model -> MuJoCo MJCF text. Bodies nest as in the tree with their joint placements, each
// body's inertial is the dynid body inertia (merged fixed links included), a floating base becomes
// a free joint. MuJoCo's dynamics are independent of dynid's, so a model exported here and
// simulated there is an external check of every algorithm.
//
// MuJoCo conventions differ from dynid's: free-joint qpos = [position, quaternion w x y z],
// qvel = [linear velocity in world, angular velocity in body]. sim/simulation.hpp converts.

#include <string>
#include <vector>

#include "dynid/model/model.hpp"

namespace dynid {

/// Extra MJCF elements placed inside one body (contact geometry, sites).
struct MjcfBodyElement {
  int body = 0;     ///< dynid body index
  std::string xml;  ///< one or more elements, coordinates in the body frame
};

/// A joint MuJoCo does not get: its body is welded to its parent at `position` (rad or m), the
/// fixed joint motion baked into the body placement. Rigid, unlike a servo holding the joint.
struct MjcfWeld {
  int body = 0;           ///< dynid body index (a revolute or prismatic joint)
  double position = 0.0;  ///< joint value the body is welded at [rad or m]
};

struct MjcfOptions {
  double timestep = 0.001;   ///< [s]
  bool joint_limits = true;  ///< export joint ranges (MuJoCo then adds limit constraint forces)
  std::vector<MjcfBodyElement> body_elements;
  std::vector<double> armature;   ///< per dynid body: reflected rotor inertia of its joint [kg m^2]
  std::vector<double> damping;    ///< per dynid body: viscous joint damping [N m s/rad], implicit in MuJoCo
  std::vector<MjcfWeld> welds;    ///< joints exported as rigid (no <joint>, no armature/damping)
  std::string world_xml;          ///< extra elements inside <worldbody> (floor, force plates, ...)
  std::string extra_xml;          ///< extra top-level elements (<default>, <contact>, ...)
  std::string option_attributes;  ///< extra attributes of <option> (solver, friction cone, ...)
};

std::string to_mjcf(const Model& model, const MjcfOptions& options = {});

}  // namespace dynid
