// Many-to-many travel matrices with Boost.Graph: compressed_sparse_row_graph built once, then
// dijkstra_shortest_paths_no_color_map per source on the (duration << 32 | length) key.
// Each search stops as soon as every target is settled (the visitor throws); sources are
// handed to the worker threads one at a time from an atomic counter, and each row depends on
// its source only, so the matrix is the same for any thread count.

#include "routesolve/network/dijkstra_matrix.hpp"

#include <algorithm>
#include <atomic>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/dijkstra_shortest_paths_no_color_map.hpp>
#include <boost/property_map/property_map.hpp>
#include <chrono>
#include <exception>
#include <functional>
#include <string>
#include <thread>
#include <utility>

#include "routesolve/error.hpp"

namespace routesolve::network {
namespace {

struct Arc {
  PathKey key = 0;
};

using Graph = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, Arc,
                                                 boost::no_property, NodeId, std::uint32_t>;

/// Path-key addition that saturates at kNoPath, so "no path" plus anything stays "no path".
struct SaturatingPlus {
  PathKey operator()(PathKey a, PathKey b) const noexcept {
    return (a == kNoPath || b == kNoPath || a > kNoPath - b) ? kNoPath : a + b;
  }
};

/// Thrown by the visitor to end a search once every target is settled.
struct AllTargetsSettled {};

/// Counts settled nodes and stops the search when the last target is settled.
class EarlyExitVisitor : public boost::default_dijkstra_visitor {
 public:
  EarlyExitVisitor(const std::vector<char>* is_target, std::size_t* remaining,
                   std::uint64_t* settled)
      : is_target_(is_target), remaining_(remaining), settled_(settled) {}

  void examine_vertex(NodeId u, const Graph& /*g*/) const {
    ++*settled_;
    if ((*is_target_)[u] && --*remaining_ == 0) throw AllTargetsSettled{};
  }

 private:
  const std::vector<char>* is_target_;
  std::size_t* remaining_;
  std::uint64_t* settled_;
};

Graph build_graph(const RoadGraph& road) {
  const std::size_t n = road.node_count();
  if (road.head.size() != road.duration.size() || road.head.size() != road.length.size())
    throw Error(ErrorCode::Internal, "road graph: head, duration and length differ in size");
  if (n > 0 && road.first_out.back() != road.head.size())
    throw Error(ErrorCode::Internal, "road graph: first_out does not end at the arc count");
  std::vector<std::pair<NodeId, NodeId>> edges;
  std::vector<Arc> arcs;
  edges.reserve(road.arc_count());
  arcs.reserve(road.arc_count());
  for (NodeId u = 0; u < n; ++u) {
    for (std::uint32_t a = road.first_out[u]; a < road.first_out[u + 1]; ++a) {
      if (road.head[a] >= n)
        throw Error(ErrorCode::Internal, "road graph: arc " + std::to_string(a) +
                                             " leads to node " + std::to_string(road.head[a]) +
                                             " of " + std::to_string(n));
      edges.emplace_back(u, road.head[a]);
      arcs.push_back(Arc{road.arc_key(a)});
    }
  }
  // The RoadGraph is already CSR, so its arcs come sorted by source.
  return Graph(boost::edges_are_sorted, edges.begin(), edges.end(), arcs.begin(),
               static_cast<NodeId>(n));
}

}  // namespace

struct DijkstraMatrixEngine::Impl {
  Graph graph;

  /// One Dijkstra from `source` into `dist` (size n), optionally recording predecessors;
  /// stops when `remaining` targets flagged in `is_target` are settled. Returns settled nodes.
  template <class PredecessorMap>
  std::uint64_t search(NodeId source, std::vector<PathKey>& dist, PredecessorMap pred,
                       const std::vector<char>& is_target, std::size_t remaining) const {
    std::uint64_t settled = 0;
    if (remaining == 0) return 0;
    const auto index = boost::get(boost::vertex_index, graph);
    try {
      boost::dijkstra_shortest_paths_no_color_map(
          graph, source, pred, boost::make_iterator_property_map(dist.begin(), index),
          boost::get(&Arc::key, graph), index, std::less<PathKey>(), SaturatingPlus(), kNoPath,
          PathKey{0}, EarlyExitVisitor(&is_target, &remaining, &settled));
    } catch (const AllTargetsSettled&) {
      // every target is final; the other labels are not needed
    }
    return settled;
  }

  void check_node(NodeId v, const char* what, std::size_t i) const {
    if (v >= boost::num_vertices(graph))
      throw invalid_input(std::string(what) + "[" + std::to_string(i) + "]",
                          "node " + std::to_string(v) + " is not in the network (" +
                              std::to_string(boost::num_vertices(graph)) + " nodes)");
  }
};

DijkstraMatrixEngine::DijkstraMatrixEngine(const RoadGraph& graph)
    : impl_(std::make_unique<Impl>(Impl{build_graph(graph)})) {}
DijkstraMatrixEngine::~DijkstraMatrixEngine() = default;
DijkstraMatrixEngine::DijkstraMatrixEngine(DijkstraMatrixEngine&&) noexcept = default;
DijkstraMatrixEngine& DijkstraMatrixEngine::operator=(DijkstraMatrixEngine&&) noexcept = default;

std::size_t DijkstraMatrixEngine::node_count() const noexcept {
  return boost::num_vertices(impl_->graph);
}
std::size_t DijkstraMatrixEngine::arc_count() const noexcept {
  return boost::num_edges(impl_->graph);
}

NodeMatrices DijkstraMatrixEngine::many_to_many(std::span<const NodeId> sources,
                                                std::span<const NodeId> targets, unsigned threads,
                                                MatrixStats* stats) const {
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t n = node_count();
  for (std::size_t i = 0; i < sources.size(); ++i) impl_->check_node(sources[i], "sources", i);
  for (std::size_t j = 0; j < targets.size(); ++j) impl_->check_node(targets[j], "targets", j);

  NodeMatrices m;
  m.rows = sources.size();
  m.cols = targets.size();
  m.durations.assign(m.rows * m.cols, kUnreachable);
  m.distances.assign(m.rows * m.cols, kUnreachable);

  std::vector<char> is_target(n, 0);
  std::size_t distinct_targets = 0;
  for (const NodeId t : targets)
    if (!is_target[t]) is_target[t] = 1, ++distinct_targets;

  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(
      std::min<std::size_t>(threads, std::max<std::size_t>(1, sources.size())));

  std::atomic<std::size_t> next{0};
  std::atomic<std::uint64_t> settled_total{0};
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  auto worker = [&] {
    try {
      std::vector<PathKey> dist(n);
      std::uint64_t settled = 0;
      for (std::size_t s = next++; s < sources.size() && !failed.load(); s = next++) {
        settled += impl_->search(sources[s], dist, boost::dummy_property_map(), is_target,
                                 distinct_targets);
        std::int64_t* dur = m.durations.data() + s * m.cols;
        std::int64_t* len = m.distances.data() + s * m.cols;
        for (std::size_t j = 0; j < m.cols; ++j) {
          const PathKey k = dist[targets[j]];
          if (k == kNoPath) continue;  // stays kUnreachable
          dur[j] = key_duration(k);
          len[j] = key_length(k);
        }
      }
      settled_total += settled;
    } catch (...) {
      if (!failed.exchange(true)) failure = std::current_exception();
    }
  };

  if (threads <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    pool.reserve(threads);
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (auto& th : pool) th.join();
  }
  if (failure) std::rethrow_exception(failure);

  if (stats != nullptr) {
    stats->settled_nodes = settled_total.load();
    stats->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    stats->threads = threads;
  }
  return m;
}

PathKey DijkstraMatrixEngine::shortest_key(NodeId from, NodeId to) const {
  impl_->check_node(from, "from", 0);
  impl_->check_node(to, "to", 0);
  std::vector<PathKey> dist(node_count());
  std::vector<char> is_target(node_count(), 0);
  is_target[to] = 1;
  impl_->search(from, dist, boost::dummy_property_map(), is_target, 1);
  return dist[to];
}

std::vector<NodeId> DijkstraMatrixEngine::path(NodeId from, NodeId to) const {
  impl_->check_node(from, "from", 0);
  impl_->check_node(to, "to", 0);
  const std::size_t n = node_count();
  std::vector<PathKey> dist(n);
  std::vector<NodeId> pred(n);
  std::vector<char> is_target(n, 0);
  is_target[to] = 1;
  impl_->search(from, dist,
                boost::make_iterator_property_map(pred.begin(),
                                                  boost::get(boost::vertex_index, impl_->graph)),
                is_target, 1);
  if (dist[to] == kNoPath) return {};
  std::vector<NodeId> nodes{to};
  // Boost sets pred[v] = v for every vertex at initialisation; the source keeps it.
  for (NodeId v = to; v != from; v = pred[v]) {
    if (pred[v] == v) throw Error(ErrorCode::Internal, "path: broken predecessor chain");
    nodes.push_back(pred[v]);
  }
  std::reverse(nodes.begin(), nodes.end());
  return nodes;
}

}  // namespace routesolve::network
