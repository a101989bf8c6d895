// Google's encoded polyline format (routesolve/io/polyline.hpp).

#include "routesolve/io/polyline.hpp"

#include <cmath>
#include <cstdint>

#include "routesolve/error.hpp"

namespace routesolve::io {
namespace {

void put(std::string& out, std::int64_t delta) {
  std::uint64_t v = static_cast<std::uint64_t>(delta) << 1;
  if (delta < 0) v = ~v;
  while (v >= 0x20) {
    out.push_back(static_cast<char>((0x20 | (v & 0x1f)) + 63));
    v >>= 5;
  }
  out.push_back(static_cast<char>(v + 63));
}

}  // namespace

std::string encode_polyline(const std::vector<Coordinates>& points, int precision) {
  const double factor = std::pow(10.0, precision);
  std::string out;
  std::int64_t lat0 = 0, lon0 = 0;
  for (const Coordinates& c : points) {
    const auto lat = static_cast<std::int64_t>(std::llround(c.lat * factor));
    const auto lon = static_cast<std::int64_t>(std::llround(c.lon * factor));
    put(out, lat - lat0);
    put(out, lon - lon0);
    lat0 = lat;
    lon0 = lon;
  }
  return out;
}

std::vector<Coordinates> decode_polyline(std::string_view text, int precision,
                                         std::string_view where) {
  const double factor = std::pow(10.0, precision);
  std::vector<Coordinates> out;
  std::size_t i = 0;
  auto next = [&]() -> std::int64_t {
    std::uint64_t v = 0;
    for (int shift = 0;; shift += 5) {
      if (i >= text.size() || shift > 60)
        throw invalid_input(where, "truncated or malformed encoded polyline");
      const int c = static_cast<unsigned char>(text[i++]) - 63;
      if (c < 0 || c > 63)
        throw invalid_input(where, "character outside the encoded polyline alphabet");
      v |= static_cast<std::uint64_t>(c & 0x1f) << shift;
      if (c < 0x20) break;
    }
    return (v & 1) != 0 ? ~static_cast<std::int64_t>(v >> 1) : static_cast<std::int64_t>(v >> 1);
  };
  std::int64_t lat = 0, lon = 0;
  while (i < text.size()) {
    lat += next();
    lon += next();
    out.push_back({static_cast<double>(lon) / factor, static_cast<double>(lat) / factor});
  }
  return out;
}

}  // namespace routesolve::io
