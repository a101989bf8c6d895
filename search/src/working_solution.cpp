#include "routesolve/search/working_solution.hpp"

#include <algorithm>
#include <atomic>
#include <utility>

namespace routesolve::search {

namespace {
std::atomic<std::uint64_t> tour_versions{0};

/// A version no other tour change in the process gets: each thread takes blocks of them from
/// the shared counter, so that chains on several threads do not contend for it on every change.
std::uint64_t next_version() {
  constexpr std::uint64_t kBlock = std::uint64_t{1} << 20;
  thread_local std::uint64_t next = 0, end = 0;
  if (next == end) {
    next = tour_versions.fetch_add(kBlock, std::memory_order_relaxed) + 1;
    end = next + kBlock;
  }
  return next++;
}
}  // namespace

WorkingSolution::WorkingSolution(const SegmentModel& model,
                                 const std::vector<std::size_t>& insertable)
    : model_(&model), insertable_(insertable) {
  const Problem& p = model.problem();
  const std::size_t nt = p.tasks().size();
  route_of_.assign(nt, kNone);
  position_of_.assign(nt, 0);
  counted_.assign(nt, 0);
  for (std::size_t t : insertable_) {
    counted_[t] = 1;
    ++unassigned_;
    priority_lost_ += p.task(t).priority;
  }
  tours_.resize(p.vehicles().size());
  empty_.assign(tours_.size(), 1);
  changed_at_.assign(tours_.size(), 0);
  saved_.assign(tours_.size(), 0);
  for (std::size_t v = 0; v < tours_.size(); ++v) {
    tours_[v].vehicle = v;
    tours_[v].unused_ = model.unused_route(v);
    rebuild(v);
  }
}

std::vector<std::size_t> WorkingSolution::unassigned_tasks() const {
  std::vector<std::size_t> out;
  for (std::size_t t : insertable_)
    if (route_of_[t] == kNone) out.push_back(t);
  return out;
}

Score WorkingSolution::score() const {
  Score s;
  s.priority_lost = priority_lost_;
  s.unassigned = static_cast<std::int64_t>(unassigned_);
  s.routes = static_cast<std::int64_t>(used_);
  s.cost = cost_;
  if (problem().spec().balance > 0.0) s.cost += problem().balance_cost(longest_working_time());
  return s;
}

Duration WorkingSolution::longest_working_time() const {
  Duration longest = 0;
  for (std::size_t v = 0; v < tours_.size(); ++v) {
    if (empty_[v]) continue;
    const RouteSegment& whole = tours_[v].prefix()[tours_[v].size() + 1];
    longest =
        std::max(longest, routesolve::working_time(whole.time, model_->limits(v).shift_start));
  }
  return longest;
}

void WorkingSolution::set_route_of(std::size_t t, std::size_t v) {
  const bool was = route_of_[t] != kNone;
  const bool now = v != kNone;
  route_of_[t] = v;
  if (was != now) routed_ = now ? routed_ + 1 : routed_ - 1;
  if (was == now || !counted_[t]) return;
  const long prio = problem().task(t).priority;
  if (now) {
    --unassigned_;
    priority_lost_ -= prio;
  } else {
    ++unassigned_;
    priority_lost_ += prio;
  }
}

void WorkingSolution::rebuild(std::size_t v) {
  Tour& tour = tours_[v];
  const std::size_t n = tour.tasks.size();
  if (n == 0) {  // an empty tour reads its vehicle's shared segments and keeps none
    tour.prefix_ = {};
    tour.suffix_ = {};
  } else {
    tour.prefix_.resize(n + 2);
    tour.suffix_.resize(n + 2);
  }
  refresh(v, 0, n + 1);
}

void WorkingSolution::refresh(std::size_t v, std::size_t prefix_from, std::size_t suffix_to) {
  Tour& tour = tours_[v];
  tour.version = next_version();
  changed_at_[v] = ++clock_;
  const SegmentModel& m = *model_;
  const std::size_t n = tour.tasks.size();
  cost_ -= tour.cost;
  if (n > 0) {
    std::vector<RouteSegment>& prefix = tour.prefix_;
    std::vector<RouteSegment>& suffix = tour.suffix_;
    if (prefix_from == 0) prefix[0] = m.start(v);
    for (std::size_t k = std::max<std::size_t>(prefix_from, 1); k <= n; ++k)
      m.merge_into(prefix[k], v, prefix[k - 1], m.task(tour.tasks[k - 1]));
    m.merge_into(prefix[n + 1], v, prefix[n], m.end(v));
    if (suffix_to == n + 1) suffix[n + 1] = m.end(v);
    for (std::size_t k = std::min(suffix_to, n); k >= 1; --k)
      m.merge_into(suffix[k], v, m.task(tour.tasks[k - 1]), suffix[k + 1]);
    m.merge_into(suffix[0], v, m.start(v), suffix[1]);
  }
  tour.cost = n == 0 ? 0 : tour.prefix_[n + 1].cost + problem().fixed_cost(v);
  empty_[v] = n == 0 ? 1 : 0;
  cost_ += tour.cost;
  for (std::size_t i = 0; i < n; ++i) position_of_[tour.tasks[i]] = i;
}

void WorkingSolution::touch(std::size_t v) {
  if (!journaling_ || saved_[v]) return;
  saved_[v] = 1;
  journal_.emplace_back(v, tours_[v].tasks);
}

void WorkingSolution::set_tasks(std::size_t v, std::vector<std::size_t> tasks) {
  touch(v);
  Tour& tour = tours_[v];
  const bool was_used = !tour.tasks.empty();
  for (std::size_t t : tour.tasks)
    if (route_of_[t] == v) set_route_of(t, kNone);
  tour.tasks = std::move(tasks);
  for (std::size_t t : tour.tasks) set_route_of(t, v);
  used_ += static_cast<std::size_t>(!tour.tasks.empty()) - static_cast<std::size_t>(was_used);
  rebuild(v);
}

void WorkingSolution::insert(std::size_t task, std::size_t v, std::size_t position) {
  touch(v);
  Tour& tour = tours_[v];
  if (tour.tasks.empty()) {
    ++used_;
    tour.tasks.push_back(task);
    set_route_of(task, v);
    rebuild(v);
    return;
  }
  tour.tasks.insert(tour.tasks.begin() + static_cast<std::ptrdiff_t>(position), task);
  set_route_of(task, v);
  // Nodes 0..position keep their prefixes; the suffixes after the new node shift by one.
  tour.prefix_.emplace_back();
  tour.suffix_.insert(tour.suffix_.begin() + static_cast<std::ptrdiff_t>(position + 1),
                      RouteSegment{});
  refresh(v, position + 1, position + 1);
}

void WorkingSolution::insert_pair(std::size_t pickup, std::size_t v, std::size_t i, std::size_t j) {
  touch(v);
  Tour& tour = tours_[v];
  const bool was_empty = tour.tasks.empty();
  if (was_empty) ++used_;
  const std::size_t delivery = problem().task(pickup).sibling;
  tour.tasks.insert(tour.tasks.begin() + static_cast<std::ptrdiff_t>(j), delivery);
  tour.tasks.insert(tour.tasks.begin() + static_cast<std::ptrdiff_t>(i), pickup);
  set_route_of(pickup, v);
  set_route_of(delivery, v);
  if (was_empty) {
    rebuild(v);
    return;
  }
  // Nodes 0..i keep their prefixes; the suffixes after the delivery shift by two.
  tour.prefix_.resize(tour.prefix_.size() + 2);
  tour.suffix_.insert(tour.suffix_.begin() + static_cast<std::ptrdiff_t>(j + 1), 2, RouteSegment{});
  refresh(v, i + 1, j + 2);
}

void WorkingSolution::remove(const std::vector<std::size_t>& tasks) {
  std::vector<std::size_t> dirty;
  auto drop = [&](std::size_t t) {
    const std::size_t v = route_of_[t];
    if (v == kNone) return;
    touch(v);
    set_route_of(t, kNone);
    dirty.push_back(v);
  };
  for (std::size_t t : tasks) {
    drop(t);
    const std::size_t sibling = problem().task(t).sibling;
    if (sibling != kNone) drop(sibling);
  }
  std::sort(dirty.begin(), dirty.end());
  dirty.erase(std::unique(dirty.begin(), dirty.end()), dirty.end());
  for (std::size_t v : dirty) {
    Tour& tour = tours_[v];
    const bool was_used = !tour.tasks.empty();
    std::erase_if(tour.tasks, [&](std::size_t t) { return route_of_[t] != v; });
    used_ -= static_cast<std::size_t>(was_used && tour.tasks.empty());
    rebuild(v);
  }
}

void WorkingSolution::begin_change() {
  commit();
  journaling_ = true;
}

void WorkingSolution::revert() {
  journaling_ = false;
  // Unmark every task of the touched tours first: a task may have moved between two of them.
  for (const auto& [v, old] : journal_)
    for (std::size_t t : tours_[v].tasks)
      if (route_of_[t] == v) set_route_of(t, kNone);
  for (auto& [v, old] : journal_) {
    Tour& tour = tours_[v];
    const bool was_used = !tour.tasks.empty();
    tour.tasks = std::move(old);
    for (std::size_t t : tour.tasks) set_route_of(t, v);
    used_ += static_cast<std::size_t>(!tour.tasks.empty()) - static_cast<std::size_t>(was_used);
    rebuild(v);
    saved_[v] = 0;
  }
  journal_.clear();
}

void WorkingSolution::commit() {
  journaling_ = false;
  for (const auto& entry : journal_) saved_[entry.first] = 0;
  journal_.clear();
}

std::vector<std::size_t> WorkingSolution::touched() const {
  std::vector<std::size_t> out;
  out.reserve(journal_.size());
  for (const auto& entry : journal_) out.push_back(entry.first);
  return out;
}

std::vector<std::size_t> WorkingSolution::rewired() const {
  std::vector<std::size_t> out;
  append_rewired(*this, journal_, out);
  return out;
}

void append_rewired(const WorkingSolution& s,
                    const std::vector<std::pair<std::size_t, std::vector<std::size_t>>>& before,
                    std::vector<std::size_t>& out) {
  // (predecessor, successor) before, by task, valid where stamped with this call's generation;
  // kNone stands for the tour's ends. A table per thread: O(tour lengths) per call, no sort.
  struct Link {
    std::uint64_t stamp = 0;
    std::size_t pred = kNone, succ = kNone;
  };
  thread_local std::vector<Link> links;
  thread_local std::uint64_t generation = 0;
  ++generation;
  const std::size_t nt = s.problem().tasks().size();
  if (links.size() < nt) links.resize(nt);
  for (const auto& [v, old] : before)
    for (std::size_t i = 0; i < old.size(); ++i)
      links[old[i]] = {generation, i == 0 ? kNone : old[i - 1],
                       i + 1 == old.size() ? kNone : old[i + 1]};
  for (const auto& [v, old] : before) {
    const std::vector<std::size_t>& now = s.tour(v).tasks;
    for (std::size_t i = 0; i < now.size(); ++i) {
      const std::size_t pred = i == 0 ? kNone : now[i - 1],
                        succ = i + 1 == now.size() ? kNone : now[i + 1];
      const Link& l = links[now[i]];
      if (l.stamp != generation || l.pred != pred || l.succ != succ) out.push_back(now[i]);
    }
  }
}

void WorkingSolution::set_region(std::vector<char> vehicles, std::vector<char> tasks) {
  // A tour that becomes movable counts as changed: what a descent examined while it was not
  // movable skipped it (the descents' memory stays valid across regions).
  for (std::size_t v = 0; v < tours_.size(); ++v) {
    const bool now = vehicles.empty() || vehicles[v] != 0;
    if (now && !in_region(v)) changed_at_[v] = ++clock_;
  }
  region_ = std::move(vehicles);
  region_tasks_ = std::move(tasks);
}

TourPlan WorkingSolution::plan() const {
  TourPlan out(tours_.size());
  for (std::size_t v = 0; v < tours_.size(); ++v) out[v] = tours_[v].tasks;
  return out;
}

void WorkingSolution::load(const TourPlan& plan) {
  commit();
  // Only the tours that differ from the plan are rebuilt (chains on regions load the shared
  // solution every epoch, most of it unchanged).
  static const std::vector<std::size_t> kEmpty;
  auto wanted = [&](std::size_t v) -> const std::vector<std::size_t>& {
    return v < plan.size() ? plan[v] : kEmpty;
  };
  std::vector<std::size_t> changed;
  for (std::size_t v = 0; v < tours_.size(); ++v)
    if (tours_[v].tasks != wanted(v)) changed.push_back(v);
  for (std::size_t v : changed)
    for (std::size_t t : tours_[v].tasks)
      if (route_of_[t] == v) set_route_of(t, kNone);
  for (std::size_t v : changed) {
    Tour& tour = tours_[v];
    const bool was_used = !tour.tasks.empty();
    tour.tasks = wanted(v);
    for (std::size_t t : tour.tasks) set_route_of(t, v);
    used_ += static_cast<std::size_t>(!tour.tasks.empty()) - static_cast<std::size_t>(was_used);
    rebuild(v);
  }
}

}  // namespace routesolve::search
