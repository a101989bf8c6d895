#pragma once
// Recreate by greedy insertion with blinks (SISR): tasks are sorted by a randomly chosen key
// (random, demand, distance from the depot, time-window start) and each goes to its cheapest
// feasible position, every position being skipped with a small probability. Only tours holding
// one of the task's nearest tasks (and one empty vehicle per class) are tried first, all tours
// when none of those fits. The positions are priced by an InsertionEngine.
//
// A recreate is a pass that asks one request at a time (next) and takes the engine's answer
// (take), so that many chains can advance in lockstep, their requests priced in one batch;
// apply() runs a whole pass with one engine.

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "routesolve/search/insertion_engine.hpp"
#include "routesolve/search/neighbours.hpp"
#include "routesolve/search/search_control.hpp"
#include "routesolve/search/vehicle_classes.hpp"
#include "routesolve/search/working_solution.hpp"

namespace routesolve::search {

class BlinkInsertion {
 public:
  /// A recreate in progress on one solution.
  struct Pass {
    std::vector<std::size_t> tasks;  ///< in insertion order
    std::size_t next = 0;            ///< tasks[next] is being placed
    std::size_t max_routes = 0;
    bool widened = false;     ///< the request for tasks[next] covers every other tour
    bool opening = false;     ///< tasks[0] is asked first for an empty vehicle only
    std::uint64_t key = 0;    ///< blink keys of this pass
    std::uint64_t asked = 0;  ///< requests so far
    std::vector<std::size_t> candidates;
    std::vector<char> tried;
    /// Per vehicle class: members before this one are used or outside the region (a pass only
    /// inserts, so a tour it finds used stays used until the pass ends).
    std::vector<std::size_t> first_empty;
    [[nodiscard]] bool done() const noexcept { return next >= tasks.size(); }
  };

  /// The order a pass places its tasks in.
  enum class Order {
    /// SISR's: a key drawn for each pass (random, demand, distance from the depot, time window).
    Drawn,
    /// Farthest from the depots first (round trip from the nearest vehicle start or end, ties in
    /// random order): a construction seeds its routes far out, where new routes take the larger
    /// vehicle classes first, and works inwards.
    FarthestFirst,
  };

  BlinkInsertion(const Neighbours& near, const VehicleClasses& classes, double blink_rate = 0.01,
                 std::size_t near_tours = 24);

  /// Sorts `tasks` and starts a pass. New routes are opened only while fewer than `max_routes`
  /// are used. With `open_with` (one of `tasks`), that task goes first and is offered only the
  /// empty vehicles (one per class) before the usual tours: the pass seeds a new route with it
  /// (when no empty vehicle can take it, the pass goes on as without).
  void begin(const WorkingSolution& solution, std::vector<std::size_t> tasks, std::mt19937_64& rng,
             std::size_t max_routes, Pass& pass, std::size_t open_with = kNone,
             Order order = Order::Drawn) const;
  /// The request for the task being placed; false when the pass is done.
  bool next(const WorkingSolution& solution, Pass& pass, InsertionRequest& request) const;
  /// The engine's answer to the last request: inserts the task, or widens the request to every
  /// other tour, or leaves the task out.
  void take(WorkingSolution& solution, Pass& pass, const InsertionChoice& choice) const;

  /// The rest of a pass with one engine, one request at a time; with a deadline, polled every
  /// 64 requests, the tasks not reached when it expires stay out.
  void finish(WorkingSolution& solution, Pass& pass, InsertionEngine& engine,
              const Deadline* deadline = nullptr) const;
  /// A whole pass with one engine (begin, then finish).
  void apply(WorkingSolution& solution, std::vector<std::size_t> tasks, std::mt19937_64& rng,
             std::size_t max_routes, InsertionEngine& engine, const Deadline* deadline = nullptr,
             Order order = Order::Drawn) const;

 private:
  void sort(const WorkingSolution& solution, std::vector<std::size_t>& tasks,
            std::mt19937_64& rng) const;
  static void farthest_first(const WorkingSolution& solution, std::vector<std::size_t>& tasks,
                             std::mt19937_64& rng);
  void advance(Pass& pass) const;

  const Neighbours* near_;
  const VehicleClasses* classes_;
  std::uint32_t blink_threshold_;
  std::size_t near_tours_;
};

}  // namespace routesolve::search
