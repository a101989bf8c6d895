// Memory estimates before large matrices (see memory_budget.hpp).

#include "routesolve/memory_budget.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include "routesolve/error.hpp"

namespace routesolve {
namespace {

/// "522 GiB", "5.59 GiB", "19.3 MiB".
std::string gib(std::uint64_t bytes) {
  std::ostringstream s;
  s << std::fixed;
  if (bytes < (std::uint64_t{1} << 30)) {
    s.precision(1);
    s << static_cast<double>(bytes) / static_cast<double>(std::uint64_t{1} << 20) << " MiB";
  } else {
    s.precision(bytes >= (std::uint64_t{10} << 30) ? 0 : 2);
    s << static_cast<double>(bytes) / static_cast<double>(std::uint64_t{1} << 30) << " GiB";
  }
  return s.str();
}

std::uint64_t meminfo_available() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib) {
    std::getline(in, unit);
    if (key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

}  // namespace

std::uint64_t available_memory_bytes() {
  std::uint64_t bytes = meminfo_available();
  if (bytes == 0) {
    const long pages = ::sysconf(_SC_AVPHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0)
      bytes = static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
  }
  if (const char* limit = std::getenv("ROUTESOLVE_MEMORY_LIMIT_MB"); limit && *limit) {
    char* end = nullptr;
    const unsigned long long mb = std::strtoull(limit, &end, 10);
    if (end && *end == '\0' && mb <= (std::numeric_limits<std::uint64_t>::max() >> 20)) {
      const std::uint64_t cap = static_cast<std::uint64_t>(mb) << 20;
      if (bytes == 0 || cap < bytes) bytes = cap;
    }
  }
  return bytes;
}

std::uint64_t matrix_bytes(std::size_t n, std::size_t matrices, std::size_t entry_bytes) noexcept {
  std::uint64_t cells = 0, per_cell = 0, bytes = 0;
  if (__builtin_mul_overflow(static_cast<std::uint64_t>(n), static_cast<std::uint64_t>(n),
                             &cells) ||
      __builtin_mul_overflow(static_cast<std::uint64_t>(entry_bytes),
                             static_cast<std::uint64_t>(matrices), &per_cell) ||
      __builtin_mul_overflow(cells, per_cell, &bytes))
    return std::numeric_limits<std::uint64_t>::max();
  return bytes;
}

void check_memory(std::uint64_t needed, std::string_view what, std::string_view for_what) {
  const std::uint64_t available = available_memory_bytes();
  if (available == 0 || needed <= available) return;  // unknown: let the allocator decide
  std::string msg(what);
  if (!msg.empty()) msg += ": ";
  msg += "needs " + gib(needed) + " for " + std::string(for_what) + ", but only " + gib(available) +
         " of memory is available";
  throw Error(ErrorCode::OutOfMemory, msg);
}

void check_matrix_memory(std::size_t n, std::size_t matrices, std::string_view what,
                         std::size_t entry_bytes) {
  const std::uint64_t needed = matrix_bytes(n, matrices, entry_bytes);
  const std::uint64_t available = available_memory_bytes();
  if (available == 0 || needed <= available) return;  // unknown: let the allocator decide
  std::ostringstream msg;
  msg << n << " locations need " << gib(needed) << " for " << matrices
      << (matrices == 1 ? " travel matrix of " : " travel matrices of ") << n << " x " << n << " ("
      << entry_bytes << " bytes per entry), but only " << gib(available)
      << " of memory is available: use fewer locations or a machine with more memory";
  throw Error(ErrorCode::OutOfMemory, std::string(what) + (what.empty() ? "" : ": ") + msg.str());
}

std::size_t distinct_locations(const ProblemSpec& spec) {
  std::set<std::pair<double, double>> seen;
  std::size_t without = 0;
  const auto add = [&](const LocationSpec& loc) {
    if (loc.coords)
      seen.emplace(loc.coords->lon, loc.coords->lat);
    else
      ++without;
  };
  for (const JobSpec& j : spec.jobs) add(j.location);
  for (const ShipmentSpec& s : spec.shipments) {
    add(s.pickup.location);
    add(s.delivery.location);
  }
  for (const VehicleSpec& v : spec.vehicles) {
    if (v.start) add(*v.start);
    if (v.end) add(*v.end);
  }
  return seen.size() + without;
}

std::size_t matrices_at_peak(const ProblemSpec& spec) noexcept {
  std::set<std::string> profiles;
  for (const VehicleSpec& v : spec.vehicles) profiles.insert(v.profile);
  const std::size_t p = profiles.empty() ? 1 : profiles.size();
  return 2 + 5 * p;
}

}  // namespace routesolve
