"""One solver run of benchmarks/suites/peers/peers, for it and for benchmarks/suites/scale/scale: the solver's command
(routesolve, FILO2 built outside the repository, or peers_worker.py in the peers' virtual
environment), reading its result, the checks every solution goes through (replayed here and
`routesolve validate`), and the peers' virtual environment (created from PyPI once). Standard
library only.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import peers_filo2  # noqa: E402
import peers_fleet  # noqa: E402
from peers_fleet import FleetProblem, fleet_routes_from_vroom, fleet_solution, replay_fleet  # noqa: E402
from peers_model import Problem, Unsupported, replay, routes_from_vroom, vroom_solution  # noqa: E402
from quality_sets import Instance, SetSpec  # noqa: E402

# The peers as installed and measured, and the plotting library benchmarks/report uses from the
# same environment; change together with docs/BENCHMARKS.md.
PEER_PACKAGES = {"pyvrp": "0.14.1", "ortools": "9.15.6755", "pyvroom": "1.15.2",
                 "matplotlib": "3.10.8"}
WORKER = HERE / "peers_worker.py"


@dataclass
class Run:
    spec: SetSpec
    inst: Instance
    solver: str
    version: str = ""
    settings: str = ""
    status: str = "ok"  # ok | infeasible | error | timeout | not supported
    vehicles: int | None = None
    cost: int | None = None  # internal units (distance)
    gap: float | None = None
    won: bool = False
    seconds: float = 0.0
    solve_seconds: float | None = None
    date: str = ""
    load: float = 0.0
    time_limit: float | None = None  # this run's own (--match-time), else --time-limit or the set's
    rss_mib: float | None = None  # peak resident set size of the solver's process
    cpu_seconds: float | None = None  # its user + system time
    command: list[str] = field(default_factory=list)
    validate: str = "-"
    recompute: str = "-"
    notes: list[str] = field(default_factory=list)

    @property
    def feasible(self) -> bool:
        return self.status == "ok"


def first_lines(text: str, count: int = 2) -> str:
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    return "; ".join(lines[:count]) + (f" (+{len(lines) - count} more)" if len(lines) > count else "")


def run_limit(run: Run, args) -> float:
    return run.time_limit or args.time_limit or run.spec.time_limit


def raw_path(run: Run, base: Path, args) -> Path:
    """Where the solver writes its result: FILO2 its .sol file into a folder of its own, the
    others routesolve's solution file or the worker's RESULT.json."""
    if run.solver == "filo2":
        return peers_filo2.solution_path(base, run.inst.path, args.seed)
    return base.parent / (base.name + ".raw.json")


def solve_command(run: Run, args, out: Path) -> list[str]:
    spec, limit = run.spec, run_limit(run, args)
    if run.solver == "filo2":
        return peers_filo2.command(args.filo2, run.inst.path, out.parent, args.seed)
    if run.solver == "routesolve" and isinstance(run.inst, peers_fleet.FleetInstance):
        # The scenario as its users solve it: coordinates and the road network; the time limit
        # covers loading the network, snapping and the matrices.
        return [str(args.routesolve), "solve", str(run.inst.scenario), "--network",
                str(run.inst.network), "-o", str(out), "--quiet", "--time-limit", f"{limit:g}",
                "--threads", "1", "--seed", str(args.seed)]
    if run.solver == "routesolve":
        return [str(args.routesolve), "solve", str(run.inst.path), "-o", str(out), "--quiet",
                "--format", spec.input_format, "--time-limit", f"{limit:g}", "--threads", "1",
                "--seed", str(args.seed), *spec.solve_args]
    return [str(args.python), str(WORKER), run.solver, str(run.inst.path),
            "--format", spec.input_format, "--time-limit", f"{limit:g}", "--seed", str(args.seed),
            "--out", str(out),
            *(["--truncate"] if "--truncate-distances" in spec.solve_args else []),
            *(["--hierarchical"] if spec.hierarchical else [])]



def read_result(run: Run, raw: Path, problem, base: Path, args, limit: float) -> Run:
    """A finished run's raw result (routesolve's solution file, the worker's RESULT.json) read
    and checked (check); problem() gives the instance's model."""
    try:
        p = problem()
        if run.solver == "filo2":
            run.version = args.filo2_version
            run.settings = json.dumps(peers_filo2.settings(args.seed), sort_keys=True)
            run.solve_seconds = peers_filo2.reported_seconds(raw.with_name(
                raw.name.removesuffix(".vrp.sol") + ".out"))
            routes, reported = peers_filo2.read_solution(raw.read_text(), len(p.dist))
            check(run, p, routes, reported, base, args)
            return run
        data = json.loads(raw.read_text())
        if run.solver == "routesolve":
            run.version = args.routesolve_version
            run.settings = " ".join(run.command[run.command.index("--time-limit"):])
            routes = fleet_routes_from_vroom(data) if isinstance(p, FleetProblem) \
                else routes_from_vroom(p, data)
            reported = data["summary"]["cost"]
            reported = round(reported * p.scale) if isinstance(reported, float) else reported
        else:
            run.version = data.get("version", "")
            run.settings = json.dumps(data.get("settings", {}), sort_keys=True, default=str)
            if data.get("message"):
                run.notes.append(data["message"])
            run.solve_seconds = data.get("solve_seconds")
            if run.solve_seconds is not None and run.solve_seconds > 1.1 * limit + 0.5:
                run.notes.append(f"solve took {run.solve_seconds:.1f} s for a {limit:g} s limit")
            if data["status"] != "ok":
                run.status = {"not supported": "not supported", "error": "error"}.get(
                    data["status"], "infeasible")
                return run
            routes, reported = data["routes"], data.get("reported_cost")
    except (ValueError, KeyError, TypeError, Unsupported) as e:
        run.status = "error"
        run.notes.append(f"unreadable result: {e}")
        return run
    check(run, p, routes, reported, base, args)
    return run



def check(run: Run, p: Problem, routes, reported, base: Path, args) -> None:
    """Replay here and `routesolve validate`; either failing makes the run infeasible."""
    fleet = isinstance(p, FleetProblem)
    rp = replay_fleet(p, routes) if fleet else replay(p, routes)
    run.vehicles, run.cost = rp.vehicles, rp.cost
    problems = rp.violations + ([f"{len(rp.unassigned)} task(s) unassigned"] if rp.unassigned else [])
    run.recompute = "ok" if not problems else "; ".join(problems[:3]) + (
        f" (+{len(problems) - 3} more)" if len(problems) > 3 else "")
    if reported is not None and round(reported) != rp.cost:
        run.notes.append(f"solver reported {reported / p.scale:g}, replay {rp.cost / p.scale:g}")
    sol = base.parent / (base.name + ".json")
    sol.write_text(json.dumps(fleet_solution(p, rp) if fleet else vroom_solution(p, rp)))
    vcmd = [str(args.routesolve), "validate", str(run.inst.path), str(sol), "--quiet",
            "--format", run.spec.input_format, *run.spec.validate_args]
    try:
        v = subprocess.run(vcmd, capture_output=True, text=True, timeout=300)
        run.validate = "ok" if v.returncode == 0 else \
            f"exit {v.returncode}: {first_lines(v.stdout + v.stderr)}"
    except subprocess.TimeoutExpired:
        run.validate = "timed out"
    if problems or run.validate != "ok":
        run.status = "infeasible"
        run.notes += [f"replay: {run.recompute}"] if problems else []
        run.notes += [f"validate: {run.validate}"] if run.validate != "ok" else []
    if run.inst.bks:
        run.gap = 100.0 * (rp.cost / p.scale - run.inst.bks) / run.inst.bks



# ---- the peers' environment -------------------------------------------------------------------


def ensure_venv(venv: Path) -> Path | None:
    """The peers' environment, created and filled once; None when PyPI cannot be used."""
    python = venv / "bin" / "python"
    marker = venv / "peers-packages.json"
    if python.exists() and marker.exists() and json.loads(marker.read_text()) == PEER_PACKAGES:
        return python
    print(f"peers: creating {venv} with {', '.join(f'{k}=={v}' for k, v in PEER_PACKAGES.items())} "
          "from PyPI (once)", flush=True)
    try:
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True,
                       capture_output=True, text=True)
        pip = subprocess.run([str(python), "-m", "pip", "install", "--disable-pip-version-check",
                              "--quiet", *(f"{k}=={v}" for k, v in PEER_PACKAGES.items())],
                             capture_output=True, text=True, timeout=1800)
    except (OSError, subprocess.SubprocessError) as e:
        print(f"peers: cannot create the virtual environment {venv}: {e}", file=sys.stderr)
        return None
    if pip.returncode != 0:
        print("peers: pip could not install the peers from PyPI (no network, or no wheel for "
              f"this platform):\n{pip.stderr.strip()[-1500:]}", file=sys.stderr)
        return None
    marker.write_text(json.dumps(PEER_PACKAGES))
    return python


def peer_settings(python: Path, solver: str, args) -> tuple[str, dict]:
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        subprocess.run([str(python), str(WORKER), solver, "-", "--format", "cvrplib",
                        "--time-limit", f"{args.time_limit or 0:g}", "--seed", str(args.seed),
                        "--out", f.name, "--settings-only"], capture_output=True, timeout=120)
        try:
            d = json.loads(Path(f.name).read_text())
        except ValueError:
            return "?", {}
    return d.get("version", "?"), d.get("settings", {})

