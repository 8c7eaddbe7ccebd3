#pragma once
// Topology queries on the kinematic tree (Pinocchio's `supports` / `subtrees`): which bodies lie on
// the chain from a body to the root. One walk up the `parent` indices, used by the Jacobians and
// regressors (hot paths: no allocation) and by everything that needs a robot's legs or a marker's
// chain.

#include <vector>

#include "dynid/model/model.hpp"

namespace dynid {

/// Calls fn(j) for `body` and each of its ancestors, from `body` up to the body just below the
/// universe (the universe, index 0, is never visited). Does not allocate.
template <typename Fn>
void for_each_support(const Model& model, int body, Fn&& fn) {
  for (int j = body; j > 0; j = model.bodies[static_cast<std::size_t>(j)].parent) fn(j);
}

/// Whether `ancestor` is `body` itself or lies on its chain to the root (its joint moves `body`).
bool supports(const Model& model, int ancestor, int body);

/// Per body (indexed as Model::bodies): whether it lies on the chain from one of `bodies` to the root.
std::vector<bool> on_chains_to_root(const Model& model, const std::vector<int>& bodies);

}  // namespace dynid
