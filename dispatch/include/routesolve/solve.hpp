#pragma once
// The fleet-routing API: solve(problem, options) through one of the backends.

#include <memory>

#include "routesolve/backend.hpp"

namespace routesolve {

/// The backend `kind` resolves to on this machine. Throws Error(Device) for Cuda without a
/// device; Auto falls back to the CPU backend.
std::unique_ptr<Backend> make_backend(BackendKind kind);

/// Solves a problem with the backend the options ask for. With on_checkpoint or resume, Auto
/// means the CPU backend and the others throw Error(Unsupported); a resume state that does not
/// belong to the problem throws Error(InvalidInput) naming its source.
/// Given steps (`VehicleSpec::steps`) are a starting solution after each vehicle's fixed prefix
/// (routesolve/fixed_steps.hpp); invalid ones throw Error(InvalidInput) naming the step. The
/// routes report chosen_timeline()'s instants.
Solution solve(const Problem& problem, const SolveOptions& options = {});

}  // namespace routesolve
