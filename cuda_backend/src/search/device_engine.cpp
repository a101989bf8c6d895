// The device move engine: problem uploaded once, kernels (move_eval.cu) on one non-blocking
// stream. evaluate(): the batch up, the best move per customer back. The descent (load / round /
// fetch): the batch up once into the first of two device buffers, every round prices, selects
// and applies on the device (new positions into the other buffer, then the two swap) and sends
// back only the applied counts and gains of the solutions; fetch() brings the batch back once. Transfers as the rest of the
// backend: Pinned packs each arena into one pinned staging buffer and moves it with one
// cudaMemcpyAsync; Naive copies each array from pageable memory. Copies and kernels are timed
// with events. CUDA builds only.

#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "../device_runtime.hpp"
#include "move_eval_launch.hpp"
#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/error.hpp"
#include "search_engine.hpp"

namespace routesolve::cuda::batched {
namespace {

using detail::DeviceBuffer;
using detail::Event;
using detail::PinnedBuffer;
using detail::Stream;

class DeviceEngine final : public MoveEngine {
 public:
  DeviceEngine(TransferMode transfer, int device) : transfer_(transfer), device_(select(device)) {}

  [[nodiscard]] std::string name() const override {
    return transfer_ == TransferMode::Pinned ? "cuda" : "cuda (naive transfers)";
  }

  void set_problem(const PackedProblem& problem) override {
    RS_CUDA_CHECK(cudaSetDevice(device_));
    problem_ = &problem;
    const std::size_t bytes = problem.arena.bytes.size();
    problem_dev_ = DeviceBuffer<std::byte>(bytes, stream_);
    // The travel table holds device addresses: patch a copy of the arena before it moves.
    start_.record(stream_);
    if (transfer_ == TransferMode::Pinned) {
      PinnedBuffer<std::byte> staging(bytes);
      std::memcpy(staging.data(), problem.arena.bytes.data(), bytes);
      problem.write_travel_table(staging.data(), problem_dev_.data());
      RS_CUDA_CHECK(cudaMemcpyAsync(problem_dev_.data(), staging.data(), bytes, cudaMemcpyHostToDevice,
                                    stream_.get()));
      copied_.record(stream_);
      stream_.synchronize();  // the staging buffer dies here
      copies_ = 1;
    } else {
      std::vector<std::byte> pageable = problem.arena.bytes;
      problem.write_travel_table(pageable.data(), problem_dev_.data());
      copies_ = copy_arrays(problem_dev_.data(), pageable.data(), problem.arena.arrays);
      copied_.record(stream_);
      stream_.synchronize();
    }
    problem_h2d_ = Event::seconds_between(start_, copied_);
    problem_bytes_ = bytes;
    view_ = problem.view(problem_dev_.data());
  }

  void evaluate(const PackedBatch& batch, std::vector<Move>& best, EngineTimes& times) override {
    RS_CUDA_CHECK(cudaSetDevice(device_));
    const auto t0 = std::chrono::steady_clock::now();
    const std::uint64_t segments = std::uint64_t{batch.solutions} * problem_->tasks;
    best.assign(segments, Move{});
    if (times.calls == 0) {  // the problem's upload counts with the first round
      times.h2d += problem_h2d_;
      times.h2d_bytes += problem_bytes_;
      times.h2d_copies += copies_;
    }
    ++times.calls;
    if (segments == 0 || problem_->neighbours == 0) return;

    const std::size_t bytes = batch.arena.bytes.size();
    grow(batch_dev_, bytes);
    const std::size_t prefix = prefix_bytes(batch.positions, problem_->dims);
    grow(prefix_dev_, prefix);
    grow(work_dev_, detail::batched::evaluate_workspace_bytes(segments, problem_->neighbours, batch.routes));
    grow_best(segments);

    start_.record(stream_);
    std::size_t copies = 0;
    if (transfer_ == TransferMode::Pinned) {
      if (batch_stage_.size() < bytes) batch_stage_ = PinnedBuffer<std::byte>(bytes);
      std::memcpy(batch_stage_.data(), batch.arena.bytes.data(), bytes);
      RS_CUDA_CHECK(cudaMemcpyAsync(batch_dev_.data(), batch_stage_.data(), bytes, cudaMemcpyHostToDevice,
                                    stream_.get()));
      copies = 1;
    } else {
      copies = copy_arrays(batch_dev_.data(), batch.arena.bytes.data(), batch.arena.arrays);
    }
    copied_.record(stream_);
    const BatchView bv = batch.view(batch_dev_.data());
    const PrefixView xv = prefix_view(prefix_dev_.data(), batch.positions, problem_->dims);
    detail::batched::launch_evaluate(view_, bv, xv, batch.routes, work_dev_.view(),
                                    {best_dev_.data(), segments}, stream_.get());
    computed_.record(stream_);
    if (transfer_ == TransferMode::Pinned) {
      RS_CUDA_CHECK(cudaMemcpyAsync(best_host_.data(), best_dev_.data(), segments * sizeof(Move),
                                    cudaMemcpyDeviceToHost, stream_.get()));
      done_.record(stream_);
      stream_.synchronize();
      std::memcpy(best.data(), best_host_.data(), segments * sizeof(Move));
    } else {
      RS_CUDA_CHECK(cudaMemcpyAsync(best.data(), best_dev_.data(), segments * sizeof(Move),
                                    cudaMemcpyDeviceToHost, stream_.get()));
      done_.record(stream_);
      stream_.synchronize();
    }
    times.h2d += Event::seconds_between(start_, copied_);
    times.kernels += Event::seconds_between(copied_, computed_);
    times.d2h += Event::seconds_between(computed_, done_);
    times.h2d_bytes += bytes;
    times.h2d_copies += copies;
    times.d2h_bytes += segments * sizeof(Move);
    times.moves += std::uint64_t{batch.solutions} * problem_->moves_per_solution();
    (void)t0;
  }

  void load(const PackedBatch& batch, EngineTimes& times) override {
    RS_CUDA_CHECK(cudaSetDevice(device_));
    if (times.calls == 0) {  // the problem's upload counts with the first call
      times.h2d += problem_h2d_;
      times.h2d_bytes += problem_bytes_;
      times.h2d_copies += copies_;
    }
    ++times.calls;
    layout_ = batch;
    const std::size_t bytes = batch.arena.bytes.size();
    for (auto& buffer : batch_pair_) grow(buffer, bytes);
    cur_ = 0;
    const std::uint64_t segments = std::uint64_t{batch.solutions} * problem_->tasks;
    grow_best(segments);
    grow(prefix_dev_, prefix_bytes(batch.positions, problem_->dims));
    grow(work_dev_, detail::batched::evaluate_workspace_bytes(segments, problem_->neighbours, batch.routes,
                                                             batch.solutions));
    apply_layout_ = ApplyLayout(batch.solutions, batch.tasks, batch.routes);
    grow(apply_dev_, apply_layout_.total);
    if (counts_host_.size() < std::size_t{batch.solutions} * 12)
      counts_host_ = PinnedBuffer<std::byte>(std::size_t{batch.solutions} * 12);
    active_.assign(batch.solutions, 1);

    start_.record(stream_);
    std::size_t copies = 0;
    if (transfer_ == TransferMode::Pinned) {
      if (batch_stage_.size() < bytes) batch_stage_ = PinnedBuffer<std::byte>(bytes);
      std::memcpy(batch_stage_.data(), batch.arena.bytes.data(), bytes);
      RS_CUDA_CHECK(cudaMemcpyAsync(batch_pair_[0].data(), batch_stage_.data(), bytes, cudaMemcpyHostToDevice,
                                    stream_.get()));
      copies = 1;
    } else {
      copies = copy_arrays(batch_pair_[0].data(), batch.arena.bytes.data(), batch.arena.arrays);
    }
    copied_.record(stream_);
    // The second buffer starts as a copy (its task_pos of unassigned tasks stays -1), and the
    // scratch with every solution active.
    RS_CUDA_CHECK(cudaMemcpyAsync(batch_pair_[1].data(), batch_pair_[0].data(), bytes, cudaMemcpyDeviceToDevice,
                                  stream_.get()));
    RS_CUDA_CHECK(cudaMemsetAsync(apply_dev_.data(), 0, apply_layout_.total, stream_.get()));
    RS_CUDA_CHECK(cudaMemsetAsync(apply_dev_.data() + apply_layout_.active, 1, batch.solutions, stream_.get()));
    stream_.synchronize();
    times.h2d += Event::seconds_between(start_, copied_);
    times.h2d_bytes += bytes;
    times.h2d_copies += copies;
  }

  void round(std::vector<std::uint32_t>& applied, std::vector<std::int64_t>& gain, EngineTimes& times) override {
    RS_CUDA_CHECK(cudaSetDevice(device_));
    const std::uint32_t solutions = layout_.solutions;
    const BatchView bv = layout_.view(batch_pair_[cur_].data());
    const BatchOut out = layout_.out_view(batch_pair_[1 - cur_].data());
    const PrefixView xv = prefix_view(prefix_dev_.data(), layout_.positions, problem_->dims);
    const ApplyView av = apply_layout_.view(apply_dev_.data(), best_dev_.data());
    start_.record(stream_);
    detail::batched::launch_round(view_, bv, xv, layout_.routes, work_dev_.view(), av, out, stream_.get());
    computed_.record(stream_);
    std::byte* counts = counts_host_.data();
    RS_CUDA_CHECK(cudaMemcpyAsync(counts, apply_dev_.data() + apply_layout_.applied, solutions * 4ull,
                                  cudaMemcpyDeviceToHost, stream_.get()));
    RS_CUDA_CHECK(cudaMemcpyAsync(counts + solutions * 4ull, apply_dev_.data() + apply_layout_.gain, solutions * 8ull,
                                  cudaMemcpyDeviceToHost, stream_.get()));
    done_.record(stream_);
    stream_.synchronize();
    applied.resize(solutions);
    gain.resize(solutions);
    std::memcpy(applied.data(), counts, solutions * 4ull);
    std::memcpy(gain.data(), counts + solutions * 4ull, solutions * 8ull);
    std::uint64_t priced = 0;
    for (std::uint32_t s = 0; s < solutions; ++s) {
      if (active_[s] != 0) priced += problem_->moves_per_solution();
      if (applied[s] == 0) active_[s] = 0;
    }
    cur_ = 1 - cur_;
    times.kernels += Event::seconds_between(start_, computed_);
    times.d2h += Event::seconds_between(computed_, done_);
    times.d2h_bytes += solutions * 12ull;
    times.moves += priced;
    ++times.rounds;
  }

  void fetch(PackedBatch& batch, EngineTimes& times) override {
    RS_CUDA_CHECK(cudaSetDevice(device_));
    const std::size_t bytes = layout_.arena.bytes.size();
    batch.arena.bytes.resize(bytes);
    start_.record(stream_);
    if (transfer_ == TransferMode::Pinned) {
      if (batch_stage_.size() < bytes) batch_stage_ = PinnedBuffer<std::byte>(bytes);
      RS_CUDA_CHECK(cudaMemcpyAsync(batch_stage_.data(), batch_pair_[cur_].data(), bytes, cudaMemcpyDeviceToHost,
                                    stream_.get()));
    } else {
      RS_CUDA_CHECK(cudaMemcpyAsync(batch.arena.bytes.data(), batch_pair_[cur_].data(), bytes,
                                    cudaMemcpyDeviceToHost, stream_.get()));
    }
    done_.record(stream_);
    stream_.synchronize();
    if (transfer_ == TransferMode::Pinned) std::memcpy(batch.arena.bytes.data(), batch_stage_.data(), bytes);
    times.d2h += Event::seconds_between(start_, done_);
    times.d2h_bytes += bytes;
  }

 private:
  static int select(int device) {
    const std::vector<DeviceInfo> usable = devices();
    if (usable.empty())
      throw Error(ErrorCode::Device, "device move evaluation requested but " + device_unavailable_reason());
    for (const DeviceInfo& info : usable)
      if (info.index == device) {
        RS_CUDA_CHECK(cudaSetDevice(device));
        return device;
      }
    throw Error(ErrorCode::Device, "CUDA device " + std::to_string(device) + " is not usable");
  }

  /// The best moves' device buffer and its pinned copy, both allocated before either replaces
  /// its old one: a failure leaves the pair as it was.
  void grow_best(std::uint64_t segments) {
    if (best_dev_.size() >= segments && best_host_.size() >= segments) return;
    DeviceBuffer<Move> device(segments, stream_);
    PinnedBuffer<Move> host(segments);
    best_dev_ = std::move(device);
    best_host_ = std::move(host);
  }

  void grow(DeviceBuffer<std::byte>& buffer, std::size_t bytes) {
    if (buffer.size() < bytes) buffer = DeviceBuffer<std::byte>(bytes + bytes / 4, stream_);
  }

  /// Naive mode: one copy per array, from pageable memory.
  std::size_t copy_arrays(std::byte* dst, const std::byte* src,
                          const std::vector<std::pair<std::size_t, std::size_t>>& arrays) {
    std::size_t copies = 0;
    for (const auto& [offset, bytes] : arrays) {
      if (bytes == 0) continue;
      RS_CUDA_CHECK(cudaMemcpyAsync(dst + offset, src + offset, bytes, cudaMemcpyHostToDevice, stream_.get()));
      ++copies;
    }
    return copies;
  }

  TransferMode transfer_;
  int device_;
  Stream stream_;  // before the buffers: they are freed on it
  Event start_, copied_, computed_, done_;
  const PackedProblem* problem_ = nullptr;
  ProblemView view_;
  double problem_h2d_ = 0.0;
  std::size_t problem_bytes_ = 0, copies_ = 0;
  DeviceBuffer<std::byte> problem_dev_, batch_dev_, prefix_dev_, work_dev_, apply_dev_;
  DeviceBuffer<std::byte> batch_pair_[2];  // the descent's batch and its second buffer
  unsigned cur_ = 0;
  PackedBatch layout_;
  ApplyLayout apply_layout_;
  PinnedBuffer<std::byte> counts_host_;
  std::vector<std::uint8_t> active_;
  PinnedBuffer<std::byte> batch_stage_;
  DeviceBuffer<Move> best_dev_;
  PinnedBuffer<Move> best_host_;
};

}  // namespace

std::unique_ptr<MoveEngine> make_device_engine(TransferMode transfer, int device) {
  return std::make_unique<DeviceEngine>(transfer, device);
}

}  // namespace routesolve::cuda::batched
