#pragma once
// Google's encoded polyline format (the `geometry` VROOM returns with `-g` from OSRM): each point
// as latitude then longitude, rounded to 10^-precision degrees, as the difference from the
// previous point, zig-zag encoded (left shift, inverted when negative) and written 5 bits at a
// time from the lowest, each chunk but the last or'ed with 0x20, plus 63 to make it printable.

#include <string>
#include <string_view>
#include <vector>

#include "routesolve/types.hpp"

namespace routesolve::io {

std::string encode_polyline(const std::vector<Coordinates>& points, int precision = 5);

/// The inverse (to the format's precision); throws invalid_input naming `where` on a malformed
/// text.
std::vector<Coordinates> decode_polyline(std::string_view text, int precision = 5,
                                         std::string_view where = "geometry");

}  // namespace routesolve::io
