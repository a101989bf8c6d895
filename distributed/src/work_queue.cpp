// Dynamic hand-out of work items over MPI ranks (work_queue.hpp) and per-item crash isolation.

#include "routesolve/distributed/work_queue.hpp"

#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <mutex>
#include <numeric>
#include <optional>
#include <string>
#include <thread>

#include "routesolve/distributed/world.hpp"

#ifdef ROUTESOLVE_HAVE_MPI
#include <mpi.h>
#endif

namespace routesolve::distributed {

std::vector<std::size_t> largest_first(const std::vector<std::uint64_t>& weights) {
  std::vector<std::size_t> order(weights.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return weights[a] > weights[b]; });
  return order;
}

ItemResult run_isolated(const std::function<std::string()>& fn) {
  int fds[2];
  if (::pipe(fds) != 0)
    return {false, std::string("crashed: no pipe for the child process: ") + std::strerror(errno)};
  [[maybe_unused]] const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return {false, std::string("crashed: no child process (fork): ") + std::strerror(errno)};
  }
  if (pid == 0) {
    ::close(fds[0]);
#ifdef __linux__
    // The child ends with its rank: killed with it (kill -9, the OOM killer), it would go on
    // solving a file that is reported failed, and hold the rank's output pipes open, so that
    // mpirun waits for it.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(4);
#endif
    // First byte: 'o' (ok) or 'e' (error), then the text.
    std::string message;
    try {
      message.assign(1, 'o');
      message += fn();
    } catch (const std::exception& e) {
      message.assign(1, 'e');
      message += e.what();
    } catch (...) {
      message = "eunknown exception";
    }
    std::size_t at = 0;
    while (at < message.size()) {
      const ssize_t w = ::write(fds[1], message.data() + at, message.size() - at);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) ::_exit(3);
      at += static_cast<std::size_t>(w);
    }
    ::close(fds[1]);
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string got;
  char buf[4096];
  for (;;) {
    const ssize_t r = ::read(fds[0], buf, sizeof buf);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got.append(buf, static_cast<std::size_t>(r));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return {false, "crashed: signal " + std::to_string(sig) + " (" + ::strsignal(sig) + ")"};
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || got.empty())
    return {false, "crashed: exited with status " +
                       std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                       " without an answer"};
  return {got[0] == 'o', got.substr(1)};
}

namespace {

/// `work(item)`, its exception turned into a failed result.
ItemResult run_item(const std::function<ItemResult(std::size_t)>& work, std::size_t item) {
  try {
    return work(item);
  } catch (const std::exception& e) {
    return {false, e.what()};
  }
}

}  // namespace

#ifdef ROUTESOLVE_HAVE_MPI
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kTagAsk = 71;     // worker -> rank 0: [item or -1][ok][beats][result text]
constexpr int kTagAssign = 72;  // rank 0 -> worker: item, or -1 when nothing is left
constexpr int kTagBeat = 73;    // worker -> rank 0: the item it works on (a sign of life)
constexpr std::size_t kHeader = sizeof(long long) + 2;

std::string pack(long long item, const ItemResult& r, bool beats) {
  std::string m(kHeader + r.text.size(), '\0');
  std::memcpy(m.data(), &item, sizeof item);
  m[sizeof item] = r.ok ? '\1' : '\0';
  m[sizeof item + 1] = beats ? '\1' : '\0';
  if (!r.text.empty()) std::memcpy(m.data() + kHeader, r.text.data(), r.text.size());
  return m;
}

double seconds_since(Clock::time_point t, Clock::time_point now) {
  return std::chrono::duration<double>(now - t).count();
}

/// Waits between polls, from 50 us to 1 ms: Open MPI's blocking calls spin a core that the
/// ranks' solves need.
void pause(int idle) {
  std::this_thread::sleep_for(std::chrono::microseconds(idle < 100 ? 50 : 1000));
}

std::string one_decimal(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", x);
  return b;
}

/// What rank 0 knows of a rank that asks for work.
struct Peer {
  bool expected = false;  ///< it asks for work
  bool done = false;      ///< told "no more", or taken for dead
  bool dead = false;      ///< taken for dead
  bool asked = false;     ///< asked at least once
  bool beats = false;     ///< sends heartbeats while it works
  long long item = -1;    ///< the item it holds
  Clock::time_point heard, handed;
};

/// Rank 0's own asks when it works too: they pass between its worker and its server thread in
/// memory, not as MPI messages to itself (a rank's messages to itself, sent and matched on two
/// threads, are where an MPI library's thread support is least exercised).
class LocalAsks {
 public:
  /// The worker: reports `done` (-1: none) and its result, and waits for the next item (-1: none).
  long long ask(long long done, ItemResult result) {
    std::unique_lock<std::mutex> lock(m_);
    done_ = done;
    result_ = std::move(result);
    asking_ = true;
    answered_ = false;
    cv_.wait(lock, [this] { return answered_; });
    return item_;
  }
  /// The server: takes a pending ask, if any.
  bool take(long long& done, ItemResult& result) {
    const std::lock_guard<std::mutex> lock(m_);
    if (!asking_) return false;
    asking_ = false;
    done = done_;
    result = std::move(result_);
    return true;
  }
  /// The server: answers the ask it took.
  void answer(long long item) {
    {
      const std::lock_guard<std::mutex> lock(m_);
      item_ = item;
      answered_ = true;
    }
    cv_.notify_all();
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  bool asking_ = false, answered_ = false;
  long long done_ = -1, item_ = -1;
  ItemResult result_;
};

/// Rank 0's server: answers every ask with the next item until each rank that asks was told "no
/// more" or was taken for dead (silent for the rank timeout while it held an item, or before it
/// ever asked). Rank 0's own asks come through `local` (null: rank 0 does not work) and are never
/// timed.
void serve(MPI_Comm comm, LocalAsks* local, const std::vector<std::size_t>& order,
           const std::function<void(std::size_t, const ItemResult&)>& on_result,
           const std::function<bool()>& stop, double timeout) {
  const auto start = Clock::now();
  std::vector<Peer> peers(static_cast<std::size_t>(size()));
  int waiting = 0;
  for (std::size_t r = local ? 0 : 1; r < peers.size(); ++r) {
    peers[r].expected = true;
    peers[r].heard = start;
    ++waiting;
  }
  std::size_t next = 0;
  // The next item for a rank that asks (-1: none left, or the batch is stopping, or the rank was
  // told so already).
  const auto hand_out = [&](Peer& p, Clock::time_point now) {
    p.asked = true;
    long long item = -1;
    if (!p.done && next < order.size() && !(stop && stop()))
      item = static_cast<long long>(order[next++]);
    p.item = item;
    p.handed = now;
    if (item < 0 && !p.done) {
      p.done = true;
      --waiting;
    }
    return item;
  };
  std::string buf;
  auto checked = start;
  for (int idle = 0; waiting > 0;) {
    long long done = -1;
    if (ItemResult r; local && local->take(done, r)) {  // rank 0's own ask
      idle = 0;
      Peer& self = peers[0];
      self.heard = Clock::now();
      if (done >= 0) on_result(static_cast<std::size_t>(done), r);
      local->answer(hand_out(self, self.heard));
      continue;
    }
    MPI_Status st;
    int found = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &found, &st);
    const auto now = Clock::now();
    if (!found) {
      if (seconds_since(checked, now) >= 0.05) {
        checked = now;
        for (std::size_t r = 1; r < peers.size(); ++r) {
          Peer& p = peers[r];
          if (!p.expected || p.done || (p.asked && !p.beats) ||
              seconds_since(p.heard, now) <= timeout)
            continue;
          p.dead = p.done = true;
          --waiting;
          note_lost_rank();
          const std::string silent = one_decimal(seconds_since(p.heard, now));
          if (p.item >= 0) {
            on_result(
                static_cast<std::size_t>(p.item),
                {false,
                 "rank " + std::to_string(r) +
                     " stopped answering while solving it (no heartbeat for " + silent + " s, " +
                     one_decimal(seconds_since(p.handed, now)) + " s after it was handed out)",
                 true});
          } else {
            std::fprintf(stderr, "rank %zu never asked for work in %s s: taken for dead\n", r,
                         silent.c_str());
          }
          p.item = -1;
        }
      }
      pause(idle++);
      continue;
    }
    idle = 0;
    int count = 0;
    MPI_Get_count(&st, MPI_CHAR, &count);
    buf.resize(static_cast<std::size_t>(count));
    MPI_Recv(buf.data(), count, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, comm, MPI_STATUS_IGNORE);
    Peer& p = peers[static_cast<std::size_t>(st.MPI_SOURCE)];
    p.heard = now;
    if (st.MPI_TAG != kTagAsk) continue;  // a heartbeat
    std::memcpy(&done, buf.data(), sizeof done);
    // A rank taken for dead that answers after all: its item was reported lost already.
    if (done >= 0 && !p.dead)
      on_result(static_cast<std::size_t>(done), {buf[sizeof done] != '\0', buf.substr(kHeader)});
    p.beats = buf[sizeof done + 1] != '\0';
    long long item = hand_out(p, now);
    MPI_Send(&item, 1, MPI_LONG_LONG, st.MPI_SOURCE, kTagAssign, comm);
  }
}

/// A worker's sign of life to rank 0 while it works on `item`: a small message every `period`
/// from a thread, its MPI calls serialised with the worker's by `mpi`.
class Heartbeat {
 public:
  Heartbeat(MPI_Comm comm, std::mutex& mpi, long long item, double period)
      : thread_([this, comm, &mpi, item, period] {
          std::unique_lock<std::mutex> lock(m_);
          while (!cv_.wait_for(lock, std::chrono::duration<double>(period),
                               [this] { return stop_; })) {
            const std::lock_guard<std::mutex> guard(mpi);
            MPI_Send(&item, 1, MPI_LONG_LONG, 0, kTagBeat, comm);
          }
        }) {}
  ~Heartbeat() {
    {
      const std::lock_guard<std::mutex> lock(m_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  Heartbeat(const Heartbeat&) = delete;
  Heartbeat& operator=(const Heartbeat&) = delete;

 private:
  std::mutex m_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;  // last: starts once the members above exist
};

/// Rank 0's answer to an ask; false when none came within `limit` seconds (0: no limit).
bool await_assignment(MPI_Comm comm, std::mutex& mpi, long long& item, double limit) {
  MPI_Request request;
  {
    const std::lock_guard<std::mutex> guard(mpi);
    MPI_Irecv(&item, 1, MPI_LONG_LONG, 0, kTagAssign, comm, &request);
  }
  const auto asked = Clock::now();
  for (int idle = 0;; ++idle) {
    const std::lock_guard<std::mutex> guard(mpi);
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return true;
    if (limit > 0 && seconds_since(asked, Clock::now()) > limit) {
      MPI_Status st;
      MPI_Cancel(&request);
      MPI_Wait(&request, &st);
      int cancelled = 0;
      MPI_Test_cancelled(&st, &cancelled);
      return cancelled == 0;
    }
    pause(idle);
  }
}

/// A worker rank: asks rank 0 for items and runs them until told "no more" (or taken for dead).
std::size_t work_loop(MPI_Comm comm, const std::function<ItemResult(std::size_t)>& work,
                      double timeout) {
  // A worker whose MPI gives no second thread cannot send heartbeats, and says so in its asks
  // (rank 0 then never times it).
  const bool beats = thread_serialized();
  const double period = std::clamp(timeout / 5.0, 0.02, 5.0);
  std::mutex mpi;
  std::size_t ran = 0;
  std::string ask = pack(-1, {}, beats);
  for (;;) {
    {
      const std::lock_guard<std::mutex> guard(mpi);
      MPI_Send(ask.data(), static_cast<int>(ask.size()), MPI_CHAR, 0, kTagAsk, comm);
    }
    long long item = -1;
    if (!await_assignment(comm, mpi, item, timeout)) {
      // Rank 0 answers within milliseconds: it took this rank for dead and no longer serves.
      std::fprintf(stderr,
                   "rank %d: no answer from rank 0 in %s s (taken for dead): leaving the batch\n",
                   rank(), one_decimal(timeout).c_str());
      note_lost_rank();
      return ran;
    }
    if (item < 0) return ran;
    ItemResult r;
    {
      std::optional<Heartbeat> heartbeat;
      if (beats) heartbeat.emplace(comm, mpi, item, period);
      r = run_item(work, static_cast<std::size_t>(item));
    }
    ++ran;
    ask = pack(item, r, beats);
  }
}

/// Rank 0 as a worker: the same loop, its asks answered by its server thread in memory (no
/// heartbeat, never timed: the server is in this process).
std::size_t local_work_loop(LocalAsks& local, const std::function<ItemResult(std::size_t)>& work) {
  std::size_t ran = 0;
  long long done = -1;
  ItemResult r;
  for (;;) {
    const long long item = local.ask(done, std::move(r));
    if (item < 0) return ran;
    r = run_item(work, static_cast<std::size_t>(item));
    done = item;
    ++ran;
  }
}

}  // namespace
#endif

std::size_t run_work_queue(const std::vector<std::size_t>& order,
                           const std::function<ItemResult(std::size_t)>& work,
                           const std::function<void(std::size_t, const ItemResult&)>& on_result,
                           const std::function<bool()>& stop,
                           [[maybe_unused]] const QueueOptions& options) {
#ifdef ROUTESOLVE_HAVE_MPI
  if (size() > 1) {
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    std::size_t ran = 0;
    if (rank() == 0) {
      if (thread_serialized() && options.rank0_works) {
        // Rank 0 works too: the server answers on a second thread, which alone makes MPI calls
        // until it ends; rank 0's own asks reach it in memory.
        LocalAsks local;
        std::thread server(
            [&] { serve(comm, &local, order, on_result, stop, options.rank_timeout_seconds); });
        ran = local_work_loop(local, work);
        server.join();
      } else {
        serve(comm, nullptr, order, on_result, stop, options.rank_timeout_seconds);
      }
    } else {
      ran = work_loop(comm, work, options.rank_timeout_seconds);
    }
    MPI_Comm_free(&comm);
    return ran;
  }
#endif
  std::size_t ran = 0;
  for (const std::size_t item : order) {
    if (stop && stop()) break;
    const ItemResult r = run_item(work, item);
    ++ran;
    on_result(item, r);
  }
  return ran;
}

}  // namespace routesolve::distributed
