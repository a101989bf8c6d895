#pragma once
// Travel matrices split over ranks by source rows: each rank computes a contiguous block of rows
// with its local engine and writes them at their place in the one output file (MPI-IO), so no
// rank ever holds the whole matrix. The file is byte for byte the single-process output of
// io::write_binary_matrices.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "routesolve/network/road_router.hpp"
#include "routesolve/snap.hpp"

namespace routesolve::distributed {

/// Rows [begin, end) of an n-row matrix.
struct RowBlock {
  std::size_t begin = 0, end = 0;
  [[nodiscard]] std::size_t rows() const noexcept { return end - begin; }
};

/// Rank r's block of n rows among `ranks`: contiguous, sizes differ by at most one, in rank order.
RowBlock row_block(std::size_t n, int rank, int ranks);

/// Rows `block` of the matrices between the points (row = from) with network::point_matrices's
/// semantics: deciseconds and metres, kUnreachable where no path exists, a point that did not snap
/// unreachable to and from every other point and 0 to itself. rows = block.rows(), cols = n.
NodeMatrices point_matrix_rows(const network::RoadRouter& router,
                               const std::vector<SnapResult>& snaps, RowBlock block,
                               unsigned threads, const network::NodeMatrixFunction& engine);

/// The binary matrix file's bytes for these rows of an n-point matrix: the header (only when
/// block.begin == 0 and with_header), then where in the file the durations and the distances of
/// the block go. Built with io::write_binary_matrices, so the encoding is the one writer's.
struct BinaryBlock {
  std::string header;   ///< the file's header (empty unless asked for)
  std::string encoded;  ///< the writer's output for the block: its header, durations, distances
  std::size_t run = 0;  ///< bytes of the block's durations (and of its distances)
  std::size_t durations_offset = 0, distances_offset = 0;  ///< where they go in the file
  [[nodiscard]] std::string_view durations() const {
    return std::string_view(encoded).substr(24, run);
  }
  [[nodiscard]] std::string_view distances() const {
    return std::string_view(encoded).substr(24 + run, run);
  }
};
BinaryBlock encode_binary_block(const NodeMatrices& rows, std::size_t n, RowBlock block,
                                bool with_header);

/// Collective: every rank writes its block of the n-point matrix into `path` with MPI-IO (rank 0
/// the header too), through a temporary file that rank 0 renames once all ranks are done, so a
/// failed run leaves no half file. In a world of one, a plain write of the same bytes.
void write_binary_rows(const std::string& path, const NodeMatrices& rows, std::size_t n,
                       RowBlock block);

/// Collective: every rank's rows gathered on rank 0 into the whole n x n matrix (for the JSON
/// output of small matrices); other ranks get an empty one.
NodeMatrices gather_rows(const NodeMatrices& rows, std::size_t n);

}  // namespace routesolve::distributed
