#include "dynid/dynamics/centroidal.hpp"

namespace dynid {
namespace {

/// Sums body momenta (and optionally their rates) in world axes about the world origin, then moves
/// them to the COM. The rate of body i's momentum is I a + v x* I v in its frame (RBDA 2.74), so
/// the sum is the net external wrench without gravity.
template <bool with_rate>
void accumulate(const Model& model, Data& data) {
  double mass = 0.0;
  Vector3 mc = Vector3::Zero();
  Force h = Force::Zero(), hdot = Force::Zero();
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const Inertia& I = model.bodies[i].inertia;
    const SE3& oMi = data.oMi[i];
    mass += I.mass;
    mc += oMi.rotation * I.mc + I.mass * oMi.translation;
    if (i == 0) continue;
    const Force hi = I * data.v[i];
    h += oMi.act(hi);
    if constexpr (with_rate) hdot += oMi.act(I * data.a[i] + data.v[i].cross(hi));
  }
  data.mass = mass;
  data.com = mass > 0.0 ? Vector3(mc / mass) : Vector3::Zero();
  data.com_velocity = mass > 0.0 ? Vector3(h.linear / mass) : Vector3::Zero();
  // Shift from the world origin to the COM: n_G = n_O - c x f; the rate gains no c_dot x f term
  // because f = m c_dot is parallel to c_dot.
  data.centroidal_momentum = Force(h.linear, h.angular - data.com.cross(h.linear));
  if constexpr (with_rate) {
    data.com_acceleration = mass > 0.0 ? Vector3(hdot.linear / mass) : Vector3::Zero();
    data.centroidal_momentum_rate = Force(hdot.linear, hdot.angular - data.com.cross(hdot.linear));
  }
}

}  // namespace

const Force& centroidal_momentum(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v) {
  forward_kinematics(model, data, q, v);
  accumulate<false>(model, data);
  return data.centroidal_momentum;
}

const Force& centroidal_momentum_rate(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v,
                                      const ConstVectorRef& a) {
  forward_kinematics(model, data, q, v, a);
  accumulate<true>(model, data);
  return data.centroidal_momentum_rate;
}

}  // namespace dynid
