"""FILO2 (Accorsi & Vigo, https://github.com/acco93/filo2, GPLv3) as a peer of benchmarks/suites/peers/peers.

FILO2 is built and run outside the repository: its public source (a git directory or a source
tree, given with --filo2-source or ROUTESOLVE_FILO2_SOURCE) is exported into the peers' folder
(default build/peers-filo2) and built there once with cmake and the system compiler; nothing of it
is linked into or shipped with routesolve. It runs with its defaults (100,000 core iterations, no
time limit; it always rounds EUC_2D arcs to the nearest integer, the CVRPLIB convention) and writes
its best solution as a CVRPLIB .sol file, read back here for the checks every solver's solution
goes through. With --match-time filo2 the other solvers of an instance get FILO2's wall time on it
as their time limit (RunQueue). Standard library only.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

SOURCE_ENV = "ROUTESOLVE_FILO2_SOURCE"
SOURCE_URL = "https://github.com/acco93/filo2"
# Not needed to build: about 1.5 GB of result files, the instances and the README's pictures.
SKIPPED = ("results", "instances", "imgs", ".git", "build")
# FILO2's CMakeLists.txt: Release adds -O3 -march=native -flto=auto; no progress output (it is
# not read, and the timers behind it cost a little).
CMAKE_FLAGS = ["-DCMAKE_BUILD_TYPE=Release", "-DENABLE_VERBOSE=OFF", "-DENABLE_GUI=OFF"]
CORE_ITERATIONS = 100_000  # FILO2's default (--coreopt-iterations), as its authors publish
# FILO2's reader (instance/Parser.cpp) takes these header lines in this order, then the node
# coordinates and demands; the depot is the first node.
HEADER = ("NAME", "COMMENT", "TYPE", "DIMENSION", "EDGE_WEIGHT_TYPE", "CAPACITY")


def missing_source_message(folder: Path) -> str:
    return (f"peers: FILO2 is not built in {folder} and no source was given. It is built from its "
            f"public source, outside the repository: clone it ({SOURCE_URL}, e.g. `git clone "
            f"{SOURCE_URL}.git /some/dir/filo2`) and pass --filo2-source /some/dir/filo2 (a source "
            f"tree or a git directory, bare or not) or set {SOURCE_ENV}; it is then built once into "
            f"{folder} with cmake and the system compiler")


# ---- the build ---------------------------------------------------------------------------------


def executable(folder: Path) -> Path:
    return folder / "build" / "filo2"


def source_kind(source: Path) -> str | None:
    """'git' for a git directory (bare, or a checkout's .git), 'tree' for a source tree, None."""
    if (source / "HEAD").is_file() and (source / "objects").is_dir():
        return "git"
    if (source / "CMakeLists.txt").is_file() and (source / "main.cpp").is_file():
        return "tree"
    return None


def source_id(source: Path, kind: str) -> str:
    """The source's commit (a tree's checkout's, when it has one), else its resolved path."""
    cmd = ["git", f"--git-dir={source}"] if kind == "git" else ["git", "-C", str(source)]
    try:
        r = subprocess.run([*cmd, "rev-parse", "HEAD"], capture_output=True, text=True, timeout=60)
        if r.returncode == 0 and r.stdout.strip():
            return r.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return f"tree:{source.resolve()}"


def export_source(source: Path, kind: str, dest: Path) -> None:
    if dest.exists():
        shutil.rmtree(dest)
    if kind == "tree":
        root = source.resolve()
        shutil.copytree(root, dest, ignore=lambda d, names: [n for n in names if Path(d).resolve()
                                                             == root and n in SKIPPED])
        return
    dest.mkdir(parents=True)
    tar = dest.parent / "source.tar"
    subprocess.run(["git", f"--git-dir={source}", "archive", "--format=tar", "-o", str(tar), "HEAD",
                    "--", ".", *(f":(exclude){n}" for n in SKIPPED)], check=True,
                   capture_output=True, text=True, timeout=600)
    subprocess.run(["tar", "-xf", str(tar), "-C", str(dest)], check=True, capture_output=True,
                   text=True, timeout=600)
    tar.unlink()


def built_id(folder: Path) -> str | None:
    try:
        data = json.loads((folder / "peers-filo2.json").read_text())
    except (OSError, ValueError):
        return None
    if data.get("cmake_flags") != CMAKE_FLAGS or not executable(folder).is_file():
        return None
    return data.get("source")


def ensure_filo2(folder: Path, source: Path | None) -> tuple[Path | None, str, int]:
    """(FILO2's executable, its version, 0), built from source into folder when it is not built
    from that source yet; (None, "", exit status) with the reason on stderr when it cannot be:
    2 source not usable, 77 no source or no build tools."""
    built = built_id(folder)
    if source is None:
        if built is not None:
            return executable(folder), version_of(built), 0
        print(missing_source_message(folder), file=sys.stderr)
        return None, "", 77
    kind = source_kind(source) if source.is_dir() else None
    if kind is None:
        print(f"peers: --filo2-source / {SOURCE_ENV} {source}: neither a FILO2 source tree "
              "(CMakeLists.txt and main.cpp) nor a git directory", file=sys.stderr)
        return None, "", 2
    sid = source_id(source, kind)
    if built == sid:
        return executable(folder), version_of(sid), 0
    missing = [name for name, found in (("cmake", shutil.which("cmake")),
                                        ("a C++ compiler", shutil.which("c++") or shutil.which("g++")),
                                        ("git", kind == "tree" or shutil.which("git"))) if not found]
    if missing:
        print(f"peers: cannot build FILO2: {', '.join(missing)} not found", file=sys.stderr)
        return None, "", 77
    print(f"peers: building FILO2 {version_of(sid)} from {source} into {folder} (once)", flush=True)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "peers-filo2.json").unlink(missing_ok=True)
        export_source(source, kind, folder / "src")
        shutil.rmtree(folder / "build", ignore_errors=True)
        for cmd in (["cmake", "-S", str(folder / "src"), "-B", str(folder / "build"), *CMAKE_FLAGS],
                    ["cmake", "--build", str(folder / "build"), "--parallel", "1"]):
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
            if r.returncode != 0:
                print(f"peers: building FILO2 failed: {' '.join(cmd)}:\n"
                      f"{(r.stdout + r.stderr).strip()[-1500:]}", file=sys.stderr)
                return None, "", 77
    except (OSError, subprocess.SubprocessError) as e:
        print(f"peers: building FILO2 failed: {e}", file=sys.stderr)
        return None, "", 77
    if not executable(folder).is_file():
        print(f"peers: building FILO2 made no {executable(folder)}", file=sys.stderr)
        return None, "", 77
    (folder / "peers-filo2.json").write_text(json.dumps({"source": sid, "cmake_flags": CMAKE_FLAGS}))
    return executable(folder), version_of(sid), 0


def version_of(sid: str) -> str:
    return sid[:7] if not sid.startswith("tree:") else "tree"


# ---- a run -------------------------------------------------------------------------------------


def reads(path: Path) -> bool:
    """Whether FILO2's reader takes the file: its header lines in the order it expects."""
    keys = []
    with path.open() as f:
        for line in f:
            if len(keys) == len(HEADER):
                break
            keys.append(line.partition(":")[0].strip().upper())
    return tuple(keys) == HEADER


def solution_path(out_dir: Path, instance: Path, seed: int) -> Path:
    """Where FILO2 writes its best solution (main.cpp: OUTPATH/BASENAME_seed-SEED.vrp.sol)."""
    return out_dir / f"{instance.name}_seed-{seed}.vrp.sol"


def command(exe: Path, instance: Path, out_dir: Path, seed: int) -> list[str]:
    """FILO2 with its defaults; only where it writes and the seed are given."""
    return [str(exe), str(instance), "--outpath", f"{out_dir}/", "--seed", str(seed)]


def settings(seed: int) -> dict:
    return {"coreopt_iterations": CORE_ITERATIONS, "seed": seed, "time_limit": None,
            "cmake": " ".join(CMAKE_FLAGS), "defaults": True}


def read_solution(text: str, nodes: int) -> tuple[list[list[int]], int | None]:
    """Routes (node indices: 0 the depot, i the file's (i+1)-th node) and the cost of a CVRPLIB
    .sol file (`Route #k: i j ...` lines, then `Cost C`)."""
    routes: list[list[int]] = []
    cost = None
    for line in text.splitlines():
        s = line.strip()
        if not s:
            continue
        head, sep, rest = s.partition(":")
        if sep and head.split()[0].lower() == "route":
            route = [int(t) for t in rest.split()]
            bad = [v for v in route if not 0 < v < nodes]
            if bad:
                raise ValueError(f"{head}: node {bad[0]} is not a customer (1..{nodes - 1})")
            routes.append(route)
        elif s.split()[0].lower() == "cost" and len(s.split()) == 2:
            cost = round(float(s.split()[1]))
        else:
            raise ValueError(f"unexpected line {s[:60]!r}")
    return routes, cost


def reported_seconds(out_file: Path) -> float | None:
    """FILO2's own run time (whole seconds) from its .out file (`cost<TAB>seconds`)."""
    try:
        return float(out_file.read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return None


# ---- --match-time ------------------------------------------------------------------------------


def matched_limit(seconds: float) -> float:
    """The time limit that matches a reference run's wall time, to a tenth of a second."""
    return max(0.1, round(seconds, 1))


class RunQueue:
    """The runs for the workers of --jobs. With match (a solver's name), each instance's other
    solvers wait for that solver's run of the instance and get its wall time as their time limit;
    a waiting run whose reference has finished goes before the next reference run, so with two
    workers a reference run and a matched one mostly run side by side. A reference run that failed
    (error, timeout) leaves its instance's other runs failed, not run; one that is not supported
    leaves them the set's time limit."""

    def __init__(self, runs: list, match: str | None = None):
        self.cv = threading.Condition()
        self.pending = list(runs)
        self.match = match
        self.ref = {r.inst.name: r for r in runs if match and r.solver == match}
        self.done_ids: set[int] = set()

    def _waits(self, run) -> bool:
        ref = self.ref.get(run.inst.name) if run.solver != self.match else None
        return ref is not None and id(ref) not in self.done_ids

    def _matched(self, run) -> bool:
        return run.solver != self.match and run.inst.name in self.ref

    def take(self):
        """The next run to start (with its time limit set), None when none is left; waits while
        every run left waits for a reference run."""
        with self.cv:
            while True:
                if not self.pending:
                    return None
                ready = [r for r in self.pending if not self._waits(r)]
                pick = next((r for r in ready if self._matched(r)), ready[0] if ready else None)
                if pick is not None:
                    self.pending.remove(pick)
                    if self._matched(pick):
                        self._set_limit(pick, self.ref[pick.inst.name])
                    return pick
                self.cv.wait()

    def _set_limit(self, run, ref) -> None:
        if ref.status in ("error", "timeout"):
            run.status = "error"
            run.notes.append(f"not run: {ref.solver} {ref.status}, no time to match")
        elif ref.status != "not supported":
            run.time_limit = matched_limit(ref.seconds)

    def done(self, run) -> None:
        with self.cv:
            self.done_ids.add(id(run))
            self.cv.notify_all()

    def cancel(self) -> None:
        with self.cv:
            self.pending.clear()
            self.cv.notify_all()


def peak_rss_mib(usage) -> float:
    """ru_maxrss (KiB on Linux) in MiB."""
    return usage.ru_maxrss / 1024.0


def wait_measured(proc, timeout: float) -> tuple[bool, float | None, float | None]:
    """Waits for proc (killed after timeout seconds) and reaps it with wait4: (timed out, its
    peak RSS in MiB, its CPU seconds (user + system)); the figures are None when they could not
    be read."""
    expired = threading.Event()

    def kill():
        expired.set()
        proc.kill()

    timer = threading.Timer(timeout, kill)
    timer.start()
    try:
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        rss, cpu = peak_rss_mib(usage), usage.ru_utime + usage.ru_stime
    except ChildProcessError:  # reaped elsewhere (Popen.poll while it was being stopped)
        proc.wait()
        rss = cpu = None
    finally:
        timer.cancel()
    return expired.is_set(), rss, cpu

