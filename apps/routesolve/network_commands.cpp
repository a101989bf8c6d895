// The road-network subcommands and `solve --network`:
//   routesolve network build INPUT -o OUT.rsnet   import once, write the binary cache
//   routesolve network info FILE                  what a network (or cache) holds
//   routesolve matrix --network FILE --points P   travel matrices between points (JSON or binary)
// The matrix file formats and the unreachable-pair rule are described in docs/ROAD_NETWORKS.md.

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "routesolve/contraction_hierarchy.hpp"
#include "routesolve/cpu/network_matrices.hpp"
#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/cuda/matrix_engine.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/road_formats.hpp"
#include "routesolve/memory_budget.hpp"

namespace fs = std::filesystem;

namespace routesolve::app {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

/// Written in JSON matrices for an unreachable pair with --allow-unreachable: INT32_MAX, the
/// largest value every VROOM version reads (its user durations and distances are 32-bit).
constexpr std::int64_t kJsonUnreachable = 2147483647;
/// Written in binary matrices for an unreachable pair.
constexpr std::int64_t kBinaryUnreachable = -1;

constexpr char kBinaryMagic[8] = {'R', 'S', 'M', 'A', 'T', 'R', 'I', 'X'};
constexpr std::uint32_t kBinaryVersion = 1;

// ---- networks, loaded once per process (batch --network reuses them) ------------------------------

struct LoadedRouter {
  std::shared_ptr<const cpu::RoadRouter> router;
  double seconds = 0.0;  ///< load time when it was loaded by this call, else 0
};

LoadedRouter open_router(const std::string& file) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const cpu::RoadRouter>> loaded;
  const std::lock_guard lock(mutex);
  if (auto it = loaded.find(file); it != loaded.end()) return {it->second, 0.0};
  if (!fs::exists(file)) throw invalid_input(file, "road network file not found");
  const auto t0 = Clock::now();
  auto router = std::make_shared<const cpu::RoadRouter>(io::read_network(file));
  const double seconds = seconds_since(t0);
  loaded.emplace(file, router);
  return {router, seconds};
}

// ---- points --------------------------------------------------------------------------------------

struct Points {
  std::vector<std::string> ids;
  std::vector<Coordinates> coords;  ///< filled for lon/lat points
  std::vector<NodeId> nodes;        ///< filled for id,node points
  bool by_node = false;
};

std::string trim(std::string s) {
  const auto not_space = [](unsigned char c) { return !std::isspace(c); };
  s.erase(s.begin(), std::find_if(s.begin(), s.end(), not_space));
  s.erase(std::find_if(s.rbegin(), s.rend(), not_space).base(), s.end());
  return s;
}

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ',')) fields.push_back(trim(field));
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

double parse_number(const std::string& text, const std::string& where, const char* field) {
  std::size_t used = 0;
  double v = 0.0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !std::isfinite(v))
    throw invalid_input(where, std::string(field) + ": '" + text + "' is not a number");
  return v;
}

Points read_points_csv(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw invalid_input(file.string(), "cannot open the points file");
  Points p;
  std::string line;
  std::size_t line_no = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (trim(line).empty()) continue;
    const std::string where = file.string() + ":" + std::to_string(line_no);
    std::vector<std::string> f = split_csv(line);
    if (!header) {
      for (auto& x : f) x = lower(x);
      if (f == std::vector<std::string>{"id", "lon", "lat"}) {
        p.by_node = false;
      } else if (f == std::vector<std::string>{"id", "node"}) {
        p.by_node = true;
      } else {
        throw invalid_input(where, "the header must be 'id,lon,lat' or 'id,node' (found '" + line + "')");
      }
      header = true;
      continue;
    }
    const std::size_t want = p.by_node ? 2 : 3;
    if (f.size() != want)
      throw invalid_input(where, "expected " + std::to_string(want) + " fields, found " + std::to_string(f.size()));
    p.ids.push_back(f[0]);
    if (p.by_node) {
      const double v = parse_number(f[1], where, "node");
      if (v < 0 || v != std::floor(v) || v >= 4294967295.0)
        throw invalid_input(where, "node: '" + f[1] + "' is not a node index");
      p.nodes.push_back(static_cast<NodeId>(v));
    } else {
      const double lon = parse_number(f[1], where, "lon"), lat = parse_number(f[2], where, "lat");
      if (lon < -180 || lon > 180) throw invalid_input(where, "lon: " + f[1] + " is outside [-180, 180]");
      if (lat < -90 || lat > 90) throw invalid_input(where, "lat: " + f[2] + " is outside [-90, 90]");
      p.coords.push_back({lon, lat});
    }
  }
  if (!header) throw invalid_input(file.string(), "empty points file (expected a header 'id,lon,lat' or 'id,node')");
  return p;
}

Points read_points_json(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw invalid_input(file.string(), "cannot open the points file");
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw invalid_input(file.string(), std::string("not valid JSON: ") + e.what());
  }
  if (!doc.is_array()) throw invalid_input(file.string(), "expected a JSON array of [lon, lat] positions");
  Points p;
  for (std::size_t i = 0; i < doc.size(); ++i) {
    const std::string where = file.string() + ": [" + std::to_string(i) + "]";
    const auto& e = doc[i];
    if (!e.is_array() || e.size() != 2 || !e[0].is_number() || !e[1].is_number())
      throw invalid_input(where, "expected [lon, lat]");
    const double lon = e[0].get<double>(), lat = e[1].get<double>();
    if (lon < -180 || lon > 180 || lat < -90 || lat > 90)
      throw invalid_input(where, "[lon, lat] out of range (longitude first)");
    p.ids.push_back(std::to_string(i));
    p.coords.push_back({lon, lat});
  }
  return p;
}

Points read_points(const fs::path& file) {
  if (lower(file.extension().string()) == ".json") return read_points_json(file);
  return read_points_csv(file);
}

// ---- matrix output ----------------------------------------------------------------------------------

/// Seconds from deciseconds, rounded half up; unreachable stays kUnreachable.
std::int64_t to_seconds(std::int64_t ds) { return ds >= kUnreachable ? kUnreachable : (ds + 5) / 10; }

/// Writes through a temporary file and a rename, so an interrupted run leaves no half file.
template <class Writer>
void write_atomically(const std::string& file, bool binary, Writer&& write) {
  if (file.empty() || file == "-") {
    write(std::cout);
    std::cout.flush();
    return;
  }
  io::write_atomically(file, [&](std::ostream& f) { write(f); }, {.binary = binary});
}

void write_json_matrices(std::ostream& out, const NodeMatrices& m) {
  const std::size_t n = m.rows;
  auto matrix = [&](const std::vector<std::int64_t>& values, bool seconds) {
    std::string text = "[";
    for (std::size_t i = 0; i < n; ++i) {
      text += i == 0 ? "[" : ",\n[";
      for (std::size_t j = 0; j < n; ++j) {
        std::int64_t v = values[i * n + j];
        if (seconds) v = to_seconds(v);
        if (v >= kUnreachable) v = kJsonUnreachable;
        if (j > 0) text += ',';
        text += std::to_string(v);
      }
      text += ']';
    }
    text += ']';
    return text;
  };
  out << "{\"matrices\": {\"car\": {\"durations\": " << matrix(m.durations, true)
      << ",\n\"distances\": " << matrix(m.distances, false) << "}}}\n";
}

void put_u32(std::ostream& out, std::uint32_t v) {
  unsigned char b[4];
  for (int k = 0; k < 4; ++k) b[k] = static_cast<unsigned char>(v >> (8 * k));
  out.write(reinterpret_cast<const char*>(b), 4);
}
void put_u64(std::ostream& out, std::uint64_t v) {
  unsigned char b[8];
  for (int k = 0; k < 8; ++k) b[k] = static_cast<unsigned char>(v >> (8 * k));
  out.write(reinterpret_cast<const char*>(b), 8);
}

/// Binary layout (little-endian), see docs/ROAD_NETWORKS.md: "RSMATRIX", u32 version, u32 flags
/// (0), u64 n, int64 durations[n*n] (seconds), int64 distances[n*n] (metres); -1 = unreachable.
void write_binary_matrices(std::ostream& out, const NodeMatrices& m) {
  out.write(kBinaryMagic, sizeof kBinaryMagic);
  put_u32(out, kBinaryVersion);
  put_u32(out, 0);
  put_u64(out, m.rows);
  for (const bool seconds : {true, false}) {
    const auto& values = seconds ? m.durations : m.distances;
    for (std::int64_t v : values) {
      if (seconds) v = to_seconds(v);
      put_u64(out, static_cast<std::uint64_t>(v >= kUnreachable ? kBinaryUnreachable : v));
    }
  }
}

struct MatrixArgs {
  std::string network, points, output, backend = "cpu", transfer = "batched";
  unsigned threads = 1;
  bool binary = false, allow_unreachable = false, quiet = false, profile = false;
  double max_snap = cpu::kDefaultMaxSnapM;
};

// ---- PHAST/RPHAST matrices (--backend cuda | cuda-host | auto) -------------------------------------

/// The network's contraction hierarchy: the "ch" section of a .rsnet cache (written by `network
/// build`), else built now (seconds). *seconds gets the load or build time.
std::shared_ptr<const ContractionHierarchy> open_ch(const std::string& file, const RoadGraph& graph, double* seconds) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const ContractionHierarchy>> loaded;
  const std::lock_guard lock(mutex);
  *seconds = 0.0;
  if (auto it = loaded.find(file); it != loaded.end()) return it->second;
  const auto t0 = Clock::now();
  std::shared_ptr<const ContractionHierarchy> ch;
  if (io::is_network_cache(file))
    if (auto bytes = io::read_cache_section(file, kChCacheSection))
      ch = std::make_shared<const ContractionHierarchy>(ContractionHierarchy::from_bytes(*bytes));
  if (!ch || ch->graph_fingerprint != graph_fingerprint(graph))
    ch = std::make_shared<const ContractionHierarchy>(build_contraction_hierarchy(graph));
  *seconds = seconds_since(t0);
  loaded.emplace(file, ch);
  return ch;
}

/// auto: the GPU when one is usable; else cuda-host when the network cache holds a hierarchy
/// (nothing to build); else the CPU backend (Boost.Graph), which needs no preprocessing.
std::string resolve_matrix_backend(const std::string& requested, const std::string& network) {
  if (requested != "auto") return requested;
  if (cuda::device_available()) return "cuda";
  if (io::is_network_cache(network) && io::read_cache_section(network, kChCacheSection)) return "cuda-host";
  return "cpu";
}

/// PHAST sweeps (cuda-host or cuda) as the node-matrix engine of cpu::point_matrices and
/// cpu::fill_matrices_from_network; each call adds its stage times to *profile.
cpu::NodeMatrixFunction phast_engine(const cpu::RoadRouter& router, const std::string& network,
                                     const cuda::PhastOptions& options, cuda::MatrixProfile* profile) {
  double ch_load = 0.0;
  const auto ch = open_ch(network, router.graph(), &ch_load);
  auto engine = std::make_shared<cuda::PhastMatrixEngine>(router.graph(), *ch, options);
  profile->ch_load += ch_load;
  return [engine, ch, profile](std::span<const NodeId> sources, std::span<const NodeId> targets) {
    cuda::MatrixProfile call;
    NodeMatrices m = engine->compute(std::vector<NodeId>(sources.begin(), sources.end()),
                                     std::vector<NodeId>(targets.begin(), targets.end()), &call);
    const double ch_load_so_far = profile->ch_load;
    *profile = call;
    profile->ch_load = ch_load_so_far;
    return m;
  };
}

cuda::PhastOptions phast_options(const std::string& backend, const std::string& transfer, unsigned threads) {
  cuda::PhastOptions phast;
  phast.device = backend == "cuda" ? cuda::MatrixDevice::Cuda : cuda::MatrixDevice::Host;
  phast.transfer = transfer == "naive" ? TransferMode::Naive : TransferMode::Pinned;
  phast.threads = threads;
  return phast;
}

int run_matrix(const MatrixArgs& a) {
  const std::string backend = resolve_matrix_backend(a.backend, a.network);
  const auto t_load = Clock::now();
  const LoadedRouter loaded = open_router(a.network);
  const double load_seconds = seconds_since(t_load);
  const cpu::RoadRouter& router = *loaded.router;
  const Points points = read_points(a.points);
  if (points.ids.empty()) throw invalid_input(a.points, "no points");

  cuda::MatrixProfile phast_profile;
  const cpu::NodeMatrixFunction engine =
      backend == "cpu" ? cpu::NodeMatrixFunction{}
                       : phast_engine(router, a.network, phast_options(backend, a.transfer, a.threads), &phast_profile);
  cpu::PointMatrices pm = points.by_node ? cpu::node_point_matrices(router, points.nodes, a.threads, engine)
                                         : cpu::point_matrices(router, points.coords, a.max_snap, a.threads, engine);
  if (engine) {
    pm.stats.settled_nodes = phast_profile.relaxations;
    pm.stats.seconds = phast_profile.total;
    pm.stats.threads = a.threads;
  }
  const std::size_t n = points.ids.size();

  // Unreachable pairs are named; without --allow-unreachable nothing is written.
  std::size_t unsnapped = 0, unreachable = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!pm.snaps[i].found) {
      ++unsnapped;
      if (!a.quiet || !a.allow_unreachable)
        fmt::print(stderr, "{}: point '{}' ({}, {}): no drivable road within {} m\n", a.points, points.ids[i],
                   points.coords[i].lon, points.coords[i].lat, a.max_snap);
    }
  }
  constexpr std::size_t kShown = 20;
  for (std::size_t i = 0; i < n; ++i) {
    if (!pm.snaps[i].found) continue;
    for (std::size_t j = 0; j < n; ++j) {
      if (!pm.snaps[j].found || pm.matrices.durations[i * n + j] < kUnreachable) continue;
      if (unreachable++ < kShown && (!a.quiet || !a.allow_unreachable))
        fmt::print(stderr, "{}: no road path from '{}' to '{}'\n", a.points, points.ids[i], points.ids[j]);
    }
  }
  // Pairs involving a point that did not snap count too.
  const std::size_t snapped = n - unsnapped;
  const std::size_t total_unreachable = unreachable + (n * n - n) - (snapped * snapped - snapped);
  if (unreachable > kShown && (!a.quiet || !a.allow_unreachable))
    fmt::print(stderr, "... and {} more pairs without a road path\n", unreachable - kShown);
  if (total_unreachable > 0 && !a.allow_unreachable) {
    fmt::print(stderr,
               "error: {} unreachable pair(s) among {} points; nothing written (VROOM cannot read 'no path': "
               "pass --allow-unreachable to write them as {} in JSON, {} in binary)\n",
               total_unreachable, n, kJsonUnreachable, kBinaryUnreachable);
    return 1;
  }

  const auto t_write = Clock::now();
  write_atomically(a.output, a.binary, [&](std::ostream& out) {
    if (a.binary) write_binary_matrices(out, pm.matrices);
    else write_json_matrices(out, pm.matrices);
  });
  const double write_seconds = seconds_since(t_write);

  if (!a.quiet) {
    const double rate = pm.stats.seconds > 0 ? static_cast<double>(pm.stats.settled_nodes) / pm.stats.seconds : 0.0;
    fmt::print(stderr,
               "matrix: {} points ({} snapped), {} unreachable pairs; {} threads, {:.3f} s, {:.3g} {}/s ({})\n",
               n, snapped, total_unreachable, pm.stats.threads, pm.stats.seconds, rate,
               backend == "cpu" ? "settled nodes" : "relaxations", backend);
  }
  if (a.profile) {
    Solution s;
    s.backend = backend;
    if (backend != "cpu") fmt::print(stderr, "matrix profile: {}\n", cuda::format_profile(phast_profile));
    s.profile = {{"network_load", load_seconds}, {"ch_load", phast_profile.ch_load}, {"snap", pm.snap_seconds},
                 {"matrix", pm.stats.seconds},
                 {"write", write_seconds}};
    print_profile(s);
  }
  return 0;
}

// ---- network build / info ----------------------------------------------------------------------------

void print_report(const RoadNetwork& net) {
  const NetworkReport& r = net.report;
  const auto pct = [](std::size_t part, std::size_t whole) {
    return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
  };
  fmt::print("source:      {}\n", net.source);
  fmt::print("read:        {} nodes, {} arcs\n", r.nodes_read, r.arcs_read);
  fmt::print("kept:        {} nodes ({:.1f}%), {} arcs ({:.1f}%): the largest strongly connected component\n",
             r.nodes_kept, pct(r.nodes_kept, r.nodes_read), r.arcs_kept, pct(r.arcs_kept, r.arcs_read));
  fmt::print("dropped:     {} nodes, {} arcs ({} components)\n", r.nodes_dropped,
             r.arcs_read >= r.arcs_kept ? r.arcs_read - r.arcs_kept : 0, r.components);
  fmt::print("coordinates: {}\n", net.graph.has_coordinates() ? "yes" : "no (points must be given as road nodes)");
  fmt::print("import:      {:.3f} s\n", r.import_seconds);
}

int run_network_build(const std::string& input, const std::string& output, bool quiet) {
  const RoadNetwork net = io::read_network(input);
  const auto t0 = Clock::now();
  io::write_network_cache(net, output);
  const double write_seconds = seconds_since(t0);
  const auto t1 = Clock::now();
  const RoadNetwork back = io::read_network_cache(output);  // proves the file reads back
  const double load_seconds = seconds_since(t1);
  if (back.graph.node_count() != net.graph.node_count() || back.graph.arc_count() != net.graph.arc_count())
    throw Error(ErrorCode::Internal, output + ": the cache did not read back the same network");
  // The contraction hierarchy of the cuda / cuda-host matrix backends, stored beside the graph.
  ChBuildStats ch_stats;
  const ContractionHierarchy ch = build_contraction_hierarchy(back.graph, {}, &ch_stats);
  io::add_cache_section(output, io::CacheSection{kChCacheSection, ch.to_bytes()});
  if (!quiet) {
    print_report(net);
    fmt::print("cache:       {} ({} bytes), written in {:.3f} s, reads back in {:.3f} s\n", output,
               fs::file_size(output), write_seconds, load_seconds);
    fmt::print("hierarchy:   {} shortcuts, {} levels, built in {:.3f} s (section '{}')\n", ch_stats.shortcuts,
               ch_stats.levels, ch_stats.seconds, kChCacheSection);
  }
  return 0;
}

int run_network_info(const std::string& file) {
  const auto t0 = Clock::now();
  const RoadNetwork net = io::read_network(file);
  const double load_seconds = seconds_since(t0);
  print_report(net);
  const RoadGraph& g = net.graph;
  if (g.has_coordinates() && g.node_count() > 0) {
    double min_lon = 180, max_lon = -180, min_lat = 90, max_lat = -90;
    for (const Coordinates& c : g.coords) {
      min_lon = std::min(min_lon, c.lon), max_lon = std::max(max_lon, c.lon);
      min_lat = std::min(min_lat, c.lat), max_lat = std::max(max_lat, c.lat);
    }
    fmt::print("bbox:        lon [{:.6f}, {:.6f}], lat [{:.6f}, {:.6f}]\n", min_lon, max_lon, min_lat, max_lat);
  }
  std::uint64_t total_ds = 0, total_m = 0;
  for (std::size_t a = 0; a < g.arc_count(); ++a) total_ds += g.duration[a], total_m += g.length[a];
  fmt::print("arcs total:  {:.1f} km, {:.1f} h of driving\n", static_cast<double>(total_m) / 1000.0,
             static_cast<double>(total_ds) / 36000.0);
  fmt::print("loaded in:   {:.3f} s{}\n", load_seconds, io::is_network_cache(file) ? " (cache)" : "");
  return 0;
}

}  // namespace

bool apply_network(ProblemSpec& spec, const RunOptions& o, LoadExtras* extras) {
  if (!spec.matrices.empty()) return false;
  // Refuse before loading the network when the matrices cannot fit (issue 8).
  check_matrix_memory(distinct_locations(spec), matrices_at_peak(spec), spec.source);
  const LoadedRouter loaded = open_router(o.network);
  auto fill = std::make_shared<cpu::NetworkFill>();
  // --backend picks the matrices too: Boost.Graph for cpu, PHAST sweeps for cuda / cuda-host;
  // auto takes the GPU when usable, else cuda-host when the cache holds a hierarchy.
  const std::string backend = resolve_matrix_backend(o.backend, o.network);
  cuda::MatrixProfile phast_profile;
  cpu::NetworkMatrixOptions options{.max_snap_m = o.max_snap, .threads = o.threads, .engine = {}};
  if (backend != "cpu")
    options.engine = phast_engine(*loaded.router, o.network, phast_options(backend, o.transfer, o.threads), &phast_profile);
  cpu::fill_matrices_from_network(spec, *loaded.router, options, fill.get());
  if (!o.quiet)
    for (const std::string& path : fill->unsnapped)
      fmt::print(stderr, "note: {}{}{}: no drivable road within {} m: reported unassigned (unreachable)\n",
                 spec.source, spec.source.empty() ? "" : ": ", path, o.max_snap);
  if (extras != nullptr) {
    if (loaded.seconds > 0) extras->stages.push_back({"network_load", loaded.seconds});
    extras->stages.push_back({"snap", fill->snap_seconds});
    if (backend != "cpu") {
      extras->stages.push_back({"ch_load", phast_profile.ch_load});
      extras->stages.push_back({"matrix_selection", phast_profile.selection});
      extras->stages.push_back({"matrix_upward", phast_profile.upward});
      extras->stages.push_back({"matrix_h2d", phast_profile.h2d});
      extras->stages.push_back({"matrix_sweeps", phast_profile.sweep});
      extras->stages.push_back({"matrix_d2h", phast_profile.d2h});
    } else {
      extras->stages.push_back({"matrix", fill->matrix_seconds});
    }
    if (loaded.router->graph().has_coordinates()) {
      extras->legs = [router = loaded.router, fill](std::size_t from, std::size_t to) {
        return cpu::leg_geometry(*router, *fill, from, to);
      };
    }
  }
  return true;
}

void add_network_commands(CLI::App& app, int* exit_status) {
  struct State {
    std::string input, output;
    bool quiet = false;
    MatrixArgs matrix;
  };
  auto s = std::make_shared<State>();

  auto* network = app.add_subcommand("network", "Road networks: build the binary cache, show what a network holds");
  network->require_subcommand(1);
  auto* build = network->add_subcommand("build", "Import a road network and write its binary cache (.rsnet)");
  build->add_option("INPUT", s->input, "OSM .osm.pbf, DIMACS .gr, edge list or PACE .gr(.xz)")->required();
  build->add_option("-o,--output", s->output, "Cache file to write (.rsnet)")->required();
  build->add_flag("-q,--quiet", s->quiet, "Print nothing");
  build->callback([s, exit_status] { *exit_status = run_network_build(s->input, s->output, s->quiet); });

  auto* info = network->add_subcommand("info", "Print what a road network or cache holds");
  info->add_option("FILE", s->input, "Road network or .rsnet cache")->required();
  info->callback([s, exit_status] { *exit_status = run_network_info(s->input); });

  auto* matrix = app.add_subcommand("matrix", "Travel matrices (seconds, metres) between points on a road network");
  MatrixArgs& m = s->matrix;
  matrix->add_option("--network", m.network, "Road network or .rsnet cache")->required();
  matrix->add_option("--points", m.points, "CSV 'id,lon,lat' or 'id,node', or a JSON array of [lon, lat]")
      ->required();
  matrix->add_option("-o,--output", m.output, "Output file (default: standard output)");
  matrix->add_option("--backend", m.backend, "Backend")
      ->check(CLI::IsMember({"cpu", "cuda", "cuda-host", "auto"}))
      ->capture_default_str();
  matrix->add_option("--transfer", m.transfer, "cuda backend: batched (pinned, overlapped) or naive transfers")
      ->check(CLI::IsMember({"batched", "naive"}))
      ->capture_default_str();
  matrix->add_option("--threads", m.threads, "Worker threads (0: all hardware threads)")
      ->check(CLI::Range(0u, 1024u))
      ->capture_default_str();
  matrix->add_flag("--binary", m.binary, "Write the compact binary format (docs/ROAD_NETWORKS.md)");
  matrix->add_option("--max-snap", m.max_snap, "Largest distance in metres from a point to its road")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  matrix->add_flag("--allow-unreachable", m.allow_unreachable,
                   "Write unreachable pairs as 2147483647 (JSON) / -1 (binary) instead of failing");
  matrix->add_flag("--profile", m.profile, "Print the time spent per stage on stderr");
  matrix->add_flag("-q,--quiet", m.quiet, "No summary on stderr");
  matrix->callback([s, exit_status] { *exit_status = run_matrix(s->matrix); });
}

}  // namespace routesolve::app
