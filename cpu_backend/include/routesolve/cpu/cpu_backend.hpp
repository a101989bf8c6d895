#pragma once
// The reference CPU backend: construction + local search on the host.

#include <memory>

#include "routesolve/solve.hpp"

namespace routesolve::cpu {

/// The CPU backend ("cpu"): regret insertion, then relocate / swap / 2-opt descent.
std::unique_ptr<Backend> make_cpu_backend();

}  // namespace routesolve::cpu
