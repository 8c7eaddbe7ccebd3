// dynid.rnea, crba, center_of_mass, centroidal momentum, frame Jacobians and the regressors: the
// C++ functions of include/dynid/dynamics on a (Model, Data) pair, numpy in (viewed in place when
// float64 and contiguous) and numpy out (a copy of the Data member the function filled).

#include <random>

#include "convert.hpp"
#include "dynid/dynamics/center_of_mass.hpp"
#include "dynid/dynamics/centroidal.hpp"
#include "dynid/dynamics/crba.hpp"
#include "dynid/dynamics/jacobian.hpp"
#include "dynid/dynamics/regressor.hpp"
#include "dynid/dynamics/rnea.hpp"
#include "dynid/dynamics/static_regressor.hpp"
#include "dynid/model/random_state.hpp"

namespace dynid::python {

namespace {

int frame_arg(const Model& model, py::handle frame) {
  if (py::isinstance<py::str>(frame)) return model.frame_index(frame.cast<std::string>());
  if (py::isinstance<py::int_>(frame)) {
    const long k = frame.cast<long>();
    if (k < 0 || k >= static_cast<long>(model.frames.size()))
      throw py::index_error("frame: index " + std::to_string(k) + " is not in 0.." +
                            std::to_string(model.frames.size() - 1) + " (" + model.label() + ")");
    return static_cast<int>(k);
  }
  throw py::type_error("frame: expected a frame name (str) or index (int)");
}

ReferenceFrame reference_arg(const std::string& reference) {
  if (reference == "local") return ReferenceFrame::Local;
  if (reference == "local_world_aligned") return ReferenceFrame::LocalWorldAligned;
  if (reference == "world") return ReferenceFrame::World;
  throw py::value_error("reference: expected 'local', 'local_world_aligned' or 'world', got '" + reference + "'");
}

/// The (model, data, q, v, a) of the inverse-dynamics functions, checked.
struct StateArgs {
  StateArgs(const ModelPtr& model, const PyData& data, py::handle q_, py::handle v_, py::handle a_)
      : q((check_pair(model, data), configuration_arg(*model, q_))),
        v(tangent_arg(*model, v_, "v")),
        a(tangent_arg(*model, a_, "a")) {}
  VectorArg q, v, a;
};

py::array_t<double> homogeneous(const SE3& M) {
  Eigen::Matrix<double, 4, 4, Eigen::RowMajor> T = Eigen::Matrix<double, 4, 4, Eigen::RowMajor>::Identity();
  T.topLeftCorner<3, 3>() = M.rotation;
  T.topRightCorner<3, 1>() = M.translation;
  return py::cast(T);
}

}  // namespace

void bind_dynamics(py::module_& m) {
  m.def(
      "forward_kinematics",
      [](const ModelPtr& model, PyData& data, py::handle q, py::handle v, py::handle a) {
        check_pair(model, data);
        const VectorArg qa = configuration_arg(*model, q);
        if (v.is_none()) {
          if (!a.is_none()) throw py::value_error("a: given without v");
          forward_kinematics(*model, data.data, qa.map);
        } else if (a.is_none()) {
          forward_kinematics(*model, data.data, qa.map, tangent_arg(*model, v, "v").map);
        } else {
          forward_kinematics(*model, data.data, qa.map, tangent_arg(*model, v, "v").map,
                             tangent_arg(*model, a, "a").map);
        }
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v") = py::none(), py::arg("a") = py::none(),
      "Body poses (and with v, a: twists and spatial accelerations, body frame, without gravity) into data.");

  m.def(
      "frame_placement",
      [](const ModelPtr& model, PyData& data, py::handle q, py::handle frame) {
        check_pair(model, data);
        const int f = frame_arg(*model, frame);
        forward_kinematics(*model, data.data, configuration_arg(*model, q).map);
        return homogeneous(frame_placement(*model, data.data, f));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("frame"),
      "World pose of a frame (name or index) at q: the 4x4 homogeneous transform world <- frame.");

  m.def(
      "rnea",
      [](const ModelPtr& model, PyData& data, py::handle q, py::handle v, py::handle a, py::handle f_ext) {
        const StateArgs s(model, data, q, v, a);
        if (f_ext.is_none()) return to_numpy(rnea(*model, data.data, s.q.map, s.v.map, s.a.map));
        const MatrixArg fa(f_ext, "f_ext", static_cast<Eigen::Index>(model->bodies.size()), 6);
        std::vector<Force> forces(model->bodies.size());
        for (std::size_t i = 0; i < forces.size(); ++i)
          forces[i] = Force::from_vector(fa.map.row(static_cast<Eigen::Index>(i)).transpose());
        return to_numpy(rnea(*model, data.data, s.q.map, s.v.map, s.a.map, forces));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("a"), py::arg("f_ext") = py::none(),
      R"(Recursive Newton-Euler inverse dynamics (Featherstone, RBDA ch. 5):
  tau = M(q) a + C(q, v) v + g(q) - sum_k J_k^T f_ext_k
q (nq), v (nv), a (nv) as docs/conventions.md. For a floating base the first 6 entries are the wrench
the base would need from its (virtual) free-flyer joint: [force [N]; torque [N m]] in the base frame
about the base origin; the rest are joint torques [N m] (or forces [N]).
f_ext: optional (len(model.body_names) x 6) array, row i the wrench [force; torque] acting on body
i, expressed in body i's frame about its origin (row 0, the universe, is ignored).
Returns tau (a copy of data.tau).)");

  m.def(
      "nonlinear_effects",
      [](const ModelPtr& model, PyData& data, py::handle q, py::handle v) {
        check_pair(model, data);
        const VectorArg qa = configuration_arg(*model, q), va = tangent_arg(*model, v, "v");
        return to_numpy(nonlinear_effects(*model, data.data, qa.map, va.map));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"),
      "Coriolis, centrifugal and gravity terms C(q, v) v + g(q) (rnea with a = 0).");

  m.def(
      "generalized_gravity",
      [](const ModelPtr& model, PyData& data, py::handle q) {
        check_pair(model, data);
        return to_numpy(generalized_gravity(*model, data.data, configuration_arg(*model, q).map));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), "Gravity terms g(q).");

  m.def(
      "crba",
      [](const ModelPtr& model, PyData& data, py::handle q) {
        check_pair(model, data);
        return MatrixX(crba(*model, data.data, configuration_arg(*model, q).map));
      },
      py::arg("model"), py::arg("data"), py::arg("q"),
      R"(Composite rigid-body algorithm (RBDA 6.2): the joint-space inertia matrix M(q), nv x nv,
symmetric (both triangles filled), rows and columns in model.velocity_names order.)");

  const char* com_doc = R"(Centre of mass of the whole robot (universe-fixed links included) in world [m].
With v and a also data.com_velocity [m/s] and data.com_acceleration [m/s^2] (world). Sets data.mass.)";
  const auto com = [](const ModelPtr& model, PyData& data, py::handle q, py::handle v, py::handle a) {
    if (v.is_none() != a.is_none()) throw py::value_error("v, a: give both or neither");
    if (v.is_none()) {
      check_pair(model, data);
      return Vector3(center_of_mass(*model, data.data, configuration_arg(*model, q).map));
    }
    const StateArgs s(model, data, q, v, a);
    return Vector3(center_of_mass(*model, data.data, s.q.map, s.v.map, s.a.map));
  };
  for (const char* name : {"center_of_mass", "com"})
    m.def(name, com, py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v") = py::none(),
          py::arg("a") = py::none(), com_doc);

  m.def(
      "com_jacobian",
      [](const ModelPtr& model, PyData& data, py::handle q) {
        check_pair(model, data);
        forward_kinematics(*model, data.data, configuration_arg(*model, q).map);
        Eigen::Matrix<double, 3, Eigen::Dynamic> J(3, model->nv);
        com_jacobian(*model, data.data, J);
        return MatrixX(J);
      },
      py::arg("model"), py::arg("data"), py::arg("q"), "Jacobian of the COM (3 x nv, world axes): com_dot = J v.");

  m.def(
      "centroidal_momentum",
      [](const ModelPtr& model, PyData& data, py::handle q, py::handle v) {
        check_pair(model, data);
        const VectorArg qa = configuration_arg(*model, q), va = tangent_arg(*model, v, "v");
        return centroidal_momentum(*model, data.data, qa.map, va.map).to_vector();
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"),
      R"(Centroidal momentum (Orin & Goswami) h_G = [m com_dot [kg m/s]; angular momentum about the COM
[kg m^2/s]], world axes. Also sets data.com and data.com_velocity.)");

  m.def(
      "centroidal_momentum_rate",
      [](const ModelPtr& model, PyData& data, py::handle q, py::handle v, py::handle a) {
        const StateArgs s(model, data, q, v, a);
        centroidal_momentum_rate(*model, data.data, s.q.map, s.v.map, s.a.map);
        return data.data.centroidal_momentum_rate.to_vector();
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("a"),
      R"(dh_G/dt [N; N m], world axes: the sum of external wrenches about the COM plus gravity.
h_G itself lands in data.centroidal_momentum.)");

  m.def(
      "frame_jacobian",
      [](const ModelPtr& model, PyData& data, py::handle q, py::handle frame, const std::string& reference) {
        check_pair(model, data);
        const int f = frame_arg(*model, frame);
        const ReferenceFrame rf = reference_arg(reference);
        forward_kinematics(*model, data.data, configuration_arg(*model, q).map);
        Matrix6X J(6, model->nv);
        frame_jacobian(*model, data.data, f, rf, J);
        return MatrixX(J);
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("frame"), py::arg("reference") = "local",
      R"(Jacobian of a model frame (name or index) at q: the frame's twist is J v. 6 x nv, rows [linear; angular].
reference: "local" (the frame's own axes, velocity of its origin: body twist),
"local_world_aligned" (world axes, velocity of the frame origin: what contacts and markers use) or
"world" (world axes, velocity of the point at the world origin: spatial twist).)");

  m.def(
      "joint_torque_regressor",
      [](const ModelPtr& model, PyData& data, py::handle q, py::handle v, py::handle a) {
        const StateArgs s(model, data, q, v, a);
        return MatrixX(joint_torque_regressor(*model, data.data, s.q.map, s.v.map, s.a.map));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("a"),
      R"(Linear-in-parameters inverse dynamics: rnea(q, v, a) = Y(q, v, a) @ model.inertial_parameters.
Y is nv x (10 * num_moving_bodies), columns model.parameter_names (about each body frame's origin, in
body axes). For a floating base the first 6 rows are the base-link equations (wrench in the base
frame about its origin), which need no joint torques.)");

  m.def(
      "base_link_regressor",
      [](const ModelPtr& model, PyData& data, py::handle q, py::handle v, py::handle a) {
        const StateArgs s(model, data, q, v, a);
        return MatrixX(base_link_regressor(*model, data.data, s.q.map, s.v.map, s.a.map));
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("a"),
      R"(The 6 base-link rows of joint_torque_regressor (base wrench [force [N]; moment [N m]] in the base
frame about its origin), 6 x (10 * num_moving_bodies), cheaper: contact-force identification needs
only these rows (paper 003 eq. 4). ValueError for a fixed-base model.)");

  m.def(
      "static_regressor",
      [](const ModelPtr& model, PyData& data, py::handle q) {
        check_pair(model, data);
        return MatrixX(com_regressor(*model, data.data, configuration_arg(*model, q).map));
      },
      py::arg("model"), py::arg("data"), py::arg("q"),
      R"(Static (centre-of-mass) regressor (paper 000 eq. 2), 3 x (10 * num_moving_bodies):
total_mass * com_world = Y_com(q) @ model.inertial_parameters + (first moment of links fixed to the
universe) [kg m]. Only the m and m c columns are non-zero.)");

  m.def(
      "integrate",
      [](const ModelPtr& model, py::handle q, py::handle v) {
        const VectorArg qa = configuration_arg(*model, q), va = tangent_arg(*model, v, "v");
        VectorX out(model->nq);
        integrate(*model, qa.map, va.map, out);
        return out;
      },
      py::arg("model"), py::arg("q"), py::arg("v"),
      "q (+) v: the configuration reached from q after unit time at constant velocity v (base on SE(3)).");

  m.def(
      "random_state",
      [](const ModelPtr& model, std::uint32_t seed, double scale) {
        std::mt19937 rng(seed);
        StateSample s = random_state(*model, rng, scale);
        return py::make_tuple(s.q, s.v, s.a);
      },
      py::arg("model"), py::arg("seed") = 1, py::arg("scale") = 1.0,
      R"((q, v, a): q uniform within the joint limits (continuous joints in [-3, 3] rad, a uniformly random
base orientation and a position in [-1, 1]^3 m), every entry of v and a uniform in [-scale, scale].
Seeded (std::mt19937), so the same seed gives the same state as dynid's C++ random_state.)");
}

}  // namespace dynid::python
