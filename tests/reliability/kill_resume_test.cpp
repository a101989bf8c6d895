// kill -9 and resume: `routesolve solve --checkpoint` is killed with SIGKILL at a
// random moment after its first checkpoint; `--resume` must then give a solution that passes
// the validator and is no worse than the checkpoint it resumed from.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "checkpoint_score.hpp"
#include "cli_runner.hpp"
#include "routesolve/checkpoint.hpp"
#include "routesolve/io/checkpoint.hpp"
#include "routesolve/io/formats.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/solve.hpp"
#include "routesolve/validator.hpp"

namespace fs = std::filesystem;
using namespace routesolve;
using routesolve::test::score_of;

namespace {

/// Starts `routesolve ARGS...` with stdout and stderr to `log`; returns its pid.
pid_t start_tool(const std::vector<std::string>& args, const fs::path& log) {
  const std::string tool = (test::bin_dir() / "routesolve").string();
  std::fflush(nullptr);  // else the child's freopen writes this process's buffered stdout again
  const pid_t pid = fork();
  if (pid == 0) {
    FILE* f = std::freopen(log.c_str(), "w", stdout);
    if (f == nullptr || dup2(fileno(stdout), fileno(stderr)) < 0) _exit(127);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(tool.c_str()));
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(tool.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

}  // namespace

TEST(KillResume, KilledSolvesResumeToValidSolutionsNoWorseThanTheCheckpoint) {
  const fs::path instance = test::datasets_dir() / "cvrp/x/X-n204-k19.vrp";
  ROUTESOLVE_REQUIRE_DATASET("cvrp/x/X-n204-k19.vrp");
  const auto problem = Problem::create(io::read_problem(instance));
  const auto dir = test::temp_dir("KillResume", "Trials");
  std::random_device device;
  const unsigned seed = device();
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> moment(0.05, 1.2);  // seconds after the first checkpoint
  SCOPED_TRACE("random seed " + std::to_string(seed));

  for (int trial = 0; trial < 3; ++trial) {
    const fs::path ckpt = dir / ("trial" + std::to_string(trial) + ".ckpt");
    const fs::path out = dir / ("trial" + std::to_string(trial) + ".json");
    const double kill_after = moment(rng);
    SCOPED_TRACE("trial " + std::to_string(trial) + ", SIGKILL " + std::to_string(kill_after) +
                 " s after the first checkpoint");
    const pid_t pid =
        start_tool({"solve", instance.string(), "--backend", "cpu", "--time-limit", "2.5",
                    "--threads", "2", "--seed", std::to_string(trial + 1), "--checkpoint",
                    ckpt.string(), "--checkpoint-every", "0.2", "-q", "-o", out.string()},
                   dir / "killed.log");
    ASSERT_GT(pid, 0);
    // Until the first checkpoint, or the solve's end (no wall-clock bound: the box may be loaded).
    int status = 0;
    bool ended = false;
    while (!fs::exists(ckpt) && !ended) {
      ended = waitpid(pid, &status, WNOHANG) == pid;
      if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_TRUE(fs::exists(ckpt)) << "the solve ended without a checkpoint";
    if (!ended) {
      std::this_thread::sleep_for(std::chrono::duration<double>(kill_after));
      ASSERT_EQ(kill(pid, SIGKILL), 0);
      ASSERT_EQ(waitpid(pid, &status, 0), pid);
    }
    // Killed mid-run normally; a solve that finished first is fine too (then resume has no time
    // left).
    EXPECT_TRUE((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) ||
                (WIFEXITED(status) && WEXITSTATUS(status) == 0));

    // Whatever moment the kill hit, the file is a whole checkpoint (the previous or the new one).
    const SolveCheckpoint state = io::read_checkpoint(ckpt);
    ASSERT_NO_THROW(check_checkpoint(*problem, state));
    EXPECT_EQ(state.seed, static_cast<std::uint64_t>(trial + 1));
    EXPECT_EQ(state.threads, 2u);
    EXPECT_GT(state.elapsed_s, 0.0);

    const test::ToolRun resumed = test::run_tool("solve " + instance.string() + " --resume " +
                                                 ckpt.string() + " -q -o " + out.string());
    ASSERT_EQ(resumed.exit_code, 0) << resumed.out;
    const test::ToolRun valid =
        test::run_tool("validate " + instance.string() + " " + out.string());
    EXPECT_EQ(valid.exit_code, 0) << valid.out;
    const Solution solution = io::read_vroom_solution(out, *problem);
    ASSERT_TRUE(validate(*problem, solution).ok());
    const CheckpointScore final_score = score_of(*problem, solution);
    // One line per trial (the figures docs/RELIABILITY.md quotes).
    std::printf(
        "trial %d: SIGKILL %.2f s after the first checkpoint; checkpoint at %.2f s, %llu "
        "iterations, "
        "cost %lld; resumed: cost %lld, %zu unassigned, valid\n",
        trial, kill_after, state.elapsed_s, static_cast<unsigned long long>(state.iterations),
        static_cast<long long>(state.score.cost), static_cast<long long>(final_score.cost),
        static_cast<std::size_t>(final_score.unassigned));
    EXPECT_FALSE(better(state.score, final_score, Objective::Cost))
        << "checkpoint cost " << state.score.cost << " (" << state.score.unassigned
        << " unassigned), resumed " << final_score.cost << " (" << final_score.unassigned
        << " unassigned)";
  }
  fs::remove_all(dir);
}

TEST(CheckpointCli, BadCheckpointFilesExitTwoNamingTheFile) {
  const auto dir = test::temp_dir("CheckpointCli", "BadFiles");
  const std::string fleet = (test::source_dir() / "examples/fleet.json").string();
  const fs::path good = dir / "good.ckpt";
  const test::ToolRun first =
      test::run_tool("solve " + fleet + " --backend cpu --time-limit 0.3 --checkpoint " +
                     good.string() + " --checkpoint-every 0.05 -q -o " + (dir / "a.json").string());
  ASSERT_EQ(first.exit_code, 0) << first.out;
  ASSERT_TRUE(fs::exists(good));
  std::string bytes;
  {
    std::ifstream in(good, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  auto variant = [&](const std::string& name, std::string content) {
    const fs::path file = dir / name;
    std::ofstream(file, std::ios::binary) << content;
    return file;
  };
  std::string flipped = bytes;
  flipped[bytes.size() / 2] = static_cast<char>(flipped[bytes.size() / 2] ^ 0x10);
  std::string version = bytes;
  version[8] = 9;
  const std::vector<std::pair<fs::path, std::string>> cases = {
      {variant("truncated.ckpt", bytes.substr(0, bytes.size() - 5)), "truncated"},
      {variant("flipped.ckpt", flipped), "checksum mismatch"},
      {variant("version.ckpt", version), "format version 9"},
      {variant("empty.ckpt", ""), "truncated"},
      {dir / "missing.ckpt", "cannot be opened"},
  };
  for (const auto& [file, fragment] : cases) {
    const test::ToolRun r = test::run_tool("solve " + fleet + " --resume " + file.string() + " -q");
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.out.find(file.string()), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(fragment), std::string::npos) << r.out;
  }
  // Another problem: the fingerprint does not match.
  const fs::path other = dir / "other.json";
  {
    std::ifstream in(fleet);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto pos = text.find("\"service\":300");  // the first job's service time: 300 -> 310
    ASSERT_NE(pos, std::string::npos);
    text.replace(pos, 13, "\"service\":310");
    std::ofstream(other) << text;
  }
  const test::ToolRun wrong =
      test::run_tool("solve " + other.string() + " --resume " + good.string() + " -q");
  EXPECT_EQ(wrong.exit_code, 2) << wrong.out;
  EXPECT_NE(wrong.out.find(good.string() + ": fingerprint"), std::string::npos) << wrong.out;
  // The batched backends refuse checkpoints (exit 4, unsupported); the good file still resumes.
  const test::ToolRun cuda = test::run_tool(
      "solve " + fleet + " --backend cuda-host --checkpoint " + (dir / "c.ckpt").string() + " -q");
  EXPECT_EQ(cuda.exit_code, 4) << cuda.out;
  EXPECT_NE(cuda.out.find("cpu backend only"), std::string::npos) << cuda.out;
  const test::ToolRun resumed =
      test::run_tool("solve " + fleet + " --resume " + good.string() + " -q");
  EXPECT_EQ(resumed.exit_code, 0) << resumed.out;
  fs::remove_all(dir);
}
