#pragma once
// Recursive Newton-Euler inverse dynamics (Featherstone, RBDA ch. 5):
//   tau = M(q) a + C(q, v) v + g(q) - sum_k J_k^T f_ext_k
// For a floating base the first 6 entries are the wrench the base would need from its (virtual)
// free-flyer joint: [force; torque] in the base frame about the base origin. With all contact
// wrenches passed as f_ext they vanish for a consistent motion; otherwise they are the residual
// base wrench identification methods use (papers 000, 003).
// Real-time safe: no allocation. Results in data.tau; data.f holds the joint forces (body frame).

#include <vector>

#include "dynid/dynamics/kinematics.hpp"

namespace dynid {

/// Inverse dynamics. q (nq), v (nv), a (nv).
const VectorX& rnea(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v,
                    const ConstVectorRef& a);

/// Inverse dynamics with external wrenches: f_ext_body[i] acts on body i, expressed in body i's
/// frame about its origin (size = model.bodies.size(); entry 0 is ignored).
const VectorX& rnea(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v,
                    const ConstVectorRef& a, const std::vector<Force>& f_ext_body);

/// Coriolis, centrifugal and gravity terms C(q, v) v + g(q) (rnea with a = 0).
const VectorX& nonlinear_effects(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v);

/// Gravity terms g(q).
const VectorX& generalized_gravity(const Model& model, Data& data, const ConstVectorRef& q);

/// Expresses a wrench given in world axes about the world origin as a wrench on `body`, in the body
/// frame about its origin (the form rnea's f_ext_body takes). Call forward_kinematics first.
inline Force world_wrench_to_body(const Data& data, int body, const Force& wrench_world) {
  return data.oMi[static_cast<std::size_t>(body)].act_inv(wrench_world);
}

}  // namespace dynid
