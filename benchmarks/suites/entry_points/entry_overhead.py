#!/usr/bin/env python3
"""Overhead of the C and Python entry points against the CLI, on the same VROOM JSON problems
(a 100-task and a 1,000-task instance with explicit matrices, converted from Solomon / Gehring &
Homberger files): seconds from the entry (process start for the CLI and the C program, the
solve() call in Python) to the first progress report (the construction done, the search's first
iteration), and the process's peak resident memory (/usr/bin/time). Each run solves for
--time-limit seconds with the cpu backend, one thread; the median of --repeat runs is reported.

    benchmarks/suites/entry_points/entry_overhead.py --build build --datasets ../shared/datasets [--repeat 5]
"""
import argparse
import json
import math
import os
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent

PY_RUN = r"""
import sys, time
t_import = time.monotonic()
import numpy as np, routesolve
mode, path, limit = sys.argv[1], sys.argv[2], float(sys.argv[3])
problem = path
if mode == "numpy":
    import json
    doc = json.load(open(path))
    m = doc.pop("matrices")["car"]
    problem = dict(doc, matrices={"car": {"durations": np.array(m["durations"], dtype=np.int64),
                                          "distances": np.array(m["distances"], dtype=np.int64)}})
first = []
t0 = time.monotonic()
s = routesolve.solve(problem, time_limit=limit, backend="cpu", progress=lambda p: first or first.append(time.monotonic() - t0))
print("first %.4f total %.4f" % (first[0], time.monotonic() - t0))
"""


def solomon_to_vroom(path):
    """A Solomon-format file as VROOM JSON: Euclidean distance x10 rounded as durations and
    distances, windows and service x10, the file's vehicles and capacity."""
    lines = [l.split() for l in open(path) if l.strip()]
    at = next(i for i, l in enumerate(lines) if l[0] == "NUMBER")
    vehicles, capacity = int(lines[at + 1][0]), int(lines[at + 1][1])
    rows = [list(map(float, l[:7])) for l in lines[at + 2:] if l[0].isdigit()]
    n = len(rows)
    m = [[round(10 * math.hypot(a[1] - b[1], a[2] - b[2])) for b in rows] for a in rows]
    depot = rows[0]
    doc = {
        "vehicles": [{"id": v + 1, "start_index": 0, "end_index": 0, "capacity": [capacity],
                      "time_window": [int(depot[4] * 10), int(depot[5] * 10)]} for v in range(vehicles)],
        "jobs": [{"id": int(r[0]), "location_index": i, "delivery": [int(r[3])], "service": int(r[6] * 10),
                  "time_windows": [[int(r[4] * 10), int(r[5] * 10)]]} for i, r in enumerate(rows) if i > 0],
        "matrices": {"car": {"durations": m, "distances": m}},
    }
    return doc, n - 1


def timed(cmd, env=None, first_line=None):
    """Runs cmd under /usr/bin/time; returns (first-report seconds, total seconds, peak MiB)."""
    t0 = time.monotonic()
    p = subprocess.Popen(["/usr/bin/time", "-f", "maxrss_kb %M"] + cmd, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)
    first = None
    err_lines = []
    for line in p.stderr:
        if first is None and first_line is not None and first_line.search(line):
            first = time.monotonic() - t0
        err_lines.append(line)
    out = p.stdout.read()
    p.wait()
    total = time.monotonic() - t0
    if p.returncode != 0:
        raise RuntimeError(f"{cmd}: exit {p.returncode}\n{''.join(err_lines)}")
    rss = int(re.search(r"maxrss_kb (\d+)", "".join(err_lines)).group(1)) / 1024
    m = re.search(r"first ([\d.]+) total ([\d.]+)", out)
    if m:
        first, total = float(m.group(1)), float(m.group(2))
    return first, total, rss


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--datasets", default="../shared/datasets")
    ap.add_argument("--time-limit", type=float, default=1.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--python", default="/usr/bin/python3")
    a = ap.parse_args()
    build = pathlib.Path(a.build).resolve()
    repo = HERE.parents[2]
    work = pathlib.Path(tempfile.mkdtemp(prefix="rs-overhead-"))
    exe = work / "overhead_c"
    subprocess.run(["cc", "-O2", "-std=c11", str(HERE / "overhead_c.c"), "-I", str(repo / "capi" / "include"),
                    "-L", str(build / "lib"), "-lroutesolve_c", f"-Wl,-rpath,{build / 'lib'}", "-o", str(exe)],
                   check=True)
    env = dict(os.environ, PYTHONPATH=str(build / "python"))
    instances = [("vrptw/solomon/C101.txt", "100 tasks (Solomon C101)"),
                 ("vrptw/gehring_homberger/c1_10_1.txt", "1,000 tasks (Gehring & Homberger C1_10_1)")]
    progress = re.compile(r"best cost")
    print(f"time limit {a.time_limit} s, cpu backend, 1 thread, median of {a.repeat} runs")
    print("| instance | entry point | first iteration (s) | total (s) | peak memory (MiB) |")
    print("|---|---|---|---|---|")
    for rel, label in instances:
        doc, tasks = solomon_to_vroom(pathlib.Path(a.datasets) / rel)
        path = work / (pathlib.Path(rel).stem + ".json")
        path.write_text(json.dumps(doc))
        runs = {
            "CLI `routesolve solve FILE`": ([str(build / "bin" / "routesolve"), "solve", str(path), "--backend", "cpu",
                                            "--time-limit", str(a.time_limit), "--verbose", "-o", str(work / "out.json")],
                                           progress),
            "C `rs_solve_json` (file read included)": ([str(exe), str(path), str(a.time_limit)], None),
            "Python `solve(path)`": ([a.python, "-c", PY_RUN, "path", str(path), str(a.time_limit)], None),
            "Python `solve(dict with numpy matrices)`": ([a.python, "-c", PY_RUN, "numpy", str(path),
                                                         str(a.time_limit)], None),
        }
        for name, (cmd, pattern) in runs.items():
            results = [timed(cmd, env, pattern) for _ in range(a.repeat)]
            first = statistics.median(r[0] for r in results)
            total = statistics.median(r[1] for r in results)
            rss = statistics.median(r[2] for r in results)
            print(f"| {label} | {name} | {first:.3f} | {total:.3f} | {rss:.0f} |", flush=True)
    base = timed([a.python, "-c", "import numpy, routesolve"], env)[2]
    print(f"\nPython interpreter + numpy + routesolve imported, nothing solved: {base:.0f} MiB peak")


if __name__ == "__main__":
    sys.exit(main())
