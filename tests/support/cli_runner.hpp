#pragma once
// Running the routesolve tool from end-to-end tests: exit code and everything it printed.

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace routesolve::test {

struct ToolRun {
  int exit_code = -1;
  std::string out;  ///< stdout and stderr together
};

/// Runs `routesolve ARGS` from the build's bin folder, with optional `VAR=value` prefixes in env.
inline ToolRun run_tool(const std::string& args, const std::string& env = "") {
  const std::string cmd =
      env + (env.empty() ? "" : " ") + (bin_dir() / "routesolve").string() + " " + args + " 2>&1";
  ToolRun r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

namespace detail {
/// The folders temp_dir made in this process, removed when it exits normally (not by a child
/// forked from it, which exits with the parent's list). ROUTESOLVE_KEEP_TEST_FILES keeps them.
class TempDirs {
 public:
  static TempDirs& instance() {
    static TempDirs dirs;
    return dirs;
  }
  void add(const std::filesystem::path& dir) { dirs_.push_back(dir); }
  TempDirs(const TempDirs&) = delete;
  TempDirs& operator=(const TempDirs&) = delete;
  ~TempDirs() {
    if (getpid() != owner_ || std::getenv("ROUTESOLVE_KEEP_TEST_FILES") != nullptr) return;
    for (const auto& dir : dirs_) {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  }

 private:
  TempDirs() = default;
  pid_t owner_ = getpid();
  std::vector<std::filesystem::path> dirs_;
};
}  // namespace detail

/// A fresh, empty temporary folder named after the suite and the test (and this process),
/// removed when the test process exits.
inline std::filesystem::path temp_dir(const std::string& suite, const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("routesolve_" + suite + "_" + name + "_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  detail::TempDirs::instance().add(dir);
  return dir;
}

}  // namespace routesolve::test
