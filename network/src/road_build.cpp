// Cleaning every importer shares: self loops out, parallel arcs reduced to their best key, the
// largest strongly connected component kept (iterative Tarjan, safe on million-node graphs),
// nodes renumbered compactly, CSR arrays sorted by (tail, head) so imports are deterministic.

#include "routesolve/network/road_build.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "routesolve/error.hpp"
#include "routesolve/memory_budget.hpp"

namespace routesolve::network {

std::size_t strongly_connected_components(const std::vector<std::uint32_t>& first_out,
                                          const std::vector<NodeId>& head,
                                          std::vector<std::uint32_t>& component) {
  const std::size_t n = first_out.empty() ? 0 : first_out.size() - 1;
  constexpr std::uint32_t kUnvisited = 0xffffffffu;
  std::vector<std::uint32_t> order(n, kUnvisited), low(n, 0);
  std::vector<char> on_stack(n, 0);
  std::vector<NodeId> stack;                             // Tarjan's node stack
  std::vector<std::pair<NodeId, std::uint32_t>> frames;  // DFS: node and its next arc
  component.assign(n, 0);
  std::uint32_t counter = 0, count = 0;

  const auto visit = [&](NodeId v) {
    order[v] = low[v] = counter++;
    stack.push_back(v);
    on_stack[v] = 1;
    frames.emplace_back(v, first_out[v]);
  };
  for (NodeId s = 0; s < n; ++s) {
    if (order[s] != kUnvisited) continue;
    visit(s);
    while (!frames.empty()) {
      const NodeId v = frames.back().first;
      const std::uint32_t a = frames.back().second;
      if (a < first_out[v + 1]) {
        ++frames.back().second;
        const NodeId w = head[a];
        if (order[w] == kUnvisited) {
          visit(w);
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], order[w]);
        }
        continue;
      }
      if (low[v] == order[v]) {  // v roots a component: everything above it on the stack
        NodeId w;
        do {
          w = stack.back();
          stack.pop_back();
          on_stack[w] = 0;
          component[w] = count;
        } while (w != v);
        ++count;
      }
      frames.pop_back();
      if (!frames.empty()) {
        const NodeId u = frames.back().first;
        low[u] = std::min(low[u], low[v]);
      }
    }
  }
  return count;
}

namespace {

void fill_csr(std::size_t node_count, const std::vector<RawArc>& arcs, RoadGraph& g) {
  g.first_out.assign(node_count + 1, 0);
  for (const RawArc& a : arcs) ++g.first_out[a.tail + 1];
  for (std::size_t v = 0; v < node_count; ++v) g.first_out[v + 1] += g.first_out[v];
  g.head.resize(arcs.size());
  g.duration.resize(arcs.size());
  g.length.resize(arcs.size());
  for (std::size_t i = 0; i < arcs.size(); ++i) {  // arcs are sorted by tail: positions are i
    g.head[i] = arcs[i].head;
    g.duration[i] = arcs[i].duration;
    g.length[i] = arcs[i].length;
  }
}

}  // namespace

void check_network_memory(std::size_t node_count, std::size_t arc_count,
                          const std::string& source) {
  // Per node: CSR offsets (twice), component, new id, coordinates and the SCC search state;
  // per arc: the raw arc and the CSR arrays (twice). A small file can name node 4,000,000,000.
  const std::uint64_t needed =
      96 * static_cast<std::uint64_t>(node_count) + 48 * static_cast<std::uint64_t>(arc_count);
  check_memory(needed, source,
               std::to_string(node_count) + " nodes and " + std::to_string(arc_count) +
                   " arcs (node ids are dense: the largest id sets the node count)");
}

RoadNetwork build_network(std::size_t node_count, std::vector<RawArc> arcs,
                          std::vector<Coordinates> coords, std::string source,
                          std::chrono::steady_clock::time_point started) {
  RoadNetwork net;
  net.source = std::move(source);
  NetworkReport& report = net.report;
  report.nodes_read = node_count;
  report.arcs_read = arcs.size();
  if (node_count >= kNoNode) throw invalid_input(net.source, "too many nodes for 32-bit node ids");
  check_network_memory(node_count, arcs.size(), net.source);

  std::erase_if(arcs, [](const RawArc& a) { return a.tail == a.head; });
  std::sort(arcs.begin(), arcs.end(), [](const RawArc& a, const RawArc& b) {
    if (a.tail != b.tail) return a.tail < b.tail;
    if (a.head != b.head) return a.head < b.head;
    return make_path_key(a.duration, a.length) < make_path_key(b.duration, b.length);
  });
  arcs.erase(std::unique(arcs.begin(), arcs.end(),
                         [](const RawArc& a, const RawArc& b) {
                           return a.tail == b.tail && a.head == b.head;
                         }),
             arcs.end());
  if (arcs.empty()) throw invalid_input(net.source, "empty graph: no arcs between distinct nodes");

  RoadGraph all;
  fill_csr(node_count, arcs, all);
  std::vector<std::uint32_t> component;
  report.components = strongly_connected_components(all.first_out, all.head, component);

  // The largest component; among equals, the one holding the smallest node id.
  std::vector<std::uint32_t> size(report.components, 0);
  for (std::uint32_t c : component) ++size[c];
  const std::uint32_t largest = *std::max_element(size.begin(), size.end());
  std::uint32_t keep = 0;
  for (std::size_t v = 0; v < node_count; ++v) {
    if (size[component[v]] == largest) {
      keep = component[v];
      break;
    }
  }

  std::vector<NodeId> new_id(node_count, kNoNode);
  NodeId next = 0;
  for (std::size_t v = 0; v < node_count; ++v)
    if (component[v] == keep) new_id[v] = next++;
  std::vector<RawArc> kept;
  kept.reserve(arcs.size());
  for (const RawArc& a : arcs) {
    if (new_id[a.tail] == kNoNode || new_id[a.head] == kNoNode) continue;
    kept.push_back({new_id[a.tail], new_id[a.head], a.duration, a.length});
  }
  arcs.clear();
  arcs.shrink_to_fit();
  if (kept.empty())
    throw invalid_input(net.source, "empty graph: no strongly connected part with an arc");
  fill_csr(next, kept, net.graph);  // renumbering is monotone: still sorted by (tail, head)
  if (!coords.empty()) {
    net.graph.coords.resize(next);
    for (std::size_t v = 0; v < node_count; ++v)
      if (new_id[v] != kNoNode) net.graph.coords[new_id[v]] = coords[v];
  }

  report.nodes_kept = next;
  report.arcs_kept = kept.size();
  report.nodes_dropped = node_count - next;
  report.import_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return net;
}

}  // namespace routesolve::network
