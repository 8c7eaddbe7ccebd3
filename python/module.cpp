// The `dynid` Python module (docs/python.md): the argument checks every binding uses, Model and
// Data, `compute` (the `dynid compute` contract) and data-set reading. The dynamics, identification
// and pipeline functions are registered by bind_dynamics.cpp, bind_ident.cpp, bind_pipeline.cpp and
// bind_papers.cpp.

#include <optional>

#include "convert.hpp"
#include "dynid/data/dataset_info.hpp"
#include "dynid/dynamics/kinematics.hpp"
#include "dynid/io/csv_stream.hpp"
#include "dynid/model/mjcf_reader.hpp"
#include "dynid/model/robot.hpp"
#include "dynid/pipeline/dynamics_at_state.hpp"

namespace dynid::python {

py::array_t<double, py::array::c_style> real_array(py::handle obj, const char* name, int ndim) {
  using Array = py::array_t<double, py::array::c_style>;
  py::array arr;
  // The fast path: a float64 array in native byte order, aligned and C-contiguous is used as it is.
  // Checked on numpy's structs directly: py::isinstance<Array> makes a dtype object per call.
  const auto& api = py::detail::npy_api::get();
  if (api.PyArray_Check_(obj.ptr())) {
    const auto* proxy = py::detail::array_proxy(obj.ptr());
    const auto* descr = py::detail::array_descriptor_proxy(proxy->descr);
    constexpr int kFlags = py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_ | py::detail::npy_api::NPY_ARRAY_ALIGNED_;
    if (descr->type_num == py::detail::npy_api::NPY_DOUBLE_ && descr->byteorder != '>' &&
        (proxy->flags & kFlags) == kFlags && proxy->nd == ndim)
      return py::reinterpret_borrow<Array>(obj);
  }
  if (py::isinstance<Array>(obj)) {  // float64 C-contiguous already: used as it is
    Array same = py::reinterpret_borrow<Array>(obj);
    if (same.ndim() != ndim)
      throw py::value_error(std::string(name) + ": expected a " + std::to_string(ndim) + "-D array, got " +
                            std::to_string(same.ndim()) + "-D");
    return same;
  } else {
    if (obj.is_none()) throw py::type_error(std::string(name) + ": expected an array of real numbers, got None");
    try {
      arr = py::module_::import("numpy").attr("asarray")(obj);
    } catch (py::error_already_set& e) {
      throw py::type_error(std::string(name) + ": not an array of real numbers (" + e.what() + ")");
    }
    const py::dtype dt = arr.dtype();
    const char kind = dt.kind();
    if (!(kind == 'i' || kind == 'u' || (kind == 'f' && dt.itemsize() <= 8)))
      throw py::type_error(std::string(name) + ": expected real numbers (float64), got an array of dtype " +
                           py::str(py::handle(dt)).cast<std::string>());
  }
  if (arr.ndim() != ndim)
    throw py::value_error(std::string(name) + ": expected a " + std::to_string(ndim) + "-D array, got " +
                          std::to_string(arr.ndim()) + "-D");
  Array out = Array::ensure(arr);  // a copy only when not float64 C-contiguous already
  if (!out) throw py::type_error(std::string(name) + ": cannot be converted to float64");
  return out;
}

VectorArg::VectorArg(py::handle obj, const char* name, Eigen::Index expected, const char* what)
    : array(real_array(obj, name, 1)), map(array.data(), array.shape(0)) {
  if (expected >= 0 && map.size() != expected)
    throw py::value_error(std::string(name) + ": expected " + std::to_string(expected) + " values" +
                          (*what ? std::string(" (") + what + ")" : std::string()) + ", got " +
                          std::to_string(map.size()));
}

MatrixArg::MatrixArg(py::handle obj, const char* name, Eigen::Index rows, Eigen::Index cols)
    : array(real_array(obj, name, 2)), map(array.data(), array.shape(0), array.shape(1)) {
  if ((rows >= 0 && map.rows() != rows) || (cols >= 0 && map.cols() != cols))
    throw py::value_error(std::string(name) + ": expected shape (" + (rows >= 0 ? std::to_string(rows) : "any") + ", " +
                          (cols >= 0 ? std::to_string(cols) : "any") + "), got (" + std::to_string(map.rows()) + ", " +
                          std::to_string(map.cols()) + ")");
}

VectorArg configuration_arg(const Model& model, py::handle q, const char* name) {
  VectorArg arg(q, name, model.nq, "the model's nq");
  try {
    check_configuration(model, arg.map);
  } catch (const std::invalid_argument& e) {
    throw py::value_error(std::string(name) + ": " + e.what());
  }
  return arg;
}

VectorArg tangent_arg(const Model& model, py::handle x, const char* name) {
  VectorArg arg(x, name, model.nv, "the model's nv");
  try {
    check_tangent(model, arg.map, name);
  } catch (const std::invalid_argument& e) {
    throw py::value_error(e.what());
  }
  return arg;
}

void check_pair(const ModelPtr& model, const PyData& data) {
  if (!model) throw py::type_error("model: expected a dynid.Model, got None");
  if (data.model != model)
    throw py::value_error("data: made for another model (" + data.model->label() + "); use dynid.Data(model)");
}

py::array_t<double> to_numpy(const VectorX& x) {
  // numpy's own constructor: py::array_t(n) builds shape and stride vectors on the heap first.
  const auto& api = py::detail::npy_api::get();
  Py_intptr_t dims[1] = {static_cast<Py_intptr_t>(x.size())};
  PyObject* arr =
      api.PyArray_NewFromDescr_(api.PyArray_Type_, api.PyArray_DescrFromType_(py::detail::npy_api::NPY_DOUBLE_), 1,
                                dims, nullptr, nullptr, 0, nullptr);
  if (!arr) throw py::error_already_set();
  auto out = py::reinterpret_steal<py::array_t<double>>(arr);
  std::copy(x.data(), x.data() + x.size(), out.mutable_data());
  return out;
}

py::object json_loads(const std::string& text) { return py::module_::import("json").attr("loads")(text); }
std::string json_dumps(py::handle obj) { return py::str(py::module_::import("json").attr("dumps")(obj)); }

namespace {

std::string path_arg(py::handle obj, const char* name) {
  try {
    return py::str(py::module_::import("os").attr("fspath")(obj));
  } catch (py::error_already_set&) {
    throw py::type_error(std::string(name) + ": expected a path (str or os.PathLike)");
  }
}

/// floating_base=None | True | False (a py::object: GCC 12 warns on pybind11's optional<bool> caster).
UrdfReadOptions read_options(py::handle floating_base) {
  UrdfReadOptions o;
  if (!floating_base.is_none()) o.floating_base = floating_base.cast<bool>();
  return o;
}

py::dict quantity_dict(const QuantityTable& t) {
  py::dict d;
  d["rows"] = t.rows;
  d["cols"] = t.cols;
  d["values"] = RowMajorMatrix(t.values);
  return d;
}

}  // namespace

void bind_model(py::module_& m) {
  py::class_<Model, ModelPtr>(
      m, "Model", R"(The immutable description of a robot: a kinematic tree of rigid bodies, each attached to
its parent by one moving joint, plus named frames (docs/conventions.md).

- bodies[0] is the universe; a floating-base robot's base link is body 1 with a free-flyer joint.
- q = [base position in world [m], base quaternion (x, y, z, w), joint positions [rad] or [m]];
  v = [base linear velocity [m/s], base angular velocity [rad/s], both in the base frame, joint rates].
- Inertial parameters: 10 per moving body (parameter_names), about each body frame's origin, in
  body axes.

Make one with Model.load(name_or_path), Model.from_urdf(path) or Model.from_mjcf(path).)")
      .def_static(
          "load",
          [](py::handle path_or_name, py::handle floating_base) {
            std::string s = py::isinstance<py::str>(path_or_name) ? path_or_name.cast<std::string>()
                                                                  : path_arg(path_or_name, "path_or_name");
            return std::make_shared<Model>(load_robot(s, read_options(floating_base)).model);
          },
          py::arg("path_or_name"), py::arg("floating_base") = py::none(),
          R"(The robot as the command line names it: a URDF or MJCF path, or a bundled robot's name
("kid_humanoid", see Model.bundled_names()), with its sidecar (ROBOT.yaml beside the file) attached:
its IMU, F/T, contact and marker frames become model frames, its floating_base overrides the file's;
`floating_base` overrides both. Raises RuntimeError naming the file and the problem, or listing the
bundled robots when the name is neither a file nor one of them.)")
      .def_static(
          "from_urdf",
          [](py::handle path, py::handle floating_base) {
            return std::make_shared<Model>(read_urdf_file(path_arg(path, "path"), read_options(floating_base)));
          },
          py::arg("path"), py::arg("floating_base") = py::none(),
          R"(Reads a URDF file (no sidecar; Model.load attaches one). Fixed joints merge the child link
into its parent body (the link stays a named frame). Floating base unless the root link is "world"
or `floating_base` says otherwise. Raises RuntimeError naming the file and the problem.)")
      .def_static(
          "from_urdf_string",
          [](const std::string& xml, py::handle floating_base) {
            return std::make_shared<Model>(read_urdf_string(xml, "<string>", read_options(floating_base)));
          },
          py::arg("xml"), py::arg("floating_base") = py::none(), "Reads URDF text (see from_urdf).")
      .def_static(
          "from_mjcf",
          [](py::handle path, py::handle floating_base) {
            return std::make_shared<Model>(read_mjcf_file(path_arg(path, "path"), read_options(floating_base)).model);
          },
          py::arg("path"), py::arg("floating_base") = py::none(),
          R"(Reads an MJCF (MuJoCo XML) file through MuJoCo 2.2.2 (docs/mjcf.md): a free joint on a child
of the world is the floating base, hinge -> revolute, slide -> prismatic; q of a joint is MuJoCo's
qpos. Raises RuntimeError naming the file (and line) and the problem.)")
      .def_static("bundled_names", &bundled_robot_names, "Names of the bundled robots found.")
      .def(
          "copy", [](const Model& self) { return std::make_shared<Model>(self); }, "An independent copy.")
      .def("__copy__", [](const Model& self) { return std::make_shared<Model>(self); })
      .def("__deepcopy__", [](const Model& self, py::handle) { return std::make_shared<Model>(self); })
      .def_readonly("name", &Model::name)
      .def_readonly("nq", &Model::nq, "Size of q.")
      .def_readonly("nv", &Model::nv, "Size of v, a and tau.")
      .def_readonly("floating_base", &Model::floating_base)
      .def_readonly("source_path", &Model::source_path, "File the model was read from (empty if built in code).")
      .def_readonly("warnings", &Model::warnings, "Non-fatal findings of the reader (inconsistent inertias, ...).")
      .def_property_readonly("total_mass", &Model::total_mass, "Total mass [kg], universe-fixed links included.")
      .def_property_readonly("num_moving_bodies", &Model::num_moving_bodies,
                             "Bodies that carry a joint (10 inertial parameters each).")
      .def_property_readonly(
          "body_names",
          [](const Model& self) {
            std::vector<std::string> names;
            for (const Body& b : self.bodies) names.push_back(b.name);
            return names;
          },
          "Name of each body (its URDF link), index = body index; [0] is the universe.")
      .def_property_readonly(
          "joint_names",
          [](const Model& self) {
            std::vector<std::string> names;
            for (std::size_t i = 1; i < self.bodies.size(); ++i) names.push_back(self.bodies[i].joint_name);
            return names;
          },
          "Name of the joint of each moving body (bodies 1.., the floating base's 'root_joint' first).")
      .def_property_readonly(
          "frame_names",
          [](const Model& self) {
            std::vector<std::string> names;
            for (const Frame& f : self.frames) names.push_back(f.name);
            return names;
          },
          "Name of each frame (links, sidecar sensors, contacts, markers, MJCF sites), index = frame index.")
      .def_property_readonly("velocity_names", &Model::velocity_names,
                             "Names of the velocity coordinates (rows of tau, M and the regressors).")
      .def_property_readonly("configuration_names", &Model::configuration_names,
                             "Names of the configuration coordinates (entries of q).")
      .def_property_readonly("parameter_names", &Model::parameter_names,
                             "Names of the 10 inertial parameters of each moving body: '<body>.m', '<body>.mcx', ...")
      .def_property(
          "gravity", [](const Model& self) { return Vector3(self.gravity); },
          [](Model& self, py::handle g) { self.gravity = VectorArg(g, "gravity", 3).map; },
          "Gravity in world [m/s^2] (default [0, 0, -9.81]).")
      .def_property_readonly("inertial_parameters", &Model::inertial_parameters,
                             "Stacked inertial parameters of the moving bodies (10 per body, parameter_names order).")
      .def(
          "set_inertial_parameters",
          [](Model& self, py::handle pi) {
            const VectorArg arg(pi, "pi", 10 * self.num_moving_bodies(), "10 per moving body");
            self.set_inertial_parameters(arg.map);
          },
          py::arg("pi"), "Replaces the inertias of the moving bodies from a stacked parameter vector.")
      .def("neutral_configuration", &Model::neutral_configuration,
           "Base at the origin, identity orientation, joints at 0 (clamped into their limits).")
      .def("body_index", &Model::body_index, py::arg("name"), "Body of a link; ValueError when absent.")
      .def("frame_index", &Model::frame_index, py::arg("name"), "Frame index; ValueError when absent.")
      .def("joint_index", &Model::joint_index, py::arg("name"),
           "Body whose joint has this name; ValueError when absent.")
      .def("__repr__", [](const Model& self) {
        return "<dynid.Model '" + self.name + "': nq=" + std::to_string(self.nq) + ", nv=" + std::to_string(self.nv) +
               ", " + std::to_string(self.num_moving_bodies()) + " moving bodies, " +
               (self.floating_base ? "floating" : "fixed") + " base>";
      });

  py::class_<PyData, std::shared_ptr<PyData>>(
      m, "Data", R"(Workspace the algorithms fill, sized for one model (one per model and thread).
Every function taking (model, data) checks that data was made by Data(model).)")
      .def(py::init<ModelPtr>(), py::arg("model"))
      .def_readonly("model", &PyData::model)
      .def_property_readonly(
          "tau", [](const PyData& d) { return VectorX(d.data.tau); }, "Generalized forces (nv) from rnea.")
      .def_property_readonly(
          "M", [](const PyData& d) { return MatrixX(d.data.M); }, "Joint-space inertia matrix (nv x nv) from crba.")
      .def_property_readonly(
          "com", [](const PyData& d) { return Vector3(d.data.com); }, "Centre of mass in world [m].")
      .def_property_readonly(
          "com_velocity", [](const PyData& d) { return Vector3(d.data.com_velocity); }, "[m/s] in world.")
      .def_property_readonly(
          "com_acceleration", [](const PyData& d) { return Vector3(d.data.com_acceleration); }, "[m/s^2] in world.")
      .def_property_readonly(
          "mass", [](const PyData& d) { return d.data.mass; }, "Total mass [kg] (center_of_mass).")
      .def_property_readonly(
          "centroidal_momentum", [](const PyData& d) { return d.data.centroidal_momentum.to_vector(); },
          "[linear; angular] momentum about the COM, world axes.")
      .def_property_readonly(
          "centroidal_momentum_rate", [](const PyData& d) { return d.data.centroidal_momentum_rate.to_vector(); },
          "Time derivative of centroidal_momentum.");

  m.def(
      "compute",
      [](py::handle model, py::handle state, const std::string& quantity) {
        // As `dynid compute`: the model takes the state's gravity (on a copy: the caller's is unchanged).
        Model copy =
            py::isinstance<Model>(model) ? *model.cast<ModelPtr>() : load_robot(path_arg(model, "model")).model;
        const RobotState s = py::isinstance<py::dict>(state) ? read_state_json_string(copy, json_dumps(state), "state")
                                                             : read_state_json_file(copy, path_arg(state, "state"));
        return quantity_dict(compute_quantity(copy, s, quantity));
      },
      py::arg("model"), py::arg("state"), py::arg("quantity"),
      R"(One dynamics quantity at one state, as `dynid compute MODEL --state STATE.json --quantity Q --json`.

model: a dynid.Model, or a URDF/MJCF path or bundled robot name (as the command line takes it).
state: the path of a STATE.json (docs/cli.md) or the same content as a dict:
  {"base": {"position": [3], "orientation": [x, y, z, w], "velocity": [6], "acceleration": [6]},
   "joints": {"NAME": {"q": .., "v": .., "a": ..}}, "gravity": [3]}
  base velocity/acceleration are [linear; angular] in the base frame; what is not given is zero.
quantity: "rnea" | "regressor" | "com" | "mass-matrix".
Returns {"rows": [names], "cols": [names], "values": 2-D float64 array}; values.tolist() is the
command's JSON "values". Unknown joint names, wrong lengths and unknown quantities raise ValueError
or RuntimeError with the command's one-line message.)");

  py::class_<StreamInfo>(m, "StreamInfo", "A stream of a data set (dataset.json).")
      .def_readonly("file", &StreamInfo::file, "Absolute path of its CSV file.")
      .def_readonly("rate_hz", &StreamInfo::rate_hz)
      .def_readonly("noise_free", &StreamInfo::noise_free)
      .def("__repr__", [](const StreamInfo& s) { return "<dynid.StreamInfo " + s.file + ">"; });

  py::class_<CsvStream>(m, "Stream", R"(A CSV stream of a data set read back (docs/data-format.md): channel names and
their samples, SI units; NaN for empty fields.)")
      .def_readonly("path", &CsvStream::path)
      .def_property_readonly(
          "channels", [](const CsvStream& s) { return std::vector<std::string>(s.header.begin() + 1, s.header.end()); },
          "Channel names (without 'time'), the columns of values.")
      .def_property_readonly(
          "time", [](const CsvStream& s) { return VectorX(s.values.col(0)); }, "Sample times [s].")
      .def_property_readonly(
          "values", [](const CsvStream& s) { return RowMajorMatrix(s.values.rightCols(s.values.cols() - 1)); },
          "samples x channels.")
      .def(
          "column", [](const CsvStream& s, const std::string& name) { return VectorX(s.values.col(s.column(name))); },
          py::arg("name"), "One channel's samples; raises naming the file when absent.")
      .def("__getitem__",
           [](const CsvStream& s, const std::string& name) { return VectorX(s.values.col(s.column(name))); })
      .def("__len__", [](const CsvStream& s) { return s.values.rows(); });

  m.def(
      "read_stream", [](py::handle path) { return read_csv_stream(path_arg(path, "path")); }, py::arg("path"),
      "Reads a CSV stream; raises RuntimeError 'PATH: line N: reason' on malformed rows.");

  py::class_<DatasetInfo>(m, "Dataset", R"(What a data set directory holds, from its dataset.json (docs/data-format.md):
streams and their rates, gravity, force plates, labelled time segments, the nominal and (simulation
only) true model. read_stream(name) reads one stream.)")
      .def_readonly("directory", &DatasetInfo::directory)
      .def_readonly("robot", &DatasetInfo::robot)
      .def_readonly("model", &DatasetInfo::model, "Nominal URDF named by the data set (may be empty).")
      .def_readonly("truth_urdf", &DatasetInfo::truth_urdf, "truth.urdf (simulation only), else empty.")
      .def_readonly("scenario", &DatasetInfo::scenario)
      .def_property_readonly(
          "gravity", [](const DatasetInfo& d) { return Vector3(d.gravity); }, "World [m/s^2].")
      .def_readonly("streams", &DatasetInfo::streams)
      .def_property_readonly(
          "segments",
          [](const DatasetInfo& d) {
            py::list out;
            for (const TimeSegment& s : d.segments)
              out.append(py::dict(py::arg("label") = s.label, py::arg("category") = s.category,
                                  py::arg("start") = s.start, py::arg("end") = s.end, py::arg("support") = s.support));
            return out;
          },
          "Labelled time segments [s]: dicts label, category, start, end, support.")
      .def_property_readonly(
          "force_plates",
          [](const DatasetInfo& d) {
            py::list out;
            for (const ForcePlateInfo& p : d.force_plates)
              out.append(py::dict(py::arg("name") = p.name, py::arg("origin") = Vector3(p.origin),
                                  py::arg("corners") = MatrixX(p.corners)));
            return out;
          },
          "Force plates: dicts name, origin (top centre, world [m]), corners (3 x n, world [m]).")
      .def(
          "read_stream",
          [](const DatasetInfo& d, const std::string& name) { return read_csv_stream(d.stream(name).file); },
          py::arg("name"), "Reads the stream `name` (e.g. 'encoders', 'ft', 'imu', 'truth').");

  m.def(
      "read_dataset", [](py::handle path) { return read_dataset_info(path_arg(path, "path")); }, py::arg("path"),
      "Reads DIR/dataset.json (or the file itself); raises RuntimeError 'PATH: reason'.");
}

}  // namespace dynid::python

PYBIND11_MODULE(_dynid, m) {
  namespace dp = dynid::python;
  m.doc() = "dynid: identification and evaluation of the dynamic model of floating-base robots (docs/python.md).";
  m.attr("__version__") = DYNID_VERSION;
  dp::bind_model(m);
  dp::bind_dynamics(m);
  dp::bind_ident(m);
  dp::bind_pipeline(m);
  dp::bind_papers(m);
  dp::bind_izmp_study(m);
  dp::bind_static_stages(m);
  dp::bind_izmp_stages(m);
}
