"""What benchmarks/run-all runs (--quick or full) and how long each stage should take: the
instance counts of the datasets folder x the time limits x the repeats, plus a per-run overhead
measured on the shared 2-core machine (process start, reading, validation). Stages that have no
instance count (build, matrix benchmark, report) get a fixed allowance, said as such. Standard
library only."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from quality_sets import SETS, list_instances  # noqa: E402

# Seconds beyond the time limit per run, measured on the 2026-12-01 quick runs: a quality run
# (solve + validate) and a peer run (worker start, model building, replay, validate).
QUALITY_OVERHEAD_S = 0.3
PEER_OVERHEAD_S = 0.6
PEER_SOLVERS = 4  # routesolve, PyVRP, OR-Tools, VROOM
PEER_SETS = {"solomonvtc": "solomonvtc", "gh200vtc": "gh200", "gh200": "gh200dist"}
NETWORK_DATASETS = {"liechtenstein": "roads/osm/liechtenstein-latest.osm.pbf", "city": None}


def plan_for(quick: bool) -> dict:
    if quick:
        return {"quality_limits": ["1", "2", "5"], "quality_sets": ["augerat"], "quality_count": 4,
                "peer_limits": ["1", "2", "5"], "peer_count": 3, "peer_migration": ["50x5"],
                "peer_sets": ["augerat", "solomon", "solomonvtc", "migration"],
                "matrix_filter": "Matrix/Liechtenstein/.*/(100|1000)/", "migration_args": [],
                "migration_sizes": ["50x5", "500x50"], "scale_fleet": ["200", "500"],
                "scale_cvrp": ["1000", "3000"], "scale_limit": "2"}
    return {"quality_limits": ["1", "5", "10", "30", "60"], "quality_sets": ["augerat", "x"],
            "quality_count": 10, "peer_limits": ["1", "5", "10", "30", "60"], "peer_count": 10,
            "peer_migration": ["50x5", "500x50"],
            "peer_sets": ["augerat", "x", "solomon", "solomonvtc", "gh200vtc", "lilim", "migration"],
            "matrix_filter": "Matrix/", "migration_args": ["--full"],
            "migration_sizes": ["50x5", "500x50", "5000x500"], "scale_fleet": ["500", "1000", "5000"],
            "scale_cvrp": ["3000", "6000", "10000"], "scale_limit": "60"}


def _count(set_name: str, datasets: Path, limit: int) -> int:
    spec = SETS[PEER_SETS.get(set_name, set_name)]
    return min(limit, len(list_instances(spec, datasets)))


def _networks(datasets: Path) -> int:
    return sum(1 for d in NETWORK_DATASETS.values() if d is None or (datasets / d).exists())


def estimate(plan: dict, datasets: Path, peers: bool = True, jobs: int = 2, build: bool = True,
             venv_ready: bool = True) -> list[tuple[str, float, str]]:
    """(stage, seconds, how it was reckoned) per stage, in run order."""
    out: list[tuple[str, float, str]] = []
    if build:
        out.append(("build", 120.0, "allowance with a warm ccache; a cold build takes longer"))
    limits = [float(x) for x in plan["quality_limits"]]
    counts = {s: _count(s, datasets, plan["quality_count"]) for s in plan["quality_sets"]}
    n = sum(counts.values())
    out.append(("quality", n * sum(lim + QUALITY_OVERHEAD_S for lim in limits),
                f"{n} instances ({', '.join(f'{k} {v}' for k, v in counts.items())}) x "
                f"({' + '.join(plan['quality_limits'])}) s + {QUALITY_OVERHEAD_S} s per run, one at a time"))
    if peers:
        limits = [float(x) for x in plan["peer_limits"]]
        counts = {s: _count(s, datasets, plan["peer_count"]) for s in plan["peer_sets"] if s != "migration"}
        scen = len(plan["peer_migration"]) * _networks(datasets) if "migration" in plan["peer_sets"] else 0
        runs = (sum(counts.values()) + scen) * PEER_SOLVERS
        seconds = runs * sum(lim + PEER_OVERHEAD_S for lim in limits) / jobs + (0 if venv_ready else 120)
        out.append(("peers", seconds,
                    f"({' + '.join(f'{k} {v}' for k, v in counts.items())} + {scen} migration scenarios) x "
                    f"{PEER_SOLVERS} solvers = {runs} runs per limit, x ({' + '.join(plan['peer_limits'])}) s "
                    f"+ {PEER_OVERHEAD_S} s per run, {jobs} at a time"
                    + ("" if venv_ready else "; + 2 min to create the peers' environment")))
    quick = plan["matrix_filter"] != "Matrix/"
    out.append(("matrix", 10.0 if quick else 300.0,
                "allowance: Google Benchmark repeats each case until its timing is stable"))
    runs = len(plan["migration_sizes"]) * _networks(datasets) * 2
    setup = 0.0 if quick else 120.0
    out.append(("migration", runs * 6.0 + setup,
                f"{len(plan['migration_sizes'])} sizes x {_networks(datasets)} networks x 2 backends (cpu, "
                f"cuda-host; cuda adds 2 with a device) = {runs} runs x (5 s + 1 s)"
                + (" + 2 min generating 5000 x 500" if setup else "")))
    runs = len(plan["scale_fleet"]) + len(plan["scale_cvrp"])
    limit = float(plan["scale_limit"])
    setup = 5.0 if quick else 120.0
    out.append(("scale", runs * (limit + 1.0) + setup,
                f"{runs} runs x ({plan['scale_limit']} s + 1 s) + {setup:g} s generating the instances"))
    out.append(("report", 10.0, "allowance: tables and matplotlib plots"))
    return out


def fmt_duration(seconds: float) -> str:
    m, s = divmod(int(round(seconds)), 60)
    h, m = divmod(m, 60)
    return f"{h} h {m:02d} min" if h else (f"{m} min {s:02d} s" if m else f"{s} s")


def print_estimate(stages: list[tuple[str, float, str]], title: str) -> None:
    print(f"{title}: estimated duration per stage", file=sys.stderr)
    for name, seconds, how in stages:
        print(f"  {name:<10} {fmt_duration(seconds):>14}  {how}", file=sys.stderr)
    print(f"  {'total':<10} {fmt_duration(sum(s for _, s, _ in stages)):>14}", file=sys.stderr, flush=True)
