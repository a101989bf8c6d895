#pragma once
// Writing a file so that readers (and a re-run after a crash or kill -9) see the old content or
// the new one, never half of one: a temporary file in the same folder, named uniquely per
// process and per call (two threads or two processes writing the same target never share a
// temporary), flushed (and fsync'ed when asked), then renamed over the target. On any failure
// the temporary file is removed and the target is left untouched.

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string_view>

namespace routesolve::io {

struct AtomicWriteOptions {
  bool binary = true;
  /// fsync the file before the rename and the folder after it (crash-durable, e.g. checkpoints).
  bool durable = false;
};

/// `FILE.tmp-<pid>-<n>` in the folder of `file`, with n unique within this process.
std::filesystem::path unique_temp_path(const std::filesystem::path& file);

/// Writes through `write` into a unique temporary file, then renames it to `file`. Throws
/// Error(InvalidInput) naming the file when it cannot be written; an exception thrown by `write`
/// is rethrown after the temporary file is removed.
void write_atomically(const std::filesystem::path& file,
                      const std::function<void(std::ostream&)>& write,
                      AtomicWriteOptions options = {});

/// write_atomically of a block of bytes.
void write_file_atomically(const std::filesystem::path& file, std::string_view bytes,
                           AtomicWriteOptions options = {});

}  // namespace routesolve::io
