#include "routesolve/search/neighbours.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>

namespace routesolve::search {

namespace {

// The k nearest of every task by c(a, b) + c(b, a), each entry saturated at kUnreachable so that
// sums cannot overflow; ties broken by index. One pass over every pair, cache-friendly: the
// tasks go in blocks, in the order of their locations (so a block reads a few cache lines of each
// row, whatever order the tasks were given in), the column entries c(b, a) of a block are
// gathered once per block from the rows of the matrix (the gather is what costs at 30,000 tasks:
// one page of each row per block, so the blocks are large, and the gathered entries keep the
// matrix's width), then each task of the block reads its own row. A pair joins the k best so far
// only when (sum, task index) is below the worst of them (a max-heap of k): the result is the k
// smallest (sum, index) pairs, in that order, whatever order the candidates run in.
template <typename Entry>
void nearest(const Entry* costs, std::size_t stride, const std::vector<std::size_t>& task_loc, std::size_t k,
             std::vector<std::uint32_t>& lists) {
  const std::size_t n = task_loc.size();
  std::vector<std::size_t> task(n);  // task[i]: the task at position i, in the order of locations
  for (std::size_t t = 0; t < n; ++t) task[t] = t;
  std::stable_sort(task.begin(), task.end(), [&](std::size_t a, std::size_t b) { return task_loc[a] < task_loc[b]; });
  std::vector<std::size_t> loc(n);
  for (std::size_t i = 0; i < n; ++i) loc[i] = task_loc[task[i]];
  constexpr std::size_t kBlock = 256;
  auto entry = [&](std::size_t a, std::size_t b) {
    return static_cast<Entry>(std::min<std::int64_t>(std::int64_t{costs[a * stride + b]}, kUnreachable));
  };
  std::vector<Entry> back(std::min(kBlock, n) * n);  // back[b * n + w] = c(loc[w], loc[i0 + b])
  std::vector<std::pair<std::int64_t, std::size_t>> heap;
  heap.reserve(k + 1);
  for (std::size_t i0 = 0; i0 < n; i0 += kBlock) {
    const std::size_t block = std::min(kBlock, n - i0);
    for (std::size_t w = 0; w < n; ++w)
      for (std::size_t b = 0; b < block; ++b) back[b * n + w] = entry(loc[w], loc[i0 + b]);
    for (std::size_t b = 0; b < block; ++b) {
      const std::size_t i = i0 + b;
      const Entry* col = back.data() + b * n;
      const Entry* row = costs + loc[i] * stride;
      heap.clear();
      for (std::size_t w = 0; w < n; ++w) {
        if (w == i) continue;
        const std::pair<std::int64_t, std::size_t> candidate{
            std::min<std::int64_t>(std::int64_t{row[loc[w]]}, kUnreachable) + std::int64_t{col[w]}, task[w]};
        if (heap.size() < k) {
          heap.push_back(candidate);
          std::push_heap(heap.begin(), heap.end());
        } else if (candidate < heap.front()) {
          std::pop_heap(heap.begin(), heap.end());
          heap.back() = candidate;
          std::push_heap(heap.begin(), heap.end());
        }
      }
      std::sort_heap(heap.begin(), heap.end());
      std::uint32_t* list = lists.data() + task[i] * k;
      for (const auto& [c, w] : heap) *list++ = static_cast<std::uint32_t>(w);
    }
  }
}

}  // namespace

Neighbours::Neighbours(const Problem& problem, std::size_t k) {
  const std::size_t n = problem.tasks().size();
  if (problem.vehicles().empty() || n == 0 || k == 0) return;
  if (n > std::numeric_limits<std::uint32_t>::max()) throw std::length_error("Neighbours: more tasks than 32-bit indices hold");
  k_ = std::min(k, n - 1);
  if (k_ == 0) return;
  lists_.resize(n * k_);
  const TravelView tv = problem.travel(0);
  std::vector<std::size_t> loc(n);
  for (std::size_t t = 0; t < n; ++t) loc[t] = problem.task(t).location;
  if (tv.costs.narrow()) nearest(static_cast<const std::int32_t*>(tv.costs.data()), tv.n, loc, k_, lists_);
  else nearest(static_cast<const std::int64_t*>(tv.costs.data()), tv.n, loc, k_, lists_);
}

}  // namespace routesolve::search
