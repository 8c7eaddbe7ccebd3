#include "dynid/dynamics/inertial_reference_momentum.hpp"

#include "dynid/dynamics/centroidal.hpp"

namespace dynid {

Force momentum_about_world_origin(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v) {
  const Force& h_com = centroidal_momentum(model, data, q, v);
  // Moving the angular momentum from the COM to the world origin: L_O = L_G + c x P.
  return {h_com.linear, h_com.angular + data.com.cross(h_com.linear)};
}

Force wrench_from_momentum_difference(const Force& momentum_before, const Force& momentum_now, double dt, double mass,
                                      const Vector3& com, const Vector3& gravity) {
  const Vector3 weight = mass * gravity;
  return {(momentum_now.linear - momentum_before.linear) / dt - weight,
          (momentum_now.angular - momentum_before.angular) / dt - com.cross(weight)};
}

}  // namespace dynid
