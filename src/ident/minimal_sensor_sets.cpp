#include "dynid/ident/minimal_sensor_sets.hpp"

#include <Eigen/SVD>
#include <algorithm>
#include <bit>
#include <random>
#include <stdexcept>

#include "dynid/dynamics/data.hpp"
#include "dynid/dynamics/jacobian.hpp"
#include "dynid/dynamics/kinematics.hpp"
#include "dynid/model/random_state.hpp"

namespace dynid {
namespace {

/// One candidate sensor: a contact's wrench or a joint's torque.
struct Candidate {
  std::string name;
  int contact_frame = -1;   ///< for a contact wrench
  int velocity_index = -1;  ///< for a joint torque
};

/// A state's J_c^T (nv x 6) per active contact and configuration.
struct StateJacobians {
  std::vector<std::vector<MatrixX>> transposed;  ///< [configuration][active contact]
};

StateJacobians jacobians(const Model& model, const ContactState& state) {
  Data data(model);
  StateJacobians out;
  Matrix6X J(6, model.nv);
  for (const VectorX& q : state.configurations) {
    forward_kinematics(model, data, q);
    std::vector<MatrixX> per_contact;
    for (int f : state.contacts) {
      J.setZero();
      frame_jacobian(model, data, f, ReferenceFrame::Local, J);
      per_contact.push_back(J.transpose());
    }
    out.transposed.push_back(std::move(per_contact));
  }
  return out;
}

int rank_above(const MatrixX& M, double threshold) {
  if (M.size() == 0) return 0;
  const Eigen::JacobiSVD<MatrixX> svd(M);
  return static_cast<int>((svd.singularValues().array() > threshold).count());
}

/// The rank condition for the sensors in `mask` (bits over `candidates`) at every configuration.
bool valid(const Model& model, const ContactState& state, const StateJacobians& J,
           const std::vector<Candidate>& candidates, std::uint64_t mask, double tolerance) {
  std::vector<std::size_t> unmeasured;  // positions in state.contacts
  for (std::size_t a = 0; a < state.contacts.size(); ++a) {
    bool measured = false;
    for (std::size_t i = 0; i < candidates.size(); ++i)
      if ((mask >> i & 1U) && candidates[i].contact_frame == state.contacts[a]) measured = true;
    if (!measured) unmeasured.push_back(a);
  }
  if (unmeasured.empty()) return true;
  std::vector<int> rows;  // measured joint rows
  for (std::size_t i = 0; i < candidates.size(); ++i)
    if ((mask >> i & 1U) && candidates[i].velocity_index >= 0) rows.push_back(candidates[i].velocity_index);
  const int k = static_cast<int>(unmeasured.size());
  // Each unmeasured wrench has 6 components for the measured torques to pin down (a quick necessary
  // count before the ranks; two contacts on one body would need fewer, and the ranks decide then).
  const bool distinct_bodies = [&] {
    for (std::size_t a = 0; a < unmeasured.size(); ++a)
      for (std::size_t b = a + 1; b < unmeasured.size(); ++b)
        if (model.frames[static_cast<std::size_t>(state.contacts[unmeasured[a]])].body ==
            model.frames[static_cast<std::size_t>(state.contacts[unmeasured[b]])].body)
          return false;
    return true;
  }();
  if (distinct_bodies && static_cast<int>(rows.size()) < 6 * k) return false;
  for (const std::vector<MatrixX>& per_contact : J.transposed) {
    MatrixX full(6 + static_cast<Eigen::Index>(rows.size()), 6 * k);
    for (int c = 0; c < k; ++c) {
      const MatrixX& JT = per_contact[unmeasured[static_cast<std::size_t>(c)]];
      full.block(0, 6 * c, 6, 6) = JT.topRows(6);
      for (std::size_t r = 0; r < rows.size(); ++r)
        full.block(6 + static_cast<Eigen::Index>(r), 6 * c, 1, 6) = JT.row(rows[r]);
    }
    const Eigen::JacobiSVD<MatrixX> svd(full);
    const double threshold = tolerance * std::max(1.0, svd.singularValues()[0]);
    const int rank_full = static_cast<int>((svd.singularValues().array() > threshold).count());
    if (rank_above(full.bottomRows(static_cast<Eigen::Index>(rows.size())), threshold) != rank_full) return false;
  }
  return true;
}

std::vector<std::string> names_of(const std::vector<Candidate>& candidates, std::uint64_t mask) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < candidates.size(); ++i)
    if (mask >> i & 1U) names.push_back(candidates[i].name);
  return names;
}

/// Next mask with the same number of bits (Gosper's hack).
std::uint64_t next_combination(std::uint64_t x) {
  const std::uint64_t c = x & (~x + 1), r = x + c;
  return (((r ^ x) >> 2) / c) | r;
}

/// Calls visit(mask) for every subset of n bits by increasing size; visit returns false to stop.
template <class Visit>
void by_increasing_size(int n, Visit visit) {
  for (int size = 0; size <= n; ++size) {
    if (size == 0) {
      if (!visit(std::uint64_t{0})) return;
      continue;
    }
    for (std::uint64_t m = (std::uint64_t{1} << size) - 1; m < (std::uint64_t{1} << n); m = next_combination(m))
      if (!visit(m)) return;
  }
}

/// Greedy removal from the full set (joints last to first, then contacts): inclusion-minimal.
template <class Valid>
std::uint64_t greedy_minimal(int n, Valid is_valid) {
  std::uint64_t mask = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
  for (int i = n - 1; i >= 0; --i)
    if (is_valid(mask & ~(std::uint64_t{1} << i))) mask &= ~(std::uint64_t{1} << i);
  return mask;
}

}  // namespace

std::vector<ContactState> every_contact_state(const Model& model, const RobotSidecar& sidecar, int configurations,
                                              unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<VectorX> qs;
  for (int i = 0; i < configurations; ++i) qs.push_back(random_state(model, rng).q);
  const int n = static_cast<int>(sidecar.contacts.size());
  std::vector<ContactState> states;
  for (int mask = 0; mask < (1 << n); ++mask) {
    ContactState s;
    for (int c = 0; c < n; ++c)
      if (mask & (1 << c)) {
        s.contacts.push_back(model.frame_index(sidecar.contacts[static_cast<std::size_t>(c)].name));
        s.label += (s.label.empty() ? "" : " + ") + sidecar.contacts[static_cast<std::size_t>(c)].name;
      }
    if (s.label.empty()) s.label = "no contact (flight)";
    s.configurations = qs;
    states.push_back(std::move(s));
  }
  return states;
}

namespace {

/// The candidates of the given states: their contacts' wrenches, then the joints on their chains.
std::vector<Candidate> candidates_of(const Model& model, const std::vector<const ContactState*>& states) {
  std::vector<Candidate> contacts, joints;
  std::vector<int> joint_bodies;
  for (const ContactState* s : states)
    for (int f : s->contacts) {
      if (std::none_of(contacts.begin(), contacts.end(), [&](const Candidate& c) { return c.contact_frame == f; }))
        contacts.push_back({model.frames[static_cast<std::size_t>(f)].name, f, -1});
      for (int b = model.frames[static_cast<std::size_t>(f)].body; b > 0;
           b = model.bodies[static_cast<std::size_t>(b)].parent)
        if (model.bodies[static_cast<std::size_t>(b)].joint_type != JointType::FreeFlyer &&
            std::find(joint_bodies.begin(), joint_bodies.end(), b) == joint_bodies.end())
          joint_bodies.push_back(b);
    }
  std::sort(joint_bodies.begin(), joint_bodies.end());
  for (int b : joint_bodies)
    joints.push_back(
        {model.bodies[static_cast<std::size_t>(b)].joint_name, -1, model.bodies[static_cast<std::size_t>(b)].idx_v});
  contacts.insert(contacts.end(), joints.begin(), joints.end());
  return contacts;
}

}  // namespace

MinimalSensorReport minimal_sensor_sets(const Model& model, const std::vector<ContactState>& states,
                                        const MinimalSensorOptions& options) {
  if (!model.floating_base)
    throw std::invalid_argument(model.name + " has a fixed base: every joint torque sensor is needed");
  std::vector<StateJacobians> J;
  for (const ContactState& s : states) {
    if (s.configurations.empty())
      throw std::invalid_argument("contact state '" + s.label + "' has no configuration to check");
    J.push_back(jacobians(model, s));
  }
  MinimalSensorReport report;
  for (std::size_t si = 0; si < states.size(); ++si) {
    const ContactState& s = states[si];
    const std::vector<Candidate> candidates = candidates_of(model, {&s});
    const int n = static_cast<int>(candidates.size());
    if (n > 62) throw std::invalid_argument("contact state '" + s.label + "': more than 62 candidate sensors");
    const auto is_valid = [&](std::uint64_t m) {
      return valid(model, s, J[si], candidates, m, options.rank_tolerance);
    };
    ContactStateSensors out;
    out.state = s.label;
    for (int f : s.contacts) out.contacts.push_back(model.frames[static_cast<std::size_t>(f)].name);
    out.exact = n <= options.exact_max_candidates;
    if (out.exact) {
      std::vector<std::uint64_t> found;
      by_increasing_size(n, [&](std::uint64_t m) {
        for (std::uint64_t f : found)
          if ((m & f) == f) return true;  // a superset of a minimal set
        if (is_valid(m)) found.push_back(m);
        return true;
      });
      for (std::uint64_t m : found) out.minimal_sets.push_back(names_of(candidates, m));
    } else {
      const std::uint64_t all = (std::uint64_t{1} << n) - 1;
      if (is_valid(all)) out.minimal_sets.push_back(names_of(candidates, greedy_minimal(n, is_valid)));
    }
    report.states.push_back(std::move(out));
  }
  // One set for every state: candidates of all states, valid in each.
  std::vector<const ContactState*> all_states;
  for (const ContactState& s : states) all_states.push_back(&s);
  const std::vector<Candidate> candidates = candidates_of(model, all_states);
  const int n = static_cast<int>(candidates.size());
  if (n > 62) throw std::invalid_argument("more than 62 candidate sensors over the contact states");
  const auto valid_everywhere = [&](std::uint64_t m) {
    for (std::size_t si = 0; si < states.size(); ++si)
      if (!valid(model, states[si], J[si], candidates, m, options.rank_tolerance)) return false;
    return true;
  };
  report.union_exact = n <= options.exact_max_candidates;
  if (report.union_exact) {
    by_increasing_size(n, [&](std::uint64_t m) {
      if (!valid_everywhere(m)) return true;
      report.union_set = names_of(candidates, m);
      return false;
    });
  } else if (valid_everywhere((std::uint64_t{1} << n) - 1)) {
    report.union_set = names_of(candidates, greedy_minimal(n, valid_everywhere));
  }
  return report;
}

bool sensors_identify_base(const Model& model, const ContactState& state, const std::vector<std::string>& sensors,
                           double rank_tolerance) {
  const std::vector<Candidate> candidates = candidates_of(model, {&state});
  std::uint64_t mask = 0;
  for (std::size_t i = 0; i < candidates.size(); ++i)
    if (std::find(sensors.begin(), sensors.end(), candidates[i].name) != sensors.end()) mask |= std::uint64_t{1} << i;
  return valid(model, state, jacobians(model, state), candidates, mask, rank_tolerance);
}

std::vector<std::vector<std::size_t>> states_needing_each_sensor(const Model& model,
                                                                 const std::vector<ContactState>& states,
                                                                 const std::vector<std::string>& sensors,
                                                                 double rank_tolerance) {
  std::vector<std::vector<std::size_t>> needed(sensors.size());
  for (std::size_t s = 0; s < states.size(); ++s) {
    if (!sensors_identify_base(model, states[s], sensors, rank_tolerance)) continue;
    for (std::size_t i = 0; i < sensors.size(); ++i) {
      std::vector<std::string> fewer = sensors;
      fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(i));
      if (!sensors_identify_base(model, states[s], fewer, rank_tolerance)) needed[i].push_back(s);
    }
  }
  return needed;
}

}  // namespace dynid
