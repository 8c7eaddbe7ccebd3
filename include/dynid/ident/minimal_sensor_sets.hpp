#pragma once
// The smallest force-sensor sets that identify a floating-base robot (paper 004, IV-D).
//
// With the unmeasured force sources projected out (ident/sensor_projection.hpp), the base-link
// information survives iff rank(S_b V_x) = 6, i.e. iff no base wrench can be explained by the
// unmeasured forces: range(S_b^T) and range(A_x) meet only in 0. The unmeasured joint torques are
// unit columns, so they only delete their joints' rows; what is left is the unmeasured contacts'
// J_c^T on the base and the measured joints. The condition becomes
//   rank(J_m^T) = rank([J_b^T; J_m^T])
// for the stacked J_c^T of the unmeasured active contacts, J_b^T its base rows and J_m^T its rows
// of the joints whose torque is measured: the measured joint torques must pin down every unmeasured
// contact wrench. The search uses this (a few small ranks per subset); the result is checked with
// project_sensors in the tests.
//
// A set is valid for a contact state when the condition holds at every configuration given;
// adding sensors never breaks it, so a valid set is inclusion-minimal iff removing any one sensor
// breaks it. Sensors: each active contact's wrench (named by the sidecar contact, as `--sensors`
// takes it: its foot F/T) and each joint torque on a chain from the base to an active contact;
// sensors off those chains never matter.

#include <string>
#include <vector>

#include "dynid/model/model.hpp"
#include "dynid/model/sidecar.hpp"

namespace dynid {

/// A contact state and the configurations [nq] at which it must be identifiable.
struct ContactState {
  std::string label;          ///< "l_sole + r_sole", "no contact (flight)"
  std::vector<int> contacts;  ///< active sidecar contact frames (Model::frames index)
  std::vector<VectorX> configurations;
};

struct ContactStateSensors {
  std::string state;
  std::vector<std::string> contacts;                   ///< active contact names
  std::vector<std::vector<std::string>> minimal_sets;  ///< inclusion-minimal valid sets
  bool exact = true;  ///< every minimal set (exhaustive search); false: one, by greedy removal
};

struct MinimalSensorReport {
  std::vector<ContactStateSensors> states;
  /// A smallest set valid in every state at once (exact: of minimum size; greedy: inclusion-minimal).
  std::vector<std::string> union_set;
  bool union_exact = true;
};

struct MinimalSensorOptions {
  int exact_max_candidates = 18;  ///< exhaustive search up to this many candidate sensors
  double rank_tolerance = 1e-9;   ///< relative to the largest singular value
};

/// Every subset of the sidecar's contacts (flight, each single contact, ...), each at
/// `configurations` random states (generic: no straight knees) from `seed`.
std::vector<ContactState> every_contact_state(const Model& model, const RobotSidecar& sidecar, int configurations = 3,
                                              unsigned seed = 1);

/// The minimal sensor sets of each state and their union. Throws std::invalid_argument for a
/// fixed-base model (every joint torque is then needed) or a state with no configuration.
MinimalSensorReport minimal_sensor_sets(const Model& model, const std::vector<ContactState>& states,
                                        const MinimalSensorOptions& options = {});

/// Whether `sensors` (contact and joint names) keep rank(S_b V_x) = 6 in `state` at every configuration.
bool sensors_identify_base(const Model& model, const ContactState& state, const std::vector<std::string>& sensors,
                           double rank_tolerance = 1e-9);

/// Why each sensor of `sensors` is needed: for sensor i, the indices of the states in which
/// `sensors` keeps rank(S_b V_x) = 6 but loses it without sensor i. Empty for a sensor the set
/// could drop (none, for a set minimal_sensor_sets returns: it is inclusion-minimal).
std::vector<std::vector<std::size_t>> states_needing_each_sensor(const Model& model,
                                                                 const std::vector<ContactState>& states,
                                                                 const std::vector<std::string>& sensors,
                                                                 double rank_tolerance = 1e-9);

}  // namespace dynid
