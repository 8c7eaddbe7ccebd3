// dynid.base_parameters, dynid.StreamingLeastSquares, dynid.fit_physically_consistent and
// dynid.project_sensors: include/dynid/ident's numerical methods.

#include <algorithm>
#include <cmath>

#include "convert.hpp"
#include "dynid/ident/base_parameters.hpp"
#include "dynid/ident/physical_consistency.hpp"
#include "dynid/ident/sensor_projection.hpp"
#include "dynid/ident/streaming_least_squares.hpp"

namespace dynid::python {

namespace {

/// Weights of `rows` rows, or none.
std::optional<VectorArg> weights_arg(py::handle weights, Eigen::Index rows) {
  if (weights.is_none()) return std::nullopt;
  return VectorArg(weights, "weights", rows, "one per row of A");
}

void add_rows(StreamingLeastSquares& self, py::handle A, py::handle b, py::handle weights, py::handle group) {
  int g = -1;
  Eigen::Index cols = self.num_parameters();
  if (!group.is_none()) {
    g = group.cast<int>();
    // The group's width is known only to the stream: it checks A's columns itself (std::invalid_argument).
    cols = -1;
  }
  const MatrixArg Aa(A, "A", -1, cols);
  const VectorArg ba(b, "b", Aa.map.rows(), "one per row of A");
  const std::optional<VectorArg> wa = weights_arg(weights, Aa.map.rows());
  if (g < 0) {
    if (wa)
      self.add(Aa.map, ba.map, wa->map);
    else
      self.add(Aa.map, ba.map);
  } else {
    if (wa)
      self.add(g, Aa.map, ba.map, wa->map);
    else
      self.add(g, Aa.map, ba.map);
  }
}

/// Names (or indices) in a list -> model frame indices; errors name the argument.
std::vector<int> frame_list(const Model& model, py::handle names, const char* arg) {
  if (py::isinstance<py::str>(names))
    throw py::type_error(std::string(arg) + ": expected a list of frame names, got a str");
  std::vector<int> out;
  for (py::handle h : py::iter(names)) {
    if (py::isinstance<py::str>(h)) {
      const std::string name = h.cast<std::string>();
      bool found = false;
      for (std::size_t f = 0; f < model.frames.size() && !found; ++f)
        if (model.frames[f].name == name) {
          out.push_back(static_cast<int>(f));
          found = true;
        }
      if (!found) throw py::value_error(std::string(arg) + ": no frame '" + name + "' in " + model.label());
    } else if (py::isinstance<py::int_>(h)) {
      const long k = h.cast<long>();
      if (k < 0 || k >= static_cast<long>(model.frames.size()))
        throw py::index_error(std::string(arg) + ": frame index " + std::to_string(k) + " is not in 0.." +
                              std::to_string(model.frames.size() - 1) + " (" + model.label() + ")");
      out.push_back(static_cast<int>(k));
    } else {
      throw py::type_error(std::string(arg) + ": expected frame names (str) or indices (int)");
    }
  }
  return out;
}

/// Joint names -> bodies of measured joint torques ("all": every joint but the floating base's).
std::vector<int> joint_list(const Model& model, py::handle names, const char* arg) {
  std::vector<int> out;
  if (py::isinstance<py::str>(names)) {
    if (names.cast<std::string>() != "all")
      throw py::value_error(std::string(arg) + ": 'all' or a list of joint names, not '" + names.cast<std::string>() +
                            "'");
    for (std::size_t b = 1; b < model.bodies.size(); ++b)
      if (model.bodies[b].joint_type != JointType::FreeFlyer) out.push_back(static_cast<int>(b));
    return out;
  }
  for (py::handle h : py::iter(names)) {
    if (!py::isinstance<py::str>(h)) throw py::type_error(std::string(arg) + ": expected joint names (str)");
    const std::string name = h.cast<std::string>();
    const std::optional<int> b = model.find_joint(name);
    if (!b || model.bodies[static_cast<std::size_t>(*b)].joint_type == JointType::FreeFlyer)
      throw py::value_error(std::string(arg) + ": '" + name + "' is not a joint with a torque of " + model.label());
    out.push_back(*b);
  }
  return out;
}

/// Entries of the stacked standard parameters kept at the prior (None: none), one bool per entry.
std::vector<bool> fixed_mask(py::handle fixed, Eigen::Index n) {
  std::vector<bool> out;
  if (fixed.is_none()) return out;
  if (py::isinstance<py::str>(fixed))
    throw py::type_error("fixed: expected one bool per standard parameter, got a str");
  for (py::handle h : py::iter(fixed)) {
    py::detail::make_caster<bool> flag;
    if (!flag.load(h, /*convert=*/false))  // True/False or numpy.bool_, nothing converted
      throw py::type_error("fixed: expected bools (True: kept at the prior's value)");
    out.push_back(py::detail::cast_op<bool>(flag));
  }
  if (static_cast<Eigen::Index>(out.size()) != n)
    throw py::value_error("fixed: expected " + std::to_string(n) + " values (one per entry of pi_prior), got " +
                          std::to_string(out.size()));
  return out;
}

}  // namespace

void bind_ident(py::module_& m) {
  py::class_<SensorProjection>(m, "SensorProjection",
                               R"(The projection of the equations of motion onto the null space of the
unmeasured force sources at one state (paper 004 eqs. 21-25, ident/sensor_projection.hpp).)")
      .def_readonly("projector", &SensorProjection::projector,
                    R"(V_x^T (r x nv): orthonormal rows with V_x^T A_x = 0, A_x the unmeasured sources' columns
(S^T e_j of unmeasured joint torques, J_c^T of unmeasured active contacts, J_c the contact frame's
Local Jacobian). Identity when every source is measured.)")
      .def_readonly("measured_map", &SensorProjection::measured_map,
                    "A_m (nv x measured scalars): columns S^T e_j and J_c^T, in measured_names order.")
      .def_readonly("measured_names", &SensorProjection::measured_names,
                    "'<joint>' for a joint torque, '<contact>.fx' .. '.tz' for a contact wrench (contact frame, "
                    "about its origin: N, N m).")
      .def_readonly("base_rank", &SensorProjection::base_rank,
                    "rank(S_b V_x): 6 is needed for a floating base (eq. 24); 6 for a fixed base.")
      .def_readonly("unmeasured_rank", &SensorProjection::unmeasured_rank, "rank(A_x).");

  m.def(
      "project_sensors",
      [](const ModelPtr& model, PyData& data, py::handle q, py::handle measured_joints, py::handle measured_contacts,
         py::handle active_contacts) {
        check_pair(model, data);
        const VectorArg qa = configuration_arg(*model, q);
        SensorSet set;
        set.label = "python";
        set.torque_joints = joint_list(*model, measured_joints, "measured_joints");
        set.contact_frames = frame_list(*model, measured_contacts, "measured_contacts");
        const std::vector<int> active = frame_list(*model, active_contacts, "active_contacts");
        for (int f : set.contact_frames)
          if (std::find(active.begin(), active.end(), f) == active.end())
            throw py::value_error("measured_contacts: '" + model->frames[static_cast<std::size_t>(f)].name +
                                  "' is not in active_contacts (a contact not in contact carries no force)");
        return project_sensors(*model, data.data, VectorX(qa.map), set, active);
      },
      py::arg("model"), py::arg("data"), py::arg("q"), py::kw_only(), py::arg("measured_joints"),
      py::arg("measured_contacts"), py::arg("active_contacts"),
      R"(Identification from any subset of joint-torque and contact-wrench sensors (paper 004, III-C):
Y pi = A_m f_m + A_x f_x projected with V_x^T (V_x^T A_x = 0) so the unmeasured forces drop out.

q: configuration (nq; base position [m] in world, quaternion x, y, z, w, joints [rad]).
measured_joints: joint names whose torque is measured, or "all" (every joint but the floating base).
measured_contacts: contact frame names (or indices) whose 6-D wrench is measured, in the contact
  frame about its origin; each must be active.
active_contacts: contact frame names (or indices) in contact at q; the others carry no force.
Returns a SensorProjection (projector V_x^T, measured_map A_m, measured_names, base_rank,
unmeasured_rank). Runs forward kinematics into data. Unknown names raise ValueError naming the
argument.)");

  py::class_<ConsistentFit>(m, "ConsistentFit", "fit_physically_consistent's result (ident/physical_consistency.hpp).")
      .def_readonly("pi", &ConsistentFit::pi,
                    "Stacked standard parameters (10 per body, model.parameter_names order), every body's "
                    "pseudo-inertia positive definite.")
      .def_readonly("converged", &ConsistentFit::converged)
      .def_readonly("iterations", &ConsistentFit::iterations, "Newton iterations over all barrier steps.")
      .def_readonly("data_cost", &ConsistentFit::data_cost, "||R K pi - z||^2 at the solution.")
      .def_readonly("prior_cost", &ConsistentFit::prior_cost, "The weighted pull toward the prior at the solution.");

  m.def(
      "fit_physically_consistent",
      [](py::handle R, py::handle z, py::handle K, py::handle pi_prior, double prior_weight, int max_iterations,
         double tolerance, py::handle fixed) {
        const MatrixArg Ra(R, "R");
        if (Ra.map.rows() != Ra.map.cols())
          throw py::value_error("R: expected a square factor (StreamingLeastSquares.information_factor()), got (" +
                                std::to_string(Ra.map.rows()) + ", " + std::to_string(Ra.map.cols()) + ")");
        const VectorArg za(z, "z", Ra.map.rows(), "one per row of R");
        const MatrixArg Ka(K, "K", Ra.map.cols(), -1);
        const VectorArg pa(pi_prior, "pi_prior", Ka.map.cols(), "one per column of K");
        if (pa.map.size() % 10 != 0)
          throw py::value_error("pi_prior: expected 10 values per body, got " + std::to_string(pa.map.size()));
        // 0 leaves the Newton steps singular in the directions the data do not see: the fit then stops
        // short of the optimum and still reports convergence (arm7, exact data: 4 % off), so refused.
        if (!(prior_weight > 0.0) || !std::isfinite(prior_weight))
          throw py::value_error(
              "prior_weight: must be positive and finite (it settles the directions the data "
              "do not see)");
        if (max_iterations <= 0) throw py::value_error("max_iterations: must be positive");
        if (!(tolerance > 0.0)) throw py::value_error("tolerance: must be positive");
        if (!Ra.map.allFinite()) throw py::value_error("R: not finite");
        if (!za.map.allFinite()) throw py::value_error("z: not finite");
        if (!Ka.map.allFinite()) throw py::value_error("K: not finite");
        if (!pa.map.allFinite()) throw py::value_error("pi_prior: not finite");
        ConsistentFitOptions o;
        o.prior_weight = prior_weight;
        o.max_iterations = max_iterations;
        o.tolerance = tolerance;
        o.fixed = fixed_mask(fixed, pa.map.size());
        const MatrixX Rm = Ra.map, Km = Ka.map;
        const VectorX zv = za.map, prior = pa.map;
        for (Eigen::Index b = 0; b < prior.size() / 10; ++b)
          if (Eigen::LLT<Matrix4>(Inertia::from_parameters(prior.segment<10>(10 * b)).pseudo_inertia()).info() !=
              Eigen::Success)
            throw py::value_error("pi_prior: body " + std::to_string(b) + " (entries " + std::to_string(10 * b) + ".." +
                                  std::to_string(10 * b + 9) +
                                  ") is not physically consistent (its pseudo-inertia is not positive definite)");
        py::gil_scoped_release release;
        return fit_physically_consistent(Rm, zv, Km, prior, o);
      },
      py::arg("R"), py::arg("z"), py::arg("K"), py::arg("pi_prior"), py::kw_only(), py::arg("prior_weight") = 1e-10,
      py::arg("max_iterations") = 200, py::arg("tolerance") = 1e-12, py::arg("fixed") = py::none(),
      R"(The physically consistent least-squares fit (paper 004 III-B; Wensing, Kim & Slotine 2017), what
`dynid identify inertial --consistent` runs (docs/identification.md, "Physically consistent estimate"):

  minimize ||R K pi - z||^2 + w ||S^-1 (pi - pi_prior)||^2
  subject to every body's pseudo-inertia J_b(pi) = [[tr(I)/2 1 - I, h], [h^T, m]] positive definite,

a convex problem (linear matrix inequalities) solved by a log-det barrier from the prior.

R, z: the least-squares factor of the base-parameter problem, ||A x - b||^2 = ||R x - z||^2 + const
  (StreamingLeastSquares.information_factor() and factor_rhs(), A the base regressor).
K: base parameters from standard ones (BaseParameters.K, num_base x num_standard).
pi_prior: stacked standard parameters (10 per body: m [kg], m c [kg m], I about the body origin
  xx, xy, yy, xz, yz, zz [kg m^2]; model.inertial_parameters), every body physically consistent.
prior_weight: w (> 0) relative to the data scale ||z||^2 per parameter, on parameters scaled per
  body (mass, mass x gyration radius, mass x gyration radius^2); settles the directions the data do
  not see at the prior, and biases the weakly seen ones by about that much.
max_iterations: Newton iterations per barrier step at most; tolerance: the barrier's duality-gap
  bound relative to the cost. fixed: one bool per entry of pi_prior, True = kept at the prior's value.
Returns a ConsistentFit (pi, converged, iterations, data_cost, prior_cost). Bad sizes or an
inconsistent prior raise ValueError naming the argument.)");

  m.def(
      "pseudo_inertia",
      [](py::handle parameters) {
        const VectorArg pa(parameters, "parameters", 10, "one body: m, m c, I xx, xy, yy, xz, yz, zz");
        return Matrix4(Inertia::from_parameters(pa.map).pseudo_inertia());
      },
      py::arg("parameters"),
      R"(One body's 4x4 pseudo-inertia [[tr(I)/2 1 - I, m c], [m c^T, m]] from its 10 inertial
parameters (m [kg], m c [kg m], I about the body origin xx, xy, yy, xz, yz, zz [kg m^2]); the body is
physically consistent iff it is positive definite (spatial/inertia.hpp).)");

  py::class_<BaseParameters>(m, "BaseParameters",
                             R"(Base (minimal) inertial parameters of a model for a set of equation rows
(ident/base_parameters.hpp): pi_base = K @ pi, Y @ pi = Y[:, independent] @ pi_base.)")
      .def_readonly("model_name", &BaseParameters::model_name)
      .def_readonly("rows", &BaseParameters::rows, "The equation rows used (indices into v).")
      .def_readonly("row_names", &BaseParameters::row_names)
      .def_readonly("rows_label", &BaseParameters::rows_label)
      .def_readonly("parameter_names", &BaseParameters::parameter_names, "Standard parameters (model.parameter_names).")
      .def_readonly("independent", &BaseParameters::independent,
                    "Standard parameter of each base parameter (ascending, model order).")
      .def_readonly("dependent", &BaseParameters::dependent, "Regrouped parameters: act only through base parameters.")
      .def_property_readonly(
          "unidentifiable",
          [](const BaseParameters& b) {
            std::vector<std::pair<std::string, std::string>> out;
            for (const auto& u : b.unidentifiable)
              out.emplace_back(b.parameter_names[static_cast<std::size_t>(u.parameter)], u.reason);
            return out;
          },
          "(parameter name, reason) of the parameters with an identically zero column.")
      .def_readonly("beta", &BaseParameters::beta,
                    "independent x dependent: Y[:, dependent] = Y[:, independent] @ beta.")
      .def_readonly("K", &BaseParameters::K, "num_base x num_standard: pi_base = K @ pi.")
      .def_readonly("num_samples", &BaseParameters::num_samples)
      .def_readonly("seed", &BaseParameters::seed)
      .def_readonly("rank_tolerance", &BaseParameters::rank_tolerance)
      .def_readonly("smallest_independent_distance", &BaseParameters::smallest_independent_distance)
      .def_readonly("largest_dependent_distance", &BaseParameters::largest_dependent_distance)
      .def_readonly("near_dependence_tolerance", &BaseParameters::near_dependence_tolerance)
      .def_property_readonly(
          "nearly_dependent",
          [](const BaseParameters& b) {
            std::vector<std::pair<std::string, double>> out;
            for (const auto& [parameter, distance] : b.nearly_dependent)
              out.emplace_back(b.parameter_names[static_cast<std::size_t>(parameter)], distance);
            return out;
          },
          "(parameter name, distance) of the regrouped parameters whose columns are only nearly dependent "
          "(joint axes a fraction of a degree from parallel).")
      .def_property_readonly("num_base", &BaseParameters::num_base)
      .def_property_readonly("num_standard", &BaseParameters::num_standard)
      .def_property_readonly(
          "names",
          [](const BaseParameters& b) {
            std::vector<std::string> out;
            for (int k = 0; k < b.num_base(); ++k) out.push_back(b.name(k));
            return out;
          },
          "Name of each base parameter: that of its own standard parameter.")
      .def(
          "expression",
          [](const BaseParameters& b, int k) {
            if (k < 0 || k >= b.num_base())
              throw py::index_error("k: " + std::to_string(k) + " is not in 0.." + std::to_string(b.num_base() - 1));
            return b.expression(k);
          },
          py::arg("k"), "Base parameter k as a readable sum: 'pelvis.m + l_hip_yaw_link.m + 0.05*l_thigh.mcz - ...'.")
      .def("report", &format_report,
           "Counts, each base parameter's grouping, the unidentifiable parameters, the margin.")
      .def(
          "regressor",
          [](const BaseParameters& b, py::handle Y) {
            const MatrixArg Ya(Y, "Y", -1, b.num_standard());
            return MatrixX(base_regressor(b, MatrixX(Ya.map)));
          },
          py::arg("Y"), "Y_base = Y[:, independent] for any regressor Y of the model.")
      .def(
          "values",
          [](const BaseParameters& b, py::handle pi) {
            const VectorArg pa(pi, "pi", b.num_standard(), "standard parameters");
            return base_parameter_values(b, pa.map);
          },
          py::arg("pi"), "pi_base = K @ pi for standard parameters pi.");

  m.def(
      "base_parameters",
      [](const ModelPtr& model, py::handle rows, int num_samples, std::uint32_t seed, double rank_tolerance,
         double near_dependence_tolerance) {
        BaseParameterOptions o;
        if (py::isinstance<py::str>(rows)) {
          const std::string r = rows.cast<std::string>();
          if (r == "base")
            o.rows = base_link_rows(*model);
          else if (r != "all")
            throw py::value_error("rows: 'all', 'base' or a list of velocity-coordinate names, not '" + r + "'");
        } else if (!rows.is_none()) {
          o.rows = equation_rows(*model, rows.cast<std::vector<std::string>>());
        }
        o.num_samples = num_samples;
        o.seed = seed;
        o.rank_tolerance = rank_tolerance;
        o.near_dependence_tolerance = near_dependence_tolerance;
        py::gil_scoped_release release;
        return compute_base_parameters(*model, o);
      },
      py::arg("model"), py::arg("rows") = "all", py::arg("num_samples") = 0, py::arg("seed") = 1,
      py::arg("rank_tolerance") = 1e-8, py::arg("near_dependence_tolerance") = 1e-3,
      R"(Base parameters of `model` for the selected equation rows (Gautier's numerical method at random
states; docs/base-parameters.md). rows: "all" (every equation), "base" (the 6 base-link equations:
identification from contact forces alone) or a list of velocity-coordinate names. num_samples: random
states stacked (0 = enough for 4 rows per standard parameter, at least 20). The result depends on the
kinematics and the rows only, never on the parameter values. near_dependence_tolerance: columns at most
this far from dependent (joint axes a fraction of a degree from parallel) are regrouped too, listed in
`nearly_dependent`; 0 regroups exact dependence only.)");

  py::class_<LeastSquaresSolution>(m, "LeastSquaresSolution")
      .def_readonly("x", &LeastSquaresSolution::x, "Estimate.")
      .def_readonly("standard_deviation", &LeastSquaresSolution::standard_deviation,
                    "sqrt(diag(cov)), cov = sigma^2 (A^T W A)^-1, sigma^2 = RSS / (m - p).")
      .def_readonly("residual_rms", &LeastSquaresSolution::residual_rms, "sqrt(RSS / m), weighted rows.")
      .def_readonly("condition_number", &LeastSquaresSolution::condition_number, "Of the weighted A.")
      .def_readonly("rows", &LeastSquaresSolution::rows);

  py::class_<StreamingLeastSquares>(
      m, "StreamingLeastSquares", R"(Least squares accumulated block by block, memory independent of the number of rows:
  minimize sum_k w_k (a_k x - b_k)^2
folded into the triangular factor R of [A | b] (ident/streaming_least_squares.hpp).)")
      .def(py::init([](int num_parameters, int block_rows) {
             if (num_parameters <= 0) throw py::value_error("num_parameters: must be positive");
             if (block_rows < 0) throw py::value_error("block_rows: must be >= 0");
             return StreamingLeastSquares(num_parameters, block_rows);
           }),
           py::arg("num_parameters"), py::arg("block_rows") = 0)
      .def("add", &add_rows, py::arg("A"), py::arg("b"), py::arg("weights") = py::none(), py::arg("group") = py::none(),
           R"(Adds rows A (m x p) and observations b (m), weights (m) optional (1 each). With group (an id from
add_column_group), A holds only that group's columns.)")
      .def("add_column_group", &StreamingLeastSquares::add_column_group, py::arg("columns"),
           "Declares rows that are zero outside `columns` (ascending, distinct); returns the group id for add().")
      .def(
          "merge",
          [](StreamingLeastSquares& self, const StreamingLeastSquares& other, double weight) {
            if (&self == &other) throw py::value_error("other: cannot merge a stream into itself");
            if (other.num_parameters() != self.num_parameters())
              throw py::value_error("other: has " + std::to_string(other.num_parameters()) + " parameters, this has " +
                                    std::to_string(self.num_parameters()));
            self.merge(other, weight);
          },
          py::arg("other"), py::arg("weight") = 1.0,
          "Adds everything `other` has accumulated (its weights times `weight`); `other` is unchanged.")
      .def_property_readonly("num_parameters", &StreamingLeastSquares::num_parameters)
      .def_property_readonly("rows", &StreamingLeastSquares::rows)
      .def("solve", &StreamingLeastSquares::solve, py::arg("names") = std::vector<std::string>{},
           py::arg("rank_tolerance") = 1e-10,
           "Solves; RuntimeError naming the unidentifiable directions when A^T W A is singular.")
      .def(
          "information_factor", [](StreamingLeastSquares& self) { return MatrixX(self.information_factor()); },
          "The p x p factor R with R^T R = A^T W A.")
      .def("factor_rhs", &StreamingLeastSquares::factor_rhs,
           "z with ||W^(1/2)(A x - b)||^2 = ||R x - z||^2 + residual_sum_of_squares() for every x.")
      .def("residual_sum_of_squares", &StreamingLeastSquares::residual_sum_of_squares);
}

}  // namespace dynid::python
