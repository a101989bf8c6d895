// The host twin of the device insertion engine's data path: the same tour store plan, the
// records moved by the kernels' body into host memory (a grown store starts as garbage, as a
// fresh device allocation does), every slot priced from its mirrored record.

#include <stdexcept>
#include <string>
#include <utility>

#include "../host_grid.hpp"
#include "insertion_engines.hpp"
#include "routesolve/timing.hpp"
#include "tour_store.hpp"

namespace routesolve::cuda::insertion {

namespace {

class MirroredHostEngine final : public BatchedEngine {
 public:
  explicit MirroredHostEngine(std::size_t min_store) : tours_(min_store) {}
  [[nodiscard]] std::string name() const override { return "host twin of the device tour store"; }
  [[nodiscard]] const InsertionStats& stats() const noexcept override { return stats_; }

  void price(std::span<const search::InsertionRequest> requests,
             std::span<search::InsertionChoice> out) override {
    const auto t0 = Clock::now();
    batch_.build(requests);
    if (batch_.model != model_) {
      model_ = batch_.model;
      tours_.clear(store_.size());
    }
    ++stats_.calls;
    stats_.requests += batch_.inserted.size();
    stats_.rows += batch_.row_slot.size();
    if (batch_.inserted.empty()) return;
    const TourStore::Plan& plan = tours_.place(batch_);
    if (plan.grow) store_.assign(plan.capacity, std::byte{0xA5});
    // What the device would do silently wrong: a record placed beyond the store.
    for (const Move& m : plan.moves)
      if (m.dst + m.bytes > store_.size())
        throw std::logic_error("tour store: a record at " + std::to_string(m.dst) + " + " +
                               std::to_string(m.bytes) + " bytes is beyond the store's " +
                               std::to_string(store_.size()));
    constexpr std::uint32_t kThreads = 32;
    detail::run_grid(
        detail::Grid{static_cast<std::uint32_t>(plan.moves.size()), kThreads},
        detail::insertion::MoveRecordBody{plan.moves.data(), plan.records.data(), store_.data()});
    slots_ = batch_.slots;
    for (std::size_t s = 0; s < slots_.size(); ++s)
      slots_[s] = at_record(slots_[s], store_.data() + plan.slot_offset[s]);
    BatchView view = batch_.view();
    view.slots = slots_.data();
    stats_.pack += seconds_since(t0);
    const auto t1 = Clock::now();
    for (std::uint32_t r = 0; r < view.requests; ++r)
      out[r] = batch_.choice(best_row_host(view, r));
    stats_.kernels += seconds_since(t1);
    tours_.report(stats_);
  }

 private:
  TourStore tours_;
  std::vector<std::byte> store_;
  const search::SegmentModel* model_ = nullptr;
  HostBatch batch_;
  std::vector<hd::TourView> slots_;
  InsertionStats stats_;
};

}  // namespace

std::unique_ptr<BatchedEngine> make_mirrored_host_engine(std::size_t min_store) {
  return std::make_unique<MirroredHostEngine>(min_store);
}

}  // namespace routesolve::cuda::insertion
