// Road graphs in text formats: DIMACS 9th challenge (.gr + .co), edge lists (cal.cedge and
// "u v w"), PACE 2016 topology (plain or .xz), and read_network() choosing among all formats.

#include <fmt/format.h>
#include <lzma.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "routesolve/error.hpp"
#include "routesolve/io/formats.hpp"
#include "routesolve/io/road_formats.hpp"
#include "routesolve/network/road_build.hpp"
#include "routesolve/text.hpp"
#include "text.hpp"

namespace routesolve::io {
namespace {

using Clock = std::chrono::steady_clock;
using detail::TextReader;
using network::RawArc;

constexpr std::int64_t kMaxWeight = std::numeric_limits<std::uint32_t>::max();

// A 1-based node number of a "p ... n" header, as a 0-based id.
NodeId node_field(const TextReader& r, std::string_view token, std::string_view field,
                  std::size_t n) {
  const std::int64_t v = r.int_field(token, field);
  if (v < 1 || static_cast<std::uint64_t>(v) > n)
    r.fail(fmt::format("{}: node {} out of range 1..{}", field, v, n));
  return static_cast<NodeId>(v - 1);
}

// "p <kind> n m": the node and arc counts.
std::pair<std::size_t, std::size_t> problem_line(const TextReader& r,
                                                 const std::vector<std::string_view>& t,
                                                 std::string_view kind) {
  if (t.size() != 4 || t[1] != kind)
    r.fail(fmt::format("problem line: expected 'p {} <nodes> <arcs>', got '{}'", kind, r.line()));
  const std::int64_t n = r.int_field(t[2], "nodes"), m = r.int_field(t[3], "arcs");
  if (n < 1 || n >= static_cast<std::int64_t>(kNoNode))
    r.fail(fmt::format("nodes: {} out of range", n));
  if (m < 0) r.fail(fmt::format("arcs: {} is negative", m));
  return {static_cast<std::size_t>(n), static_cast<std::size_t>(m)};
}

std::vector<Coordinates> read_dimacs_coordinates(const std::filesystem::path& co, std::size_t n) {
  const std::string text = read_text_file(co);
  TextReader r(text, co.string());
  std::vector<Coordinates> coords(n);
  std::vector<char> seen(n, 0);
  std::size_t count = 0;
  while (r.next_nonblank_line()) {
    const auto t = r.tokens();
    if (t[0] == "c" || t[0] == "p") continue;  // "p aux sp co n" carries nothing we need
    if (t[0] != "v") r.fail(fmt::format("expected a 'v id x y' line, got '{}'", r.line()));
    if (t.size() != 4) r.fail("v line: expected 'v id x y'");
    const NodeId id = node_field(r, t[1], "id", n);
    const double x = r.number_field(t[2], "x"), y = r.number_field(t[3], "y");
    coords[id] = {x / 1e6, y / 1e6};
    if (!(std::fabs(coords[id].lon) <= 180.0 && std::fabs(coords[id].lat) <= 90.0))
      r.fail(fmt::format("node {}: ({}, {}) is not a position in millionths of a degree", id + 1, x,
                         y));
    if (!seen[id]) ++count;
    seen[id] = 1;
  }
  if (count != n) {
    const auto missing =
        static_cast<std::size_t>(std::find(seen.begin(), seen.end(), 0) - seen.begin());
    throw invalid_input(co.string(),
                        fmt::format("truncated: {} of {} nodes have coordinates (node {} has none)",
                                    count, n, missing + 1));
  }
  return coords;
}

// Decompresses an .xz file into memory.
std::string read_xz_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw invalid_input(file.string(), "cannot open the file");
  lzma_stream strm = LZMA_STREAM_INIT;
  if (lzma_stream_decoder(&strm, std::numeric_limits<std::uint64_t>::max(), LZMA_CONCATENATED) !=
      LZMA_OK)
    throw Error(ErrorCode::Internal, file.string() + ": cannot start the xz decoder");
  std::string out;
  std::vector<char> inbuf(1 << 16);
  char outbuf[1 << 16];
  lzma_action action = LZMA_RUN;
  lzma_ret ret = LZMA_OK;
  strm.next_out = reinterpret_cast<std::uint8_t*>(outbuf);
  strm.avail_out = sizeof outbuf;
  while (true) {
    if (strm.avail_in == 0 && action == LZMA_RUN) {
      in.read(inbuf.data(), static_cast<std::streamsize>(inbuf.size()));
      strm.next_in = reinterpret_cast<const std::uint8_t*>(inbuf.data());
      strm.avail_in = static_cast<std::size_t>(in.gcount());
      if (in.eof()) action = LZMA_FINISH;
    }
    ret = lzma_code(&strm, action);
    if (strm.avail_out == 0 || ret == LZMA_STREAM_END) {
      out.append(outbuf, sizeof outbuf - strm.avail_out);
      strm.next_out = reinterpret_cast<std::uint8_t*>(outbuf);
      strm.avail_out = sizeof outbuf;
    }
    if (ret == LZMA_STREAM_END) break;
    if (ret != LZMA_OK) {
      lzma_end(&strm);
      throw invalid_input(
          file.string(),
          fmt::format("corrupt or truncated xz data (liblzma error {})", static_cast<int>(ret)));
    }
  }
  lzma_end(&strm);
  return out;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

using text::lower;

RoadNetwork parse_pace(std::string_view text, const std::string& source,
                       Clock::time_point started) {
  TextReader r(text, source);
  std::size_t n = 0, m = 0, edges = 0;
  bool header = false;
  std::vector<RawArc> arcs;
  while (r.next_nonblank_line()) {
    const auto t = r.tokens();
    if (t[0] == "c") continue;
    if (t[0] == "p") {
      if (header) r.fail("a second problem line");
      std::tie(n, m) = problem_line(r, t, "tw");
      header = true;
      arcs.reserve(2 *
                   std::min(m, text.size() / 4));  // an edge line has >= 4 bytes; m is untrusted
      continue;
    }
    if (!header) r.fail("edge before the problem line 'p tw <nodes> <edges>'");
    if (t.size() != 2) r.fail(fmt::format("expected an edge 'u v', got '{}'", r.line()));
    const NodeId u = node_field(r, t[0], "u", n), v = node_field(r, t[1], "v", n);
    arcs.push_back({u, v, 1, 1});
    arcs.push_back({v, u, 1, 1});
    ++edges;
  }
  if (!header)
    throw invalid_input(source,
                        "no problem line 'p tw <nodes> <edges>' (empty or not a PACE file)");
  if (edges != m)
    throw invalid_input(
        source,
        fmt::format("truncated: the problem line announces {} edges, the file has {}", m, edges));
  return network::build_network(n, std::move(arcs), {}, source, started);
}

}  // namespace

RoadNetwork read_dimacs(const std::filesystem::path& gr, const std::filesystem::path& co) {
  const auto started = Clock::now();
  const std::string text = read_text_file(gr);
  TextReader r(text, gr.string());
  std::size_t n = 0, m = 0, count = 0;
  bool header = false;
  std::vector<RawArc> arcs;
  while (r.next_nonblank_line()) {
    const auto t = r.tokens();
    if (t[0] == "c") continue;
    if (t[0] == "p") {
      if (header) r.fail("a second problem line");
      std::tie(n, m) = problem_line(r, t, "sp");
      header = true;
      arcs.reserve(std::min(m, text.size() / 8));  // an arc line has >= 8 bytes; m is untrusted
      continue;
    }
    if (t[0] != "a") r.fail(fmt::format("expected an arc 'a u v w', got '{}'", r.line()));
    if (!header) r.fail("arc before the problem line 'p sp <nodes> <arcs>'");
    if (t.size() != 4) r.fail("arc: expected 'a u v w'");
    const NodeId u = node_field(r, t[1], "u", n), v = node_field(r, t[2], "v", n);
    const std::int64_t w = r.int_field(t[3], "w");
    if (w < 0 || w > kMaxWeight)
      r.fail(fmt::format("w: weight {} out of range 0..{}", w, kMaxWeight));
    arcs.push_back({u, v, static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(w)});
    ++count;
  }
  if (!header)
    throw invalid_input(gr.string(),
                        "no problem line 'p sp <nodes> <arcs>' (empty or not a DIMACS file)");
  if (count != m)
    throw invalid_input(
        gr.string(),
        fmt::format("truncated: the problem line announces {} arcs, the file has {}", m, count));
  std::vector<Coordinates> coords;
  if (!co.empty()) {
    network::check_network_memory(n, arcs.size(), gr.string());  // before n coordinates
    coords = read_dimacs_coordinates(co, n);
  }
  return network::build_network(n, std::move(arcs), std::move(coords), gr.string(), started);
}

RoadNetwork read_edge_list(const std::filesystem::path& file, double weight_scale) {
  const auto started = Clock::now();
  if (!(weight_scale > 0.0) || !std::isfinite(weight_scale))
    throw invalid_input("weight_scale", "must be a positive number");
  const std::string text = read_text_file(file);
  TextReader r(text, file.string());
  std::vector<RawArc> arcs;
  std::size_t n = 0;
  while (r.next_line()) {
    std::string_view line = r.line();
    if (const auto hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    const auto t = detail::split_tokens(line);
    if (t.empty()) continue;
    if (t.size() != 3 && t.size() != 4)
      r.fail(fmt::format("expected 'edge_id u v weight' or 'u v weight', got {} fields", t.size()));
    const std::size_t base = t.size() - 3;
    if (base == 1) r.int_field(t[0], "edge_id");
    NodeId ends[2];
    for (int k = 0; k < 2; ++k) {
      const std::string_view field = k == 0 ? "u" : "v";
      const std::int64_t id = r.int_field(t[base + static_cast<std::size_t>(k)], field);
      if (id < 0 || id >= static_cast<std::int64_t>(kNoNode) - 1)
        r.fail(
            fmt::format("{}: node id {} out of range (0-based, below {})", field, id, kNoNode - 1));
      ends[k] = static_cast<NodeId>(id);
      n = std::max<std::size_t>(n, ends[k] + std::size_t{1});
    }
    const double w = r.number_field(t[base + 2], "weight");
    if (w < 0) r.fail(fmt::format("weight: {} is negative", w));
    const double scaled = std::max(1.0, std::round(w * weight_scale));
    if (scaled > static_cast<double>(kMaxWeight))
      r.fail(
          fmt::format("weight: {} times the scale {} exceeds 32 bits: use a smaller weight scale",
                      w, weight_scale));
    const auto value = static_cast<std::uint32_t>(scaled);
    arcs.push_back({ends[0], ends[1], value, value});
    arcs.push_back({ends[1], ends[0], value, value});
  }
  if (arcs.empty()) throw invalid_input(file.string(), "empty graph: no edge lines");
  return network::build_network(n, std::move(arcs), {}, file.string(), started);
}

RoadNetwork read_pace(const std::filesystem::path& file) {
  const auto started = Clock::now();
  const std::string text =
      ends_with(lower(file.string()), ".xz") ? read_xz_file(file) : read_text_file(file);
  return parse_pace(text, file.string(), started);
}

RoadNetwork read_network(const std::filesystem::path& file) {
  const std::string name = lower(file.filename().string());
  if (ends_with(name, ".rsnet") || is_network_cache(file)) return read_network_cache(file);
  if (ends_with(name, ".pbf") || ends_with(name, ".osm") || ends_with(name, ".osm.gz") ||
      ends_with(name, ".osm.bz2"))
    return read_osm_pbf(file);
  if (ends_with(name, ".gr.xz")) return read_pace(file);
  if (ends_with(name, ".gr")) {
    // DIMACS "p sp" or PACE "p tw": the first problem line tells.
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("p ", 0) != 0) continue;
      if (line.rfind("p tw", 0) == 0) return read_pace(file);
      break;
    }
    std::filesystem::path co = file;
    co.replace_extension(".co");
    return read_dimacs(file, std::filesystem::exists(co) ? co : std::filesystem::path{});
  }
  if (ends_with(name, ".cedge") || ends_with(name, ".txt") || ends_with(name, ".edges") ||
      ends_with(name, ".el"))
    return read_edge_list(file);
  if (!std::filesystem::exists(file)) throw invalid_input(file.string(), "no such file");
  // Content sniffing for files without a known extension: OSM XML.
  std::ifstream in(file, std::ios::binary);
  char head[64] = {};
  in.read(head, sizeof head);
  const std::string start(head, static_cast<std::size_t>(in.gcount()));
  if (start.find("<?xml") != std::string::npos || start.find("<osm") != std::string::npos)
    return read_osm_pbf(file);
  throw invalid_input(
      file.string(),
      "unknown road network format: expected .osm.pbf, .osm, .gr (DIMACS or PACE), .gr.xz, "
      ".cedge/.txt edge list or .rsnet");
}

}  // namespace routesolve::io
