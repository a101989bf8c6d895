#pragma once
// The MPI world a routesolve process runs in (docs/SCALING.md). One Session per process, made in
// main before anything else: under a launcher (mpirun/mpiexec/srun set PMIx or PMI variables) it
// calls MPI_Init_thread and the process is one rank of many; started by hand it does not touch
// MPI at all and the process is rank 0 of 1, so the tool runs unchanged without mpirun (and in a
// build without MPI). Open MPI's singleton init is not used: it starts a runtime daemon, which
// costs time and fails in some containers, for no gain in a world of one.

#include <cstdint>
#include <string>
#include <vector>

namespace routesolve::distributed {

/// True when this build has MPI (ROUTESOLVE_MPI).
bool built_with_mpi() noexcept;

/// True when the process was started by an MPI launcher (its environment says so).
bool launched_by_mpirun() noexcept;

/// MPI for the life of main: MPI_Init_thread at construction when launched by mpirun (asking for
/// MPI_THREAD_SERIALIZED), MPI_Finalize at destruction. Not copyable; one per process. After a rank
/// was lost (lost_rank()), MPI_Finalize is given kFinalizeGraceSeconds: should it wait longer (for
/// a message to the dead rank, say), the process ends without it, with the status given to
/// set_exit_status.
class Session {
 public:
  Session(int* argc, char*** argv);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
};

/// This process's place: rank and size of the world, rank on its node and ranks on its node.
/// Without MPI (or outside mpirun): 0 of 1.
int rank() noexcept;
int size() noexcept;
int local_rank() noexcept;
/// True when several ranks run: the distributed code paths apply.
inline bool distributed() noexcept { return size() > 1; }
/// True when a second thread may make MPI calls while the first makes none (MPI_THREAD_SERIALIZED
/// or more granted): a worker rank's heartbeat and rank 0's server thread (work_queue.hpp).
bool thread_serialized() noexcept;

// ---- ranks that die (docs/SCALING.md, "A rank that dies") ---------------------------------------
/// True when mpirun keeps the job running after a rank dies: Open MPI 4's `mpirun
/// --enable-recovery` (or `--mca orte_enable_recovery 1`), which it passes to the ranks as
/// OMPI_MCA_orte_enable_recovery. Without it Open MPI ends every rank when one exits abnormally.
bool recovery_enabled() noexcept;
/// Records that a rank of this world was taken for dead (rank 0) or that rank 0 said so (the
/// others): no collective may follow, and MPI_Finalize is given a grace period only.
void note_lost_rank() noexcept;
bool lost_rank() noexcept;
/// The status the process ends with should MPI_Finalize outlast its grace period.
void set_exit_status(int status) noexcept;
inline constexpr int kFinalizeGraceSeconds = 10;

/// The device a rank uses when it was given none: its local rank modulo the node's devices.
int rank_device(int device_count) noexcept;

/// Ends every rank (MPI_Abort) after an error on one of them, so that the others do not wait in
/// a collective for ever; returns normally in a world of one.
void abort_world(int exit_code) noexcept;

// ---- collectives over MPI_COMM_WORLD (plain local operations in a world of one) ----------------
void barrier();
/// A barrier that waits without spinning (MPI_Ibarrier tested every millisecond or so): Open MPI's
/// blocking calls poll at full speed, which takes a core from the ranks still working when ranks
/// share cores. Called where ranks finish unevenly, before the next collective.
void idle_barrier();
/// Rank `root`'s bytes on every rank.
void broadcast(std::string& bytes, int root = 0);
/// Every rank's bytes, in rank order, on rank `root` (empty elsewhere).
std::vector<std::string> gather(const std::string& bytes, int root = 0);
/// Sum / max of an integer over the ranks, on every rank.
std::int64_t sum_all(std::int64_t value);
double max_all(double value);

}  // namespace routesolve::distributed

namespace routesolve::distributed {

/// The CUDA device of this rank: local rank modulo the devices the node has (0 without any).
int local_device();

}  // namespace routesolve::distributed
