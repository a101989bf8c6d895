// The MPI world (world.hpp): init under a launcher only, rank and size, small collectives.

#include "routesolve/distributed/world.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#ifdef ROUTESOLVE_HAVE_MPI
#include <mpi.h>
#endif

namespace routesolve::distributed {
namespace {

struct State {
  bool initialised = false;
  bool serialized = false;
  int rank = 0, size = 1, local_rank = 0;
};
State g_state;
std::atomic<bool> g_lost_rank{false};
std::atomic<int> g_exit_status{0};

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  const long x = std::strtol(v, &end, 10);
  return end != v && x >= 0 ? static_cast<int>(x) : fallback;
}

}  // namespace

bool built_with_mpi() noexcept {
#ifdef ROUTESOLVE_HAVE_MPI
  return true;
#else
  return false;
#endif
}

bool launched_by_mpirun() noexcept {
  // Open MPI's mpirun, PMIx launchers (srun --mpi=pmix, prterun) and PMI-1/2 launchers.
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

Session::Session([[maybe_unused]] int* argc, [[maybe_unused]] char*** argv) {
#ifdef ROUTESOLVE_HAVE_MPI
  if (!launched_by_mpirun() || g_state.initialised) return;
  // Under --enable-recovery the survivors of a dead rank must end without it: Open MPI 4.1's
  // MPI_Finalize fences every rank of the job and, measured here, hung in 2 of 8 runs of the
  // rank-death test; without the fence (all of a rank's messages are matched before it
  // finalizes, so nothing is lost) 10 of 10 ended (docs/SCALING.md). A user's own setting wins.
  if (recovery_enabled()) ::setenv("OMPI_MCA_async_mpi_finalize", "1", 0);
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided);
  g_state.initialised = true;
  g_state.serialized = provided >= MPI_THREAD_SERIALIZED;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_state.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_state.size);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, g_state.rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &g_state.local_rank);
  MPI_Comm_free(&node);
#endif
}

Session::~Session() {
#ifdef ROUTESOLVE_HAVE_MPI
  if (!g_state.initialised) return;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) {
    if (g_lost_rank.load()) {
      // Open MPI 4.1 under --enable-recovery finalizes the survivors of a dead rank (measured,
      // docs/SCALING.md), but a message left for the dead rank can hold MPI_Finalize for ever.
      std::thread([rank = g_state.rank] {
        std::this_thread::sleep_for(std::chrono::seconds(kFinalizeGraceSeconds));
        std::fprintf(
            stderr,
            "rank %d: MPI_Finalize still waiting %d s after a rank was lost: ending without it\n",
            rank, kFinalizeGraceSeconds);
        std::_Exit(g_exit_status.load());
      }).detach();
    }
    MPI_Finalize();
  }
  g_state = State{};
#endif
}

int rank() noexcept { return g_state.rank; }
int size() noexcept { return g_state.size; }
int local_rank() noexcept {
  return g_state.initialised ? g_state.local_rank : env_int("OMPI_COMM_WORLD_LOCAL_RANK", 0);
}
bool thread_serialized() noexcept { return g_state.serialized; }

bool recovery_enabled() noexcept {
  const char* v = std::getenv("OMPI_MCA_orte_enable_recovery");
  if (v == nullptr) return false;
  for (const char* yes : {"1", "true", "yes", "enabled", "TRUE", "True", "YES"})
    if (std::strcmp(v, yes) == 0) return true;
  return false;
}

void note_lost_rank() noexcept { g_lost_rank.store(true); }
bool lost_rank() noexcept { return g_lost_rank.load(); }
void set_exit_status(int status) noexcept { g_exit_status.store(status); }

int rank_device(int device_count) noexcept {
  return device_count > 0 ? local_rank() % device_count : 0;
}

void abort_world([[maybe_unused]] int exit_code) noexcept {
#ifdef ROUTESOLVE_HAVE_MPI
  if (g_state.initialised && g_state.size > 1)
    MPI_Abort(MPI_COMM_WORLD, exit_code == 0 ? 1 : exit_code);
#endif
}

void barrier() {
#ifdef ROUTESOLVE_HAVE_MPI
  if (g_state.size > 1) MPI_Barrier(MPI_COMM_WORLD);
#endif
}

void idle_barrier() {
#ifdef ROUTESOLVE_HAVE_MPI
  if (g_state.size <= 1) return;
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  for (int done = 0, waited = 0;; ++waited) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    std::this_thread::sleep_for(std::chrono::microseconds(waited < 100 ? 100 : 2000));
  }
#endif
}

void broadcast([[maybe_unused]] std::string& bytes, [[maybe_unused]] int root) {
#ifdef ROUTESOLVE_HAVE_MPI
  if (g_state.size <= 1) return;
  unsigned long long n = bytes.size();
  MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, root, MPI_COMM_WORLD);
  bytes.resize(n);
  // In pieces under INT_MAX bytes (MPI counts are int).
  constexpr std::size_t kPiece = std::size_t{1} << 30;
  for (std::size_t at = 0; at < n; at += kPiece)
    MPI_Bcast(bytes.data() + at, static_cast<int>(std::min<std::size_t>(kPiece, n - at)), MPI_CHAR,
              root, MPI_COMM_WORLD);
#endif
}

std::vector<std::string> gather(const std::string& bytes, [[maybe_unused]] int root) {
#ifdef ROUTESOLVE_HAVE_MPI
  if (g_state.size > 1) {
    const int n = static_cast<int>(bytes.size());
    if (bytes.size() > static_cast<std::size_t>(INT32_MAX))
      throw std::length_error("gather: more than 2 GB from one rank");
    std::vector<int> counts(static_cast<std::size_t>(g_state.size)), offsets(counts.size());
    MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, root, MPI_COMM_WORLD);
    std::string all;
    if (g_state.rank == root) {
      long long total = 0;
      for (std::size_t r = 0; r < counts.size(); ++r) {
        offsets[r] = static_cast<int>(total);
        total += counts[r];
      }
      if (total > INT32_MAX) throw std::length_error("gather: more than 2 GB in all");
      all.resize(static_cast<std::size_t>(total));
    }
    MPI_Gatherv(bytes.data(), n, MPI_CHAR, all.data(), counts.data(), offsets.data(), MPI_CHAR,
                root, MPI_COMM_WORLD);
    std::vector<std::string> out;
    if (g_state.rank == root)
      for (std::size_t r = 0; r < counts.size(); ++r)
        out.push_back(
            all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(counts[r])));
    return out;
  }
#endif
  return {bytes};
}

std::int64_t sum_all(std::int64_t value) {
#ifdef ROUTESOLVE_HAVE_MPI
  if (g_state.size > 1) {
    long long in = value, out = 0;
    MPI_Allreduce(&in, &out, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    return out;
  }
#endif
  return value;
}

double max_all(double value) {
#ifdef ROUTESOLVE_HAVE_MPI
  if (g_state.size > 1) {
    double out = 0;
    MPI_Allreduce(&value, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return out;
  }
#endif
  return value;
}

}  // namespace routesolve::distributed
