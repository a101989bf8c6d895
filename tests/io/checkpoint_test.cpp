// Checkpoint files: the format round trip, every kind of corruption, the checks
// against a problem, and the atomic writes every output goes through.

#include "routesolve/checkpoint.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "cli_runner.hpp"
#include "routesolve/backend.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/atomic_file.hpp"
#include "routesolve/io/checkpoint.hpp"
#include "test_problems.hpp"

namespace fs = std::filesystem;
using namespace routesolve;

namespace {

/// 12 jobs around a depot, 3 vehicles of capacity 5.
std::shared_ptr<const Problem> small_problem(std::uint64_t seed = 3) {
  ProblemSpec spec = test::points_spec(test::random_points(13, seed));
  for (std::size_t i = 1; i <= 12; ++i) spec.jobs.push_back(test::make_job(i, i));
  for (Id v = 1; v <= 3; ++v) spec.vehicles.push_back(test::make_vehicle(v, 0, 5));
  return Problem::create(std::move(spec));
}

SolveCheckpoint sample_checkpoint(const Problem& problem) {
  SolveCheckpoint c;
  c.fingerprint = problem_fingerprint(problem);
  c.seed = 42;
  c.threads = 2;
  c.objective = Objective::VehiclesThenCost;
  c.time_limit_s = 30.5;
  c.elapsed_s = 12.25;
  c.iterations = 123456;
  c.score = {0, 2, 3, 98765};
  c.routes = {{0, 1, 2, 3}, {4, 5, 6, 7, 8}, {9}};
  c.unassigned = {10, 11};
  return c;
}

/// The message of the Error(InvalidInput) that decoding `bytes` throws ("" when none is thrown).
std::string decode_error(const std::string& bytes) {
  try {
    io::decode_checkpoint(bytes, "state.ckpt");
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput) << e.what();
    EXPECT_NE(std::string(e.what()).find("state.ckpt"), std::string::npos) << e.what();
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Checkpoint, RoundTripKeepsEveryField) {
  const auto problem = small_problem();
  const SolveCheckpoint c = sample_checkpoint(*problem);
  const SolveCheckpoint back = io::decode_checkpoint(io::encode_checkpoint(c), "mem");
  EXPECT_EQ(back.fingerprint, c.fingerprint);
  EXPECT_EQ(back.seed, 42u);
  EXPECT_EQ(back.threads, 2u);
  EXPECT_EQ(back.objective, Objective::VehiclesThenCost);
  EXPECT_DOUBLE_EQ(back.time_limit_s, 30.5);
  EXPECT_DOUBLE_EQ(back.elapsed_s, 12.25);
  EXPECT_EQ(back.iterations, 123456u);
  EXPECT_EQ(back.score, c.score);
  EXPECT_EQ(back.routes, c.routes);
  EXPECT_EQ(back.unassigned, c.unassigned);
  EXPECT_EQ(back.source, "mem");
  EXPECT_NO_THROW(check_checkpoint(*problem, back));
}

TEST(Checkpoint, FileRoundTripLeavesNoTemporaryFile) {
  const auto dir = test::temp_dir("Checkpoint", "File");
  const auto problem = small_problem();
  const fs::path file = dir / "run.ckpt";
  io::write_checkpoint(file, sample_checkpoint(*problem));
  io::write_checkpoint(file, sample_checkpoint(*problem));  // replaces the first one
  const SolveCheckpoint back = io::read_checkpoint(file);
  EXPECT_EQ(back.source, file.string());
  EXPECT_EQ(back.routes, sample_checkpoint(*problem).routes);
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    ++files;
    EXPECT_EQ(e.path().filename(), "run.ckpt");
  }
  EXPECT_EQ(files, 1u);
  fs::remove_all(dir);
}

TEST(Checkpoint, EveryTruncationIsAClearError) {
  const std::string bytes = io::encode_checkpoint(sample_checkpoint(*small_problem()));
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    const std::string message = decode_error(bytes.substr(0, n));
    EXPECT_NE(message.find("truncated"), std::string::npos) << n << ": " << message;
  }
}

TEST(Checkpoint, EveryBitFlipIsDetected) {
  const std::string bytes = io::encode_checkpoint(sample_checkpoint(*small_problem()));
  for (std::size_t i = 0; i < bytes.size(); ++i)
    for (int bit = 0; bit < 8; ++bit) {
      std::string bad = bytes;
      bad[i] = static_cast<char>(bad[i] ^ (1 << bit));
      EXPECT_FALSE(decode_error(bad).empty()) << "byte " << i << " bit " << bit;
    }
  // Which check fires: the magic, the version, the size, the reserved word, the payload CRC.
  auto flipped = [&](std::size_t i) {
    std::string bad = bytes;
    bad[i] = static_cast<char>(bad[i] ^ 1);
    return decode_error(bad);
  };
  EXPECT_NE(flipped(0).find("wrong magic"), std::string::npos);
  EXPECT_NE(flipped(8).find("format version"), std::string::npos);
  EXPECT_NE(flipped(12).find("checksum"), std::string::npos);
  EXPECT_NE(flipped(16).find("truncated or has trailing bytes"), std::string::npos);
  EXPECT_NE(flipped(24).find("reserved"), std::string::npos);
  EXPECT_NE(flipped(40).find("checksum"), std::string::npos);
  EXPECT_NE(flipped(bytes.size() - 1).find("checksum"), std::string::npos);
}

TEST(Checkpoint, WrongVersionAndTrailingBytesAreRefused) {
  std::string bytes = io::encode_checkpoint(sample_checkpoint(*small_problem()));
  std::string v2 = bytes;
  const std::uint32_t version = io::kCheckpointVersion + 1;
  std::memcpy(v2.data() + 8, &version, 4);
  EXPECT_NE(decode_error(v2).find("format version 2, this routesolve reads version 1"),
            std::string::npos);
  EXPECT_NE(decode_error(bytes + "x").find("trailing bytes"), std::string::npos);
  EXPECT_NE(
      decode_error("not a checkpoint at all, but long enough for a header").find("wrong magic"),
      std::string::npos);
}

TEST(Checkpoint, AnotherProblemIsRefusedNamingTheFile) {
  const auto problem = small_problem(3);
  const auto other = small_problem(4);  // same shape, other coordinates
  SolveCheckpoint c = sample_checkpoint(*problem);
  c.source = "yesterday.ckpt";
  EXPECT_NE(problem_fingerprint(*problem), problem_fingerprint(*other));
  EXPECT_EQ(problem_fingerprint(*problem), problem_fingerprint(*small_problem(3)));
  try {
    check_checkpoint(*other, c);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput);
    EXPECT_NE(std::string(e.what()).find("yesterday.ckpt: fingerprint"), std::string::npos)
        << e.what();
  }
}

TEST(Checkpoint, PlansThatDoNotFitTheProblemAreRefused) {
  const auto problem = small_problem();
  auto expect_refused = [&](SolveCheckpoint c, const std::string& fragment) {
    c.source = "x.ckpt";
    try {
      check_checkpoint(*problem, c);
      ADD_FAILURE() << "accepted: " << fragment;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::InvalidInput);
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  const SolveCheckpoint good = sample_checkpoint(*problem);
  SolveCheckpoint c = good;
  c.routes.pop_back();
  expect_refused(c, "2 routes for 3 vehicles");
  c = good;
  c.routes[2].push_back(99);
  expect_refused(c, "out of range");
  c = good;
  c.routes[2].push_back(0);
  expect_refused(c, "appears twice");
  c = good;
  c.unassigned = {10};
  expect_refused(c, "task index 11 is neither routed nor unassigned");
  c = good;
  c.unassigned = {10, 11, 3};
  expect_refused(c, "also routed");
}

TEST(AtomicWrite, TemporaryNamesAreUniquePerCall) {
  const fs::path a = io::unique_temp_path("/tmp/out.json");
  const fs::path b = io::unique_temp_path("/tmp/out.json");
  EXPECT_NE(a, b);
  EXPECT_EQ(a.parent_path(), fs::path("/tmp"));
  EXPECT_NE(a.string().find(".tmp-" + std::to_string(getpid()) + "-"), std::string::npos) << a;
}

TEST(AtomicWrite, AFailedWriteLeavesTheOldFileAndNoTemporary) {
  const auto dir = test::temp_dir("AtomicWrite", "Failed");
  const fs::path file = dir / "out.txt";
  io::write_file_atomically(file, "old");
  EXPECT_THROW(io::write_atomically(file,
                                    [](std::ostream& out) {
                                      out << "half a fi";
                                      throw std::runtime_error("writer failed");
                                    }),
               std::runtime_error);
  // A folder that does not exist: Error naming the file, nothing left behind.
  try {
    io::write_file_atomically(dir / "missing" / "out.txt", "x");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidInput);
    EXPECT_NE(std::string(e.what()).find("missing/out.txt"), std::string::npos) << e.what();
  }
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    ++files;
    EXPECT_EQ(e.path().filename(), "out.txt");
  }
  EXPECT_EQ(files, 1u);
  std::ifstream in(file);
  std::string text;
  std::getline(in, text);
  EXPECT_EQ(text, "old");
  fs::remove_all(dir);
}
