#pragma once
// What the binding files share: numpy arguments checked and named (size, dtype, dimensions) before
// any C++ algorithm sees them, the Data workspace tied to the Model it was made for, and the
// functions each file registers on the module.

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>

#include "dynid/dynamics/data.hpp"
#include "dynid/model/model.hpp"

#include "dynid/mocap/c3d_import.hpp"

namespace dynid::python {

namespace py = pybind11;

using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ModelPtr = std::shared_ptr<Model>;

/// A float64 C-contiguous array holding `obj`: the array itself when it already is one (no copy),
/// else a converted copy of any array or sequence of real numbers (ints, float32, ...). Throws
/// TypeError "NAME: ..." for other dtypes (complex, strings, objects, bool) and ValueError "NAME:
/// ..." for the wrong number of dimensions.
py::array_t<double, py::array::c_style> real_array(py::handle obj, const char* name, int ndim);

/// A vector argument viewed in place; `expected` >= 0 checks its length ("NAME: expected N values
/// (WHAT), got M").
struct VectorArg {
  py::array_t<double, py::array::c_style> array;
  Eigen::Map<const VectorX> map;
  VectorArg(py::handle obj, const char* name, Eigen::Index expected = -1, const char* what = "");
};

/// A matrix argument (rows x cols, -1 = any) viewed in place (row-major, as numpy lays it out).
struct MatrixArg {
  py::array_t<double, py::array::c_style> array;
  Eigen::Map<const RowMajorMatrix> map;
  MatrixArg(py::handle obj, const char* name, Eigen::Index rows = -1, Eigen::Index cols = -1);
};

/// q checked as dynid::check_configuration does (size nq, finite, unit base quaternion), its error
/// prefixed with the argument name.
VectorArg configuration_arg(const Model& model, py::handle q, const char* name = "q");
/// v or a checked as dynid::check_tangent does (size nv, finite).
VectorArg tangent_arg(const Model& model, py::handle x, const char* name);

/// A Data workspace and the Model it was sized for: every function taking (model, data) checks they
/// belong together, so a Data of another robot is an error rather than a write out of bounds.
struct PyData {
  explicit PyData(ModelPtr m) : model(std::move(m)), data(*model) {}
  ModelPtr model;
  Data data;
};
/// Throws ValueError unless `data` was made by Data(model).
void check_pair(const ModelPtr& model, const PyData& data);

/// A new numpy array holding a copy of x (cheaper than returning the VectorX, for the hot calls).
py::array_t<double> to_numpy(const VectorX& x);

/// Python's json.loads / json.dumps.
py::object json_loads(const std::string& text);
std::string json_dumps(py::handle obj);

/// A TRC trial's force plates (identify_static / identify_inertial's plates, plate_layout,
/// plates_unit, up), checked as the command's --plates, --plate-layout, --plates-unit, --up are.
C3dImportOptions trial_plate_options(const std::vector<std::string>& plates, const std::string& plate_layout,
                                     const std::string& plates_unit, const std::string& up);

/// `message` with the command's plate options (--plates, ...) named by these keywords (plates, ...).
std::string in_python_terms(std::string message);

void bind_model(py::module_& m);
void bind_dynamics(py::module_& m);
void bind_ident(py::module_& m);
void bind_pipeline(py::module_& m);
void bind_papers(py::module_& m);
void bind_izmp_study(py::module_& m);
void bind_static_stages(py::module_& m);
void bind_izmp_stages(py::module_& m);

}  // namespace dynid::python
