// End-to-end tests of the routesolve tool: exit codes, outputs, and every solution it writes
// passed through the validator (in-process, reading the file back).

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_runner.hpp"
#include "routesolve/io/formats.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/network/matrix_provider.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/validator.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using namespace routesolve;

namespace {

using test::run_tool;
using test::ToolRun;

fs::path temp_dir(const std::string& name) { return test::temp_dir("cli", name); }

std::string example(const std::string& name) {
  return (test::source_dir() / "examples" / name).string();
}

void write_file(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

/// Reads a problem and a VROOM solution file and runs the validator on them.
ValidationReport validate_files(const fs::path& input, const fs::path& solution) {
  ProblemSpec spec = io::read_problem(input);
  network::fill_matrices(spec, network::GreatCircleProvider{});
  auto problem = Problem::create(std::move(spec));
  return validate(*problem, io::read_vroom_solution(solution, *problem));
}

}  // namespace

TEST(Cli, VersionAndHelp) {
  EXPECT_EQ(run_tool("--version").exit_code, 0);
  for (const char* sub : {"solve", "batch", "validate"}) {
    const ToolRun r = run_tool(std::string(sub) + " --help");
    EXPECT_EQ(r.exit_code, 0) << sub;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << r.out;
  }
  EXPECT_EQ(run_tool("").exit_code, 2);
  EXPECT_EQ(run_tool("solve").exit_code, 2);
  EXPECT_EQ(run_tool("solve x.json --backend gpu").exit_code, 2);
}

TEST(Cli, SolvesTheExampleWithMatricesAndTheOutputValidates) {
  const auto dir = temp_dir("example");
  const auto out = dir / "solution.json";
  const ToolRun r =
      run_tool("solve " + example("fleet.json") + " -o " + out.string() + " --quiet --seed 3");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(r.out.empty()) << "--quiet must print nothing: " << r.out;
  const auto report = validate_files(example("fleet.json"), out);
  EXPECT_TRUE(report.ok()) << report.to_text();
  const auto json = nlohmann::json::parse(std::ifstream(out));
  EXPECT_EQ(json["code"], 0);
  EXPECT_GE(json["routes"].size(), 1u);
  EXPECT_TRUE(json["summary"].contains("cost"));
  // The tool's own validate subcommand agrees.
  EXPECT_EQ(run_tool("validate " + example("fleet.json") + " " + out.string()).exit_code, 0);
}

TEST(Cli, SolvesCoordinatesOnlyWithAGreatCircleNote) {
  const auto dir = temp_dir("coords");
  const auto out = dir / "solution.json";
  const ToolRun r = run_tool("solve " + example("fleet_coordinates.json") + " -o " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("great-circle"), std::string::npos) << r.out;
  const auto report = validate_files(example("fleet_coordinates.json"), out);
  EXPECT_TRUE(report.ok()) << report.to_text();
  for (const char* fmt : {"geojson", "svg", "csv"}) {
    const ToolRun w =
        run_tool("solve " + example("fleet_coordinates.json") + " --quiet --output-format " + fmt +
                 " -o " + (dir / (std::string("out.") + fmt)).string());
    EXPECT_EQ(w.exit_code, 0) << fmt << ": " << w.out;
    EXPECT_GT(fs::file_size(dir / (std::string("out.") + fmt)), 100u) << fmt;
  }
}

TEST(Cli, OutputIsDeterministicForASeed) {
  const auto dir = temp_dir("determinism");
  // Byte-identical output is promised for a fixed amount of work (--time-limit 0 runs a fixed
  // iteration count); a wall-clock limit stops the search at a load-dependent moment.
  ASSERT_EQ(run_tool("solve " + example("fleet.json") + " --quiet --seed 9 --time-limit 0 -o " +
                     (dir / "a.json").string())
                .exit_code,
            0);
  ASSERT_EQ(run_tool("solve " + example("fleet.json") + " --quiet --seed 9 --time-limit 0 -o " +
                     (dir / "b.json").string())
                .exit_code,
            0);
  auto a = nlohmann::json::parse(std::ifstream(dir / "a.json"));
  auto b = nlohmann::json::parse(std::ifstream(dir / "b.json"));
  a["summary"].erase("computing_times");
  b["summary"].erase("computing_times");
  EXPECT_EQ(a["routes"], b["routes"]);
  EXPECT_EQ(a["summary"], b["summary"]);
}

TEST(Cli, ChainsAndIterationsGiveTheSameRoutesOnEveryBackendAndThreadCount) {
  const auto dir = temp_dir("chains");
  std::vector<nlohmann::json> outs;
  for (const char* run : {"--backend cpu --threads 2", "--backend cpu --threads 1",
                          "--backend cuda-host --threads 2"}) {
    const auto out = dir / (std::to_string(outs.size()) + ".json");
    const ToolRun r =
        run_tool("solve " + example("fleet.json") +
                 " --quiet --seed 4 --chains 2 --iterations 300 " + run + " -o " + out.string());
    ASSERT_EQ(r.exit_code, 0) << run << ": " << r.out;
    outs.push_back(nlohmann::json::parse(std::ifstream(out)));
  }
  for (const auto& o : outs) {
    EXPECT_EQ(o["routes"], outs.front()["routes"]);
    EXPECT_EQ(o["summary"]["cost"], outs.front()["summary"]["cost"]);
  }
}

TEST(Cli, TraceRecordsEveryImprovement) {
  const auto dir = temp_dir("trace");
  const auto trace = dir / "trace.csv";
  const ToolRun r =
      run_tool("solve " + example("fleet.json") + " --quiet --iterations 500 --trace " +
               trace.string() + " -o " + (dir / "out.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::ifstream in(trace);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(line, "elapsed_s,cost,routes,unassigned");
  double last_elapsed = -1.0, last_cost = 1e300;
  std::size_t rows = 0;
  while (std::getline(in, line)) {
    double elapsed = 0.0, cost = 0.0;
    ASSERT_EQ(std::sscanf(line.c_str(), "%lf,%lf", &elapsed, &cost), 2) << line;
    EXPECT_GE(elapsed, last_elapsed);
    EXPECT_LE(cost, last_cost)
        << "the best cost only improves (every task is routed in this example)";
    last_elapsed = elapsed;
    last_cost = cost;
    ++rows;
  }
  EXPECT_GE(rows, 1u);
  const auto json = nlohmann::json::parse(std::ifstream(dir / "out.json"));
  // The solution is the last best, polished once more after the search.
  EXPECT_GE(last_cost, json["summary"]["cost"].get<double>());
}

TEST(Cli, CudaWithoutADeviceIsAClearError) {
  const ToolRun r = run_tool("solve " + example("fleet.json") + " --backend cuda --quiet");
  if (r.exit_code == 0) GTEST_SKIP() << "a CUDA device is present: nothing to check";
  EXPECT_EQ(r.exit_code, 3) << r.out;
  EXPECT_NE(r.out.find("CUDA"), std::string::npos) << r.out;
  // auto falls back to the CPU backend.
  EXPECT_EQ(
      run_tool("solve " + example("fleet.json") + " --backend auto --quiet -o /dev/null").exit_code,
      0);
}

TEST(Cli, BadInputGetsExitCode2AndNamesTheFile) {
  const auto dir = temp_dir("bad");
  const std::pair<std::string, std::string> cases[] = {
      {"empty.json", ""},
      {"malformed.json", "{\"vehicles\": [ {\"id\": 1,,}]}"},
      {"garbage.json", std::string("\x7f\x45\x4c\x46\x02\x01\x01\x00\xff\xfe", 10)},
      {"negcap.json",
       R"({"vehicles":[{"id":1,"start_index":0,"capacity":[-3]}],"jobs":[{"id":1,"location_index":0}],"matrix":[[0]]})"},
      {"shape.json",
       R"({"vehicles":[{"id":1,"start_index":0}],"jobs":[{"id":1,"location_index":1}],"matrix":[[0,1],[1]]})"},
  };
  for (const auto& [name, text] : cases) {
    write_file(dir / name, text);
    const ToolRun r = run_tool("solve " + (dir / name).string() + " --quiet");
    EXPECT_EQ(r.exit_code, 2) << name << ": " << r.out;
    EXPECT_NE(r.out.find(name), std::string::npos) << "message must name the file: " << r.out;
  }
  const ToolRun missing = run_tool("solve " + (dir / "does-not-exist.json").string());
  EXPECT_EQ(missing.exit_code, 2) << missing.out;
  EXPECT_NE(missing.out.find("does-not-exist.json"), std::string::npos) << missing.out;
}

// --timeline: VROOM's by default, the earliest on request (or from the file's options, which the
// flag replaces); the same routes and cost, the default leaving later and waiting less.
TEST(Cli, TimelineFlagChoosesTheReportedTimes) {
  const auto dir = temp_dir("timeline");
  const auto vroom = dir / "vroom.json", earliest = dir / "earliest.json", flag = dir / "flag.json";
  ASSERT_EQ(run_tool("solve " + example("fleet.json") + " --quiet -o " + vroom.string()).exit_code,
            0);
  ASSERT_EQ(run_tool("solve " + example("fleet.json") + " --quiet --timeline earliest -o " +
                     earliest.string())
                .exit_code,
            0);
  EXPECT_TRUE(validate_files(example("fleet.json"), vroom).ok());
  EXPECT_TRUE(validate_files(example("fleet.json"), earliest).ok());
  const auto v = nlohmann::json::parse(std::ifstream(vroom)),
             e = nlohmann::json::parse(std::ifstream(earliest));
  EXPECT_EQ(v["summary"]["cost"], e["summary"]["cost"]);
  EXPECT_LT(v["summary"]["waiting_time"].get<long long>(),
            e["summary"]["waiting_time"].get<long long>());
  ASSERT_EQ(v["routes"].size(), e["routes"].size());
  for (std::size_t r = 0; r < v["routes"].size(); ++r) {
    ASSERT_EQ(v["routes"][r]["steps"].size(), e["routes"][r]["steps"].size());
    for (std::size_t k = 0; k < v["routes"][r]["steps"].size(); ++k)
      EXPECT_EQ(v["routes"][r]["steps"][k].value("id", -1),
                e["routes"][r]["steps"][k].value("id", -1));
  }
  auto problem = nlohmann::json::parse(std::ifstream(example("fleet.json")));
  problem["options"] = {{"timeline", "earliest"}};
  write_file(dir / "earliest_problem.json", problem.dump());
  ASSERT_EQ(run_tool("solve " + (dir / "earliest_problem.json").string() +
                     " --quiet --timeline vroom -o " + flag.string())
                .exit_code,
            0);
  EXPECT_EQ(nlohmann::json::parse(std::ifstream(flag))["routes"], v["routes"]);
}

TEST(Cli, ValidateReportsViolations) {
  const auto dir = temp_dir("validate");
  const auto out = dir / "solution.json";
  ASSERT_EQ(run_tool("solve " + example("fleet.json") + " --quiet -o " + out.string()).exit_code,
            0);
  auto json = nlohmann::json::parse(std::ifstream(out));
  ASSERT_FALSE(json["routes"].empty());
  // Break the arrival time of the first task step: the validator must say so and exit 1.
  auto& steps = json["routes"][0]["steps"];
  for (auto& step : steps)
    if (step["type"] == "job" || step["type"] == "pickup") {
      step["arrival"] = step["arrival"].get<long long>() - 1000;
      break;
    }
  write_file(dir / "broken.json", json.dump());
  const ToolRun r =
      run_tool("validate " + example("fleet.json") + " " + (dir / "broken.json").string());
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("routes[0]"), std::string::npos) << r.out;
}

TEST(Cli, BatchSolvesAFolderAndKeepsGoingPastFailures) {
  const auto dir = temp_dir("batch");
  const auto in = dir / "in";
  fs::create_directories(in);
  fs::copy_file(example("fleet.json"), in / "a.json");
  fs::copy_file(example("fleet_coordinates.json"), in / "b.json");
  write_file(in / "c.json", "{ not json");
  write_file(in / "notes.md", "ignored: not a fleet file extension");
  const ToolRun r =
      run_tool("batch " + in.string() + " --out-dir " + (dir / "out").string() + " --quiet");
  EXPECT_EQ(r.exit_code, 1) << "one file failed: " << r.out;
  EXPECT_NE(r.out.find("3 files, 2 ok, 1 failed"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(dir / "out" / "a.json"));
  EXPECT_TRUE(fs::exists(dir / "out" / "b.json"));
  EXPECT_TRUE(fs::exists(dir / "out" / "summary.csv"));
  EXPECT_TRUE(validate_files(in / "a.json", dir / "out" / "a.json").ok());
  // All good -> exit 0.
  fs::remove(in / "c.json");
  EXPECT_EQ(run_tool("batch " + in.string() + " --out-dir " + (dir / "out2").string() + " --quiet")
                .exit_code,
            0);
}

TEST(Cli, BenchmarkFormatsEndToEnd) {
  ROUTESOLVE_REQUIRE_DATASET("cvrp/augerat/A");
  const auto dir = temp_dir("formats");
  const auto ds = test::datasets_dir();
  const std::string inputs[] = {(ds / "cvrp/augerat/A/A-n32-k5.vrp").string(),
                                (ds / "vrptw/solomon/C101.txt").string(),
                                (ds / "pdptw/li_lim/lc101.txt").string()};
  for (const auto& input : inputs) {
    const auto out = dir / (fs::path(input).stem().string() + ".json");
    const ToolRun r = run_tool("solve " + input + " --quiet -o " + out.string());
    ASSERT_EQ(r.exit_code, 0) << input << ": " << r.out;
    const auto report = validate_files(input, out);
    EXPECT_TRUE(report.ok()) << input << ": " << report.to_text();
  }
  // CVRPLIB .sol output validates through the tool as well.
  const auto sol = dir / "A-n32-k5.sol";
  ASSERT_EQ(
      run_tool("solve " + inputs[0] + " --quiet --output-format sol -o " + sol.string()).exit_code,
      0);
  const ToolRun valid = run_tool("validate " + inputs[0] + " " + sol.string());
  EXPECT_EQ(valid.exit_code, 0) << valid.out;
  EXPECT_NE(valid.out.find("as its Cost line says"), std::string::npos) << valid.out;
  EXPECT_EQ(valid.out.find("cost 0.000"), std::string::npos)
      << "the cost is recomputed: " << valid.out;
  // A Cost line the routes do not add up to is refused, with its line; without one the routes'
  // cost is printed.
  std::string text;
  {
    std::ifstream in(sol);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const std::size_t cost_at = text.find("Cost ");
  ASSERT_NE(cost_at, std::string::npos);
  const std::size_t cost_line =
      1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + cost_at, '\n'));
  write_file(dir / "wrong.sol", text.substr(0, cost_at) + "Cost 1\n");
  const ToolRun wrong = run_tool("validate " + inputs[0] + " " + (dir / "wrong.sol").string());
  EXPECT_EQ(wrong.exit_code, 1) << wrong.out;
  EXPECT_NE(wrong.out.find("wrong.sol:" + std::to_string(cost_line) + ": Cost: the file says 1"),
            std::string::npos)
      << wrong.out;
  write_file(dir / "bare.sol", text.substr(0, cost_at));
  const ToolRun bare = run_tool("validate " + inputs[0] + " " + (dir / "bare.sol").string());
  EXPECT_EQ(bare.exit_code, 0) << bare.out;
  EXPECT_EQ(bare.out.find("cost 0.000"), std::string::npos) << bare.out;
}

TEST(Cli, DeviceCheckWithoutADeviceSaysWhyAndExits3) {
  const ToolRun help = run_tool("device-check --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("exit 0: all passed, 1: one failed, 3: no device"), std::string::npos)
      << help.out;
  const ToolRun r = run_tool("device-check");
  if (r.out.rfind("device ", 0) == 0) GTEST_SKIP() << "a CUDA device is present:\n" << r.out;
  EXPECT_EQ(r.exit_code, 3) << r.out;
  EXPECT_EQ(r.out.rfind("no CUDA device: ", 0), 0u) << r.out;
  EXPECT_GT(r.out.size(), std::string("no CUDA device: \n").size())
      << "the reason is named: " << r.out;
  EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << "one line: " << r.out;
}

TEST(Cli, FixedVehicleStepsStartTheirRoutesAndBadStepsExit2) {
  const auto dir = temp_dir("steps");
  auto problem = nlohmann::json::parse(std::ifstream(example("fleet.json")));
  // routesolve's extension: "fixed" keeps the steps up to it as the start of the route.
  problem["vehicles"][0]["steps"] = nlohmann::json::parse(
      R"([{"type": "start"}, {"type": "job", "id": 102}, {"type": "job", "id": 100, "service_after": 30000, "fixed": true}])");
  write_file(dir / "steps.json", problem.dump());
  const auto out = dir / "solution.json";
  const ToolRun r =
      run_tool("solve " + (dir / "steps.json").string() + " --quiet --seed 2 -o " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(validate_files(dir / "steps.json", out).ok());
  const auto json = nlohmann::json::parse(std::ifstream(out));
  bool found = false;
  for (const auto& route : json["routes"]) {
    if (route["vehicle"] != 1) continue;
    found = true;
    const auto& steps = route["steps"];
    ASSERT_GE(steps.size(), 4u);
    EXPECT_EQ(steps[1]["id"], 102);
    EXPECT_EQ(steps[2]["id"], 100);
    EXPECT_GE(steps[2]["arrival"].get<long long>() + steps[2]["waiting_time"].get<long long>(),
              30000);
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(run_tool("validate " + (dir / "steps.json").string() + " " + out.string()).exit_code,
            0);

  problem["vehicles"][0]["steps"][1]["id"] = 999;
  write_file(dir / "bad_steps.json", problem.dump());
  const ToolRun bad = run_tool("solve " + (dir / "bad_steps.json").string() + " --quiet");
  EXPECT_EQ(bad.exit_code, 2) << bad.out;
  EXPECT_NE(bad.out.find("vehicles[0].steps[1].id"), std::string::npos) << bad.out;
}

TEST(Cli, CheckModeReportsViolationsAndExits0) {
  const auto dir = temp_dir("check");
  auto problem = nlohmann::json::parse(std::ifstream(example("fleet.json")));
  // Job 106 opens at 39600, job 100 closes at 36000: served in this order, one of them breaks its
  // window. As VROOM's plan mode, the times minimise the violations first: job 106 early (lead
  // time) costs less than job 100 late.
  problem["vehicles"][0]["steps"] = nlohmann::json::parse(
      R"([{"type": "start"}, {"type": "job", "id": 106}, {"type": "job", "id": 100}, {"type": "end"}])");
  write_file(dir / "plan.json", problem.dump());
  const auto out = dir / "checked.json";
  const ToolRun r =
      run_tool("solve --check " + (dir / "plan.json").string() + " --quiet -o " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto json = nlohmann::json::parse(std::ifstream(out));
  ASSERT_EQ(json["routes"].size(), 1u);
  const auto& steps = json["routes"][0]["steps"];
  EXPECT_EQ(steps[1]["id"], 106);
  EXPECT_EQ(steps[2]["id"], 100);
  ASSERT_EQ(steps[1]["violations"].size(), 1u);
  EXPECT_EQ(steps[1]["violations"][0]["cause"], "lead_time");
  EXPECT_EQ(steps[1]["violations"][0]["duration"].get<long long>(),
            39600 - steps[1]["arrival"].get<long long>());
  EXPECT_TRUE(steps[2]["violations"].empty());
  EXPECT_LE(steps[2]["arrival"].get<long long>(), 36000);
  bool missing_break = false;
  for (const auto& v : json["routes"][0]["violations"])
    missing_break = missing_break || v["cause"] == "missing_break";
  EXPECT_TRUE(missing_break);
  EXPECT_EQ(json["summary"]["unassigned"], 14);  // every other task (shipment halves counted)
  // The validator finds the plan infeasible: exit 1.
  EXPECT_EQ(run_tool("validate " + (dir / "plan.json").string() + " " + out.string()).exit_code, 1);
}
