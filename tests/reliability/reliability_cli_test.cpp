// The tool under the reliability guarantees of docs/RELIABILITY.md: byte-identical output for
// the same input, seed and threads; `batch --resume-batch` skips what finished; matrices that
// cannot fit are refused with a clear message (needed vs available) and exit code 1; no
// temporary files left.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_runner.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using namespace routesolve;

namespace {

using test::run_tool;
using test::ToolRun;

fs::path temp_dir(const std::string& name) { return test::temp_dir("reliability", name); }

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// VROOM output without computing_times (wall-clock figures).
std::string without_times(const std::string& json_text) {
  auto j = nlohmann::ordered_json::parse(json_text);
  j["summary"].erase("computing_times");
  return j.dump();
}

std::string example(const std::string& name) {
  return (test::source_dir() / "examples" / name).string();
}

TEST(Determinism, SameInputSeedThreadsGiveByteIdenticalOutput) {
  const fs::path dir = temp_dir("determinism");
  for (const std::string backend : {"cpu", "cuda-host"}) {
    for (const std::string threads : {"1", "2"}) {
      SCOPED_TRACE(backend + " threads " + threads);
      const std::string args = "solve " + example("fleet.json") + " --backend " + backend +
                               " --threads " + threads + " --seed 42 --time-limit 0 --quiet -o ";
      const auto a = run_tool(args + (dir / "a.json").string());
      const auto b = run_tool(args + (dir / "b.json").string());
      ASSERT_EQ(a.exit_code, 0) << a.out;
      ASSERT_EQ(b.exit_code, 0) << b.out;
      EXPECT_EQ(without_times(read_file(dir / "a.json")), without_times(read_file(dir / "b.json")));
      // CSV has no timing fields: byte-identical files.
      const std::string csv_args = "solve " + example("fleet.json") + " --backend " + backend +
                                   " --threads " + threads +
                                   " --seed 42 --time-limit 0 --quiet --output-format csv -o ";
      ASSERT_EQ(run_tool(csv_args + (dir / "a.csv").string()).exit_code, 0);
      ASSERT_EQ(run_tool(csv_args + (dir / "b.csv").string()).exit_code, 0);
      EXPECT_EQ(read_file(dir / "a.csv"), read_file(dir / "b.csv"));
    }
  }
  fs::remove_all(dir);
}

TEST(BatchResume, SkipsFilesSolvedWithTheSameOptions) {
  const fs::path dir = temp_dir("resume");
  const fs::path in = dir / "in", out = dir / "out";
  fs::create_directories(in);
  fs::copy_file(example("fleet.json"), in / "a.json");
  fs::copy_file(example("fleet_coordinates.json"), in / "b.json");
  std::ofstream(in / "c.json") << "{ not json";
  const std::string base =
      "batch " + in.string() + " --out-dir " + out.string() + " --time-limit 0 --seed 3 --quiet";

  const auto first = run_tool(base + " --resume-batch");
  EXPECT_EQ(first.exit_code, 1) << first.out;  // c.json fails
  ASSERT_TRUE(fs::exists(out / "batch_status.json"));
  const auto status = nlohmann::json::parse(read_file(out / "batch_status.json"));
  EXPECT_EQ(status["files"][(in / "a.json").string()]["status"], "ok");
  EXPECT_EQ(status["files"][(in / "c.json").string()]["status"], "failed");
  const auto a_time = fs::last_write_time(out / "a.json");
  const std::string summary1 = read_file(out / "summary.csv");

  // Fix c.json, run again: a and b are skipped (their solutions untouched), c is solved.
  fs::copy_file(example("fleet.json"), in / "c.json", fs::copy_options::overwrite_existing);
  const auto second = run_tool("batch " + in.string() + " --out-dir " + out.string() +
                               " --time-limit 0 --seed 3 --resume-batch");
  EXPECT_EQ(second.exit_code, 0) << second.out;
  EXPECT_NE(second.out.find("2 file(s) already solved"), std::string::npos) << second.out;
  EXPECT_EQ(fs::last_write_time(out / "a.json"), a_time);
  EXPECT_TRUE(fs::exists(out / "c.json"));
  const std::string summary2 = read_file(out / "summary.csv");
  EXPECT_EQ(std::count(summary2.begin(), summary2.end(), '\n'), 4) << summary2;  // header + 3 rows
  EXPECT_EQ(summary2.find("failed"), std::string::npos) << summary2;
  EXPECT_NE(summary1.find("failed"), std::string::npos) << summary1;

  // Other options (seed): everything is solved again.
  const auto third = run_tool("batch " + in.string() + " --out-dir " + out.string() +
                              " --time-limit 0 --seed 4 --resume-batch");
  EXPECT_EQ(third.exit_code, 0) << third.out;
  EXPECT_NE(third.out.find("other options"), std::string::npos) << third.out;
  EXPECT_EQ(third.out.find("already solved"), std::string::npos) << third.out;

  // No temporary file is left next to the outputs.
  for (const auto& e : fs::directory_iterator(out))
    EXPECT_EQ(e.path().string().find(".tmp"), std::string::npos) << e.path();
  fs::remove_all(dir);
}

TEST(Limits, MatricesThatCannotFitAreRefusedWithNeededAndAvailable) {
  // 1 MiB of "available" memory: the 3-job coordinates example needs far less, so it is solved;
  // a 600-location problem (600^2 x 8 bytes x 7 matrices = 19 MiB) is refused before allocating.
  const fs::path dir = temp_dir("limits");
  std::string jobs;
  for (int i = 0; i < 600; ++i) {
    if (i > 0) jobs += ',';
    jobs += "{\"id\":" + std::to_string(i) + ",\"location\":[" + std::to_string(9.0 + i * 0.001) +
            ",47.1]}";
  }
  std::ofstream(dir / "big.json") << R"({"vehicles":[{"id":1,"start":[9.75,47.2]}],"jobs":[)"
                                  << jobs << "]}";
  const auto refused =
      run_tool("solve " + (dir / "big.json").string() + " --quiet", "ROUTESOLVE_MEMORY_LIMIT_MB=1");
  EXPECT_EQ(refused.exit_code, 1) << refused.out;
  EXPECT_NE(refused.out.find("601 locations need"), std::string::npos) << refused.out;
  EXPECT_NE(refused.out.find("of memory is available"), std::string::npos) << refused.out;
  const auto fits = run_tool(
      "solve " + example("fleet_coordinates.json") + " --quiet -o " + (dir / "s.json").string(),
      "ROUTESOLVE_MEMORY_LIMIT_MB=1");
  EXPECT_EQ(fits.exit_code, 0) << fits.out;
  fs::remove_all(dir);
}

}  // namespace
