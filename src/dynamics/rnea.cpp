#include "dynid/dynamics/rnea.hpp"

#include "dynid/dynamics/joint_motion.hpp"

namespace dynid {
namespace {

enum class Terms { All, NoAcceleration, GravityOnly };

template <Terms terms>
const VectorX& rnea_impl(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v,
                         const ConstVectorRef& a, const std::vector<Force>* f_ext_body) {
  const std::size_t nb = model.bodies.size();
  // Gravity as a fictitious upward acceleration of the universe (RBDA 5.3).
  data.a_gf[0] = Motion(-model.gravity, Vector3::Zero());
  for (std::size_t i = 1; i < nb; ++i) {
    const Body& b = model.bodies[i];
    const std::size_t p = static_cast<std::size_t>(b.parent);
    const SE3& X = data.liMi[i] = joint::transform(b, q);
    data.oMi[i] = data.oMi[p] * X;
    Motion acc = X.act_inv(data.a_gf[p]);
    if constexpr (terms != Terms::GravityOnly) {
      const Motion vJ = joint::motion(b, v);
      data.v[i] = X.act_inv(data.v[p]) + vJ;
      acc += data.v[i].cross(vJ);
    }
    if constexpr (terms == Terms::All) acc += joint::motion(b, a);
    data.a_gf[i] = acc;
    const Inertia& I = b.inertia;
    data.f[i] = I * acc;
    if constexpr (terms != Terms::GravityOnly) data.f[i] += data.v[i].cross(I * data.v[i]);
    if (f_ext_body) data.f[i] -= (*f_ext_body)[i];
  }
  for (std::size_t i = nb - 1; i >= 1; --i) {
    const Body& b = model.bodies[i];
    joint::project_force(b, data.f[i], data.tau);
    if (b.parent > 0) data.f[static_cast<std::size_t>(b.parent)] += data.liMi[i].act(data.f[i]);
  }
  return data.tau;
}

}  // namespace

const VectorX& rnea(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v,
                    const ConstVectorRef& a) {
  return rnea_impl<Terms::All>(model, data, q, v, a, nullptr);
}

const VectorX& rnea(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v,
                    const ConstVectorRef& a, const std::vector<Force>& f_ext_body) {
  return rnea_impl<Terms::All>(model, data, q, v, a, &f_ext_body);
}

const VectorX& nonlinear_effects(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v) {
  return rnea_impl<Terms::NoAcceleration>(model, data, q, v, v, nullptr);
}

const VectorX& generalized_gravity(const Model& model, Data& data, const ConstVectorRef& q) {
  return rnea_impl<Terms::GravityOnly>(model, data, q, q, q, nullptr);
}

}  // namespace dynid
