// Replays fuzz inputs without libFuzzer: `fuzz_replay TARGET PATH...` runs the target's entry
// point over every file (folders: every file inside, sorted). A crash, sanitizer report or an
// exception other than routesolve::Error fails the run, as it would fail the fuzzer.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_target_list.hpp"  // ROUTESOLVE_FUZZ_TARGETS(X), generated from fuzz/CMakeLists.txt

#define DECLARE(name) \
  extern "C" int routesolve_fuzz_##name(const std::uint8_t* data, std::size_t size);
ROUTESOLVE_FUZZ_TARGETS(DECLARE)
#undef DECLARE

namespace fs = std::filesystem;
using Entry = int (*)(const std::uint8_t*, std::size_t);

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: fuzz_replay TARGET [FILE|DIR]...\n");
    return 2;
  }
  Entry entry = nullptr;
#define PICK(name) \
  if (std::strcmp(argv[1], #name) == 0) entry = routesolve_fuzz_##name;
  ROUTESOLVE_FUZZ_TARGETS(PICK)
#undef PICK
  if (!entry) {
    std::fprintf(stderr, "fuzz_replay: unknown target %s\n", argv[1]);
    return 2;
  }
  std::vector<fs::path> files;
  for (int i = 2; i < argc; ++i) {
    const fs::path p(argv[i]);
    if (fs::is_directory(p)) {
      for (const auto& e : fs::recursive_directory_iterator(p))
        if (e.is_regular_file()) files.push_back(e.path());
    } else if (fs::exists(p)) {
      files.push_back(p);
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    const std::vector<char> bytes{std::istreambuf_iterator<char>(in),
                                  std::istreambuf_iterator<char>()};
    static const std::uint8_t empty = 0;  // libFuzzer never passes a null pointer, even for size 0
    entry(bytes.empty() ? &empty : reinterpret_cast<const std::uint8_t*>(bytes.data()),
          bytes.size());
  }
  std::printf("fuzz_replay %s: %zu inputs, no crash\n", argv[1], files.size());
  return 0;
}
