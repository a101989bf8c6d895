// VROOM problem JSON, matrices: square integer matrices per profile (entries at or above
// kUnreachable mean "no path"), equal sizes within a profile, a matrix for every profile a vehicle
// uses, every location index in range.

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "vroom_json_parser.hpp"

namespace routesolve::io::detail {

Matrix ProblemParser::matrix(const Json& m, const std::string& path) {
  r_.expect_array(m, path);
  const std::size_t n = m.size();
  if (n == 0) r_.fail(path, "empty matrix");
  std::vector<std::int64_t> data;
  data.reserve(n * n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string row_path = index_path(path, i);
    const Json& row = m[i];
    r_.expect_array(row, row_path);
    if (row.size() != n)
      r_.fail(
          row_path,
          fmt::format("row has {} entries, expected {} (the matrix has {} rows and must be square)",
                      row.size(), n, n));
    for (std::size_t j = 0; j < n; ++j) {
      // Entries at or above kUnreachable mean "no path"; larger ones are clamped to it. Paths
      // are built only for bad entries: matrices hold millions of them.
      const Json& entry = row[j];
      const std::uint64_t value =
          entry.is_number_unsigned()
              ? entry.get<std::uint64_t>()
              : r_.unsigned_integer(entry, index_path(row_path, j),
                                    std::numeric_limits<std::uint64_t>::max());
      data.push_back(static_cast<std::int64_t>(
          std::min<std::uint64_t>(value, static_cast<std::uint64_t>(kUnreachable))));
    }
  }
  return Matrix(n, std::move(data));
}

ProfileMatrices ProblemParser::profile_matrices(const Json& m, const std::string& path) {
  r_.expect_object(m, path);
  ProfileMatrices out;
  if (const Json* d = r_.member(m, "durations"))
    out.durations = matrix(*d, join_path(path, "durations"));
  if (const Json* d = r_.member(m, "distances"))
    out.distances = matrix(*d, join_path(path, "distances"));
  if (const Json* c = r_.member(m, "costs")) out.costs = matrix(*c, join_path(path, "costs"));
  check_same_size(out, path);
  return out;
}

void ProblemParser::check_same_size(const ProfileMatrices& m, const std::string& path) {
  const std::size_t n = m.durations.size();
  if (n == 0) return;  // durations missing: reported once every source is read
  if (!m.distances.empty() && m.distances.size() != n)
    r_.fail(join_path(path, "distances"),
            fmt::format("{0}x{0} matrix, but durations are {1}x{1}", m.distances.size(), n));
  if (m.costs && m.costs->size() != n)
    r_.fail(join_path(path, "costs"),
            fmt::format("{0}x{0} matrix, but durations are {1}x{1}", m.costs->size(), n));
}

// Matrix indices in range, and matrices for every profile the vehicles use.
void ProblemParser::check_matrix_use(const ProblemSpec& spec) {
  if (spec.matrices.empty()) return;
  for (const auto& [profile, m] : spec.matrices)
    if (m.durations.empty())
      r_.fail(join_path("matrices", profile), "missing required field 'durations'");
  for (std::size_t v = 0; v < spec.vehicles.size(); ++v) {
    const std::string& profile = spec.vehicles[v].profile;
    if (spec.matrices.count(profile) == 0) {
      std::string given;
      for (const auto& [name, m] : spec.matrices) given += (given.empty() ? "" : ", ") + name;
      r_.fail(join_path(index_path("vehicles", v), "profile"),
              fmt::format("no matrices for profile '{}' (matrices given for: {})", profile, given));
    }
  }
  for (const auto& use : index_uses_) {
    for (const auto& [profile, m] : spec.matrices) {
      if (use.profile && *use.profile != profile) continue;
      if (use.index >= m.durations.size())
        r_.fail(
            use.path,
            fmt::format("location index {} is out of range: the '{}' matrices have {} locations",
                        use.index, profile, m.durations.size()));
    }
  }
}

}  // namespace routesolve::io::detail
