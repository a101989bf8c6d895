// batch_status.json, the resume protocol of `routesolve batch --resume-batch`: what a re-run
// keeps (recorded ok, same options, input unchanged, solution still there) and what it solves
// again. The CLI's side of it is tests/apps/routesolve_cli_test.cpp (BatchResume).

#include "routesolve/io/batch_status.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli_runner.hpp"

namespace fs = std::filesystem;
using namespace routesolve;
using routesolve::test::temp_dir;

namespace {

void write(const fs::path& file, const std::string& text) {
  std::ofstream out(file);
  out << text;
}

std::string read(const fs::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// One solved file in `dir`: its input, its solution and the status recording it "ok".
struct Solved {
  fs::path input, output;
  std::string stamp;
};

Solved solve_one(const fs::path& dir, const std::string& options) {
  Solved s{dir / "a.json", dir / "out" / "a.json", ""};
  fs::create_directories(dir / "out");
  write(s.input, "{}");
  write(s.output, "{\"routes\": []}");
  s.stamp = io::input_stamp(s.input);
  io::BatchStatus status(dir / "out", options);
  status.record(s.input.string(), {"ok", s.stamp, "a.json", 10, 2, 1, 123.5, 0.25});
  return s;
}

}  // namespace

TEST(BatchStatus, ARecordReadsBackWithItsFigures) {
  const fs::path dir = temp_dir("batch_status", "read_back");
  const Solved s = solve_one(dir, "seed=1");
  EXPECT_FALSE(s.stamp.empty());
  io::BatchStatus again(dir / "out", "seed=1");
  EXPECT_EQ(again.load_previous(), "");
  const auto kept = again.keep(s.input.string(), s.stamp, s.output);
  ASSERT_TRUE(kept.has_value());
  EXPECT_EQ(kept->status, "ok");
  EXPECT_EQ(kept->output, "a.json");
  EXPECT_EQ(kept->tasks, 10u);
  EXPECT_EQ(kept->routes, 2u);
  EXPECT_EQ(kept->unassigned, 1u);
  EXPECT_DOUBLE_EQ(kept->cost, 123.5);
  EXPECT_DOUBLE_EQ(kept->seconds, 0.25);
  // The file as documented: version, options, the record by input path.
  const std::string text = read(dir / "out" / io::kBatchStatusFile);
  EXPECT_NE(text.find("\"version\": 1"), std::string::npos) << text;
  EXPECT_NE(text.find("\"options\": \"seed=1\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"status\": \"ok\""), std::string::npos) << text;
}

TEST(BatchStatus, AChangedInputAMissingSolutionOrAFailureIsSolvedAgain) {
  const fs::path dir = temp_dir("batch_status", "again");
  const Solved s = solve_one(dir, "seed=1");
  io::BatchStatus again(dir / "out", "seed=1");
  ASSERT_EQ(again.load_previous(), "");
  EXPECT_FALSE(again.keep(s.input.string(), s.stamp + "0", s.output))
      << "another stamp: the input changed";
  EXPECT_FALSE(again.keep(s.input.string(), "", s.output)) << "an unreadable input";
  EXPECT_FALSE(again.keep(s.input.string(), s.stamp, dir / "out" / "gone.json"))
      << "its solution is gone";
  EXPECT_FALSE(again.keep((dir / "other.json").string(), s.stamp, s.output)) << "never recorded";

  io::BatchStatus failed(dir / "out", "seed=1");
  failed.record(s.input.string(), {"failed", s.stamp, "a.json", 0, 0, 0, 0.0, 0.1});
  io::BatchStatus after(dir / "out", "seed=1");
  ASSERT_EQ(after.load_previous(), "");
  EXPECT_FALSE(after.keep(s.input.string(), s.stamp, s.output)) << "a failed file";
}

TEST(BatchStatus, OtherOptionsOrAnUnreadableFileKeepNothingAndSayWhy) {
  const fs::path dir = temp_dir("batch_status", "other_options");
  const Solved s = solve_one(dir, "seed=1");
  io::BatchStatus other(dir / "out", "seed=2");
  const std::string why = other.load_previous();
  EXPECT_NE(why.find("was written with other options"), std::string::npos) << why;
  EXPECT_FALSE(other.keep(s.input.string(), s.stamp, s.output));

  write(dir / "out" / io::kBatchStatusFile, "{ not json");
  io::BatchStatus broken(dir / "out", "seed=1");
  const std::string ignored = broken.load_previous();
  EXPECT_EQ(ignored.rfind("ignoring " + (dir / "out" / io::kBatchStatusFile).string(), 0), 0u)
      << ignored;
  EXPECT_FALSE(broken.keep(s.input.string(), s.stamp, s.output));

  io::BatchStatus none(dir / "nothing", "seed=1");
  EXPECT_EQ(none.load_previous(), "") << "no previous run: nothing to say";
}
