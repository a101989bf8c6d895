#pragma once
// Shared by the translation units of routesolve._core.

#include <pybind11/pybind11.h>

#include <memory>

#include "routesolve/capi/embedding.hpp"
#include "routesolve/problem.hpp"

namespace routesolve::python {

/// A problem ready to solve, shared by every solve of it (Problem is immutable and thread-safe).
struct ProblemHandle {
  std::shared_ptr<const Problem> problem;
};

/// EmbedOptions from keyword values (backend, network, objective, ...).
capi::EmbedOptions embed_options(const pybind11::dict& options);

/// Registers solve() (the GIL released while the search runs; Ctrl+C stops it).
void add_solve(pybind11::module_& m);

}  // namespace routesolve::python
