// The device self-test (routesolve/cuda/self_test.hpp): small random problems through every
// kernel family, each result compared exactly with the host twin.

#include "routesolve/cuda/self_test.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <new>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "host_pin.hpp"
#include "insertion/insertion_engines.hpp"
#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/cuda/matrix_engine.hpp"
#include "routesolve/error.hpp"
#include "routesolve/problem.hpp"
#include "routesolve/search/blink_insertion.hpp"
#include "routesolve/search/neighbours.hpp"
#include "routesolve/search/vehicle_classes.hpp"
#include "routesolve/solution.hpp"
#include "routesolve/timing.hpp"

namespace routesolve::cuda {
namespace {

using Rng = std::mt19937_64;

std::uint32_t draw(Rng& rng, std::uint32_t lo, std::uint32_t hi) {
  return std::uniform_int_distribution<std::uint32_t>(lo, hi)(rng);
}

/// A random strongly mixed graph: a two-way ring (everything reachable) plus random chords.
RoadGraph random_graph(std::size_t n, Rng& rng) {
  std::vector<std::tuple<NodeId, NodeId, std::uint32_t, std::uint32_t>> arcs;
  const auto add = [&](std::size_t a, std::size_t b) {
    arcs.emplace_back(static_cast<NodeId>(a), static_cast<NodeId>(b), draw(rng, 1, 40),
                      draw(rng, 1, 4000));
  };
  for (std::size_t u = 0; u < n; ++u) {
    add(u, (u + 1) % n);
    add((u + 1) % n, u);
  }
  for (std::size_t i = 0; i < 2 * n; ++i)
    add(draw(rng, 0, static_cast<std::uint32_t>(n - 1)),
        draw(rng, 0, static_cast<std::uint32_t>(n - 1)));
  std::stable_sort(arcs.begin(), arcs.end(),
                   [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
  RoadGraph g;
  g.first_out.assign(n + 1, 0);
  for (const auto& a : arcs) {
    ++g.first_out[std::get<0>(a) + 1];
    g.head.push_back(std::get<1>(a));
    g.duration.push_back(std::get<2>(a));
    g.length.push_back(std::get<3>(a));
  }
  std::partial_sum(g.first_out.begin(), g.first_out.end(), g.first_out.begin());
  return g;
}

std::vector<NodeId> random_nodes(std::size_t count, std::size_t n, Rng& rng) {
  std::vector<NodeId> out(count);
  for (NodeId& v : out) v = draw(rng, 0, static_cast<std::uint32_t>(n - 1));
  return out;
}

/// A small problem with time windows, capacities, asymmetric travel and `shipments` shipments.
ProblemPtr random_problem(std::size_t jobs, Rng& rng, std::size_t shipments = 0) {
  const std::size_t locations = jobs + 1 + 2 * shipments;
  std::vector<std::pair<std::int64_t, std::int64_t>> xy(locations);
  for (auto& p : xy) p = {draw(rng, 0, 100), draw(rng, 0, 100)};
  Matrix dur(locations), dist(locations);
  for (std::size_t i = 0; i < locations; ++i)
    for (std::size_t j = 0; j < locations; ++j) {
      dist(i, j) =
          (std::llabs(xy[i].first - xy[j].first) + std::llabs(xy[i].second - xy[j].second)) * 10;
      dur(i, j) = dist(i, j) + (i != j ? draw(rng, 0, 9) : 0);
    }
  ProblemSpec spec;
  spec.matrices["car"] = ProfileMatrices{dur, dist, std::nullopt};
  for (std::size_t j = 0; j < jobs; ++j) {
    JobSpec job;
    job.id = 1 + j;
    job.location.index = 1 + j;
    job.service = draw(rng, 0, 30);
    job.delivery = Amount{static_cast<std::int64_t>(draw(rng, 1, 9))};
    if (draw(rng, 0, 2) != 0) {
      const std::int64_t a = draw(rng, 0, 4000);
      job.time_windows = {TimeWindow{a, a + draw(rng, 400, 3000)}};
    }
    spec.jobs.push_back(job);
  }
  for (std::size_t s = 0; s < shipments; ++s) {
    ShipmentSpec sh;
    sh.pickup.id = 1000 + s;
    sh.pickup.location.index = 1 + jobs + 2 * s;
    sh.delivery.id = 2000 + s;
    sh.delivery.location.index = 2 + jobs + 2 * s;
    sh.amount = Amount{static_cast<std::int64_t>(draw(rng, 1, 9))};
    sh.pickup.service = draw(rng, 0, 20);
    if (draw(rng, 0, 1) == 0) {
      const std::int64_t a = draw(rng, 1000, 5000);
      sh.delivery.time_windows = {TimeWindow{a, a + draw(rng, 600, 3000)}};
    }
    spec.shipments.push_back(sh);
  }
  for (std::size_t v = 0; v < 4; ++v) {
    VehicleSpec veh;
    veh.id = 10 + v;
    veh.start = LocationSpec{0, std::nullopt};
    veh.end = LocationSpec{0, std::nullopt};
    veh.capacity = Amount{static_cast<std::int64_t>(draw(rng, 25, 50))};
    veh.time_window = TimeWindow{0, 8000};
    spec.vehicles.push_back(veh);
  }
  return Problem::create(std::move(spec));
}

/// Thrown by a check that found a difference; the message is the verdict's reason.
struct Differs {
  std::string what;
};

template <typename T>
void same(const std::vector<T>& host, const std::vector<T>& device, const std::string& what) {
  if (host.size() != device.size())
    throw Differs{what + ": " + std::to_string(device.size()) + " results, the host twin has " +
                  std::to_string(host.size())};
  for (std::size_t i = 0; i < host.size(); ++i)
    if (!(host[i] == device[i]))
      throw Differs{what + ": result " + std::to_string(i) + " differs from the host twin"};
}

/// "pinned" or "naive", for the reasons.
std::string mode_name(TransferMode mode) { return std::string(to_string(mode)); }

constexpr TransferMode kModes[] = {TransferMode::Pinned, TransferMode::Naive};

void check_phast(SelfTestDevice& device, Rng& rng) {
  const std::size_t n = 48;
  const RoadGraph graph = random_graph(n, rng);
  const ContractionHierarchy ch = build_contraction_hierarchy(graph);
  // 70 sources: three tiles of 32, so that the next tile's copy overlaps the sweeps of this one.
  const std::vector<NodeId> sources = random_nodes(70, n, rng), targets = random_nodes(13, n, rng);
  PhastOptions host_options;
  host_options.threads = 1;
  PhastMatrixEngine host(graph, ch, host_options);
  const NodeMatrices expected = host.compute(sources, targets);
  for (const TransferMode mode : kModes) {
    const NodeMatrices found = device.phast(graph, ch, sources, targets, mode);
    const std::string at = " (" + mode_name(mode) + " transfers)";
    if (found.rows != expected.rows || found.cols != expected.cols)
      throw Differs{"PHAST matrices" + at + ": shape " + std::to_string(found.rows) + "x" +
                    std::to_string(found.cols) + ", expected " + std::to_string(expected.rows) +
                    "x" + std::to_string(expected.cols)};
    same(expected.durations, found.durations, "PHAST durations" + at);
    same(expected.distances, found.distances, "PHAST distances" + at);
  }
}

void check_route_eval(SelfTestDevice& device, const Problem& problem, Rng& rng) {
  std::vector<RoutePlan> plans;
  for (std::size_t r = 0; r < 24; ++r) {
    RoutePlan plan;
    plan.vehicle = rng() % problem.vehicles().size();
    // Empty routes, short ones, and every fourth longer than a warp (the block's warp sums).
    const std::size_t visits = r % 4 == 3 ? 33 + rng() % 60 : rng() % 9;
    for (std::size_t i = 0; i < visits; ++i)
      plan.visits.push_back({false, rng() % problem.tasks().size()});
    plans.push_back(std::move(plan));
  }
  const RouteBatch batch = make_route_batch(problem, plans);
  const std::vector<RouteTotals> expected = evaluate_routes_host(batch);
  for (const TransferMode mode : kModes)
    same(expected, device.evaluate_routes(batch, mode),
         "route evaluation (" + mode_name(mode) + " transfers)");
}

/// Partial solutions of a problem and a request for every task left out of each (every tour a
/// candidate, one in five positions blinking): the insertion engine's inputs.
struct InsertionInputs {
  std::vector<search::WorkingSolution> solutions;
  std::vector<std::size_t> all;  ///< every vehicle
  std::vector<search::InsertionRequest> requests;
  std::size_t rows = 0;  ///< positions the requests price (tour sizes + 1, summed)
};

/// False when the problem has no segment model (nothing to price).
bool insertion_inputs(const Problem& problem, const search::SegmentModel& model, int count,
                      Rng& rng, InsertionInputs& in) {
  if (!model.supported()) return false;
  std::vector<std::size_t> insertable;
  for (std::size_t t = 0; t < problem.tasks().size(); ++t)
    if (problem.task(t).type != TaskType::Delivery) insertable.push_back(t);
  const search::VehicleClasses classes(problem);
  const search::Neighbours near(problem, 8);
  const auto reference = search::make_segment_engine();
  in.solutions.reserve(static_cast<std::size_t>(count));
  for (int s = 0; s < count; ++s) {
    in.solutions.emplace_back(model, insertable);
    std::vector<std::size_t> some;
    for (std::size_t t : insertable)
      if (draw(rng, 0, 2) != 0) some.push_back(t);
    search::BlinkInsertion(near, classes, 0.1)
        .apply(in.solutions.back(), some, rng, problem.vehicles().size(), *reference);
  }
  in.all.resize(problem.vehicles().size());
  std::iota(in.all.begin(), in.all.end(), std::size_t{0});
  for (const search::WorkingSolution& s : in.solutions)
    for (std::size_t t : s.unassigned_tasks()) {
      in.requests.push_back({&s, t, in.all, rng(), search::blink_threshold(0.2)});
      for (std::size_t v : in.all) in.rows += s.tour(v).size() + 1;
    }
  return true;
}

/// The tour store's smallest size in the self-test: the third call's tours do not fit in it.
constexpr std::size_t kSelfTestStore = std::size_t{16} << 10;

/// The search's insertion pricing (jobs, and shipments: the pair rows), three calls on one
/// engine per transfer mode: the requests of three partial solutions, the same again (the
/// tours stay in the store), then those of eight (the store grows); every choice must be the
/// host twin's.
void check_insertion(SelfTestDevice& device, const Problem& problem, Rng& rng) {
  const search::SegmentModel model(problem);
  InsertionInputs few, many;
  if (!insertion_inputs(problem, model, 3, rng, few) ||
      !insertion_inputs(problem, model, 8, rng, many))
    return;
  const auto host = insertion::make_host_engine(1);
  for (const TransferMode mode : kModes) {
    const auto engine = device.insertion_engine(mode, kSelfTestStore);
    int call = 0;
    for (const InsertionInputs* in : {&few, &few, &many}) {
      ++call;
      const std::vector<search::InsertionRequest>& requests = in->requests;
      std::vector<search::InsertionChoice> expected(requests.size()), found(requests.size());
      host->price(requests, expected);
      engine->price(requests, found);
      for (std::size_t r = 0; r < requests.size(); ++r)
        if (!(expected[r] == found[r]))
          throw Differs{"insertion pricing (" + mode_name(mode) + " transfers, call " +
                        std::to_string(call) + "): request " + std::to_string(r) + " (task " +
                        std::to_string(requests[r].task) + ") differs from the host twin"};
    }
  }
}

/// The real device: each engine made on its device when the check needs it.
class CudaSelfTestDevice final : public SelfTestDevice {
 public:
  CudaSelfTestDevice(int index, std::string name) : index_(index), name_(std::move(name)) {}
  [[nodiscard]] std::string name() const override { return name_; }
  NodeMatrices phast(const RoadGraph& graph, const ContractionHierarchy& ch,
                     const std::vector<NodeId>& sources, const std::vector<NodeId>& targets,
                     TransferMode transfer) override {
    PhastOptions options;
    options.device = MatrixDevice::Cuda;
    options.device_index = index_;
    options.transfer = transfer;
    options.tile_width = 32;  // the device's smallest tile: several tiles from a few sources
    options.threads = 1;
    PhastMatrixEngine engine(graph, ch, options);
    return engine.compute(sources, targets);
  }
  std::vector<RouteTotals> evaluate_routes(const RouteBatch& batch,
                                           TransferMode transfer) override {
    return evaluate_routes_device(batch, DeviceEvalOptions{.transfer = transfer, .device = index_});
  }
  std::unique_ptr<insertion::BatchedEngine> insertion_engine(TransferMode transfer,
                                                             std::size_t min_store) override {
    return insertion::make_device_engine(DeviceOptions{index_, transfer, {}}, min_store);
  }
  double copy_seconds(std::size_t bytes) override {
    return detail::time_pinned_copy(index_, bytes);
  }

 private:
  int index_;
  std::string name_;
};

}  // namespace

std::unique_ptr<SelfTestDevice> make_cuda_self_test_device(int index) {
  const std::vector<DeviceInfo> all = devices();
  if (all.empty())
    throw Error(ErrorCode::Device, "no usable CUDA device: " + device_unavailable_reason());
  const auto at = std::find_if(all.begin(), all.end(),
                               [index](const DeviceInfo& d) { return d.index == index; });
  if (at == all.end())
    throw Error(ErrorCode::Device, "no CUDA device " + std::to_string(index) + " (" +
                                       std::to_string(all.size()) + " usable device(s))");
  return std::make_unique<CudaSelfTestDevice>(index, at->name);
}

DeviceRates measure_rates(SelfTestDevice& device, int repetitions, unsigned long long seed) {
  Rng rng(seed);
  const ProblemPtr problem = random_problem(60, rng);
  const search::SegmentModel model(*problem);
  InsertionInputs in;
  DeviceRates rates;
  if (!insertion_inputs(*problem, model, 8, rng, in) || in.requests.empty())
    throw Error(ErrorCode::Internal, "measure_rates: the random problem has nothing to price");
  // One request, then the batch repeated to about 20,000 rows: the slope is the cost of a row.
  const std::vector<search::InsertionRequest> one(in.requests.begin(), in.requests.begin() + 1);
  std::size_t one_rows = 0;
  for (std::size_t v : in.all) one_rows += one.front().solution->tour(v).size() + 1;
  std::vector<search::InsertionRequest> many;
  std::size_t many_rows = 0;
  while (many_rows < 20000) {
    many.insert(many.end(), in.requests.begin(), in.requests.end());
    many_rows += in.rows;
  }
  const auto engine = device.insertion_engine(TransferMode::Pinned, 0);
  std::vector<search::InsertionChoice> out(many.size());
  const auto fastest = [&](const std::vector<search::InsertionRequest>& requests) {
    double best = 0.0;
    for (int r = 0; r <= std::max(1, repetitions); ++r) {  // the first call warms up: not counted
      const auto t0 = Clock::now();
      engine->price(requests, std::span<search::InsertionChoice>(out.data(), requests.size()));
      const double s = seconds_since(t0);
      if (r == 1 || (r > 1 && s < best)) best = s;
    }
    return best;
  };
  const double t_one = fastest(one), t_many = fastest(many);
  rates.round_overhead_s = t_one;
  rates.device_row_s =
      std::max(1e-12, (t_many - t_one) / static_cast<double>(many_rows - one_rows));
  constexpr std::size_t kCopy = std::size_t{8} << 20;
  double copy = 0.0;
  for (int r = 0; r <= std::max(1, repetitions); ++r) {
    const double s = device.copy_seconds(kCopy);
    if (r == 1 || (r > 1 && s < copy)) copy = s;
  }
  rates.h2d_bytes_per_s = static_cast<double>(kCopy) / std::max(copy, 1e-9);
  rates.measured = true;
  rates.source = "self-test";
  return rates;
}

SelfTestResult run_self_test(SelfTestDevice& device, int index, unsigned long long seed,
                             int repetitions) {
  SelfTestResult result;
  result.index = index;
  const auto t0 = Clock::now();
  try {
    result.device = device.name();
    Rng rng(seed);
    check_phast(device, rng);
    const ProblemPtr problem = random_problem(18, rng);
    check_route_eval(device, *problem, rng);
    check_insertion(device, *problem, rng);
    const ProblemPtr shipments = random_problem(14, rng, 5);
    check_insertion(device, *shipments, rng);
    result.seconds = seconds_since(t0);
    result.rates = measure_rates(device, repetitions);
    result.rates.fixed_s = result.seconds;
    result.passed = true;
  } catch (const Differs& d) {
    result.reason = "self-test mismatch: " + d.what;
  } catch (const Error& e) {
    result.reason = std::string(to_string(e.code())) + ": " + e.what();
  } catch (const std::bad_alloc&) {
    result.reason = "out of host memory during the self-test";
  } catch (const std::exception& e) {
    result.reason = e.what();
  }
  if (!result.passed) result.rates = DeviceRates{};
  result.seconds = seconds_since(t0);
  return result;
}

std::string format_verdict(const SelfTestResult& r) {
  const std::string who =
      "device " + std::to_string(r.index) + (r.device.empty() ? "" : " (" + r.device + ")");
  if (r.passed)
    return who + ": passed in " + std::to_string(static_cast<long long>(r.seconds * 1000.0 + 0.5)) +
           " ms";
  return who + ": FAILED: " + r.reason;
}

}  // namespace routesolve::cuda
