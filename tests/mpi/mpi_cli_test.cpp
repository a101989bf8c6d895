// The tool under `mpirun --oversubscribe -n 2` and `-n 3` (docs/SCALING.md): a batch gives the
// single process's summary and solutions, a failing file fails alone, --resume-batch works across
// rank counts, a rank that dies fails its file alone (mpirun --enable-recovery), the matrix is byte
// for byte the single process's, a decomposed solve is valid, deterministic and no worse than its
// first search.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using routesolve::test::run_tool;
using routesolve::test::temp_dir;
using routesolve::test::ToolRun;

namespace {

std::string mpirun_path() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && ::access((fs::path(dir) / "mpirun").c_str(), X_OK) == 0)
      return (fs::path(dir) / "mpirun").string();
  return "";
}

/// `mpirun -n RANKS routesolve ARGS` (as root where CI runs so), stdout and stderr together;
/// `prefix` goes before mpirun (variables, a timeout), `flags` after it.
ToolRun run_mpi(int ranks, const std::string& args, const std::string& prefix = "",
                const std::string& flags = "") {
  std::string launcher = prefix;
  if (!launcher.empty()) launcher += " ";
  launcher += mpirun_path();
  if (!flags.empty()) launcher += " " + flags;
  launcher += " --oversubscribe";
  if (::geteuid() == 0) launcher += " --allow-run-as-root";
  launcher += " -n ";
  launcher += std::to_string(ranks);
  return run_tool(args, launcher);
}

#define REQUIRE_MPIRUN()                                                                      \
  do {                                                                                        \
    if (mpirun_path().empty())                                                                \
      GTEST_SKIP() << "mpirun not found in PATH (scripts/install-deps installs openmpi-bin)"; \
  } while (0)

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// prefix + n + suffix (built by appending: GCC 12's -Wrestrict misfires on a one-letter literal +
/// string).
std::string numbered(const char* prefix, int n, const char* suffix) {
  std::string s(prefix);
  s += std::to_string(n);
  s += suffix;
  return s;
}

/// summary.csv without the seconds column (wall time differs between any two runs).
std::string summary_without_seconds(const fs::path& dir) {
  std::stringstream in(read(dir / "summary.csv"));
  std::string out;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream l(line);
    for (std::string c; std::getline(l, c, ',');) cells.push_back(c);
    EXPECT_EQ(cells.size(), 7u) << line;
    cells.erase(cells.begin() + 5);  // seconds
    for (const auto& c : cells) out += c + ",";
    out += "\n";
  }
  return out;
}

/// A solution file without its computing times.
json solution_without_times(const fs::path& file) {
  json j = json::parse(read(file));
  j["summary"].erase("computing_times");
  return j;
}

/// Ten Augerat files and one that is no fleet file.
fs::path batch_inputs(const fs::path& dir) {
  const fs::path in = dir / "in";
  fs::create_directories(in);
  const fs::path a = routesolve::test::datasets_dir() / "cvrp/augerat/A";
  int copied = 0;
  for (const char* name : {"A-n32-k5", "A-n33-k5", "A-n33-k6", "A-n34-k5", "A-n36-k5", "A-n37-k5",
                           "A-n37-k6", "A-n38-k5", "A-n39-k5", "A-n45-k6"}) {
    fs::copy_file(a / fs::path(name).replace_extension(".vrp"),
                  in / fs::path(name).replace_extension(".vrp"));
    ++copied;
  }
  std::ofstream(in / "broken.vrp") << "NAME : broken\nthis is not a fleet file\n";
  return in;
}

class MpiBatch : public ::testing::TestWithParam<int> {};

TEST_P(MpiBatch, SameSummaryAndSolutionsAsOneProcessAndTheBrokenFileFailsAlone) {
  REQUIRE_MPIRUN();
  ROUTESOLVE_REQUIRE_DATASET("cvrp/augerat/A/A-n32-k5.vrp");
  const int ranks = GetParam();
  const fs::path dir = temp_dir("mpi_batch", std::to_string(ranks));
  const fs::path in = batch_inputs(dir);
  const ToolRun single = run_tool("batch " + in.string() + " --out-dir " + (dir / "one").string() +
                                  " --time-limit 0 -q");
  const ToolRun many = run_mpi(ranks, "batch " + in.string() + " --out-dir " +
                                          (dir / "many").string() + " --time-limit 0 -q");
  EXPECT_EQ(single.exit_code, 1) << single.out;  // the broken file
  EXPECT_NE(many.exit_code, 0) << many.out;
  EXPECT_NE(many.out.find("11 files, 10 ok, 1 failed"), std::string::npos) << many.out;
  EXPECT_NE(many.out.find("broken.vrp"), std::string::npos) << many.out;
  EXPECT_EQ(summary_without_seconds(dir / "many"), summary_without_seconds(dir / "one"));
  for (const auto& e : fs::directory_iterator(dir / "one")) {
    if (e.path().extension() == ".json" && e.path().filename() != "batch_status.json") {
      EXPECT_EQ(solution_without_times(dir / "many" / e.path().filename()),
                solution_without_times(e.path()))
          << e.path().filename();
    }
  }
  EXPECT_FALSE(fs::exists(dir / "many" / "broken.json"));
  // Resumed with another rank count: only the missing solution is solved again.
  fs::remove(dir / "many" / "A-n36-k5.json");
  const ToolRun resumed =
      run_mpi(ranks == 2 ? 3 : 2, "batch " + in.string() + " --out-dir " + (dir / "many").string() +
                                      " --time-limit 0 --resume-batch");
  EXPECT_NE(resumed.out.find("9 file(s) already solved"), std::string::npos) << resumed.out;
  EXPECT_EQ(summary_without_seconds(dir / "many"), summary_without_seconds(dir / "one"));
  EXPECT_EQ(solution_without_times(dir / "many" / "A-n36-k5.json"),
            solution_without_times(dir / "one" / "A-n36-k5.json"));
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Ranks, MpiBatch, ::testing::Values(2, 3));

/// summary.csv's rows without the seconds column, by file.
std::map<std::string, std::string> summary_rows(const fs::path& dir) {
  std::stringstream in(summary_without_seconds(dir));
  std::map<std::string, std::string> rows;
  for (std::string line; std::getline(in, line);) rows[line.substr(0, line.find(','))] = line;
  return rows;
}

// A rank killed (SIGKILL, as by the OOM killer) while it solves a file, under `mpirun
// --enable-recovery`: rank 0 hears no heartbeat for --rank-timeout, reports that file failed and
// the other ranks finish the rest; the job ends by itself; --resume-batch solves the file again.
TEST(MpiRankDeath, TheKilledRanksFileFailsAndTheOthersFinish) {
#ifndef ROUTESOLVE_TEST_HOOKS
  GTEST_SKIP() << "the tool was built without its test hooks (-DROUTESOLVE_TEST_HOOKS=ON)";
#endif
  REQUIRE_MPIRUN();
  ROUTESOLVE_REQUIRE_DATASET("cvrp/augerat/A/A-n32-k5.vrp");
  const fs::path dir = temp_dir("mpi_rank_death", "kill9");
  const fs::path in = batch_inputs(dir);
  const std::string killed = (in / "A-n37-k6.vrp").string();
  const ToolRun single = run_tool("batch " + in.string() + " --out-dir " + (dir / "one").string() +
                                  " --time-limit 0 -q");
  EXPECT_EQ(single.exit_code, 1) << single.out;  // the broken file
  // The test hook makes the (worker) rank handed A-n37-k6.vrp kill itself; `timeout` only ends a
  // hung job (no speed is asserted); a live rank on a loaded machine has 10 s (five heartbeat
  // periods) before it could be taken for dead.
  const ToolRun many = run_mpi(3,
                               "batch " + in.string() + " --out-dir " + (dir / "many").string() +
                                   " --time-limit 0 --rank-timeout 10",
                               "ROUTESOLVE_TEST_KILL_RANK_ON=A-n37-k6.vrp timeout 600",
                               "--enable-recovery -x ROUTESOLVE_TEST_KILL_RANK_ON");
  ASSERT_NE(many.exit_code, 124) << "the job did not end by itself:\n" << many.out;
  EXPECT_NE(many.out.find("kills itself on " + killed), std::string::npos) << many.out;
  EXPECT_NE(many.out.find(killed + ": rank "), std::string::npos) << many.out;
  EXPECT_NE(many.out.find("stopped answering while solving it"), std::string::npos) << many.out;
  EXPECT_NE(many.out.find("11 files, 9 ok, 2 failed"), std::string::npos) << many.out;
  // Every file in the summary; the killed one failed, the others as in one process.
  const auto one_rows = summary_rows(dir / "one"), many_rows = summary_rows(dir / "many");
  ASSERT_EQ(many_rows.size(), one_rows.size()) << read(dir / "many" / "summary.csv");
  for (const auto& [file, row] : one_rows) {
    ASSERT_TRUE(many_rows.count(file)) << file;
    const std::string expected = file == killed ? file + ",0,0,0.000,0,failed," : row;
    EXPECT_EQ(many_rows.at(file), expected);
  }
  for (const auto& e : fs::directory_iterator(dir / "one")) {
    if (e.path().extension() == ".json" && e.path().filename() != "batch_status.json" &&
        e.path().filename() != "A-n37-k6.json") {
      EXPECT_EQ(solution_without_times(dir / "many" / e.path().filename()),
                solution_without_times(e.path()))
          << e.path().filename();
    }
  }
  EXPECT_FALSE(fs::exists(dir / "many" / "A-n37-k6.json"));
  const json status = json::parse(read(dir / "many" / "batch_status.json"));
  EXPECT_EQ(status["files"][killed]["status"], "failed") << status.dump(1);
  // Resumed (no hook): the killed file is solved again, and the broken one tried again.
  const ToolRun resumed =
      run_mpi(2, "batch " + in.string() + " --out-dir " + (dir / "many").string() +
                     " --time-limit 0 --resume-batch");
  EXPECT_NE(resumed.out.find("9 file(s) already solved"), std::string::npos) << resumed.out;
  EXPECT_EQ(summary_without_seconds(dir / "many"), summary_without_seconds(dir / "one"));
  EXPECT_EQ(solution_without_times(dir / "many" / "A-n37-k6.json"),
            solution_without_times(dir / "one" / "A-n37-k6.json"));
  fs::remove_all(dir);
}

/// Liechtenstein's roads and 250 points around Vaduz, some off the roads (unreachable pairs).
struct MatrixInputs {
  fs::path network, points;
};
MatrixInputs matrix_inputs(const fs::path& dir) {
  MatrixInputs m{dir / "li.rsnet", dir / "points.csv"};
  const ToolRun built = run_tool(
      "network build " +
      (routesolve::test::datasets_dir() / "roads/osm/liechtenstein-latest.osm.pbf").string() +
      " -o " + m.network.string() + " -q");
  EXPECT_EQ(built.exit_code, 0) << built.out;
  std::ofstream p(m.points);
  p << "id,lon,lat\n";
  std::uint64_t x = 12345;
  for (int i = 0; i < 250; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const double lon = 9.50 + 0.09 * static_cast<double>((x >> 20) % 100000) / 100000.0;
    const double lat = 47.07 + 0.16 * static_cast<double>((x >> 40) % 100000) / 100000.0;
    p << 'p' << i << ',' << lon << "," << lat << "\n";
  }
  return m;
}

TEST(MpiMatrix, BinaryAndJsonAreByteIdenticalToOneProcess) {
  REQUIRE_MPIRUN();
  ROUTESOLVE_REQUIRE_DATASET("roads/osm/liechtenstein-latest.osm.pbf");
  const fs::path dir = temp_dir("mpi_matrix", "bytes");
  const MatrixInputs m = matrix_inputs(dir);
  const std::string args = "matrix --network " + m.network.string() + " --points " +
                           m.points.string() + " --allow-unreachable -q";
  ASSERT_EQ(run_tool(args + " --binary -o " + (dir / "one.bin").string()).exit_code, 0);
  ASSERT_EQ(run_tool(args + " -o " + (dir / "one.json").string()).exit_code, 0);
  const std::string one_bin = read(dir / "one.bin"), one_json = read(dir / "one.json");
  ASSERT_EQ(one_bin.size(), 24u + 2u * 250u * 250u * 8u);
  for (int ranks : {2, 3}) {
    const fs::path bin = dir / numbered("r", ranks, ".bin");
    const ToolRun b = run_mpi(ranks, args + " --binary -o " + bin.string());
    EXPECT_EQ(b.exit_code, 0) << b.out;
    EXPECT_TRUE(read(bin) == one_bin) << ranks << " ranks: the MPI-IO file differs";
    const fs::path js = dir / numbered("r", ranks, ".json");
    const ToolRun j = run_mpi(ranks, args + " -o " + js.string());
    EXPECT_EQ(j.exit_code, 0) << j.out;
    EXPECT_TRUE(read(js) == one_json) << ranks << " ranks: the JSON differs";
  }
  // Without --allow-unreachable nothing is written, on any rank.
  const ToolRun refused =
      run_mpi(2, "matrix --network " + m.network.string() + " --points " + m.points.string() +
                     " --binary -o " + (dir / "refused.bin").string());
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE(refused.out.find("nothing written"), std::string::npos) << refused.out;
  EXPECT_FALSE(fs::exists(dir / "refused.bin"));
  for (const auto& e : fs::directory_iterator(dir))
    EXPECT_EQ(e.path().string().find(".part"), std::string::npos) << "left behind: " << e.path();
  fs::remove_all(dir);
}

TEST(MpiDecompose, ValidDeterministicAndNoWorseThanOneProcess) {
  REQUIRE_MPIRUN();
  ROUTESOLVE_REQUIRE_DATASET("cvrp/x/X-n308-k13.vrp");
  const fs::path dir = temp_dir("mpi_decompose", "x308");
  const std::string x = (routesolve::test::datasets_dir() / "cvrp/x/X-n308-k13.vrp").string();
  const ToolRun one = run_tool("solve " + x + " --time-limit 0 --iterations 300 --seed 2 -q -o " +
                               (dir / "one.json").string());
  ASSERT_EQ(one.exit_code, 0) << one.out;
  for (int ranks : {2, 3}) {
    std::vector<json> runs;
    for (int k = 0; k < 2; ++k) {
      const fs::path out = dir / numbered("d", ranks * 10 + k, ".json");
      const ToolRun d =
          run_mpi(ranks, "solve " + x +
                             " --decompose --decompose-rounds 2 --time-limit 0 --iterations 300 "
                             "--seed 2 -q -o " +
                             out.string());
      ASSERT_EQ(d.exit_code, 0) << d.out;
      const ToolRun v = run_tool("validate " + x + " " + out.string());
      EXPECT_EQ(v.exit_code, 0) << v.out;
      runs.push_back(solution_without_times(out));
    }
    EXPECT_EQ(runs[0], runs[1]) << ranks
                                << " ranks: the same seed, ranks and budget gave two plans";
    // Rank 0's first search is the single process's solve (same seed): the result is no worse.
    const json single = solution_without_times(dir / "one.json");
    EXPECT_LE(runs[0]["summary"]["unassigned"].get<int>(),
              single["summary"]["unassigned"].get<int>());
    EXPECT_LE(runs[0]["summary"]["cost"].get<double>(), single["summary"]["cost"].get<double>());
  }
  fs::remove_all(dir);
}

}  // namespace
