// The two timelines of schedule_route on routes worked out by hand: VROOM's (the earliest end,
// every step as late as it allows, then as early as possible from that departure) and the
// earliest one (leave at the shift start). Locations lie on a line: travel between i and j takes
// 10 * |i - j| and covers 100 * |i - j| (spec_builders.hpp). Both timelines must pass the
// validator.

#include <gtest/gtest.h>

#include "routesolve/problem.hpp"
#include "routesolve/solution.hpp"
#include "routesolve/validator.hpp"
#include "spec_builders.hpp"

namespace routesolve {
namespace {

using test::break_spec;
using test::job;
using test::line_spec;
using test::vehicle;

struct Timed {
  std::vector<StepType> type;
  std::vector<Duration> arrival, waiting, duration;
};

Timed timed(const Route& r) {
  Timed t;
  for (const Step& s : r.steps) {
    t.type.push_back(s.type);
    t.arrival.push_back(s.arrival);
    t.waiting.push_back(s.waiting_time);
    t.duration.push_back(s.duration);
  }
  return t;
}

/// Schedules `tasks` on vehicle 0 with `timeline`, checks that the validator accepts the route
/// as reported, and returns it.
Route scheduled(const ProblemSpec& spec, const std::vector<std::size_t>& tasks, Timeline timeline) {
  const auto p = Problem::create(spec);
  ScheduleResult r = schedule_route(*p, 0, tasks, timeline);
  EXPECT_TRUE(r.feasible);
  const Solution s = make_solution(*p, {r.route}, {});
  const ValidationReport report = validate(*p, s);
  EXPECT_TRUE(report.ok()) << to_string(timeline) << ":\n" << report.to_text();
  return r.route;
}

JobSpec windowed(Id id, std::size_t at, Duration service, std::vector<TimeWindow> windows) {
  JobSpec j = job(id, at, service);
  j.time_windows = std::move(windows);
  return j;
}

// Start 0, A at 2 (service 5, [100, 200]), B at 4 (service 5, [150, 300]), back to 0.
// Earliest: leave 0, A reached 20 (waits 80), B reached 125 (waits 25), end 195.
// VROOM: end 195; B begins at 195 - 40 - 5 = 150, A at 150 - 20 - 5 = 125, so leave at 105 and
// wait nowhere.
TEST(Timeline, WindowsGiveTheLatestDeparture) {
  ProblemSpec spec = line_spec(6);
  spec.jobs = {windowed(1, 2, 5, {{100, 200}}), windowed(2, 4, 5, {{150, 300}})};
  spec.vehicles.push_back(vehicle(1, 0, 0));
  const Timed vroom = timed(scheduled(spec, {0, 1}, Timeline::Vroom));
  EXPECT_EQ(vroom.arrival, (std::vector<Duration>{105, 125, 150, 195}));
  EXPECT_EQ(vroom.waiting, (std::vector<Duration>{0, 0, 0, 0}));
  EXPECT_EQ(vroom.duration, (std::vector<Duration>{0, 20, 40, 80}));
  const Timed earliest = timed(scheduled(spec, {0, 1}, Timeline::Earliest));
  EXPECT_EQ(earliest.arrival, (std::vector<Duration>{0, 20, 125, 195}));
  EXPECT_EQ(earliest.waiting, (std::vector<Duration>{0, 80, 25, 0}));
  EXPECT_EQ(earliest.duration, vroom.duration);

  const auto p = Problem::create(spec);
  const Route v = schedule_route(*p, 0, {0, 1}, Timeline::Vroom).route;
  const Route e = schedule_route(*p, 0, {0, 1}, Timeline::Earliest).route;
  EXPECT_EQ(v.waiting_time, 0);
  EXPECT_EQ(e.waiting_time, 105);
  EXPECT_EQ(v.duration, e.duration);
  EXPECT_EQ(v.distance, e.distance);
  EXPECT_EQ(v.cost, e.cost);
  EXPECT_EQ(v.service, 10);
}

// A at 1 has windows [0, 20] and [500, 600], B at 2 has [300, 400]. Earliest: A at 10, B reached
// 20 (waits 280), end 320. VROOM: B begins at 300; A's latest begin is 290, which only its first
// window admits, so A begins at 20 (its end) and the vehicle leaves at 10: B reached 30, waits 270.
TEST(Timeline, SeveralWindowsTakeTheLastOneThatOpensInTime) {
  ProblemSpec spec = line_spec(6);
  spec.jobs = {windowed(1, 1, 0, {{0, 20}, {500, 600}}), windowed(2, 2, 0, {{300, 400}})};
  spec.vehicles.push_back(vehicle(1, 0, 0));
  const Timed vroom = timed(scheduled(spec, {0, 1}, Timeline::Vroom));
  EXPECT_EQ(vroom.arrival, (std::vector<Duration>{10, 20, 30, 320}));
  EXPECT_EQ(vroom.waiting, (std::vector<Duration>{0, 0, 270, 0}));
  const Timed earliest = timed(scheduled(spec, {0, 1}, Timeline::Earliest));
  EXPECT_EQ(earliest.arrival, (std::vector<Duration>{0, 10, 20, 320}));
  EXPECT_EQ(earliest.waiting, (std::vector<Duration>{0, 0, 280, 0}));
}

// One break (service 10, window [50, 60], max_load 5) and job A at 3 (delivery 5, setup 7,
// window [200, 300]); capacity 10. The break can only be on the first leg (from A the window has
// closed). Earliest: leave 0, drive the leg (30), wait 20, break 50-60, A reached 60, waits 140,
// begins 200, leaves 207, end 237. VROOM: A begins at 237 - 30 - 7 = 200; the break ends at its
// window's latest 60 + 10 = 70, before it the vehicle would wait, so it leaves at 60, breaks at
// once (60-70), reaches A at 100 and waits 100.
TEST(Timeline, BreakBeforeAWindowWithMaxLoadAndSetup) {
  ProblemSpec spec = line_spec(6);
  JobSpec a = windowed(1, 3, 0, {{200, 300}});
  a.setup = 7;
  a.delivery = Amount{5};
  spec.jobs = {a};
  VehicleSpec v = vehicle(1, 0, 0);
  v.capacity = Amount{10};
  BreakSpec b = break_spec(9, 10, {{50, 60}});
  b.max_load = Amount{5};
  v.breaks = {b};
  spec.vehicles.push_back(v);
  const Timed vroom = timed(scheduled(spec, {0}, Timeline::Vroom));
  EXPECT_EQ(vroom.type, (std::vector<StepType>{StepType::Start, StepType::Break, StepType::Job,
                                               StepType::End}));
  EXPECT_EQ(vroom.arrival, (std::vector<Duration>{60, 60, 100, 237}));
  EXPECT_EQ(vroom.waiting, (std::vector<Duration>{0, 0, 100, 0}));
  EXPECT_EQ(vroom.duration, (std::vector<Duration>{0, 0, 30, 60}));
  const Timed earliest = timed(scheduled(spec, {0}, Timeline::Earliest));
  EXPECT_EQ(earliest.arrival, (std::vector<Duration>{0, 30, 60, 237}));
  EXPECT_EQ(earliest.waiting, (std::vector<Duration>{0, 20, 140, 0}));
  EXPECT_EQ(earliest.duration, (std::vector<Duration>{0, 30, 30, 60}));
}

// The break's max_load keeps it after the last delivery: capacity 10, A at 3 (delivery 5, service
// 10, window [200, 300]), B at 5 (delivery 5, service 10), break (service 30, window [100, 400],
// max_load 0). Earliest: A reached 30 (waits 170), B 230, break at once when leaving B (240-270),
// end 320. VROOM: the break's latest begin 290 is in its window, B's latest begin 290 - 50 - 10 =
// 230, A's 200, so the vehicle leaves at 170 and the break still comes first on the last leg.
TEST(Timeline, BreakAfterTheLastDeliveryForItsMaxLoad) {
  ProblemSpec spec = line_spec(6);
  JobSpec a = windowed(1, 3, 10, {{200, 300}});
  a.delivery = Amount{5};
  JobSpec b = job(2, 5, 10);
  b.delivery = Amount{5};
  spec.jobs = {a, b};
  VehicleSpec v = vehicle(1, 0, 0);
  v.capacity = Amount{10};
  BreakSpec br = break_spec(9, 30, {{100, 400}});
  br.max_load = Amount{0};
  v.breaks = {br};
  spec.vehicles.push_back(v);
  const Timed vroom = timed(scheduled(spec, {0, 1}, Timeline::Vroom));
  EXPECT_EQ(vroom.type, (std::vector<StepType>{StepType::Start, StepType::Job, StepType::Job,
                                               StepType::Break, StepType::End}));
  EXPECT_EQ(vroom.arrival, (std::vector<Duration>{170, 200, 230, 240, 320}));
  EXPECT_EQ(vroom.waiting, (std::vector<Duration>{0, 0, 0, 0, 0}));
  const Timed earliest = timed(scheduled(spec, {0, 1}, Timeline::Earliest));
  EXPECT_EQ(earliest.arrival, (std::vector<Duration>{0, 30, 230, 240, 320}));
  EXPECT_EQ(earliest.waiting, (std::vector<Duration>{0, 170, 0, 0, 0}));
}

// A break whose window closes before the next stop's latest begin begins at that window's end,
// the leg driven after it: start 0, A at 5 (window [300, 400]), break (service 20, window
// [0, 100]). Earliest: break at once (0-20), A reached 70, waits 230. VROOM: A begins at 300; the
// break's latest begin 280 is past its window, so it begins at 100 (ends 120) with the whole leg
// (50) driven after it: leave at 100, break at once, A reached 170, waits 130.
TEST(Timeline, BreakWindowClosingEarlyIsDrivenAround) {
  ProblemSpec spec = line_spec(6);
  spec.jobs = {windowed(1, 5, 0, {{300, 400}})};
  VehicleSpec v = vehicle(1, 0, 0);
  v.breaks = {break_spec(9, 20, {{0, 100}})};
  spec.vehicles.push_back(v);
  const Timed vroom = timed(scheduled(spec, {0}, Timeline::Vroom));
  EXPECT_EQ(vroom.arrival, (std::vector<Duration>{100, 100, 170, 350}));
  EXPECT_EQ(vroom.waiting, (std::vector<Duration>{0, 0, 130, 0}));
  const Timed earliest = timed(scheduled(spec, {0}, Timeline::Earliest));
  EXPECT_EQ(earliest.arrival, (std::vector<Duration>{0, 0, 70, 350}));
  EXPECT_EQ(earliest.waiting, (std::vector<Duration>{0, 0, 230, 0}));
}

// Without a start, the route begins at its first task: VROOM's reaches it when its window opens.
TEST(Timeline, OpenStartBeginsAtTheFirstTask) {
  ProblemSpec spec = line_spec(6);
  spec.jobs = {windowed(1, 2, 0, {{100, 200}})};
  spec.vehicles.push_back(vehicle(1, std::nullopt, 0));
  const Timed vroom = timed(scheduled(spec, {0}, Timeline::Vroom));
  EXPECT_EQ(vroom.arrival, (std::vector<Duration>{100, 120}));
  EXPECT_EQ(vroom.waiting, (std::vector<Duration>{0, 0}));
  const Timed earliest = timed(scheduled(spec, {0}, Timeline::Earliest));
  EXPECT_EQ(earliest.arrival, (std::vector<Duration>{0, 120}));
  EXPECT_EQ(earliest.waiting, (std::vector<Duration>{100, 0}));
}

// The shift start bounds the departure: with no slack both timelines agree.
TEST(Timeline, NoSlackMeansBothAgree) {
  ProblemSpec spec = line_spec(6);
  spec.jobs = {job(1, 2, 5), job(2, 4, 5)};
  VehicleSpec v = vehicle(1, 0, 0);
  v.time_window = {1000, 5000};
  spec.vehicles.push_back(v);
  const Timed vroom = timed(scheduled(spec, {0, 1}, Timeline::Vroom));
  const Timed earliest = timed(scheduled(spec, {0, 1}, Timeline::Earliest));
  EXPECT_EQ(vroom.arrival, (std::vector<Duration>{1000, 1020, 1045, 1090}));
  EXPECT_EQ(vroom.arrival, earliest.arrival);
}

TEST(Timeline, NamesRoundTrip) {
  EXPECT_EQ(timeline_from_string("vroom"), Timeline::Vroom);
  EXPECT_EQ(timeline_from_string("earliest"), Timeline::Earliest);
  EXPECT_FALSE(timeline_from_string("latest").has_value());
  EXPECT_EQ(to_string(Timeline::Earliest), "earliest");
}

}  // namespace
}  // namespace routesolve
