// Packing the problem and solution batches into arenas (the layout the host twin and the
// device buffers share), and the layout of the prefix arrays and of a round's scratch.

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "routesolve/error.hpp"
#include "search_engine.hpp"

namespace routesolve::cuda::batched {
namespace {

using detail::DeviceSpan;
namespace ds = detail::batched;

template <typename T>
DeviceSpan<const T> at(const std::byte* base, std::size_t offset, std::size_t count) {
  return {reinterpret_cast<const T*>(base + offset), count};
}

}  // namespace

void PackedProblem::write_travel_table(std::byte* host, const std::byte* base) const {
  std::vector<TravelView> table(travel_count);
  for (std::uint32_t t = 0; t < travel_count; ++t)
    table[t] = TravelView{matrix_n[t], matrix_forms[t].durations.moved_to(base + matrix_durations[t]),
                          matrix_forms[t].distances.moved_to(base + matrix_distances[t]),
                          matrix_forms[t].costs.moved_to(base + matrix_costs[t])};
  std::memcpy(host + travel_table, table.data(), table.size() * sizeof(TravelView));
}

ProblemView PackedProblem::view(const std::byte* base) const {
  ProblemView v;
  v.tasks = tasks;
  v.vehicles = vehicles;
  v.dims = dims;
  v.neighbours = neighbours;
  v.travel = at<TravelView>(base, travel_table, travel_count);
  v.task_loc = at<std::int32_t>(base, task_loc, tasks);
  v.task_setup = at<std::int64_t>(base, task_setup, tasks);
  v.task_service = at<std::int64_t>(base, task_service, tasks);
  v.task_tw_start = at<std::int64_t>(base, task_tw_start, tasks);
  v.task_tw_end = at<std::int64_t>(base, task_tw_end, tasks);
  v.task_delivery = at<std::int64_t>(base, task_delivery, std::size_t{tasks} * dims);
  v.task_pickup = at<std::int64_t>(base, task_pickup, std::size_t{tasks} * dims);
  v.task_flags = at<std::uint32_t>(base, task_flags, tasks);
  v.task_sibling = at<std::int32_t>(base, task_sibling, tasks);
  v.veh_start = at<std::int32_t>(base, veh_start, vehicles);
  v.veh_end = at<std::int32_t>(base, veh_end, vehicles);
  v.veh_travel = at<std::uint32_t>(base, veh_travel, vehicles);
  v.veh_flags = at<std::uint32_t>(base, veh_flags, vehicles);
  v.veh_class = at<std::uint32_t>(base, veh_class, vehicles);
  v.veh_tw_start = at<std::int64_t>(base, veh_tw_start, vehicles);
  v.veh_tw_end = at<std::int64_t>(base, veh_tw_end, vehicles);
  v.veh_capacity = at<std::int64_t>(base, veh_capacity, std::size_t{vehicles} * dims);
  v.veh_max_tasks = at<std::int64_t>(base, veh_max_tasks, vehicles);
  v.veh_max_duration = at<std::int64_t>(base, veh_max_duration, vehicles);
  v.veh_max_distance = at<std::int64_t>(base, veh_max_distance, vehicles);
  v.veh_fixed = at<std::int64_t>(base, veh_fixed, vehicles);
  v.compatible = at<std::uint8_t>(base, compatible, std::size_t{vehicles} * tasks);
  v.neighbour = at<std::int32_t>(base, neighbour, std::size_t{travel_count} * tasks * neighbours);
  return v;
}

PackedProblem pack_problem(const Problem& problem, unsigned neighbours) {
  PackedProblem out;
  const std::size_t n_tasks = problem.tasks().size();
  const std::size_t n_veh = problem.vehicles().size();
  if (n_tasks >= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()) || n_veh == 0)
    throw Error(ErrorCode::Unsupported, "batched search: problem too large or without vehicles");
  out.tasks = static_cast<std::uint32_t>(n_tasks);
  out.vehicles = static_cast<std::uint32_t>(n_veh);
  out.dims = static_cast<std::uint32_t>(problem.dimensions());
  out.priced_anything = out.dims <= ds::kMaxDims;
  out.neighbours = static_cast<std::uint32_t>(std::min<std::size_t>(neighbours, n_tasks > 0 ? n_tasks - 1 : 0));
  out.travel_count = static_cast<std::uint32_t>(problem.travel_count());
  Arena& a = out.arena;

  out.travel_table = a.add<TravelView>(nullptr, out.travel_count);
  for (std::uint32_t t = 0; t < out.travel_count; ++t) {
    const TravelView tv = problem.travel_by_index(t);
    out.matrix_n.push_back(tv.n);
    // Each table as wide as the problem stores it (32 bits where the values fit), or the points
    // of a computed table (the arena then holds n points instead of n^2 entries).
    const auto add = [&](const TravelTable& m) {
      if (m.computed()) return a.add(static_cast<const PlanarPoint*>(m.data()), tv.n);
      return m.narrow() ? a.add(static_cast<const std::int32_t*>(m.data()), tv.n * tv.n)
                        : a.add(static_cast<const std::int64_t*>(m.data()), tv.n * tv.n);
    };
    out.matrix_durations.push_back(add(tv.durations));
    out.matrix_distances.push_back(add(tv.distances));
    out.matrix_costs.push_back(add(tv.costs));
    out.matrix_forms.push_back(tv);
  }

  const std::size_t dims = out.dims;
  std::vector<std::int32_t> loc(n_tasks);
  std::vector<std::int64_t> setup(n_tasks), service(n_tasks), tw_start(n_tasks), tw_end(n_tasks);
  std::vector<std::int64_t> delivery(n_tasks * dims), pickup(n_tasks * dims);
  std::vector<std::uint32_t> tflags(n_tasks);
  std::vector<std::int32_t> sibling(n_tasks, -1);
  for (std::size_t i = 0; i < n_tasks; ++i) {
    const Task& t = problem.task(i);
    loc[i] = static_cast<std::int32_t>(t.location);
    setup[i] = t.setup;
    service[i] = t.service;
    tw_start[i] = t.time_windows.front().start;  // first window only: see views.cuh
    tw_end[i] = t.time_windows.front().end;
    for (std::size_t d = 0; d < dims; ++d) {
      delivery[i * dims + d] = d < t.delivery.size() ? t.delivery[d] : 0;
      pickup[i * dims + d] = d < t.pickup.size() ? t.pickup[d] : 0;
    }
    tflags[i] = t.type == TaskType::Job ? 0u
                : t.type == TaskType::Pickup ? ds::kTaskShipment | ds::kTaskPickup
                                             : ds::kTaskShipment;
    if (t.sibling != kNone) sibling[i] = static_cast<std::int32_t>(t.sibling);
    if (t.type == TaskType::Pickup) ++out.pickups;
  }
  out.task_loc = a.add(loc);
  out.task_setup = a.add(setup);
  out.task_service = a.add(service);
  out.task_tw_start = a.add(tw_start);
  out.task_tw_end = a.add(tw_end);
  out.task_delivery = a.add(delivery);
  out.task_pickup = a.add(pickup);
  out.task_flags = a.add(tflags);
  out.task_sibling = a.add(sibling);

  std::vector<std::int32_t> vstart(n_veh), vend(n_veh);
  std::vector<std::uint32_t> vtravel(n_veh), vflags(n_veh), vclass(n_veh);
  std::vector<std::int64_t> vtw_start(n_veh), vtw_end(n_veh), cap(n_veh * dims), max_tasks(n_veh),
      max_dur(n_veh), max_dist(n_veh), fixed(n_veh);
  std::map<std::tuple<std::size_t, std::size_t, Duration, std::vector<std::uint32_t>>, std::uint32_t> classes;
  for (std::size_t v = 0; v < n_veh; ++v) {
    const Vehicle& veh = problem.vehicle(v);
    vstart[v] = veh.start == kNone ? -1 : static_cast<std::int32_t>(veh.start);
    vend[v] = veh.end == kNone ? -1 : static_cast<std::int32_t>(veh.end);
    vtravel[v] = static_cast<std::uint32_t>(veh.travel);
    vflags[v] = veh.breaks.empty() ? 0u : ds::kVehicleBreaks;
    // Tails may change vehicle (2-opt*) only within a class: same matrices, end, horizon, skills.
    const auto key = std::make_tuple(veh.travel, veh.end, veh.time_window.end, veh.skills);
    vclass[v] = classes.emplace(key, static_cast<std::uint32_t>(classes.size())).first->second;
    vtw_start[v] = veh.time_window.start;
    vtw_end[v] = veh.time_window.end;
    for (std::size_t d = 0; d < dims; ++d) cap[v * dims + d] = veh.capacity[d];
    max_tasks[v] = veh.max_tasks == kNone ? std::numeric_limits<std::int64_t>::max() / 4
                                          : static_cast<std::int64_t>(veh.max_tasks);
    max_dur[v] = veh.max_travel_time;
    max_dist[v] = veh.max_distance;
    fixed[v] = problem.fixed_cost(v);
  }
  out.veh_start = a.add(vstart);
  out.veh_end = a.add(vend);
  out.veh_travel = a.add(vtravel);
  out.veh_flags = a.add(vflags);
  out.veh_class = a.add(vclass);
  out.veh_tw_start = a.add(vtw_start);
  out.veh_tw_end = a.add(vtw_end);
  out.veh_capacity = a.add(cap);
  out.veh_max_tasks = a.add(max_tasks);
  out.veh_max_duration = a.add(max_dur);
  out.veh_max_distance = a.add(max_dist);
  out.veh_fixed = a.add(fixed);

  std::vector<std::uint8_t> compat(n_veh * n_tasks);
  for (std::size_t v = 0; v < n_veh; ++v)
    for (std::size_t t = 0; t < n_tasks; ++t) compat[v * n_tasks + t] = problem.compatible(v, t) ? 1 : 0;
  out.compatible = a.add(compat);

  // Granular neighbourhoods: the K tasks closest by min(cost(u, v), cost(v, u)), per travel index.
  const std::size_t k = out.neighbours;
  std::vector<std::int32_t> near(std::size_t{out.travel_count} * n_tasks * std::max<std::size_t>(k, 1), -1);
  std::vector<std::pair<std::int64_t, std::int32_t>> order;
  for (std::uint32_t t = 0; t < out.travel_count && k > 0; ++t) {
    const TravelView tv = problem.travel_by_index(t);
    for (std::size_t u = 0; u < n_tasks; ++u) {
      order.clear();
      for (std::size_t w = 0; w < n_tasks; ++w) {
        if (w == u) continue;
        const std::size_t lu = loc[u], lw = loc[w];
        order.emplace_back(std::min(tv.cost(lu, lw), tv.cost(lw, lu)), static_cast<std::int32_t>(w));
      }
      std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end());
      for (std::size_t i = 0; i < k; ++i) near[(t * n_tasks + u) * k + i] = order[i].second;
    }
  }
  out.neighbour = a.add(near);

  out.write_travel_table(a.bytes.data(), a.bytes.data());
  return out;
}

BatchView PackedBatch::view(const std::byte* base) const {
  BatchView v;
  v.solutions = solutions;
  v.route_offsets = at<std::uint32_t>(base, route_offsets, std::size_t{routes} + 1);
  v.pos_task = at<std::int32_t>(base, pos_task, positions);
  v.pos_route = at<std::uint32_t>(base, pos_route, positions);
  v.task_pos = at<std::int32_t>(base, task_pos, std::size_t{solutions} * tasks);
  return v;
}

BatchOut PackedBatch::out_view(std::byte* base) const {
  BatchOut v;
  v.route_offsets = {reinterpret_cast<std::uint32_t*>(base + route_offsets), std::size_t{routes} + 1};
  v.pos_task = {reinterpret_cast<std::int32_t*>(base + pos_task), positions};
  v.pos_route = {reinterpret_cast<std::uint32_t*>(base + pos_route), positions};
  v.task_pos = {reinterpret_cast<std::int32_t*>(base + task_pos), std::size_t{solutions} * tasks};
  return v;
}

RouteSet unpack_solution(const PackedBatch& layout, const std::byte* base, std::uint32_t s,
                         std::uint32_t vehicles) {
  const BatchView b = layout.view(base);
  RouteSet rs(vehicles);
  for (std::uint32_t v = 0; v < vehicles; ++v) {
    const std::uint32_t r = s * vehicles + v;
    for (std::uint32_t pos = b.route_offsets[r] + 1; pos + 1 < b.route_offsets[r + 1]; ++pos)
      rs[v].push_back(b.pos_task[pos]);
  }
  return rs;
}

ApplyLayout::ApplyLayout(std::uint32_t solutions_, std::uint32_t tasks_, std::uint32_t routes_)
    : solutions(solutions_), tasks(tasks_), routes(routes_) {
  std::size_t at = 0;
  const auto place = [&at](std::size_t bytes) {
    const std::size_t here = at;
    at = (at + bytes + 255) / 256 * 256;
    return here;
  };
  const std::size_t st = std::size_t{solutions} * tasks;
  cand = place(st * sizeof(std::uint32_t));
  used = place(routes);
  spec = place(std::size_t{routes} * sizeof(ds::RouteSpec));
  active = place(solutions);
  applied = place(std::size_t{solutions} * sizeof(std::uint32_t));
  gain = place(std::size_t{solutions} * sizeof(std::int64_t));
  length = place((std::size_t{routes} + 1) * sizeof(std::uint32_t));
  total = at;
}

ApplyView ApplyLayout::view(std::byte* base, const Move* best) const {
  ApplyView a;
  const std::size_t st = std::size_t{solutions} * tasks;
  a.best = {best, st};
  a.cand = {reinterpret_cast<std::uint32_t*>(base + cand), st};
  a.used = {reinterpret_cast<std::uint8_t*>(base + used), routes};
  a.spec = {reinterpret_cast<ds::RouteSpec*>(base + spec), routes};
  a.active = {reinterpret_cast<std::uint8_t*>(base + active), solutions};
  a.applied = {reinterpret_cast<std::uint32_t*>(base + applied), solutions};
  a.gain = {reinterpret_cast<std::int64_t*>(base + gain), solutions};
  a.length = {reinterpret_cast<std::uint32_t*>(base + length), std::size_t{routes} + 1};
  return a;
}

PackedBatch pack_batch(const PackedProblem& problem, const std::vector<const RouteSet*>& solutions) {
  PackedBatch out;
  out.solutions = static_cast<std::uint32_t>(solutions.size());
  out.routes = out.solutions * problem.vehicles;
  out.tasks = problem.tasks;
  std::vector<std::uint32_t> offsets;
  offsets.reserve(out.routes + 1);
  std::vector<std::int32_t> pos_task;
  std::vector<std::uint32_t> pos_route;
  std::vector<std::int32_t> task_pos(std::size_t{out.solutions} * problem.tasks, -1);
  for (std::uint32_t s = 0; s < out.solutions; ++s) {
    const RouteSet& rs = *solutions[s];
    if (rs.size() != problem.vehicles)
      throw Error(ErrorCode::Internal, "batched search: a solution has the wrong number of routes");
    for (std::uint32_t v = 0; v < problem.vehicles; ++v) {
      const auto r = static_cast<std::uint32_t>(s * problem.vehicles + v);
      offsets.push_back(static_cast<std::uint32_t>(pos_task.size()));
      pos_task.push_back(-1);
      pos_route.push_back(r);
      for (const std::int32_t t : rs[v]) {
        task_pos[std::size_t{s} * problem.tasks + static_cast<std::size_t>(t)] =
            static_cast<std::int32_t>(pos_task.size());
        pos_task.push_back(t);
        pos_route.push_back(r);
      }
      pos_task.push_back(-1);
      pos_route.push_back(r);
    }
  }
  offsets.push_back(static_cast<std::uint32_t>(pos_task.size()));
  out.positions = static_cast<std::uint32_t>(pos_task.size());
  out.route_offsets = out.arena.add(offsets);
  out.pos_task = out.arena.add(pos_task);
  out.pos_route = out.arena.add(pos_route);
  out.task_pos = out.arena.add(task_pos);
  return out;
}

std::vector<std::int32_t> materialize(const BatchView& bv, const ds::RouteSpec& sp) {
  std::vector<std::int32_t> seq;
  const std::uint32_t r = bv.pos_route[sp.prefix];
  for (std::uint32_t pos = bv.route_offsets[r] + 1; pos <= sp.prefix; ++pos) seq.push_back(bv.pos_task[pos]);
  for (std::uint32_t k = 0; k < sp.pieces; ++k) {
    const ds::Piece& pc = sp.piece[k];
    if (pc.kind == ds::kPieceTasks) {
      for (std::uint32_t j = 0; j < pc.count; ++j) seq.push_back(pc.task[j]);
    } else {
      for (std::uint32_t j = 0; j <= pc.to - pc.from; ++j) {
        const std::uint32_t pos = pc.kind == ds::kPieceForward ? pc.from + j : pc.to - j;
        if (!ds::skipped(pc, pos)) seq.push_back(bv.pos_task[pos]);
      }
    }
  }
  const std::uint32_t slast = bv.route_offsets[sp.suffix_route + 1] - 1;
  for (std::uint32_t pos = sp.suffix; pos < slast; ++pos) seq.push_back(bv.pos_task[pos]);
  return seq;
}

namespace {
struct PrefixOffsets {
  std::size_t depart, cost, duration, distance, latest, prefix_load, suffix_load, shipments, ok, total;
  PrefixOffsets(std::uint32_t positions, std::uint32_t dims) {
    const std::size_t p = positions, w = std::size_t{3} * dims;
    std::size_t at = 0;
    const auto place = [&at](std::size_t bytes) {
      const std::size_t here = at;
      at = (at + bytes + 255) / 256 * 256;
      return here;
    };
    depart = place(p * 8);
    cost = place(p * 8);
    duration = place(p * 8);
    distance = place(p * 8);
    latest = place(p * 8);
    prefix_load = place(p * w * 8);
    suffix_load = place(p * w * 8);
    shipments = place(p * 4);
    ok = place(p);
    total = at;
  }
};
}  // namespace

std::size_t prefix_bytes(std::uint32_t positions, std::uint32_t dims) {
  return PrefixOffsets(positions, dims).total;
}

PrefixView prefix_view(std::byte* base, std::uint32_t positions, std::uint32_t dims) {
  const PrefixOffsets o(positions, dims);
  const std::size_t p = positions, w = std::size_t{3} * dims;
  PrefixView x;
  x.depart = {reinterpret_cast<std::int64_t*>(base + o.depart), p};
  x.cost = {reinterpret_cast<std::int64_t*>(base + o.cost), p};
  x.duration = {reinterpret_cast<std::int64_t*>(base + o.duration), p};
  x.distance = {reinterpret_cast<std::int64_t*>(base + o.distance), p};
  x.latest = {reinterpret_cast<std::int64_t*>(base + o.latest), p};
  x.prefix_load = {reinterpret_cast<std::int64_t*>(base + o.prefix_load), p * w};
  x.suffix_load = {reinterpret_cast<std::int64_t*>(base + o.suffix_load), p * w};
  x.shipments = {reinterpret_cast<std::uint32_t*>(base + o.shipments), p};
  x.ok = {reinterpret_cast<std::uint8_t*>(base + o.ok), p};
  return x;
}

}  // namespace routesolve::cuda::batched
