#pragma once
// Small text helpers shared by the readers and the command line (ASCII only, locale-free).

#include <string>
#include <string_view>

namespace routesolve::text {

/// Without leading and trailing blanks (space, tab, CR, LF, VT, FF).
std::string_view trim(std::string_view s) noexcept;
/// ASCII lower case.
std::string lower(std::string_view s);
/// ASCII upper case.
std::string upper(std::string_view s);

}  // namespace routesolve::text
