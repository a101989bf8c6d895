#pragma once
// Small text helpers shared by the readers and the command line (ASCII only, locale-free).

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace routesolve::text {

/// Without leading and trailing blanks (space, tab, CR, LF, VT, FF).
std::string_view trim(std::string_view s) noexcept;
/// ASCII lower case.
std::string lower(std::string_view s);
/// ASCII upper case.
std::string upper(std::string_view s);

/// The `name` of every row of a table, in its order: the lists that CLI options and errors show.
template <class Row, std::size_t N>
std::vector<std::string> names_of(const Row (&table)[N]) {
  std::vector<std::string> names;
  names.reserve(N);
  for (const Row& row : table) names.emplace_back(row.name);
  return names;
}

/// "a, b, c".
std::string join(const std::vector<std::string>& items, std::string_view separator = ", ");

}  // namespace routesolve::text
