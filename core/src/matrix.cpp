// Matrix::materialise: the cells of a matrix that computed its entries from points.

#include "routesolve/memory_budget.hpp"
#include "routesolve/types.hpp"

namespace routesolve {

// Row by row with planar_arc, the formula the reads used: the cells equal the computed entries.
void Matrix::materialise(std::string_view what) {
  if (!computed_) return;
  check_matrix_memory(n_, 1, what, 4);
  auto cells = std::make_shared<Cells>();
  cells->narrow.reserve(n_ * n_);  // not zero-filled: every entry is written once
  const Cells& from = *data_;
  for (std::size_t i = 0; i < n_; ++i)
    for (std::size_t j = 0; j < n_; ++j)
      cells->narrow.push_back(
          planar_arc(from.points.data(), i, j, from.scale_squared, from.rounding));
  data_ = std::move(cells);
  narrow_ = true;
  computed_ = false;
}

}  // namespace routesolve
