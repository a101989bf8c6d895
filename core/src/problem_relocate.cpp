// Problem::relocated: the problem with its locations renumbered (see problem.hpp).

#include <map>
#include <memory>
#include <stdexcept>
#include <utility>

#include "routesolve/problem.hpp"

namespace routesolve {

namespace {

/// `m` with its rows and columns in `order` (entry (a, b) is m(order[a], order[b])), in m's width.
template <typename T>
std::vector<T> permuted(const T* m, std::size_t n, const std::vector<std::size_t>& order) {
  std::vector<T> out;
  out.reserve(n * n);  // not zero-filled: every entry is written once, row by row
  for (std::size_t a = 0; a < n; ++a) {
    const T* row = m + order[a] * n;
    for (std::size_t b = 0; b < n; ++b) out.push_back(row[order[b]]);
  }
  return out;
}

/// `m` with its rows and columns in `order`, its planar points (if any) in that order too: a
/// computed matrix stays computed (its permuted points are the permuted table).
Matrix permuted(const Matrix& m, const std::vector<std::size_t>& order) {
  if (m.empty()) return m;
  std::shared_ptr<PlanarSource> moved;
  if (const PlanarSource* planar = m.planar()) {
    moved = std::make_shared<PlanarSource>();
    moved->scale = planar->scale;
    moved->rounding = planar->rounding;
    moved->points.reserve(order.size());
    for (std::size_t l : order) moved->points.push_back(planar->points[l]);
  }
  if (m.computed()) return Matrix::from_points(std::move(moved));
  Matrix out = m.narrow() ? Matrix::from32(m.size(), permuted(m.data32(), m.size(), order))
                          : Matrix(m.size(), permuted(m.data64(), m.size(),
                                                      order));  // stays 64-bit: some entry needs it
  if (moved) out.set_planar(std::move(moved));
  return out;
}

}  // namespace

std::shared_ptr<const Problem> Problem::relocated(const std::vector<std::size_t>& order) const {
  const std::size_t n = locations_;
  if (order.size() != n)
    throw std::invalid_argument(
        "Problem::relocated: the order is not a permutation of the locations");
  std::vector<std::size_t> rank(n, kNone);
  for (std::size_t k = 0; k < n; ++k) {
    if (order[k] >= n || rank[order[k]] != kNone)
      throw std::invalid_argument(
          "Problem::relocated: the order is not a permutation of the locations");
    rank[order[k]] = k;
  }
  auto to = [&](std::size_t l) { return l < n ? rank[l] : l; };
  auto p = std::shared_ptr<Problem>(new Problem());

  // The spec: location indices renumbered, matrices permuted once per storage.
  p->spec_.jobs = spec_.jobs;
  p->spec_.shipments = spec_.shipments;
  p->spec_.vehicles = spec_.vehicles;
  p->spec_.scale = spec_.scale;
  p->spec_.planar_coordinates = spec_.planar_coordinates;
  p->spec_.geometry = spec_.geometry;
  p->spec_.done = spec_.done;
  p->spec_.balance = spec_.balance;
  p->spec_.name = spec_.name;
  p->spec_.source = spec_.source;
  auto renumber = [&](LocationSpec& l) {
    if (l.index) l.index = to(*l.index);
  };
  for (JobSpec& j : p->spec_.jobs) renumber(j.location);
  for (ShipmentSpec& s : p->spec_.shipments) {
    renumber(s.pickup.location);
    renumber(s.delivery.location);
  }
  for (VehicleSpec& v : p->spec_.vehicles) {
    if (v.start) renumber(*v.start);
    if (v.end) renumber(*v.end);
    if (v.current_location) renumber(*v.current_location);
    for (LocationSpec& l : v.reload_locations) renumber(l);
  }
  std::map<const void*, Matrix> matrices;  // old storage -> its permuted matrix
  auto reorder = [&](const Matrix& m) {
    if (m.empty()) return m;
    auto it = matrices.find(m.storage());
    if (it == matrices.end()) it = matrices.emplace(m.storage(), permuted(m, order)).first;
    return it->second;
  };
  for (const auto& [name, pm] : spec_.matrices) {
    ProfileMatrices& q = p->spec_.matrices[name];
    q.durations = reorder(pm.durations);
    q.distances = reorder(pm.distances);
    if (pm.costs) q.costs = reorder(*pm.costs);
  }

  // The indexed data: the same, at the new locations.
  p->tasks_ = tasks_;
  for (Task& t : p->tasks_) t.location = to(t.location);
  p->vehicles_ = vehicles_;
  for (Vehicle& v : p->vehicles_) {
    if (v.start != kNone) v.start = to(v.start);
    if (v.end != kNone) v.end = to(v.end);
  }
  p->profile_names_ = profile_names_;
  p->compatible_ = compatible_;
  p->compatible_row_ = compatible_row_;
  p->task_by_id_ = task_by_id_;
  p->vehicle_by_id_ = vehicle_by_id_;
  p->dimensions_ = dimensions_;
  p->locations_ = locations_;
  p->routable_tasks_ = routable_tasks_;
  p->has_distances_ = has_distances_;
  p->cost_scale_ = cost_scale_;
  p->route_rounding_ = route_rounding_;

  // The travel tables: a spec matrix's table points at its permuted matrix, a converted copy is
  // permuted into the new problem's own copy (the tables' storage: old pointer -> new table).
  std::map<const void*, TravelTable> tables;
  for (const auto& [old, m] : matrices) tables[old] = m.table();
  p->travel_.resize(travel_.size());
  for (std::size_t t = 0; t < travel_.size(); ++t) {
    const TravelData& from = travel_[t];
    TravelData& td = p->travel_[t];
    td.profile = from.profile;
    td.speed_factor = from.speed_factor;
    td.per_hour = from.per_hour;
    td.per_km = from.per_km;
    td.n = from.n;
    for (auto [own, mine] : {std::pair{&from.own_durations, &td.own_durations},
                             std::pair{&from.own_distances, &td.own_distances},
                             std::pair{&from.own_costs, &td.own_costs}}) {
      if (own->empty()) continue;
      *mine = permuted(own->data(), td.n, order);
      tables[own->data()] = TravelTable(mine->data());
    }
    auto place = [&](const TravelTable& table) {
      if (table == nullptr) return TravelTable();
      const auto it = tables.find(table.data());
      if (it == tables.end())
        throw std::logic_error("Problem::relocated: a travel table of unknown storage");
      return it->second;
    };
    td.durations = place(from.durations);
    td.distances = place(from.distances);
    td.costs = place(from.costs);
  }
  return p;
}

}  // namespace routesolve
