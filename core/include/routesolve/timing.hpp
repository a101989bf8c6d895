#pragma once
// Wall-clock stage timing, the one definition every layer uses.

#include <chrono>

namespace routesolve {

using Clock = std::chrono::steady_clock;

/// Seconds elapsed since `start` on the steady clock.
inline double seconds_since(Clock::time_point start) noexcept {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Seconds from `start` to `stop`.
inline double seconds_between(Clock::time_point start, Clock::time_point stop) noexcept {
  return std::chrono::duration<double>(stop - start).count();
}

}  // namespace routesolve
