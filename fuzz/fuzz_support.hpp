#pragma once
// Helpers shared by the libFuzzer targets: a per-process scratch file for the file-based
// readers, and the one rule every target checks: parsers fail only with routesolve::Error.

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace routesolve::fuzz {

/// A scratch path under $TMPDIR (default /tmp), unique to this process, with `suffix` as its
/// extension so readers that dispatch on the name see the format they expect.
inline std::filesystem::path scratch_path(std::string_view suffix) {
  const char* dir = std::getenv("TMPDIR");
  std::string name = std::string(dir && *dir ? dir : "/tmp") + "/routesolve-fuzz-" +
                     std::to_string(::getpid()) + std::string(suffix);
  return name;
}

/// The scratch files this process wrote, removed when it exits (a run leaves nothing in $TMPDIR).
struct ScratchFiles {
  std::vector<std::filesystem::path> paths;
  ScratchFiles() = default;
  ScratchFiles(const ScratchFiles&) = delete;
  ScratchFiles& operator=(const ScratchFiles&) = delete;
  ~ScratchFiles() {
    std::error_code ignored;
    for (const auto& p : paths) std::filesystem::remove(p, ignored);
  }
  void add(const std::filesystem::path& p) {
    if (std::find(paths.begin(), paths.end(), p) == paths.end()) paths.push_back(p);
  }
};

/// Writes bytes to a scratch file (overwritten on every call) and returns its path.
inline std::filesystem::path write_scratch(std::string_view suffix, const std::uint8_t* data,
                                           std::size_t size) {
  static ScratchFiles written;
  const auto path = scratch_path(suffix);
  written.add(path);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  // The harness, not the parser, failed: say why before stopping (a finding of the long run was
  // an fopen failure here that left no reason behind).
  if (!f) {
    std::fprintf(stderr, "write_scratch: cannot open %s: %s\n", path.c_str(), std::strerror(errno));
    std::abort();
  }
  if (size > 0 && std::fwrite(data, 1, size, f) != size) {
    std::fprintf(stderr, "write_scratch: cannot write %s: %s\n", path.c_str(),
                 std::strerror(errno));
    std::abort();
  }
  std::fclose(f);
  return path;
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace routesolve::fuzz
