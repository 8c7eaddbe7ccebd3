#pragma once
// The contact states a data set goes through, from its `segments` (docs/data-format.md: each with
// its `support`, the feet on the ground), with the segments of each: what `dynid analyze sensors
// MODEL DATA` and `identify inertial --sensors` check a sensor set against (paper 004's rank
// condition must hold in every state the motion visits, ident/minimal_sensor_sets.hpp).

#include <vector>

#include "dynid/data/dataset_info.hpp"
#include "dynid/ident/minimal_sensor_sets.hpp"
#include "dynid/ident/motion_sample.hpp"

namespace dynid {

struct DataContactState {
  ContactState state;                 ///< its contacts and random configurations to check at
  std::vector<TimeSegment> segments;  ///< the data set's segments in this state, in recording order
};

/// One entry per contact state the data set visits, in order of first appearance: a `both` segment
/// or one without `support` has every sidecar contact on the ground; a `left` or `right` segment
/// that sole alone in its middle and every contact at its ends (as IdentificationRows::set_support
/// reads it), so it is listed under both states. A data set without segments gives one state, every contact, over "the
/// whole recording" (start = end = 0). Each state has `configurations` random configurations from
/// `seed` (every_contact_state).
std::vector<DataContactState> data_contact_states(const Model& model, const RobotSidecar& sidecar,
                                                  const DatasetInfo& data, int configurations = 3, unsigned seed = 1);

}  // namespace dynid
