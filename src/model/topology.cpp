#include "dynid/model/topology.hpp"

namespace dynid {

bool supports(const Model& model, int ancestor, int body) {
  for (int j = body; j > 0; j = model.bodies[static_cast<std::size_t>(j)].parent)
    if (j == ancestor) return true;
  return false;
}

std::vector<bool> on_chains_to_root(const Model& model, const std::vector<int>& bodies) {
  std::vector<bool> on_chain(model.bodies.size(), false);
  for (const int b : bodies) for_each_support(model, b, [&](int j) { on_chain[static_cast<std::size_t>(j)] = true; });
  return on_chain;
}

}  // namespace dynid
