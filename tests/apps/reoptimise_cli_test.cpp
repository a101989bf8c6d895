// `routesolve reoptimise` replaying a generated day: 20 events (late drivers before they leave,
// cancelled orders, new orders), each followed by a re-optimisation from the previous plan at the
// event's time. Every plan must validate, and every step of the previous plan that began before
// now + the frozen horizon must still be where it was (same vehicle, same place in its route).

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "cli_runner.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using routesolve::test::run_tool;
using routesolve::test::ToolRun;

namespace {

constexpr long long kHorizon = 600;

json read_json(const fs::path& p) { return json::parse(std::ifstream(p)); }
void write_json(const fs::path& p, const json& j) { std::ofstream(p) << j.dump(); }

using Key = std::pair<std::string, long long>;  // (step type, id)

/// Per vehicle id: the (type, id) of its task and break steps that begin before `until`, in order.
std::map<long long, std::vector<Key>> frozen_prefixes(const json& plan, long long until) {
  std::map<long long, std::vector<Key>> out;
  for (const auto& route : plan["routes"]) {
    auto& keys = out[route["vehicle"].get<long long>()];
    for (const auto& step : route["steps"]) {
      const std::string type = step["type"];
      if (type == "start" || type == "end") continue;
      if (step["arrival"].get<long long>() >= until) break;
      keys.emplace_back(type, step["id"].get<long long>());
    }
    // Breaks alone are not frozen (the vehicle has not set out).
    if (std::all_of(keys.begin(), keys.end(), [](const Key& k) { return k.first == "break"; }))
      keys.clear();
  }
  return out;
}

std::vector<Key> steps_of(const json& plan, long long vehicle) {
  std::vector<Key> keys;
  for (const auto& route : plan["routes"])
    if (route["vehicle"].get<long long>() == vehicle)
      for (const auto& step : route["steps"])
        if (step["type"] != "start" && step["type"] != "end")
          keys.emplace_back(step["type"], step["id"].get<long long>());
  return keys;
}

}  // namespace

TEST(Reoptimise, ReplaysADayOfTwentyEventsWithoutMovingAFrozenStep) {
  const fs::path dir = routesolve::test::temp_dir("reoptimise", "day");
  const std::string net = (dir / "city.rsnet").string();
  ASSERT_EQ(run_tool("generate --trucks 6 --stops 60 --seed 3 -q --city-streets 24 -o " +
                     (dir / "day.json").string() + " --write-network " + net)
                .exit_code,
            0);
  json day = read_json(dir / "day.json");
  fs::path plan_file = dir / "plan_0.json";
  ToolRun first = run_tool("solve " + (dir / "day.json").string() + " --network " + net +
                           " -q --seed 1 -o " + plan_file.string());
  ASSERT_EQ(first.exit_code, 0) << first.out;

  long long next_id = 10000;
  int late = 0, cancelled = 0, added = 0;
  for (int event = 0; event < 20; ++event) {
    const long long now = 19800 + 1500LL * event;
    const json plan = read_json(plan_file);
    const auto frozen = frozen_prefixes(plan, now + kHorizon);
    bool done = false;
    if (event < 2 || event % 5 == 0) {
      // A driver who has not left yet starts half an hour late.
      for (auto& v : day["vehicles"]) {
        const long long id = v["id"];
        if (!frozen.count(id) || !frozen.at(id).empty()) continue;
        const long long start = std::max(v["time_window"][0].get<long long>(), now) + 1800;
        if (start >= v["time_window"][1].get<long long>()) continue;
        v["time_window"][0] = start;
        ++late;
        done = true;
        break;
      }
    }
    if (!done && event % 3 == 1) {
      // An order not yet frozen is cancelled.
      std::map<long long, bool> is_frozen;
      for (const auto& [vehicle, keys] : frozen)
        for (const auto& [type, id] : keys)
          if (type == "job") is_frozen[id] = true;
      auto& jobs = day["jobs"];
      for (std::size_t j = 0; j < jobs.size(); ++j)
        if (!is_frozen.count(jobs[j]["id"].get<long long>())) {
          jobs.erase(jobs.begin() + static_cast<long>(j));
          ++cancelled;
          done = true;
          break;
        }
    }
    if (!done) {
      // A new order for later today, at an existing customer's place.
      json job = day["jobs"][static_cast<std::size_t>(event) % day["jobs"].size()];
      job["id"] = next_id++;
      job["time_windows"] = json::array({json::array({now + 1800, 64800})});
      day["jobs"].push_back(job);
      ++added;
    }
    const fs::path day_file = dir / ("day_" + std::to_string(event + 1) + ".json");
    const fs::path next_plan = dir / ("plan_" + std::to_string(event + 1) + ".json");
    write_json(day_file, day);
    const ToolRun r =
        run_tool("reoptimise " + day_file.string() + " " + plan_file.string() + " --now " +
                 std::to_string(now) + " --frozen-horizon " + std::to_string(kHorizon) +
                 " --network " + net + " --seed 1 -o " + next_plan.string());
    ASSERT_EQ(r.exit_code, 0) << "event " << event << ": " << r.out;
    EXPECT_NE(r.out.find("tasks moved"), std::string::npos) << r.out;
    const ToolRun check =
        run_tool("validate " + day_file.string() + " " + next_plan.string() + " --network " + net);
    ASSERT_EQ(check.exit_code, 0) << "event " << event << ": " << check.out;
    const json replanned = read_json(next_plan);
    for (const auto& [vehicle, keys] : frozen) {
      const std::vector<Key> now_steps = steps_of(replanned, vehicle);
      ASSERT_GE(now_steps.size(), keys.size()) << "event " << event << ", vehicle " << vehicle;
      for (std::size_t k = 0; k < keys.size(); ++k)
        EXPECT_EQ(now_steps[k], keys[k])
            << "event " << event << ", vehicle " << vehicle << ", frozen step " << k;
    }
    plan_file = next_plan;
  }
  EXPECT_GE(late, 2);
  EXPECT_GE(cancelled, 3);
  EXPECT_GE(added, 3);
}

TEST(Geometry, RoutesFollowTheRoadsAsEncodedPolylines) {
  const fs::path dir = routesolve::test::temp_dir("geometry", "roads");
  const std::string net = (dir / "city.rsnet").string();
  ASSERT_EQ(run_tool("generate --trucks 2 --stops 8 --seed 5 -q --city-streets 12 -o " +
                     (dir / "day.json").string() + " --write-network " + net)
                .exit_code,
            0);
  const ToolRun r = run_tool("solve " + (dir / "day.json").string() + " --network " + net +
                             " -q --geometry -o " + (dir / "out.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json out = read_json(dir / "out.json");
  const json day = read_json(dir / "day.json");
  ASSERT_FALSE(out["routes"].empty());
  for (const auto& route : out["routes"]) {
    ASSERT_TRUE(route.contains("geometry"));
    const std::string g = route["geometry"];
    EXPECT_GT(g.size(), 10u);
    // The steps carry their cumulative road distance, growing along the route.
    long long last = -1;
    for (const auto& step : route["steps"]) {
      EXPECT_GE(step["distance"].get<long long>(), last);
      last = step["distance"];
    }
  }
  // The same through the problem's options, and none without either.
  json with_option = day;
  with_option["options"] = {{"g", true}};
  write_json(dir / "g.json", with_option);
  ASSERT_EQ(run_tool("solve " + (dir / "g.json").string() + " --network " + net + " -q -o " +
                     (dir / "out2.json").string())
                .exit_code,
            0);
  EXPECT_EQ(read_json(dir / "out2.json")["routes"][0]["geometry"], out["routes"][0]["geometry"]);
  ASSERT_EQ(run_tool("solve " + (dir / "day.json").string() + " --network " + net + " -q -o " +
                     (dir / "out3.json").string())
                .exit_code,
            0);
  EXPECT_FALSE(read_json(dir / "out3.json")["routes"][0].contains("geometry"));
}

TEST(ReoptimiseBadInput, TheStateOfTheDayNamesItsPathWithExitTwo) {
  const fs::path dir = routesolve::test::temp_dir("reoptimise", "bad_state");
  json day = json::parse(
      R"({"jobs":[{"id":1,"location_index":1,"delivery":[1]},{"id":2,"location_index":2,"delivery":[1]}],
    "vehicles":[{"id":1,"start_index":0,"end_index":0,"capacity":[2]}],
    "matrices":{"car":{"durations":[[0,10,20],[10,0,15],[20,15,0]]}}})");
  write_json(dir / "day.json", day);
  ASSERT_EQ(run_tool("solve " + (dir / "day.json").string() + " -q --seed 1 -o " +
                     (dir / "plan.json").string())
                .exit_code,
            0);
  struct Case {
    const char* what;
    json patch;  // merged into the problem
    const char* path;
  };
  const std::vector<Case> cases = {
      {"unknown done id", json::parse(R"({"done":[9]})"), "done[0]"},
      {"done twice", json::parse(R"({"done":[1,1]})"), "done[1]"},
      {"bad done type", json::parse(R"({"done":[{"type":"reload","id":1}]})"), "done[0].type"},
      {"location out of range",
       json::parse(
           R"({"vehicles":[{"id":1,"start_index":0,"end_index":0,"capacity":[2],"current_location_index":7}]})"),
       "vehicles[0].current_location"},
      {"load over capacity",
       json::parse(
           R"({"vehicles":[{"id":1,"start_index":0,"end_index":0,"capacity":[2],"current_load":[3]}]})"),
       "vehicles[0].current_load[0]"},
  };
  for (const Case& c : cases) {
    json bad = day;
    bad.merge_patch(c.patch);
    write_json(dir / "bad.json", bad);
    const ToolRun r = run_tool("reoptimise " + (dir / "bad.json").string() + " " +
                               (dir / "plan.json").string() + " --now 5 -q");
    EXPECT_EQ(r.exit_code, 2) << c.what << ": " << r.out;
    EXPECT_NE(r.out.find(c.path), std::string::npos) << c.what << ": " << r.out;
  }
  // solve refuses the state of a day under way, naming the field.
  json with_done = day;
  with_done["done"] = json::array({1});
  write_json(dir / "done.json", with_done);
  const ToolRun s = run_tool("solve " + (dir / "done.json").string() + " -q");
  EXPECT_EQ(s.exit_code, 2) << s.out;
  EXPECT_NE(s.out.find("done"), std::string::npos) << s.out;
  // A valid state: the plan's first job done, the vehicle still at its place.
  const json plan = read_json(dir / "plan.json");
  const long long first = plan["routes"][0]["steps"][1]["id"];
  json ok = day;
  ok["done"] = json::array({first});
  ok["vehicles"][0]["current_location_index"] = first;  // job i is at location i
  write_json(dir / "ok.json", ok);
  const ToolRun r =
      run_tool("reoptimise " + (dir / "ok.json").string() + " " + (dir / "plan.json").string() +
               " --now 5 -q -o " + (dir / "next.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json next = read_json(dir / "next.json");
  ASSERT_EQ(next["routes"].size(), 1u);
  EXPECT_EQ(next["routes"][0]["steps"][0]["location_index"], first);
  EXPECT_EQ(next["summary"]["unassigned"], 0);
  for (const auto& step : next["routes"][0]["steps"]) EXPECT_NE(step.value("id", -1LL), first);
}
