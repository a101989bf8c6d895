// solve(): the search runs on a thread of its own while the calling thread, the GIL released,
// waits for it. Every 50 ms the caller takes the GIL to run Python's signal handlers (Ctrl+C:
// KeyboardInterrupt stops the search, which returns its best solution so far), to look at a
// stop object (anything with is_set(), e.g. threading.Event) and to hand progress reports to
// the Python callback, which therefore runs on the calling thread.

#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "bindings.hpp"
#include "routesolve/io/vroom_json.hpp"

namespace py = pybind11;

namespace routesolve::python {

namespace {

struct Shared {
  std::mutex mutex;
  std::condition_variable changed;
  bool done = false;
  std::optional<Progress> progress;  ///< the latest report not yet handed to Python
  std::exception_ptr error;
  std::string solution_json;
  std::string backend, fallback;
  std::uint64_t iterations = 0;
};

py::dict solve(const ProblemHandle& handle, const py::dict& options, const py::object& progress,
               const py::object& stop_object) {
  const capi::EmbedOptions embed = embed_options(options);
  SolveOptions solve_options = capi::solve_options(embed);
  const bool check = embed.check;
  std::atomic<bool> stop{false};
  solve_options.stop = &stop;
  auto shared = std::make_shared<Shared>();
  const bool report = !progress.is_none();
  if (report)
    solve_options.on_progress = [shared](const Progress& p) {
      const std::lock_guard lock(shared->mutex);
      shared->progress = p;
      shared->changed.notify_all();
    };

  const std::shared_ptr<const Problem> problem = handle.problem;
  std::thread worker([shared, problem, solve_options, check] {
    try {
      const Solution s = capi::solve_or_check(problem, solve_options, check);
      std::string json = io::vroom_solution_to_string(*problem, s);
      const std::lock_guard lock(shared->mutex);
      shared->solution_json = std::move(json);
      shared->backend = s.backend;
      shared->fallback = s.fallback;
      shared->iterations = s.iterations;
    } catch (...) {
      const std::lock_guard lock(shared->mutex);
      shared->error = std::current_exception();
    }
    const std::lock_guard lock(shared->mutex);
    shared->done = true;
    shared->changed.notify_all();
  });

  bool interrupted = false;
  std::optional<py::error_already_set> callback_error;
  {
    py::gil_scoped_release release;
    while (true) {
      std::optional<Progress> got;
      bool done = false;
      {
        std::unique_lock lock(shared->mutex);
        shared->changed.wait_for(lock, std::chrono::milliseconds(50),
                                 [&] { return shared->done || shared->progress.has_value(); });
        done = shared->done;
        got.swap(shared->progress);
      }
      if (done) break;
      py::gil_scoped_acquire acquire;
      if (!stop.load()) {
        if (PyErr_CheckSignals() != 0) {
          if (PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) {
            PyErr_Clear();
            interrupted = true;
            stop.store(true);
          } else {
            callback_error.emplace();  // another signal handler raised: stop, then re-raise
            stop.store(true);
          }
        }
      }
      try {
        if (!stop.load() && !stop_object.is_none() && py::cast<bool>(stop_object.attr("is_set")()))
          stop.store(true);
        if (got && report && !stop.load() && !callback_error) {
          const Progress& p = *got;
          progress(py::dict(
              py::arg("elapsed_s") = p.elapsed_s, py::arg("fraction") = p.fraction,
              py::arg("best_cost") = static_cast<double>(p.best_cost) / problem->cost_scale(),
              py::arg("routes") = p.best_routes, py::arg("unassigned") = p.unassigned));
        }
      } catch (py::error_already_set& e) {
        if (!callback_error) callback_error.emplace(std::move(e));
        stop.store(true);
      }
    }
    worker.join();
  }
  if (callback_error) throw std::move(*callback_error);
  if (shared->error) std::rethrow_exception(shared->error);
  py::dict out;
  out["solution_json"] = shared->solution_json;
  out["backend"] = shared->backend;
  out["fallback"] = shared->fallback;
  out["iterations"] = shared->iterations;
  out["interrupted"] = interrupted;
  out["stopped"] = stop.load();
  return out;
}

}  // namespace

void add_solve(py::module_& m) {
  m.def("solve", &solve, py::arg("problem"), py::arg("options"), py::arg("progress") = py::none(),
        py::arg("stop") = py::none(),
        "Solves a ProblemHandle; returns the VROOM solution JSON and how the solve ended.");
}

}  // namespace routesolve::python
