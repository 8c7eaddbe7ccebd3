#pragma once
// The forward pass every recursive algorithm starts with (RBDA 5.3): body poses, twists and spatial
// accelerations from the root outward. Kinematics, RNEA and the regressor differ only in what they
// do with each body afterwards (`per_body`), so they share this one loop. Real-time safe.
//
//   with_velocity:      propagate twists from v
//   with_acceleration:  add the joint accelerations a
//   with_gravity:       accelerate the universe by -g (into data.a_gf; otherwise data.a, from rest)

#include "dynid/dynamics/joint_motion.hpp"
#include "dynid/dynamics/kinematics.hpp"

namespace dynid::detail {

template <bool with_velocity, bool with_acceleration, bool with_gravity, typename PerBody>
inline void forward_recursion(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v,
                              const ConstVectorRef& a, PerBody&& per_body) {
  constexpr bool propagate_acceleration = with_gravity || with_acceleration;
  std::vector<Motion>& acc = with_gravity ? data.a_gf : data.a;
  if constexpr (propagate_acceleration)
    acc[0] = Motion(with_gravity ? Vector3(-model.gravity) : Vector3::Zero(), Vector3::Zero());
  const std::size_t nb = model.bodies.size();
  for (std::size_t i = 1; i < nb; ++i) {
    const Body& b = model.bodies[i];
    const std::size_t p = static_cast<std::size_t>(b.parent);
    const SE3& X = data.liMi[i] = joint::transform(b, q);
    data.oMi[i] = data.oMi[p] * X;
    if constexpr (propagate_acceleration) acc[i] = X.act_inv(acc[p]);
    if constexpr (with_velocity) {
      const Motion vJ = joint::motion(b, v);
      data.v[i] = X.act_inv(data.v[p]) + vJ;
      if constexpr (propagate_acceleration) acc[i] += data.v[i].cross(vJ);
    }
    if constexpr (with_acceleration) acc[i] += joint::motion(b, a);
    per_body(i);
  }
}

}  // namespace dynid::detail
