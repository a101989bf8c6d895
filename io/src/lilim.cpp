// Li & Lim PDPTW instances:
//
//   25  200  1                                      vehicles, capacity, speed
//   0   40   50   0   0   1236  0   0   0           the depot (id 0)
//   1   45   68  -10  912  967  90  11  0           id x y demand ready due service pickup delivery
//
// A pickup has pickup_index 0 and delivery_index = its delivery's id (demand >= 0); a delivery
// has pickup_index = its pickup's id (demand = -the pickup's). Each pair becomes a shipment whose
// steps keep the line ids. Distances and times follow parse_solomon's conventions. The speed
// column is ignored: travel time = distance, as in the published best solutions (several files
// state a speed of 0).

#include <cmath>
#include <string>
#include <vector>

#include "routesolve/io/benchmark_formats.hpp"
#include "text.hpp"

namespace routesolve::io {

namespace {

using detail::TextReader;

struct Row {
  std::size_t line = 0;
  Coordinates xy;
  std::int64_t demand = 0;
  double ready = 0, due = 0, service = 0;
  std::int64_t pickup = 0, delivery = 0;
};

}  // namespace

ProblemSpec parse_lilim(std::string_view text, const std::string& source,
                        bool truncate_one_decimal) {
  TextReader in(text, source);
  const std::int64_t factor = detail::planar_scale(truncate_one_decimal);
  auto scaled = [&](double v) {
    return static_cast<std::int64_t>(std::llround(v * static_cast<double>(factor)));
  };

  if (!in.next_nonblank_line()) in.fail("empty file: expected 'vehicles capacity speed'");
  const auto head = in.tokens();
  if (head.size() != 3)
    in.fail("expected 'vehicles capacity speed', got " + std::to_string(head.size()) + " values");
  const std::int64_t number = in.int_field(head[0], "vehicles");
  const std::int64_t capacity = in.int_field(head[1], "capacity");
  const double speed = in.number_field(head[2], "speed");
  if (number < 1 || number > 100000)
    in.fail("vehicles: " + std::to_string(number) + " outside 1..100000");
  if (capacity < 0) in.fail("capacity: must not be negative, got " + std::to_string(capacity));
  if (speed < 0) in.fail("speed: must not be negative, got " + std::string(head[2]));

  std::vector<Row> rows;
  while (in.next_nonblank_line()) {
    const auto t = in.tokens();
    if (t.size() != 9)
      in.fail("expected 9 values (id x y demand ready due service pickup delivery), got " +
              std::to_string(t.size()));
    const std::int64_t id = in.int_field(t[0], "id");
    if (id != static_cast<std::int64_t>(rows.size()))
      in.fail("id: expected " + std::to_string(rows.size()) + ", got " + std::string(t[0]));
    Row r;
    r.line = in.line_number();
    r.xy = Coordinates{in.number_field(t[1], "x"), in.number_field(t[2], "y")};
    r.demand = in.int_field(t[3], "demand");
    r.ready = in.number_field(t[4], "ready");
    r.due = in.number_field(t[5], "due");
    r.service = in.number_field(t[6], "service");
    r.pickup = in.int_field(t[7], "pickup_index");
    r.delivery = in.int_field(t[8], "delivery_index");
    if (r.ready < 0 || r.due < r.ready)
      in.fail("ready/due: invalid time window [" + std::string(t[4]) + ", " + std::string(t[5]) +
              "]");
    if (r.service < 0) in.fail("service: must not be negative, got " + std::string(t[6]));
    rows.push_back(r);
  }
  if (rows.empty()) in.fail("no depot line (id 0)");
  const std::size_t n = rows.size();

  // Pairing: every pickup points at a delivery that points back, with the opposite demand.
  auto check_index = [&](const Row& r, std::int64_t index, std::string_view field) {
    if (index < 0 || static_cast<std::size_t>(index) >= n)
      in.fail(std::string(field) + ": " + std::to_string(index) + " is not a line id (0.." +
                  std::to_string(n - 1) + ")",
              r.line);
  };
  const Row& depot = rows[0];
  if (depot.demand != 0 || depot.pickup != 0 || depot.delivery != 0)
    in.fail("the depot (id 0) must have demand, pickup_index and delivery_index 0", depot.line);
  for (std::size_t i = 1; i < n; ++i) {
    const Row& r = rows[i];
    check_index(r, r.pickup, "pickup_index");
    check_index(r, r.delivery, "delivery_index");
    const bool is_pickup = r.pickup == 0 && r.delivery != 0;
    const bool is_delivery = r.pickup != 0 && r.delivery == 0;
    if (!is_pickup && !is_delivery)
      in.fail("exactly one of pickup_index and delivery_index must be non-zero (got " +
                  std::to_string(r.pickup) + " and " + std::to_string(r.delivery) + ")",
              r.line);
    const auto partner = static_cast<std::size_t>(is_pickup ? r.delivery : r.pickup);
    const Row& p = rows[partner];
    if (is_pickup) {
      if (r.demand < 0)
        in.fail("demand: a pickup must have a non-negative demand, got " + std::to_string(r.demand),
                r.line);
      if (p.pickup != static_cast<std::int64_t>(i) || p.delivery != 0)
        in.fail("delivery_index: line " + std::to_string(partner) +
                    " is not the delivery of pickup " + std::to_string(i) +
                    " (its pickup_index is " + std::to_string(p.pickup) + ")",
                r.line);
      if (p.demand != -r.demand)
        in.fail("demand: the delivery " + std::to_string(partner) + " has demand " +
                    std::to_string(p.demand) + ", expected " + std::to_string(-r.demand),
                p.line);
    } else if (p.delivery != static_cast<std::int64_t>(i) || p.pickup != 0) {
      in.fail("pickup_index: line " + std::to_string(partner) + " is not the pickup of delivery " +
                  std::to_string(i) + " (its delivery_index is " + std::to_string(p.delivery) + ")",
              r.line);
    }
  }

  ProblemSpec spec;
  spec.source = source;
  spec.name = std::filesystem::path(source).stem().string();
  spec.planar_coordinates = true;
  auto location = [&](std::size_t i) { return LocationSpec{i, rows[i].xy}; };
  auto step = [&](std::size_t i) {
    ShipmentStepSpec s;
    s.id = static_cast<Id>(i);
    s.location = location(i);
    s.service = scaled(rows[i].service);
    s.time_windows = {TimeWindow{scaled(rows[i].ready), scaled(rows[i].due)}};
    return s;
  };
  for (std::size_t i = 1; i < n; ++i) {
    if (rows[i].pickup != 0) continue;  // deliveries join their pickups
    ShipmentSpec shipment;
    shipment.pickup = step(i);
    shipment.delivery = step(static_cast<std::size_t>(rows[i].delivery));
    shipment.amount = Amount{rows[i].demand};
    spec.shipments.push_back(std::move(shipment));
  }
  for (std::int64_t k = 0; k < number; ++k) {
    VehicleSpec v;
    v.id = static_cast<Id>(k + 1);
    v.start = location(0);
    v.end = location(0);
    v.capacity = Amount{capacity};
    v.time_window = TimeWindow{scaled(depot.ready), scaled(depot.due)};
    spec.vehicles.push_back(std::move(v));
  }

  std::vector<Coordinates> points;
  points.reserve(n);
  for (const Row& r : rows) points.push_back(r.xy);
  spec.matrices.emplace("car", detail::planar_matrices(points, truncate_one_decimal, source));
  const auto s = static_cast<double>(factor);
  spec.scale = UnitScale{s, s, s};
  return spec;
}

}  // namespace routesolve::io
