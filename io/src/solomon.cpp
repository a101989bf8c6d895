// Solomon and Gehring & Homberger VRPTW instances (one format):
//
//   C101
//   VEHICLE
//   NUMBER     CAPACITY
//     25         200
//   CUSTOMER
//   CUST NO.  XCOORD.   YCOORD.    DEMAND   READY TIME  DUE DATE   SERVICE   TIME
//       0      40         50          0          0       1236          0
//       1      45         68         10        912        967         90
//
// Customer 0 is the depot; its ready/due times are the vehicles' time window. Job id and matrix
// index = customer number. Travel time = distance = cost = Euclidean distance, stored x1000
// rounded (exact) or truncated to one decimal and stored x10; times are scaled alike.

#include <cmath>
#include <string>
#include <vector>

#include "routesolve/io/benchmark_formats.hpp"
#include "routesolve/text.hpp"
#include "text.hpp"

namespace routesolve::io {

namespace {

using detail::TextReader;

using text::upper;

// Moves to the next non-blank line and checks that it starts with `heading` (any case).
void expect_heading(TextReader& in, std::string_view heading) {
  if (!in.next_nonblank_line())
    in.fail("the file ends before the " + std::string(heading) + " heading");
  const auto tokens = in.tokens();
  if (upper(tokens.front()) != heading)
    in.fail("expected the " + std::string(heading) + " heading, got '" +
            std::string(detail::trim(in.line())) + "'");
}

bool numeric_line(const TextReader& in) {
  const auto tokens = in.tokens();
  return !tokens.empty() && detail::to_double(tokens.front()).has_value();
}

}  // namespace

ProblemSpec parse_solomon(std::string_view text, const std::string& source,
                          bool truncate_one_decimal) {
  TextReader in(text, source);
  const std::int64_t factor = detail::planar_scale(truncate_one_decimal);
  auto scaled = [&](double v) {
    return static_cast<std::int64_t>(std::llround(v * static_cast<double>(factor)));
  };

  ProblemSpec spec;
  spec.source = source;
  if (!in.next_nonblank_line()) in.fail("empty file: expected the instance name");
  spec.name = std::string(detail::trim(in.line()));
  spec.planar_coordinates = true;

  expect_heading(in, "VEHICLE");
  // "NUMBER CAPACITY" column headings, then the two values.
  if (!in.next_nonblank_line()) in.fail("the file ends before the vehicle NUMBER and CAPACITY");
  if (!numeric_line(in) && !in.next_nonblank_line())
    in.fail("the file ends before the vehicle NUMBER and CAPACITY");
  const auto fleet_tokens = in.tokens();
  if (fleet_tokens.size() != 2)
    in.fail("VEHICLE: expected 'NUMBER CAPACITY', got " + std::to_string(fleet_tokens.size()) +
            " values");
  const std::int64_t number = in.int_field(fleet_tokens[0], "VEHICLE NUMBER");
  const std::int64_t capacity = in.int_field(fleet_tokens[1], "VEHICLE CAPACITY");
  if (number < 1 || number > 100000)
    in.fail("VEHICLE NUMBER: " + std::to_string(number) + " outside 1..100000");
  if (capacity < 0)
    in.fail("VEHICLE CAPACITY: must not be negative, got " + std::to_string(capacity));

  expect_heading(in, "CUSTOMER");
  // Column headings (one or more non-numeric lines), then one row per customer.
  std::vector<Coordinates> points;
  bool in_rows = false;
  while (in.next_nonblank_line()) {
    if (!in_rows && !numeric_line(in)) continue;
    in_rows = true;
    const auto t = in.tokens();
    if (t.size() != 7)
      in.fail("CUSTOMER: expected 7 values (number x y demand ready due service), got " +
              std::to_string(t.size()));
    const std::int64_t id = in.int_field(t[0], "CUST NO.");
    if (id != static_cast<std::int64_t>(points.size()))
      in.fail("CUST NO.: expected customer " + std::to_string(points.size()) + ", got " +
              std::string(t[0]));
    const Coordinates xy{in.number_field(t[1], "XCOORD."), in.number_field(t[2], "YCOORD.")};
    const std::int64_t demand = in.int_field(t[3], "DEMAND");
    const double ready = in.number_field(t[4], "READY TIME");
    const double due = in.number_field(t[5], "DUE DATE");
    const double service = in.number_field(t[6], "SERVICE TIME");
    if (demand < 0) in.fail("DEMAND: must not be negative, got " + std::string(t[3]));
    if (ready < 0 || due < ready)
      in.fail("READY TIME / DUE DATE: invalid time window [" + std::string(t[4]) + ", " +
              std::string(t[5]) + "]");
    if (service < 0) in.fail("SERVICE TIME: must not be negative, got " + std::string(t[6]));
    points.push_back(xy);

    const LocationSpec location{static_cast<std::size_t>(id), xy};
    const TimeWindow window{scaled(ready), scaled(due)};
    if (id == 0) {
      if (demand != 0)
        in.fail("DEMAND: the depot (customer 0) has demand " + std::to_string(demand) +
                ", expected 0");
      for (std::int64_t k = 0; k < number; ++k) {
        VehicleSpec v;
        v.id = static_cast<Id>(k + 1);
        v.start = location;
        v.end = location;
        v.capacity = Amount{capacity};
        v.time_window = window;
        spec.vehicles.push_back(std::move(v));
      }
      continue;
    }
    JobSpec job;
    job.id = static_cast<Id>(id);
    job.location = location;
    job.service = scaled(service);
    job.delivery = Amount{demand};
    job.time_windows = {window};
    spec.jobs.push_back(std::move(job));
  }
  if (points.empty())
    in.fail("CUSTOMER: no rows (expected the depot, customer 0, then the customers)");

  spec.matrices.emplace("car", detail::planar_matrices(points, truncate_one_decimal, source));
  const auto s = static_cast<double>(factor);
  spec.scale = UnitScale{s, s, s};
  return spec;
}

}  // namespace routesolve::io
