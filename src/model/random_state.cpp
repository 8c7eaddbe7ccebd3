#include "dynid/model/random_state.hpp"

#include <cmath>

#include "dynid/core/random_draws.hpp"

namespace dynid {

StateSample random_state(const Model& model, std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  StateSample s{model.neutral_configuration(), VectorX(model.nv), VectorX(model.nv)};
  for (std::size_t i = 1; i < model.bodies.size(); ++i) {
    const Body& b = model.bodies[i];
    if (b.joint_type == JointType::FreeFlyer) {
      s.q.segment<3>(b.idx_q) = draw_vector3(u, rng);
      s.q.segment<4>(b.idx_q + 3) = draw_vector4(u, rng).normalized();
    } else if (std::isfinite(b.limits.lower) && std::isfinite(b.limits.upper)) {
      s.q[b.idx_q] = b.limits.lower + 0.5 * (u(rng) + 1.0) * (b.limits.upper - b.limits.lower);
    } else {
      s.q[b.idx_q] = 3.0 * u(rng);
    }
  }
  for (int i = 0; i < model.nv; ++i) {
    s.v[i] = scale * u(rng);
    s.a[i] = scale * u(rng);
  }
  return s;
}

}  // namespace dynid
