// The host twin of the device move engine: the kernels' bodies (kernels.cuh) run over the same
// grids by run_grid (host_grid.hpp); where the device calls CUB (segmented minimum, stable
// segmented sort, exclusive scan) the host loops or calls std::stable_sort.

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "routesolve/timing.hpp"
#include "host_grid.hpp"
#include "search_engine.hpp"

namespace routesolve::cuda::batched {
namespace {

namespace ds = detail::batched;

}  // namespace

void build_prefix_host(const ProblemView& problem, const BatchView& batch, std::uint32_t routes,
                       HostPrefix& out, unsigned threads) {
  const auto positions = static_cast<std::uint32_t>(batch.pos_task.size());
  const std::size_t bytes = prefix_bytes(positions, problem.dims);
  if (out.storage.size() < bytes) out.storage.resize(bytes);
  out.view = prefix_view(out.storage.data(), positions, problem.dims);
  ds::run_grid(ds::BuildBody{problem, batch, out.view, routes}, routes, routes > 64 ? threads : 1);
}

namespace {

class HostEngine final : public MoveEngine {
 public:
  explicit HostEngine(unsigned threads) : threads_(threads == 0 ? 1 : threads) {}
  [[nodiscard]] std::string name() const override { return "cuda-host"; }

  void set_problem(const PackedProblem& problem) override {
    problem_ = &problem;
    view_ = problem.view(problem.arena.bytes.data());
  }

  void evaluate(const PackedBatch& batch, std::vector<Move>& best, EngineTimes& times) override {
    const auto t0 = std::chrono::steady_clock::now();
    const BatchView b = batch.view(batch.arena.bytes.data());
    build_prefix_host(view_, b, batch.routes, prefix_, threads_);
    best.assign(std::size_t{b.solutions} * problem_->tasks, Move{});
    price(b, nullptr, best.data(), times);
    times.kernels += seconds_since(t0);
    ++times.calls;
  }

  void load(const PackedBatch& batch, EngineTimes& times) override {
    layout_ = batch;  // the arena travels with it: the first buffer
    next_ = batch.arena.bytes;
    apply_layout_ = ApplyLayout(batch.solutions, batch.tasks, batch.routes);
    scratch_.assign(apply_layout_.total, std::byte{0});
    std::fill_n(scratch_.begin() + static_cast<std::ptrdiff_t>(apply_layout_.active), batch.solutions, std::byte{1});
    ++times.calls;
  }

  void round(std::vector<std::uint32_t>& applied, std::vector<std::int64_t>& gain, EngineTimes& times) override {
    const auto t0 = std::chrono::steady_clock::now();
    const BatchView b = layout_.view(layout_.arena.bytes.data());
    const std::uint32_t routes = layout_.routes, solutions = layout_.solutions, tasks = problem_->tasks;
    build_prefix_host(view_, b, routes, prefix_, threads_);
    best_.assign(std::size_t{solutions} * tasks, Move{});
    const ApplyView a = apply_layout_.view(scratch_.data(), best_.data());
    price(b, a.active.data(), best_.data(), times);
    const PrefixView x = prefix_.view;
    const ProblemView p = view_;

    // Candidates in goes_first order: KeysBody, then per solution a stable sort by delta (the
    // device's CUB segmented radix sort).
    const std::uint64_t segments = std::uint64_t{solutions} * tasks;
    keys_.resize(segments);
    values_.resize(segments);
    sort_segments_.resize(std::size_t{solutions} + 1);
    ds::run_grid(ds::KeysBody{best_.data(), segments, tasks, keys_.data(), values_.data(), sort_segments_.data(), solutions},
                 std::max<std::uint64_t>(segments, std::uint64_t{solutions} + 1), 1);
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads_) if (threads_ > 1)
    for (std::int64_t s = 0; s < static_cast<std::int64_t>(solutions); ++s) {
      const auto from = static_cast<std::size_t>(sort_segments_[static_cast<std::size_t>(s)]);
      const auto to = static_cast<std::size_t>(sort_segments_[static_cast<std::size_t>(s) + 1]);
      std::uint32_t* c = a.cand.data() + from;
      std::copy(values_.begin() + static_cast<std::ptrdiff_t>(from), values_.begin() + static_cast<std::ptrdiff_t>(to), c);
      const std::int64_t* key = keys_.data() + from;
      std::stable_sort(c, c + (to - from), [key](std::uint32_t l, std::uint32_t r) { return key[l] < key[r]; });
    }
    ds::run_grid(ds::TakeBody{p, b, x, a}, solutions, threads_);
    ds::run_grid(ds::LengthBody{b, a, routes}, std::uint64_t{routes} + 1, 1);
    const BatchOut out = layout_.out_view(next_.data());
    std::uint32_t sum = 0;  // the exclusive scan
    for (std::uint32_t r = 0; r <= routes; ++r) {
      out.route_offsets[r] = sum;
      sum += a.length[r];
    }
    ds::run_grid(ds::WriteBody{p, b, a, out, routes}, routes, routes > 64 ? threads_ : 1);
    layout_.arena.bytes.swap(next_);
    applied.assign(a.applied.data(), a.applied.data() + solutions);
    gain.assign(a.gain.data(), a.gain.data() + solutions);
    times.kernels += seconds_since(t0);
    ++times.rounds;
  }

  void fetch(PackedBatch& batch, EngineTimes& /*times*/) override {
    batch.arena.bytes = layout_.arena.bytes;
  }

 private:
  /// Best move per (solution, customer) into best (solutions x tasks, all "no move" on entry);
  /// solutions with active[s] == 0 get none. PriceBody over the triples, the segmented
  /// minimum of each customer's K deltas, GatherBody: the device's grid.
  void price(const BatchView& b, const std::uint8_t* active, Move* best, EngineTimes& times) {
    const std::uint32_t tasks = problem_->tasks, k = problem_->neighbours;
    const std::uint64_t segments = std::uint64_t{b.solutions} * tasks;
    std::uint64_t priced = 0;  // solutions priced
    for (std::uint32_t s = 0; s < b.solutions; ++s)
      if (active == nullptr || active[s] != 0u) ++priced;
    times.moves += priced * problem_->moves_per_solution();
    if (segments == 0 || k == 0) return;  // k == 0: FillBody's "no move", as assigned
    const std::uint64_t n = segments * k;
    moves_.resize(n);
    deltas_.resize(n);
    mins_.resize(segments);
    ds::run_grid(ds::PriceBody{view_, b, prefix_.view, n, active, moves_.data(), deltas_.data()}, n, threads_);
    const auto count = static_cast<std::int64_t>(segments);
#pragma omp parallel for schedule(static) num_threads(threads_) if (threads_ > 1 && count > 4096)
    for (std::int64_t s = 0; s < count; ++s) {
      const std::int64_t* d = deltas_.data() + static_cast<std::size_t>(s) * k;
      mins_[static_cast<std::size_t>(s)] = *std::min_element(d, d + k);
    }
    ds::run_grid(ds::GatherBody{mins_.data(), moves_.data(), segments, k, best}, segments, threads_);
  }

  unsigned threads_;
  const PackedProblem* problem_ = nullptr;
  ProblemView view_;
  HostPrefix prefix_;
  PackedBatch layout_;
  std::vector<std::byte> next_, scratch_;
  ApplyLayout apply_layout_;
  std::vector<Move> best_, moves_;
  std::vector<std::int64_t> deltas_, mins_, keys_;
  std::vector<std::uint32_t> values_;
  std::vector<int> sort_segments_;
};

}  // namespace

std::unique_ptr<MoveEngine> make_host_engine(unsigned threads) {
  return std::make_unique<HostEngine>(threads);
}

}  // namespace routesolve::cuda::batched
