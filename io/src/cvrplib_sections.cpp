// CVRPLIB / TSPLIB .vrp data sections: node coordinates (NODE_COORD_SECTION, DISPLAY_DATA_SECTION),
// demands, the depot list, explicit edge weights in any of the TSPLIB matrix layouts.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cvrplib_vrp.hpp"
#include "routesolve/memory_budget.hpp"

namespace routesolve::io::cvrplib {

namespace {

using detail::split_tokens;
using detail::trim;

// The (row, column) cells a format lists, in file order, walked one at a time (a tiny file
// claiming a huge DIMENSION must fail at its first missing weight, not after listing n^2 cells);
// each weight also fills its mirror cell except in FULL_MATRIX.
class WeightCells {
 public:
  WeightCells(WeightFormat format, std::size_t n) : format_(format), n_(n) {
    switch (format) {
      case WeightFormat::FullMatrix:
        count_ = n * n;
        break;
      case WeightFormat::LowerRow:
      case WeightFormat::UpperRow:
        count_ = n * (n - std::min<std::size_t>(n, 1)) / 2;
        break;
      case WeightFormat::LowerDiagRow:
      case WeightFormat::UpperDiagRow:
        count_ = n * (n + 1) / 2;
        break;
      case WeightFormat::Function:
        count_ = 0;
        break;
    }
    if (format == WeightFormat::LowerRow) i_ = 1;
    if (format == WeightFormat::UpperRow) j_ = 1;
  }
  [[nodiscard]] std::size_t count() const noexcept { return count_; }
  /// The current cell; advance() moves to the next one in file order.
  [[nodiscard]] std::pair<std::size_t, std::size_t> cell() const noexcept { return {i_, j_}; }
  void advance() noexcept {
    ++j_;
    switch (format_) {
      case WeightFormat::FullMatrix:
        if (j_ == n_) next_row(0);
        break;
      case WeightFormat::LowerRow:
        if (j_ == i_) next_row(0);
        break;
      case WeightFormat::LowerDiagRow:
        if (j_ > i_) next_row(0);
        break;
      case WeightFormat::UpperRow:
        if (j_ == n_) next_row(i_ + 2);
        break;
      case WeightFormat::UpperDiagRow:
        if (j_ == n_) next_row(i_ + 1);
        break;
      case WeightFormat::Function:
        break;
    }
  }

 private:
  void next_row(std::size_t first_column) noexcept {
    ++i_;
    j_ = first_column;
  }
  WeightFormat format_;
  std::size_t n_;
  std::size_t count_ = 0;
  std::size_t i_ = 0, j_ = 0;
};

std::size_t require_dimension(const TextReader& in, const VrpFile& vrp, std::string_view section) {
  if (!vrp.dimension) in.fail(std::string(section) + ": DIMENSION must come before this section");
  return *vrp.dimension;
}

// Reads `n` lines "node v1 v2..." (values_per_line numbers after the node number) of a section.
template <typename OnRow>
void read_node_rows(TextReader& in, std::string_view section, std::size_t n,
                    std::size_t values_per_line, OnRow&& on_row) {
  std::vector<char> seen(n, 0);
  for (std::size_t k = 0; k < n; ++k) {
    if (!in.next_nonblank_line())
      in.fail(std::string(section) + ": the file ends after " + std::to_string(k) + " of " +
              std::to_string(n) + " nodes (DIMENSION)");
    const auto tokens = in.tokens();
    if (!detail::to_int(tokens.front()))
      in.fail(std::string(section) + ": expected " + std::to_string(n) +
              " nodes (DIMENSION), got " + std::to_string(k) + " before '" +
              std::string(tokens.front()) + "'");
    if (tokens.size() != values_per_line + 1)
      in.fail(std::string(section) + ": expected " + std::to_string(values_per_line + 1) +
              " values per line, got " + std::to_string(tokens.size()));
    const std::int64_t node = in.int_field(tokens[0], std::string(section) + " node");
    if (node < 1 || static_cast<std::size_t>(node) > n)
      in.fail(std::string(section) + ": node " + std::to_string(node) + " outside 1.." +
              std::to_string(n) + " (DIMENSION)");
    const auto index = static_cast<std::size_t>(node - 1);
    if (seen[index])
      in.fail(std::string(section) + ": node " + std::to_string(node) + " listed twice");
    seen[index] = 1;
    on_row(index, tokens);
  }
}

}  // namespace

bool read_section(TextReader& in, const std::string& key, VrpFile& vrp) {
  if (key == "NODE_COORD_SECTION" || key == "DISPLAY_DATA_SECTION") {
    const std::size_t n = require_dimension(in, vrp, key);
    // Coordinates only draw maps and compute EUC_2D weights: NODE_COORD_SECTION wins.
    const bool keep = key == "NODE_COORD_SECTION" || !vrp.has_coords;
    std::vector<std::optional<Coordinates>> coords(n);
    read_node_rows(in, key, n, 2, [&](std::size_t index, const std::vector<std::string_view>& t) {
      coords[index] =
          Coordinates{in.number_field(t[1], key + " x"), in.number_field(t[2], key + " y")};
    });
    if (keep) {
      vrp.coords = std::move(coords);
      vrp.has_coords = true;
    }
  } else if (key == "DEMAND_SECTION") {
    const std::size_t n = require_dimension(in, vrp, key);
    vrp.demands.assign(n, std::nullopt);
    read_node_rows(in, key, n, 1, [&](std::size_t index, const std::vector<std::string_view>& t) {
      const std::int64_t d = in.int_field(t[1], "DEMAND_SECTION demand");
      if (d < 0)
        in.fail("DEMAND_SECTION: node " + std::to_string(index + 1) + " has a negative demand");
      vrp.demands[index] = d;
    });
    vrp.has_demands = true;
  } else if (key == "DEPOT_SECTION") {
    const std::size_t n = require_dimension(in, vrp, key);
    vrp.depot_line = in.line_number();
    in.consume_line();
    for (;;) {
      const auto token = in.next_token();
      if (!token) in.fail("DEPOT_SECTION: the file ends before the closing -1");
      const std::int64_t node = in.int_field(token->text, "DEPOT_SECTION node", token->line);
      if (node == -1) break;
      if (node < 1 || static_cast<std::size_t>(node) > n)
        in.fail("DEPOT_SECTION: node " + std::to_string(node) + " outside 1.." + std::to_string(n) +
                    " (DIMENSION)",
                token->line);
      vrp.depots.push_back(static_cast<std::size_t>(node));
    }
    if (!trim(in.rest()).empty())
      in.fail("DEPOT_SECTION: unexpected '" + std::string(trim(in.rest())) + "' after -1");
    vrp.has_depots = true;
  } else if (key == "EDGE_WEIGHT_SECTION") {
    const std::size_t n = require_dimension(in, vrp, key);
    if (!vrp.edge_weight_format || *vrp.edge_weight_format == WeightFormat::Function)
      in.fail(
          "EDGE_WEIGHT_SECTION: EDGE_WEIGHT_FORMAT (FULL_MATRIX, LOWER_ROW, ...) must come before "
          "it");
    WeightCells cells(*vrp.edge_weight_format, n);
    const bool symmetric = *vrp.edge_weight_format != WeightFormat::FullMatrix;
    // The weights are kept as they come and the n x n matrix is built once they are all there,
    // so memory follows the file, not the DIMENSION it claims.
    std::vector<std::int64_t> weights;
    weights.reserve(std::min<std::size_t>(cells.count(), std::size_t{1} << 20));
    in.consume_line();
    for (std::size_t k = 0; k < cells.count(); ++k) {
      const auto token = in.next_token();
      const std::string count = std::to_string(cells.count());
      if (!token)
        in.fail("EDGE_WEIGHT_SECTION: the file ends after " + std::to_string(k) + " of " + count +
                " weights");
      const auto w = detail::to_double(token->text);
      if (!w)
        in.fail("EDGE_WEIGHT_SECTION: expected " + count + " weights for DIMENSION " +
                    std::to_string(n) + ", got " + std::to_string(k) + " before '" +
                    std::string(token->text) + "'",
                token->line);
      if (*w < 0 || *w != std::floor(*w) || *w >= static_cast<double>(kUnreachable))
        in.fail("EDGE_WEIGHT_SECTION: weight '" + std::string(token->text) +
                    "' is not a non-negative integer",
                token->line);
      weights.push_back(static_cast<std::int64_t>(*w));
    }
    if (!trim(in.rest()).empty())
      in.fail("EDGE_WEIGHT_SECTION: more weights than the " + std::to_string(cells.count()) +
              " expected, starting at '" + std::string(split_tokens(in.rest()).front()) + "'");
    check_matrix_memory(n, 1, in.source() + ": EDGE_WEIGHT_SECTION", 4);
    Matrix m(n, 0);
    for (const std::int64_t w : weights) {
      const auto [i, j] = cells.cell();
      m(i, j) = w;
      if (symmetric) m(j, i) = w;
      cells.advance();
    }
    vrp.weights = std::move(m);
  } else {
    return false;
  }
  return true;
}

}  // namespace routesolve::io::cvrplib
