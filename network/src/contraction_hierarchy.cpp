// Contraction hierarchy construction, checks, serialisation and point-to-point queries.
//
// Construction: a dynamic graph of the not yet contracted nodes (in- and out-adjacency per
// node); nodes leave it in priority order. Contracting v adds a shortcut u -> x for each pair of
// arcs u -> v -> x unless a witness search from u (Dijkstra that skips v, bounded in settled
// nodes and distance) finds a path of at most the same key. The arcs v still has at that moment
// all lead to higher-ranked nodes: they become v's upward arcs and downward in-arcs. Degree-2
// chain nodes have one in-neighbour and one out-neighbour pair, so their simulation is a single
// tiny witness search: chains melt away cheaply at the start.

#include "routesolve/contraction_hierarchy.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#include <functional>
#include <queue>
#include <string>
#include <utility>

#include "routesolve/error.hpp"

namespace routesolve {
namespace {

struct Arc {
  NodeId other;
  PathKey weight;
};

/// Dijkstra from one node over the remaining graph, skipping one node, with a settle limit, a
/// hop limit and a distance bound. Distances live in stamped arrays (no clearing per search).
class WitnessSearch {
 public:
  explicit WitnessSearch(std::size_t n) : dist_(n, kNoPath), hops_(n, 0), stamp_(n, 0) {}

  void run(const std::vector<std::vector<Arc>>& out, NodeId source, NodeId skip, PathKey bound,
           unsigned settle_limit, unsigned hop_limit) {
    ++current_;
    heap_.clear();
    set(source, 0, 0);
    heap_.push_back({0, source});
    unsigned settled = 0;
    while (!heap_.empty()) {
      std::pop_heap(heap_.begin(), heap_.end(), std::greater<>{});
      const auto [d, u] = heap_.back();
      heap_.pop_back();
      if (d != dist_[u]) continue;  // stale entry
      if (d > bound || ++settled > settle_limit) break;
      const unsigned h = hops_[u];
      if (h >= hop_limit) continue;
      for (const Arc& a : out[u]) {
        if (a.other == skip) continue;
        const PathKey nd = saturating_add(d, a.weight);
        if (nd < distance(a.other)) {
          set(a.other, nd, h + 1);
          heap_.push_back({nd, a.other});
          std::push_heap(heap_.begin(), heap_.end(), std::greater<>{});
        }
      }
    }
  }

  [[nodiscard]] PathKey distance(NodeId v) const {
    return stamp_[v] == current_ ? dist_[v] : kNoPath;
  }

 private:
  void set(NodeId v, PathKey d, unsigned h) {
    stamp_[v] = current_;
    dist_[v] = d;
    hops_[v] = static_cast<std::uint16_t>(std::min(h, 0xffffu));
  }

  std::vector<PathKey> dist_;
  std::vector<std::uint16_t> hops_;
  std::vector<std::uint32_t> stamp_;
  std::uint32_t current_ = 0;
  std::vector<std::pair<PathKey, NodeId>> heap_;
};

struct Shortcut {
  NodeId from, to;
  PathKey weight;
};

class Contractor {
 public:
  Contractor(const RoadGraph& g, const ChBuildOptions& options)
      : n_(g.node_count()),
        options_(options),
        out_(n_),
        in_(n_),
        contracted_(n_, 0),
        neighbours_done_(n_, 0),
        depth_(n_, 0),
        priority_(n_, 0),
        witness_(n_) {
    for (NodeId u = 0; u < n_; ++u)
      for (std::uint32_t a = g.first_out[u]; a < g.first_out[u + 1]; ++a) {
        const NodeId v = g.head[a];
        if (v == u) continue;
        add_or_improve(u, v, g.arc_key(a));
      }
  }

  ContractionHierarchy run(ChBuildStats* stats) {
    using Entry = std::pair<std::int64_t, NodeId>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
    for (NodeId v = 0; v < n_; ++v) {
      priority_[v] = compute_priority(v);
      queue.push({priority_[v], v});
    }
    std::vector<NodeId> contraction_order;
    contraction_order.reserve(n_);
    up_.resize(n_);
    down_.resize(n_);
    std::vector<Shortcut> shortcuts;
    std::vector<NodeId> neighbours;
    while (!queue.empty()) {
      const auto [p, v] = queue.top();
      queue.pop();
      if (contracted_[v] || p != priority_[v]) continue;  // stale
      // Lazy update: the priority may have grown since it was queued.
      const std::int64_t now = compute_priority(v);
      if (now != p) {
        priority_[v] = now;
        if (!queue.empty() && now > queue.top().first) {
          queue.push({now, v});
          continue;
        }
      }
      // Contract v.
      shortcuts.clear();
      find_shortcuts(v, options_.witness_settle_limit, 0xffffu, &shortcuts);
      up_[v] = out_[v];
      down_[v] = in_[v];
      contracted_[v] = 1;
      contraction_order.push_back(v);
      neighbours.clear();
      for (const Arc& a : out_[v]) {
        erase(in_[a.other], v);
        neighbours.push_back(a.other);
      }
      for (const Arc& a : in_[v]) {
        erase(out_[a.other], v);
        neighbours.push_back(a.other);
      }
      out_[v].clear();
      out_[v].shrink_to_fit();
      in_[v].clear();
      in_[v].shrink_to_fit();
      for (const Shortcut& s : shortcuts) added_ += add_or_improve(s.from, s.to, s.weight) ? 1 : 0;
      std::sort(neighbours.begin(), neighbours.end());
      neighbours.erase(std::unique(neighbours.begin(), neighbours.end()), neighbours.end());
      for (const NodeId u : neighbours) {
        ++neighbours_done_[u];
        depth_[u] = std::max(depth_[u], depth_[v] + 1);
        priority_[u] = compute_priority(u);
        queue.push({priority_[u], u});
      }
    }
    return assemble(contraction_order, stats);
  }

 private:
  /// Adds u -> v or lowers its weight; true when a new arc was created.
  bool add_or_improve(NodeId u, NodeId v, PathKey w) {
    for (Arc& a : out_[u])
      if (a.other == v) {
        if (w < a.weight) {
          a.weight = w;
          for (Arc& b : in_[v])
            if (b.other == u) b.weight = w;
        }
        return false;
      }
    out_[u].push_back({v, w});
    in_[v].push_back({u, w});
    return true;
  }

  static void erase(std::vector<Arc>& arcs, NodeId v) {
    arcs.erase(std::remove_if(arcs.begin(), arcs.end(), [v](const Arc& a) { return a.other == v; }),
               arcs.end());
  }

  /// Shortcuts needed to contract v (appended to *out when given); returns their number.
  std::size_t find_shortcuts(NodeId v, unsigned settle_limit, unsigned hop_limit,
                             std::vector<Shortcut>* out) {
    std::size_t count = 0;
    for (const Arc& in : in_[v]) {
      const NodeId u = in.other;
      PathKey bound = 0;
      bool any = false;
      for (const Arc& o : out_[v])
        if (o.other != u) {
          bound = std::max(bound, saturating_add(in.weight, o.weight));
          any = true;
        }
      if (!any) continue;
      witness_.run(out_, u, v, bound, settle_limit, hop_limit);
      for (const Arc& o : out_[v]) {
        if (o.other == u) continue;
        const PathKey via = saturating_add(in.weight, o.weight);
        if (witness_.distance(o.other) <= via) continue;
        ++count;
        if (out != nullptr) out->push_back({u, o.other, via});
      }
    }
    return count;
  }

  std::int64_t compute_priority(NodeId v) {
    const auto added = static_cast<std::int64_t>(find_shortcuts(
        v, options_.simulation_settle_limit, options_.simulation_hop_limit, nullptr));
    const auto removed = static_cast<std::int64_t>(in_[v].size() + out_[v].size());
    return 2 * (added - removed) + neighbours_done_[v] + depth_[v];
  }

  ContractionHierarchy assemble(const std::vector<NodeId>& contraction_order, ChBuildStats* stats) {
    ContractionHierarchy ch;
    // Rank: by level (depth), then contraction order. Every arc joins a lower-depth node to a
    // higher-depth one, so this is a valid contraction order with the same arcs.
    std::vector<NodeId> order = contraction_order;
    std::vector<std::uint32_t> position(n_);
    for (std::size_t i = 0; i < order.size(); ++i)
      position[order[i]] = static_cast<std::uint32_t>(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](NodeId a, NodeId b) { return depth_[a] < depth_[b]; });
    ch.order = order;
    ch.rank.assign(n_, 0);
    for (std::size_t r = 0; r < n_; ++r) ch.rank[order[r]] = static_cast<std::uint32_t>(r);
    ch.level.resize(n_);
    for (std::size_t r = 0; r < n_; ++r) ch.level[r] = depth_[order[r]];
    const std::uint32_t levels = n_ == 0 ? 0 : ch.level.back() + 1;
    ch.level_first.assign(levels + 1, 0);
    for (std::size_t r = 0; r < n_; ++r) ++ch.level_first[ch.level[r] + 1];
    for (std::uint32_t l = 0; l < levels; ++l) ch.level_first[l + 1] += ch.level_first[l];

    const auto build = [&](const std::vector<std::vector<Arc>>& lists,
                           std::vector<std::uint32_t>& first, std::vector<std::uint32_t>& other,
                           std::vector<PathKey>& weight) {
      first.assign(n_ + 1, 0);
      for (std::size_t r = 0; r < n_; ++r)
        first[r + 1] = first[r] + static_cast<std::uint32_t>(lists[order[r]].size());
      other.resize(first[n_]);
      weight.resize(first[n_]);
      for (std::size_t r = 0; r < n_; ++r) {
        std::vector<Arc> arcs = lists[order[r]];
        for (Arc& a : arcs) a.other = ch.rank[a.other];
        std::sort(arcs.begin(), arcs.end(),
                  [](const Arc& a, const Arc& b) { return a.other < b.other; });
        for (std::size_t i = 0; i < arcs.size(); ++i) {
          other[first[r] + i] = arcs[i].other;
          weight[first[r] + i] = arcs[i].weight;
        }
      }
    };
    build(up_, ch.up_first_out, ch.up_head, ch.up_weight);
    build(down_, ch.down_first_in, ch.down_tail, ch.down_weight);
    if (stats != nullptr) {
      stats->shortcuts = added_;
      stats->levels = levels;
    }
    return ch;
  }

  std::size_t n_;
  ChBuildOptions options_;
  std::vector<std::vector<Arc>> out_, in_;   // remaining graph
  std::vector<std::vector<Arc>> up_, down_;  // arcs left when each node was contracted
  std::vector<std::uint8_t> contracted_;
  std::vector<std::int64_t> neighbours_done_;
  std::vector<std::uint32_t> depth_;
  std::vector<std::int64_t> priority_;
  WitnessSearch witness_;
  std::size_t added_ = 0;
};

[[noreturn]] void bad_ch(const std::string& field, const std::string& what) {
  throw Error(ErrorCode::InvalidInput, "contraction hierarchy: " + field + ": " + what);
}

void check_csr(const std::vector<std::uint32_t>& first, const std::vector<std::uint32_t>& other,
               const std::vector<PathKey>& weight, std::size_t n, const char* name) {
  const std::string f(name);
  if (first.size() != n + 1)
    bad_ch(f + "_first",
           "has " + std::to_string(first.size()) + " entries, expected " + std::to_string(n + 1));
  if (first.front() != 0) bad_ch(f + "_first[0]", "must be 0");
  if (first.back() != other.size() || weight.size() != other.size())
    bad_ch(f, "array sizes disagree");
  for (std::size_t r = 0; r < n; ++r) {
    if (first[r + 1] < first[r])
      bad_ch(f + "_first[" + std::to_string(r + 1) + "]", "offsets decrease");
    for (std::uint32_t a = first[r]; a < first[r + 1]; ++a)
      if (other[a] <= r || other[a] >= n)
        bad_ch(f + "[" + std::to_string(a) + "]",
               "arc of rank " + std::to_string(r) + " does not lead to a higher rank");
  }
}

// ---- serialisation ------------------------------------------------------------------------------

constexpr char kMagic[4] = {'R', 'S', 'C', 'H'};
constexpr std::uint32_t kVersion = 1;
static_assert(std::endian::native == std::endian::little,
              "serialisation assumes a little-endian host");

/// Writes into a buffer sized up front (GCC 12 reports false -Wstringop-overflow on many small
/// vector growths, so the buffer is allocated once).
class Writer {
 public:
  explicit Writer(std::size_t total) : bytes(total) {}
  template <typename T>
  void scalar(T v) {
    put(&v, sizeof(T));
  }
  template <typename T>
  void array(const std::vector<T>& v) {
    scalar<std::uint64_t>(v.size());
    put(v.data(), v.size() * sizeof(T));
  }
  template <typename T>
  static std::size_t size_of(const std::vector<T>& v) {
    return sizeof(std::uint64_t) + v.size() * sizeof(T);
  }
  std::vector<std::uint8_t> bytes;

 private:
  void put(const void* src, std::size_t n) {
    if (n == 0) return;
    if (bytes.size() - at_ < n)
      throw Error(ErrorCode::Internal, "contraction hierarchy: serialisation size");
    std::memcpy(bytes.data() + at_, src, n);
    at_ += n;
  }
  std::size_t at_ = 0;
};

class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> b) : bytes_(b) {}
  template <typename T>
  T scalar(const char* field) {
    T v{};
    take(&v, sizeof(T), field);
    return v;
  }
  template <typename T>
  std::vector<T> array(const char* field) {
    const auto count = scalar<std::uint64_t>(field);
    if (count > (bytes_.size() - at_) / sizeof(T))
      bad_ch(field, "truncated (" + std::to_string(count) + " entries announced)");
    std::vector<T> v(count);
    take(v.data(), count * sizeof(T), field);
    return v;
  }
  [[nodiscard]] bool done() const { return at_ == bytes_.size(); }

 private:
  void take(void* dst, std::size_t n, const char* field) {
    if (bytes_.size() - at_ < n) bad_ch(field, "truncated");
    if (n > 0) std::memcpy(dst, bytes_.data() + at_, n);
    at_ += n;
  }
  std::span<const std::uint8_t> bytes_;
  std::size_t at_ = 0;
};

}  // namespace

std::uint64_t graph_fingerprint(const RoadGraph& graph) {
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a over 32-bit words
  const auto mix = [&h](std::uint64_t x) {
    for (int i = 0; i < 8; ++i) {
      h ^= (x >> (8 * i)) & 0xffu;
      h *= 0x100000001b3ull;
    }
  };
  mix(graph.node_count());
  mix(graph.arc_count());
  for (std::size_t u = 0; u < graph.node_count(); ++u) mix(graph.first_out[u + 1]);
  for (std::size_t a = 0; a < graph.arc_count(); ++a)
    mix((std::uint64_t{graph.head[a]} << 32) ^ graph.arc_key(a) ^ (graph.arc_key(a) >> 17));
  return h;
}

void ContractionHierarchy::validate() const {
  const std::size_t n = rank.size();
  if (order.size() != n) bad_ch("order", "size differs from rank");
  for (std::size_t v = 0; v < n; ++v)
    if (rank[v] >= n || order[rank[v]] != v)
      bad_ch("rank[" + std::to_string(v) + "]", "not a permutation");
  if (level.size() != n) bad_ch("level", "size differs from rank");
  if (n > 0) {
    if (level_first.size() != std::size_t{level.back()} + 2) bad_ch("level_first", "wrong size");
    for (std::size_t l = 0; l + 1 < level_first.size(); ++l)
      for (std::uint32_t r = level_first[l]; r < level_first[l + 1]; ++r)
        if (r >= n || level[r] != l)
          bad_ch("level_first[" + std::to_string(l) + "]", "does not match level");
    if (level_first.back() != n) bad_ch("level_first", "does not cover every node");
  }
  check_csr(up_first_out, up_head, up_weight, n, "up");
  check_csr(down_first_in, down_tail, down_weight, n, "down");
  for (std::size_t r = 0; r < n; ++r) {
    for (std::uint32_t a = up_first_out[r]; a < up_first_out[r + 1]; ++a)
      if (level[up_head[a]] <= level[r])
        bad_ch("up[" + std::to_string(a) + "]", "joins nodes of the same level");
    for (std::uint32_t a = down_first_in[r]; a < down_first_in[r + 1]; ++a)
      if (level[down_tail[a]] <= level[r])
        bad_ch("down[" + std::to_string(a) + "]", "joins nodes of the same level");
  }
}

std::vector<std::uint8_t> ContractionHierarchy::to_bytes() const {
  std::uint32_t magic = 0;
  std::memcpy(&magic, kMagic, sizeof magic);
  const std::size_t total =
      sizeof magic + sizeof kVersion + sizeof graph_fingerprint + Writer::size_of(rank) +
      Writer::size_of(order) + Writer::size_of(level) + Writer::size_of(level_first) +
      Writer::size_of(up_first_out) + Writer::size_of(up_head) + Writer::size_of(up_weight) +
      Writer::size_of(down_first_in) + Writer::size_of(down_tail) + Writer::size_of(down_weight);
  Writer w(total);
  w.scalar(magic);
  w.scalar(kVersion);
  w.scalar(graph_fingerprint);
  w.array(rank);
  w.array(order);
  w.array(level);
  w.array(level_first);
  w.array(up_first_out);
  w.array(up_head);
  w.array(up_weight);
  w.array(down_first_in);
  w.array(down_tail);
  w.array(down_weight);
  return std::move(w.bytes);
}

ContractionHierarchy ContractionHierarchy::from_bytes(std::span<const std::uint8_t> bytes) {
  Reader r(bytes);
  std::uint32_t magic = 0;
  std::memcpy(&magic, kMagic, sizeof magic);
  if (r.scalar<std::uint32_t>("magic") != magic)
    bad_ch("magic", "not a serialised contraction hierarchy");
  const auto version = r.scalar<std::uint32_t>("version");
  if (version != kVersion)
    bad_ch("version", std::to_string(version) + " (this build reads " + std::to_string(kVersion) +
                          "): rebuild it");
  ContractionHierarchy ch;
  ch.graph_fingerprint = r.scalar<std::uint64_t>("graph_fingerprint");
  ch.rank = r.array<std::uint32_t>("rank");
  ch.order = r.array<NodeId>("order");
  ch.level = r.array<std::uint32_t>("level");
  ch.level_first = r.array<std::uint32_t>("level_first");
  ch.up_first_out = r.array<std::uint32_t>("up_first_out");
  ch.up_head = r.array<std::uint32_t>("up_head");
  ch.up_weight = r.array<PathKey>("up_weight");
  ch.down_first_in = r.array<std::uint32_t>("down_first_in");
  ch.down_tail = r.array<std::uint32_t>("down_tail");
  ch.down_weight = r.array<PathKey>("down_weight");
  if (!r.done()) bad_ch("bytes", "trailing data after the last array");
  ch.validate();
  return ch;
}

ContractionHierarchy build_contraction_hierarchy(const RoadGraph& graph,
                                                 const ChBuildOptions& options,
                                                 ChBuildStats* stats) {
  const auto start = std::chrono::steady_clock::now();
  if (graph.node_count() >= kNoNode) throw invalid_input("graph", "too many nodes for 32-bit ids");
  Contractor contractor(graph, options);
  ContractionHierarchy ch = contractor.run(stats);
  ch.graph_fingerprint = graph_fingerprint(graph);
  if (stats != nullptr)
    stats->seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return ch;
}

PathKey ch_shortest_key(const ContractionHierarchy& ch, NodeId source, NodeId target) {
  const std::size_t n = ch.node_count();
  if (source >= n)
    throw invalid_input("source", "node " + std::to_string(source) + " out of range");
  if (target >= n)
    throw invalid_input("target", "node " + std::to_string(target) + " out of range");
  // Two complete upward searches (the graphs are small upward), then the best meeting node.
  const auto search = [&](std::uint32_t from, const std::vector<std::uint32_t>& first,
                          const std::vector<std::uint32_t>& other,
                          const std::vector<PathKey>& weight) {
    std::vector<std::pair<std::uint32_t, PathKey>> settled;
    std::vector<std::pair<PathKey, std::uint32_t>> heap{{0, from}};
    std::vector<std::pair<std::uint32_t, PathKey>> best{{from, 0}};
    const auto find = [&best](std::uint32_t v) -> PathKey* {
      for (auto& [node, key] : best)
        if (node == v) return &key;
      return nullptr;
    };
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end(), std::greater<>{});
      const auto [d, u] = heap.back();
      heap.pop_back();
      if (*find(u) != d) continue;
      settled.push_back({u, d});
      for (std::uint32_t a = first[u]; a < first[u + 1]; ++a) {
        const PathKey nd = saturating_add(d, weight[a]);
        PathKey* cur = find(other[a]);
        if (cur == nullptr) {
          best.push_back({other[a], nd});
        } else if (nd < *cur) {
          *cur = nd;
        } else {
          continue;
        }
        heap.push_back({nd, other[a]});
        std::push_heap(heap.begin(), heap.end(), std::greater<>{});
      }
    }
    std::sort(settled.begin(), settled.end());
    settled.erase(std::unique(settled.begin(), settled.end(),
                              [](const auto& a, const auto& b) { return a.first == b.first; }),
                  settled.end());
    return settled;
  };
  const auto fwd = search(ch.rank[source], ch.up_first_out, ch.up_head, ch.up_weight);
  const auto bwd = search(ch.rank[target], ch.down_first_in, ch.down_tail, ch.down_weight);
  PathKey best = kNoPath;
  std::size_t i = 0, j = 0;
  while (i < fwd.size() && j < bwd.size()) {
    if (fwd[i].first < bwd[j].first) {
      ++i;
    } else if (bwd[j].first < fwd[i].first) {
      ++j;
    } else {
      best = std::min(best, saturating_add(fwd[i].second, bwd[j].second));
      ++i;
      ++j;
    }
  }
  return best;
}

}  // namespace routesolve
