// Matrix rows over ranks (matrix_rows.hpp): row blocks, their computation, MPI-IO output.

#include "routesolve/distributed/matrix_rows.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <string>

#include "routesolve/distributed/world.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/atomic_file.hpp"
#include "routesolve/io/matrix_formats.hpp"

#ifdef ROUTESOLVE_HAVE_MPI
#include <mpi.h>
#endif

namespace routesolve::distributed {

RowBlock row_block(std::size_t n, int rank, int ranks) {
  const auto r = static_cast<std::size_t>(rank), k = static_cast<std::size_t>(std::max(1, ranks));
  const std::size_t base = n / k, extra = n % k;
  const std::size_t begin = r * base + std::min(r, extra);
  return {begin, begin + base + (r < extra ? 1 : 0)};
}

NodeMatrices point_matrix_rows(const network::RoadRouter& router,
                               const std::vector<SnapResult>& snaps, RowBlock block,
                               unsigned threads, const network::NodeMatrixFunction& engine) {
  const std::size_t n = snaps.size();
  std::vector<NodeId> targets, sources;
  std::vector<std::size_t> target_point, source_point;
  for (std::size_t i = 0; i < n; ++i) {
    if (!snaps[i].found) continue;
    targets.push_back(snaps[i].node);
    target_point.push_back(i);
    if (i >= block.begin && i < block.end) {
      sources.push_back(snaps[i].node);
      source_point.push_back(i);
    }
  }
  NodeMatrices out;
  out.rows = block.rows();
  out.cols = n;
  out.durations.assign(out.rows * n, kUnreachable);
  out.distances.assign(out.rows * n, kUnreachable);
  for (std::size_t i = block.begin; i < block.end; ++i)
    out.durations[(i - block.begin) * n + i] = out.distances[(i - block.begin) * n + i] = 0;
  if (sources.empty()) return out;
  const NodeMatrices sub =
      engine ? engine(sources, targets) : router.engine().many_to_many(sources, targets, threads);
  const std::size_t k = targets.size();
  for (std::size_t a = 0; a < sources.size(); ++a) {
    for (std::size_t b = 0; b < k; ++b) {
      const std::size_t cell = (source_point[a] - block.begin) * n + target_point[b];
      out.durations[cell] = sub.durations[a * k + b];
      out.distances[cell] = sub.distances[a * k + b];
    }
  }
  return out;
}

BinaryBlock encode_binary_block(const NodeMatrices& rows, std::size_t n, RowBlock block,
                                bool with_header) {
  // io's writer lays out a header, then rows x n durations, then rows x n distances: the block's
  // two runs are cut from that, the file header from a writer call with no values.
  constexpr std::size_t kHeader = 24;  // "RSMATRIX", u32 version, u32 flags, u64 n
  std::ostringstream whole;
  io::write_binary_matrices(whole, rows);
  BinaryBlock out;
  out.encoded = std::move(whole).str();
  out.run = rows.rows * n * 8;
  if (out.encoded.size() != kHeader + 2 * out.run)
    throw std::logic_error("binary matrix block: unexpected layout");
  out.durations_offset = kHeader + block.begin * n * 8;
  out.distances_offset = kHeader + n * n * 8 + block.begin * n * 8;
  if (with_header && block.begin == 0) {
    NodeMatrices empty;
    empty.rows = empty.cols = n;
    std::ostringstream h;
    io::write_binary_matrices(h, empty);
    out.header = std::move(h).str();
  }
  return out;
}

#ifdef ROUTESOLVE_HAVE_MPI
namespace {

void check(int rc, const std::string& what, const std::string& path) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw Error(ErrorCode::InvalidInput,
              path + ": " + what + ": " + std::string(text, static_cast<std::size_t>(len)));
}

void write_at(MPI_File f, std::size_t offset, std::string_view bytes, const std::string& path) {
  constexpr std::size_t kPiece = std::size_t{1} << 30;  // MPI counts are int
  for (std::size_t at = 0; at < bytes.size(); at += kPiece) {
    const int count = static_cast<int>(std::min(kPiece, bytes.size() - at));
    check(MPI_File_write_at(f, static_cast<MPI_Offset>(offset + at), bytes.data() + at, count,
                            MPI_CHAR, MPI_STATUS_IGNORE),
          "MPI_File_write_at", path);
  }
}

}  // namespace
#endif

void write_binary_rows(const std::string& path, const NodeMatrices& rows,
                       [[maybe_unused]] std::size_t n, [[maybe_unused]] RowBlock block) {
#ifdef ROUTESOLVE_HAVE_MPI
  if (size() > 1) {
    const BinaryBlock b = encode_binary_block(rows, n, block, rank() == 0);
    // The temporary file's name comes from rank 0 (its process id), the same on every rank.
    std::string tmp = path + ".part" + std::to_string(::getpid());
    broadcast(tmp);
    MPI_File f;
    check(MPI_File_open(MPI_COMM_WORLD, tmp.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY,
                        MPI_INFO_NULL, &f),
          "MPI_File_open", tmp);
    // A file left by an earlier run under the same name is cut (collective; the blocks cover it).
    check(MPI_File_set_size(f, 0), "MPI_File_set_size", tmp);
    if (!b.header.empty()) write_at(f, 0, b.header, tmp);
    write_at(f, b.durations_offset, b.durations(), tmp);
    write_at(f, b.distances_offset, b.distances(), tmp);
    // Like the single process's write (not a durable one): closed, then renamed into place.
    check(MPI_File_close(&f), "MPI_File_close", tmp);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank() == 0) {
      std::error_code ec;
      std::filesystem::rename(tmp, path, ec);
      if (ec)
        throw Error(ErrorCode::InvalidInput, path + ": cannot rename " + tmp + ": " + ec.message());
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return;
  }
#endif
  io::write_atomically(path, [&](std::ostream& out) { io::write_binary_matrices(out, rows); },
                       {.binary = true});
}

NodeMatrices gather_rows(const NodeMatrices& rows, std::size_t n) {
  if (size() <= 1) return rows;
  std::string mine(rows.durations.size() * 16, '\0');
  std::memcpy(mine.data(), rows.durations.data(), rows.durations.size() * 8);
  std::memcpy(mine.data() + rows.durations.size() * 8, rows.distances.data(),
              rows.distances.size() * 8);
  const std::vector<std::string> parts = gather(mine);
  NodeMatrices all;
  if (rank() != 0) return all;
  all.rows = all.cols = n;
  for (const std::string& p : parts) {
    const std::size_t cells = p.size() / 16;
    const auto at = all.durations.size();
    all.durations.resize(at + cells);
    all.distances.resize(at + cells);
    std::memcpy(all.durations.data() + at, p.data(), cells * 8);
    std::memcpy(all.distances.data() + at, p.data() + cells * 8, cells * 8);
  }
  return all;
}

}  // namespace routesolve::distributed
