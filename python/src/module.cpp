// routesolve._core: the extension module behind the Python package `routesolve`. Travel
// matrices cross the boundary as Eigen row-major matrices: numpy arrays in C order and of the
// matching dtype are read in place (Eigen::Ref), and results are moved out to numpy uncopied.

#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <Eigen/Core>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/formats.hpp"
#include "routesolve/io/matrix_formats.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/validator.hpp"

namespace py = pybind11;

namespace routesolve::python {

namespace {

using IntMatrix = Eigen::Matrix<std::int64_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using IntMatrixRef = Eigen::Ref<const IntMatrix>;
using PointsRef = Eigen::Ref<const Eigen::Matrix<double, Eigen::Dynamic, 2, Eigen::RowMajor>>;

/// The Python exception classes, by error code (created in PYBIND11_MODULE).
std::map<ErrorCode, PyObject*>& exception_classes() {
  static std::map<ErrorCode, PyObject*> classes;
  return classes;
}

/// A square matrix from numpy (read in place; one copy into the problem's own storage).
Matrix to_matrix(const IntMatrixRef& m, const std::string& where) {
  if (m.rows() != m.cols())
    throw invalid_input(where, "expected a square matrix, got " + std::to_string(m.rows()) + "x" +
                                   std::to_string(m.cols()));
  const auto n = static_cast<std::size_t>(m.rows());
  std::vector<std::int64_t> data(m.data(), m.data() + n * n);
  return Matrix(n, std::move(data));
}

IntMatrix to_eigen(const Matrix& m) {
  const auto n = static_cast<Eigen::Index>(m.size());
  IntMatrix out(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) {
      const std::int64_t v = m(static_cast<std::size_t>(i), static_cast<std::size_t>(j));
      out(i, j) = v >= kUnreachable ? io::kJsonUnreachable : v;  // what the CLI and the C API write
    }
  return out;
}

ProblemHandle problem_from_json(const std::string& text, const std::string& source,
                                const py::dict& options) {
  const capi::EmbedOptions o = embed_options(options);
  py::gil_scoped_release release;
  return ProblemHandle{capi::problem_from_json(text, source, o)};
}

ProblemHandle problem_from_file(const std::string& path, const std::string& format,
                                const py::dict& options) {
  const capi::EmbedOptions o = embed_options(options);
  py::gil_scoped_release release;
  io::ReadOptions read;
  read.format = io::parse_input_format(format);
  return ProblemHandle{capi::problem_from_spec(io::read_problem(path, read), o)};
}

/// A problem whose matrices come from numpy: `text` is the VROOM document without matrices,
/// `matrices` maps a profile to (durations, distances or None, costs or None).
ProblemHandle problem_from_arrays(
    const std::string& text, const std::string& source,
    const std::map<std::string, std::tuple<IntMatrixRef, std::optional<IntMatrixRef>,
                                           std::optional<IntMatrixRef>>>& matrices,
    const py::dict& options) {
  const capi::EmbedOptions o = embed_options(options);
  ProblemSpec spec = io::parse_vroom_problem(text, source);
  for (const auto& [profile, m] : matrices) {
    const std::string where = "matrices." + profile;
    ProfileMatrices& pm = spec.matrices[profile];
    pm.durations = to_matrix(std::get<0>(m), where + ".durations");
    if (std::get<1>(m)) pm.distances = to_matrix(*std::get<1>(m), where + ".distances");
    if (std::get<2>(m)) pm.costs = to_matrix(*std::get<2>(m), where + ".costs");
    const std::size_t n = pm.durations.size();
    if ((!pm.distances.empty() && pm.distances.size() != n) || (pm.costs && pm.costs->size() != n))
      throw invalid_input(where, "durations, distances and costs must have the same size");
  }
  py::gil_scoped_release release;
  return ProblemHandle{capi::problem_from_spec(std::move(spec), o)};
}

py::dict validate_solution(const ProblemHandle& h, const std::string& solution_json) {
  std::string report;
  {
    py::gil_scoped_release release;
    const Solution s = io::parse_vroom_solution(solution_json, "solution", *h.problem);
    report = capi::report_to_json(validate(*h.problem, s));
  }
  return py::module_::import("json").attr("loads")(report);
}

py::tuple travel_matrices(const PointsRef& points, const py::dict& options) {
  const capi::EmbedOptions o = embed_options(options);
  std::vector<Coordinates> coords(static_cast<std::size_t>(points.rows()));
  for (Eigen::Index i = 0; i < points.rows(); ++i) {
    coords[static_cast<std::size_t>(i)] = {points(i, 0), points(i, 1)};
    if (points(i, 0) < -180 || points(i, 0) > 180 || points(i, 1) < -90 || points(i, 1) > 90)
      throw invalid_input("points[" + std::to_string(i) + "]",
                          "longitude or latitude out of range");
  }
  IntMatrix durations, distances;
  {
    py::gil_scoped_release release;
    const network::ProvidedMatrices m = capi::travel_matrices(coords, o);
    durations = to_eigen(m.durations);
    distances = to_eigen(m.distances);
  }
  // Moved into numpy arrays that own them: no copy.
  return py::make_tuple(py::cast(std::move(durations), py::return_value_policy::move),
                        py::cast(std::move(distances), py::return_value_policy::move));
}

}  // namespace

capi::EmbedOptions embed_options(const py::dict& options) {
  capi::EmbedOptions o;
  for (const auto& [key, value] : options) {
    const std::string k = py::cast<std::string>(key);
    if (value.is_none()) continue;
    if (k == "backend")
      o.backend = py::cast<std::string>(value);
    else if (k == "matrix_engine")
      o.matrix_engine = py::cast<std::string>(value);
    else if (k == "network")
      o.network = py::cast<std::string>(py::str(value));
    else if (k == "objective")
      o.objective = py::cast<std::string>(value);
    else if (k == "time_limit")
      o.time_limit_s = py::cast<double>(value);
    else if (k == "iterations")
      o.iterations = py::cast<std::uint64_t>(value);
    else if (k == "seed")
      o.seed = py::cast<std::uint64_t>(value);
    else if (k == "threads")
      o.threads = py::cast<unsigned>(value);
    else if (k == "chains")
      o.chains = py::cast<unsigned>(value);
    else if (k == "device")
      o.device = py::cast<int>(value);
    else if (k == "check")
      o.check = py::cast<bool>(value);
    else if (k == "timeline")
      o.timeline = py::cast<std::string>(value);
    else
      throw invalid_input(k, "unknown option");
  }
  return o;
}

}  // namespace routesolve::python

PYBIND11_MODULE(_core, m) {
  using namespace routesolve;
  using namespace routesolve::python;
  m.doc() = "routesolve's extension module; use the package routesolve.";
  m.attr("__version__") = ROUTESOLVE_VERSION_INFO;
  m.attr("UNREACHABLE") = io::kJsonUnreachable;  // a pair without a road path in matrix()

  // Error (RuntimeError) and one subclass per error code; InvalidInput is also a ValueError.
  PyObject* base = PyErr_NewExceptionWithDoc(
      "routesolve.Error",
      "A routesolve error: its message names the file or JSON path and the field.",
      PyExc_RuntimeError, nullptr);
  m.attr("Error") = py::handle(base);
  struct Kind {
    ErrorCode code;
    const char* name;
    PyObject* also;
  };
  const Kind kinds[] = {{ErrorCode::InvalidInput, "InvalidInput", PyExc_ValueError},
                        {ErrorCode::Infeasible, "Infeasible", nullptr},
                        {ErrorCode::OutOfMemory, "OutOfMemory", PyExc_MemoryError},
                        {ErrorCode::Device, "DeviceError", nullptr},
                        {ErrorCode::Unsupported, "Unsupported", nullptr},
                        {ErrorCode::Internal, "InternalError", nullptr}};
  for (const Kind& k : kinds) {
    py::tuple bases;
    if (k.also != nullptr)
      bases = py::make_tuple(py::handle(base), py::handle(k.also));
    else
      bases = py::make_tuple(py::handle(base));
    PyObject* cls =
        PyErr_NewException((std::string("routesolve.") + k.name).c_str(), bases.ptr(), nullptr);
    if (cls == nullptr) throw py::error_already_set();
    m.attr(k.name) = py::handle(cls);
    exception_classes()[k.code] = cls;
  }
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      PyErr_SetString(exception_classes().at(e.code()), e.what());
    }
  });

  py::class_<ProblemHandle>(m, "ProblemHandle",
                            "A validated, immutable problem (shared by solves).")
      .def_property_readonly("tasks",
                             [](const ProblemHandle& h) { return h.problem->tasks().size(); })
      .def_property_readonly("vehicles",
                             [](const ProblemHandle& h) { return h.problem->vehicles().size(); });

  m.def("problem_from_json", &problem_from_json, py::arg("text"), py::arg("source"),
        py::arg("options"));
  m.def("problem_from_file", &problem_from_file, py::arg("path"), py::arg("format"),
        py::arg("options"));
  m.def("problem_from_arrays", &problem_from_arrays, py::arg("text"), py::arg("source"),
        py::arg("matrices"), py::arg("options"));
  m.def("validate", &validate_solution, py::arg("problem"), py::arg("solution_json"));
  m.def("matrix", &travel_matrices, py::arg("points"), py::arg("options"));
  m.def(
      "network_build",
      [](const std::string& input, const std::string& output) {
        py::gil_scoped_release release;
        const capi::NetworkInfo i = capi::build_network_cache(input, output);
        return std::make_tuple(i.path, i.nodes, i.arcs, i.coordinates);
      },
      py::arg("input"), py::arg("output"));
  m.def(
      "network_load",
      [](const std::string& file) {
        py::gil_scoped_release release;
        const capi::NetworkInfo i = capi::load_network(file);
        return std::make_tuple(i.path, i.nodes, i.arcs, i.coordinates);
      },
      py::arg("file"));
  add_solve(m);
}
