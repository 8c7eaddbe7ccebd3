#include "dynid/dynamics/rnea.hpp"

#include "dynid/dynamics/forward_recursion.hpp"

namespace dynid {
namespace {

enum class Terms { All, NoAcceleration, GravityOnly };

template <Terms terms>
const VectorX& rnea_impl(const Model& model, Data& data, const ConstVectorRef& q, const ConstVectorRef& v,
                         const ConstVectorRef& a, const std::vector<Force>* f_ext_body) {
  const std::size_t nb = model.bodies.size();
  // Gravity as a fictitious upward acceleration of the universe (RBDA 5.3).
  constexpr bool with_velocity = terms != Terms::GravityOnly;
  detail::forward_recursion<with_velocity, terms == Terms::All, true>(model, data, q, v, a, [&](std::size_t i) {
    const Inertia& I = model.bodies[i].inertia;
    data.f[i] = I * data.a_gf[i];
    if constexpr (with_velocity) data.f[i] += data.v[i].cross(I * data.v[i]);
    if (f_ext_body) data.f[i] -= (*f_ext_body)[i];
  });
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
