#include "dynid/data/contact_states.hpp"

#include <algorithm>
#include <stdexcept>

#include "dynid/dynamics/sole_contacts.hpp"

namespace dynid {

std::vector<DataContactState> data_contact_states(const Model& model, const RobotSidecar& sidecar,
                                                  const DatasetInfo& data, int configurations, unsigned seed) {
  std::vector<DataContactState> states;
  const std::vector<ContactState> every = every_contact_state(model, sidecar, configurations, seed);
  const auto add = [&](std::vector<int> contacts, const TimeSegment& segment) {
    std::sort(contacts.begin(), contacts.end());
    for (const ContactState& s : every) {
      std::vector<int> c = s.contacts;
      std::sort(c.begin(), c.end());
      if (c != contacts) continue;
      const auto known = std::find_if(states.begin(), states.end(),
                                      [&](const DataContactState& d) { return d.state.label == s.label; });
      if (known == states.end())
        states.push_back({s, {segment}});
      else
        known->segments.push_back(segment);
      return;
    }
    throw std::logic_error("data_contact_states: no contact state for segment '" + segment.label + "'");
  };
  std::vector<int> all;
  for (const ContactSurface& c : sidecar.contacts) all.push_back(model.frame_index(c.name));
  for (const TimeSegment& seg : data.segments) {
    if (seg.support == "left" || seg.support == "right") {
      const auto [left, right] = left_right_soles(model, sidecar);
      const int down = seg.support == "left" ? left : right;
      add({model.frame_index(sidecar.contacts[static_cast<std::size_t>(down)].name)}, seg);
    }
    add(all, seg);
  }
  if (states.empty()) add(all, TimeSegment{"the whole recording", "", 0.0, 0.0, ""});
  return states;
}

}  // namespace dynid
