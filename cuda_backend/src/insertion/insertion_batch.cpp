#include "insertion_batch.hpp"

#include <stdexcept>

namespace routesolve::cuda::insertion {

void HostBatch::build(std::span<const search::InsertionRequest> requests) {
  slots.clear();
  slot_request.clear();
  slot_solution.clear();
  inserted.clear();
  request_task.clear();
  blink_keys.clear();
  blink_thresholds.clear();
  row_slot.clear();
  row_k.clear();
  request_rows.assign(1, 0);
  model = requests.empty() ? nullptr : &requests.front().solution->model();
  for (std::size_t r = 0; r < requests.size(); ++r) {
    const search::InsertionRequest& q = requests[r];
    const search::WorkingSolution& s = *q.solution;
    if (&s.model() != model) throw std::logic_error("an insertion batch spans one model");
    inserted.push_back(search::inserted(s, q.task));
    request_task.push_back(q.task);
    blink_keys.push_back(q.blink_key);
    blink_thresholds.push_back(q.blink_threshold);
    for (const std::size_t v : q.vehicles) {
      const std::optional<hd::TourView> view = search::tour_view(s, q.task, inserted.back(), v);
      if (!view) continue;
      const auto slot = static_cast<std::uint32_t>(slots.size());
      slots.push_back(*view);
      slot_request.push_back(static_cast<std::uint32_t>(r));
      slot_solution.push_back(&s);
      for (std::size_t k = 0; k <= view->n; ++k) {
        row_slot.push_back(slot);
        row_k.push_back(static_cast<std::uint32_t>(k));
      }
    }
    request_rows.push_back(row_slot.size());
  }
}

BatchView HostBatch::view() const {
  BatchView b;
  b.slots = slots.data();
  b.slot_request = slot_request.data();
  b.inserted = inserted.data();
  b.blink_keys = blink_keys.data();
  b.blink_thresholds = blink_thresholds.data();
  b.row_slot = row_slot.data();
  b.row_k = row_k.data();
  b.request_rows = request_rows.data();
  b.task_segments.segments =
      model != nullptr && model->problem().tasks().size() > 0 ? &model->task(0) : nullptr;
  b.dims = model != nullptr ? model->dims() : 0;
  b.rows = row_slot.size();
  b.requests = static_cast<std::uint32_t>(inserted.size());
  return b;
}

search::InsertionChoice HostBatch::choice(const BestRow& best) const {
  search::InsertionChoice c;
  if (best.delta >= hd::kNoInsertion) return c;
  const std::uint32_t slot = row_slot[best.row];
  c.vehicle = slots[slot].vehicle;
  c.i = row_k[best.row];
  c.j = best.j;
  c.delta = best.delta;
  return c;
}

BestRow best_row_host(const BatchView& batch, std::uint32_t r) {
  BestRow best;
  for (std::uint64_t row = batch.request_rows[r]; row < batch.request_rows[r + 1]; ++row) {
    const hd::Priced p = detail::insertion::price_row(batch, row, best.delta);
    if (p.delta < best.delta) best = BestRow{p.delta, row, p.j};
  }
  return best;
}

}  // namespace routesolve::cuda::insertion
