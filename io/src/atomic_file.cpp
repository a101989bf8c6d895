#include "routesolve/io/atomic_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>

#include "routesolve/error.hpp"

namespace routesolve::io {

namespace {

/// fsync of a file or folder by path (a read-only descriptor is enough on Linux).
bool sync_path(const std::filesystem::path& path, bool folder) {
  const int fd = ::open(path.c_str(), folder ? (O_RDONLY | O_DIRECTORY) : O_RDONLY);
  if (fd < 0) return false;
  const bool ok = ::fsync(fd) == 0;
  return ::close(fd) == 0 && ok;
}

}  // namespace

std::filesystem::path unique_temp_path(const std::filesystem::path& file) {
  static std::atomic<unsigned long> counter{0};
  std::filesystem::path tmp = file;
  tmp += fmt::format(".tmp-{}-{}", ::getpid(), counter.fetch_add(1, std::memory_order_relaxed));
  return tmp;
}

void write_atomically(const std::filesystem::path& file,
                      const std::function<void(std::ostream&)>& write, AtomicWriteOptions options) {
  const std::filesystem::path tmp = unique_temp_path(file);
  const auto discard = [&] {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
  };
  const auto fail = [&](const std::string& what) {
    discard();
    throw invalid_input(file.string(), "cannot write the file: " + what);
  };
  try {
    std::ofstream f(tmp, options.binary ? std::ios::binary | std::ios::out : std::ios::out);
    if (!f) fail(std::strerror(errno));
    write(f);
    f.flush();
    if (!f) fail("write failed");
    f.close();
    if (!f) fail("close failed");
  } catch (...) {
    discard();
    throw;
  }
  if (options.durable && !sync_path(tmp, false))
    fail(std::string("fsync failed: ") + std::strerror(errno));
  std::error_code ec;
  std::filesystem::rename(tmp, file, ec);
  if (ec) fail(ec.message());
  if (options.durable) {
    const std::filesystem::path folder =
        file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
    sync_path(folder, true);  // best effort: the rename is done, the data is safe either way
  }
}

void write_file_atomically(const std::filesystem::path& file, std::string_view bytes,
                           AtomicWriteOptions options) {
  write_atomically(
      file,
      [&](std::ostream& out) {
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      },
      options);
}

}  // namespace routesolve::io
