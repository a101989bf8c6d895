// Dynamic hand-out of work items over MPI ranks (work_queue.hpp) and per-item crash isolation.

#include "routesolve/distributed/work_queue.hpp"

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <exception>
#include <numeric>
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
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return weights[a] > weights[b]; });
  return order;
}

ItemResult run_isolated(const std::function<std::string()>& fn) {
  int fds[2];
  if (::pipe(fds) != 0) return {false, std::string("crashed: no pipe for the child process: ") + std::strerror(errno)};
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return {false, std::string("crashed: no child process (fork): ") + std::strerror(errno)};
  }
  if (pid == 0) {
    ::close(fds[0]);
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
    return {false, "crashed: exited with status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                       " without an answer"};
  return {got[0] == 'o', got.substr(1)};
}

#ifdef ROUTESOLVE_HAVE_MPI
namespace {

constexpr int kTagAsk = 71;     // worker -> rank 0: [item or -1][ok][result text]
constexpr int kTagAssign = 72;  // rank 0 -> worker: item, or -1 when nothing is left

std::string pack(long long item, const ItemResult& r) {
  std::string m(sizeof item + 1 + r.text.size(), '\0');
  std::memcpy(m.data(), &item, sizeof item);
  m[sizeof item] = r.ok ? '\1' : '\0';
  if (!r.text.empty()) std::memcpy(m.data() + sizeof item + 1, r.text.data(), r.text.size());
  return m;
}

/// Rank 0's server: answers every ask with the next item until each rank was told "no more".
void serve(MPI_Comm comm, int ranks, const std::vector<std::size_t>& order,
           const std::function<void(std::size_t, const ItemResult&)>& on_result, const std::function<bool()>& stop) {
  std::size_t next = 0;
  int finished = 0;
  std::string buf;
  while (finished < ranks) {
    // Polled with pauses: a blocking probe would spin a core that the ranks' solves need.
    MPI_Status st;
    for (int found = 0, idle = 0; !found; ++idle) {
      MPI_Iprobe(MPI_ANY_SOURCE, kTagAsk, comm, &found, &st);
      if (!found) std::this_thread::sleep_for(std::chrono::microseconds(idle < 100 ? 50 : 1000));
    }
    int count = 0;
    MPI_Get_count(&st, MPI_CHAR, &count);
    buf.resize(static_cast<std::size_t>(count));
    MPI_Recv(buf.data(), count, MPI_CHAR, st.MPI_SOURCE, kTagAsk, comm, MPI_STATUS_IGNORE);
    long long done = -1;
    std::memcpy(&done, buf.data(), sizeof done);
    if (done >= 0) on_result(static_cast<std::size_t>(done), {buf[sizeof done] != '\0', buf.substr(sizeof done + 1)});
    long long item = -1;
    if (next < order.size() && !(stop && stop())) item = static_cast<long long>(order[next++]);
    if (item < 0) ++finished;
    MPI_Send(&item, 1, MPI_LONG_LONG, st.MPI_SOURCE, kTagAssign, comm);
  }
}

std::size_t work_loop(MPI_Comm comm, const std::function<ItemResult(std::size_t)>& work) {
  std::size_t ran = 0;
  std::string ask = pack(-1, {});
  for (;;) {
    MPI_Send(ask.data(), static_cast<int>(ask.size()), MPI_CHAR, 0, kTagAsk, comm);
    long long item = -1;
    MPI_Recv(&item, 1, MPI_LONG_LONG, 0, kTagAssign, comm, MPI_STATUS_IGNORE);
    if (item < 0) return ran;
    ItemResult r;
    try {
      r = work(static_cast<std::size_t>(item));
    } catch (const std::exception& e) {
      r = {false, e.what()};
    }
    ++ran;
    ask = pack(item, r);
  }
}

}  // namespace
#endif

std::size_t run_work_queue(const std::vector<std::size_t>& order, const std::function<ItemResult(std::size_t)>& work,
                           const std::function<void(std::size_t, const ItemResult&)>& on_result,
                           const std::function<bool()>& stop) {
#ifdef ROUTESOLVE_HAVE_MPI
  if (size() > 1) {
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    std::size_t ran = 0;
    if (rank() == 0) {
      if (thread_multiple()) {
        // Rank 0 works too: the server answers on its own thread, rank 0's asks included.
        std::thread server([&] { serve(comm, size(), order, on_result, stop); });
        ran = work_loop(comm, work);
        server.join();
      } else {
        serve(comm, size() - 1, order, on_result, stop);
      }
    } else {
      ran = work_loop(comm, work);
    }
    MPI_Comm_free(&comm);
    return ran;
  }
#endif
  std::size_t ran = 0;
  for (const std::size_t item : order) {
    if (stop && stop()) break;
    ItemResult r;
    try {
      r = work(item);
    } catch (const std::exception& e) {
      r = {false, e.what()};
    }
    ++ran;
    on_result(item, r);
  }
  return ran;
}

}  // namespace routesolve::distributed
