// A dispatch-style program: it builds the day's problem from its own data (depot, vans, orders
// with time windows, a travel-time matrix from its own source), solves it, then a new urgent
// order comes in and a van breaks down: it re-solves and prints what changed.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "routesolve/error.hpp"
#include "routesolve/solve.hpp"
#include "routesolve/validator.hpp"
#include "routesolve/version.hpp"

namespace rs = routesolve;

struct Order {
  rs::Id id;
  double x_km, y_km;  // the dispatcher's own map
  std::int64_t parcels;
  rs::Duration from_s, to_s;  // delivery window
};

// Travel times from the dispatcher's own data: 40 km/h on straight lines, in seconds.
rs::ProfileMatrices travel(const std::vector<Order>& places) {
  const std::size_t n = places.size();
  rs::ProfileMatrices m;
  m.durations = rs::Matrix(n);
  m.distances = rs::Matrix(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const double km =
          std::hypot(places[i].x_km - places[j].x_km, places[i].y_km - places[j].y_km);
      m.distances(i, j) = std::llround(km * 1000);
      m.durations(i, j) = std::llround(km / 40.0 * 3600);
    }
  return m;
}

std::shared_ptr<const rs::Problem> build(const std::vector<Order>& orders, std::size_t vans) {
  rs::ProblemSpec spec;
  std::vector<Order> places{{0, 0, 0, 0, 0, 0}};  // location 0: the depot
  for (std::size_t v = 0; v < vans; ++v) {
    rs::VehicleSpec van;
    van.id = v + 1;
    van.start = rs::LocationSpec{.index = 0, .coords = {}};
    van.end = van.start;
    van.capacity = rs::Amount{20};
    van.time_window = {8 * 3600, 18 * 3600};
    spec.vehicles.push_back(van);
  }
  for (const Order& o : orders) {
    rs::JobSpec job;
    job.id = o.id;
    job.location.index = places.size();
    job.delivery = rs::Amount{o.parcels};
    job.service = 300;
    job.time_windows = {{o.from_s, o.to_s}};
    spec.jobs.push_back(job);
    places.push_back(o);
  }
  spec.matrices["car"] = travel(places);
  return rs::Problem::create(std::move(spec));  // throws rs::Error naming the field at fault
}

void print(const char* title, const rs::Problem& problem, const rs::Solution& s) {
  std::printf("%s: cost %.0f, %zu routes, %zu unassigned\n", title,
              static_cast<double>(s.summary.cost) / problem.cost_scale(), s.summary.routes,
              s.summary.unassigned);
  for (const rs::Route& r : s.routes) {
    std::printf("  van %llu:", static_cast<unsigned long long>(r.vehicle_id));
    for (const rs::Step& step : r.steps)
      if (step.type == rs::StepType::Job) {
        const rs::Duration start = step.arrival + step.waiting_time;  // service starts
        std::printf(" %llu@%02lld:%02lld", static_cast<unsigned long long>(step.id),
                    static_cast<long long>(start / 3600),
                    static_cast<long long>(start % 3600 / 60));
      }
    std::printf("\n");
  }
}

int main() {
  std::printf("routesolve %s\n", rs::kVersion);
  std::vector<Order> orders;
  for (rs::Id i = 1; i <= 24; ++i) {
    const double angle = static_cast<double>(i) * 0.7;
    const rs::Duration open = (8 + static_cast<rs::Duration>(i % 4) * 2) * 3600;
    orders.push_back({100 + i, 12 * std::cos(angle), 9 * std::sin(angle * 1.3),
                      1 + static_cast<std::int64_t>(i % 3), open, open + 3 * 3600});
  }
  rs::SolveOptions options;
  options.backend = rs::BackendKind::Cpu;
  options.time_limit_s = 0.5;
  options.threads = 2;
  try {
    auto problem = build(orders, 4);
    rs::Solution morning = rs::solve(*problem, options);
    if (!rs::validate(*problem, morning).ok()) return 1;
    print("morning plan", *problem, morning);

    // 10:40: an urgent order, and van 4 is out of service.
    orders.push_back({999, 3.5, -2.0, 4, 11 * 3600, 12 * 3600});
    problem = build(orders, 3);
    const rs::Solution replanned = rs::solve(*problem, options);
    const rs::ValidationReport report = rs::validate(*problem, replanned);
    if (!report.ok()) {
      std::fprintf(stderr, "%s", report.to_text().c_str());
      return 1;
    }
    print("after the change", *problem, replanned);
  } catch (const rs::Error& e) {
    std::fprintf(stderr, "error (%s): %s\n", std::string(rs::to_string(e.code())).c_str(),
                 e.what());
    return rs::exit_code(e.code());
  }
  return 0;
}
