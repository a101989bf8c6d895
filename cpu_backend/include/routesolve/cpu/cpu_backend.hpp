#pragma once
// The reference CPU backend: construction + metaheuristic on the host.

#include <memory>

#include "routesolve/backend.hpp"

namespace routesolve::cpu {

/// The CPU backend ("cpu"): regret insertion, then ruin and recreate with simulated annealing
/// (string removals, blink insertion; fleet minimisation first for vehicles-then-cost) on
/// `threads` threads, every route confirmed by core's schedule_route.
std::unique_ptr<Backend> make_cpu_backend();

}  // namespace routesolve::cpu
