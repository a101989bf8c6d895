#pragma once
// Dynamic hand-out of independent work items (the files of a batch) over the ranks, largest
// first, and running one item in a child process so that an item that crashes (a signal, an
// abort) is that item's failure and not its rank's.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace routesolve::distributed {

/// The order items are handed out in: by weight (e.g. file size), largest first; equal weights in
/// index order. Returns item indices.
std::vector<std::size_t> largest_first(const std::vector<std::uint64_t>& weights);

/// What one item gave: its result text (opaque to the queue), or why it failed.
struct ItemResult {
  bool ok = false;
  std::string text;   ///< the work function's result when ok, else the failure's description (an
                      ///< exception's message, or "crashed: ..." when the item ended its process)
  bool lost = false;  ///< set by the queue itself: the rank solving the item stopped answering
                      ///< (text says which and for how long); the work function's text never came
};

/// How the queue runs under mpirun.
struct QueueOptions {
  /// A worker rank that holds an item and sends no heartbeat for this long (or that never asked
  /// for work this long after the hand-out began) is taken for dead: its item is reported lost
  /// and it is not waited for. Workers beat every rank_timeout / 5 (at most every 20 ms, at least
  /// every 5 s) from a thread while they work. Rank 0's own work is never timed.
  double rank_timeout_seconds = 30.0;
  /// Rank 0 works too when MPI_THREAD_SERIALIZED (or more) was granted; false: it only serves.
  bool rank0_works = true;
};

/// Hands `order` out one item at a time to whichever rank asks next. Every rank calls this (a
/// collective): each runs `work(item)` on its items, and rank 0 gets every item's result through
/// `on_result(item, result)`, one at a time, in completion order. Rank 0 serves the hand-out on a
/// second thread (the only one of rank 0 that makes MPI calls meanwhile) and solves too when
/// MPI_THREAD_SERIALIZED or more was granted, its own asks passing to the server in memory; else it
/// only serves.
/// `stop()` true (checked by rank 0 before each hand-out) hands nothing more out. In a world of
/// one it is a plain loop over `order`. Returns the number of items this rank ran.
/// A worker rank that dies (under `mpirun --enable-recovery`; otherwise Open MPI ends the job) is
/// found by its missing heartbeats (QueueOptions): its item comes to on_result with ok = false and
/// lost = true, the others finish the rest, and every rank then knows (lost_rank(), world.hpp)
/// that no collective may follow. A rank whose asks rank 0 leaves unanswered for rank_timeout
/// (it was taken for dead) stops asking and returns.
std::size_t run_work_queue(const std::vector<std::size_t>& order,
                           const std::function<ItemResult(std::size_t)>& work,
                           const std::function<void(std::size_t, const ItemResult&)>& on_result,
                           const std::function<bool()>& stop, const QueueOptions& options = {});

/// Runs `fn` in a forked child process and returns what it returned; ok = false with the reason
/// when it threw (the exception's message), crashed ("crashed: signal 11 (Segmentation fault)") or
/// exited without an answer. The child never returns into the caller's code (it ends with _exit),
/// so it runs no MPI call and no exit handler of the parent.
ItemResult run_isolated(const std::function<std::string()>& fn);

}  // namespace routesolve::distributed
