"""The migration scenarios in benchmarks/suites/peers/peers: fleet problems from `routesolve generate` on a road
network, their road matrices written into the problem (VROOM JSON with `location_index` and
`matrices`, the input pyvroom reads), the replay of a solution on those matrices and the VROOM
solution file `routesolve validate` checks. Standard library only: the harness, its test and the
solver worker in the peers' virtual environment import it.

The model covers what the generator writes: vehicles with a start and an end, a capacity
(several dimensions), a working window and breaks; jobs with a location, setup, service,
delivery and pickup amounts and time windows. Cost = travel duration (VROOM's default without a
cost matrix); a route's schedule is the earliest one, as routesolve's validator builds it.
"""
from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from quality_sets import Instance, SetSpec

SPEC = SetSpec("migration", "Migration scenarios (routesolve generate on road networks; cost = "
               "travel seconds, every stop served)", 5.0, "vroom", [], [], 0, False, "")
NETWORKS = {"liechtenstein": "roads/osm/liechtenstein-latest.osm.pbf", "city": None}
DEFAULT_SIZES = [(50, 5), (500, 50)]
OPEN = 2**31 - 1  # a window without an end


class ScenarioError(Exception):
    pass


@dataclass
class FleetInstance(Instance):
    scenario: Path | None = None  # `routesolve generate` output (coordinates)
    network: Path | None = None  # the .rsnet cache it is solved on
    stops: int = 0
    trucks: int = 0


@dataclass
class Vehicle:
    id: int
    start: int | None
    end: int | None
    capacity: list[int]
    window: tuple[int, int]
    breaks: list[tuple[int, list[tuple[int, int]], int]]  # (id, windows, service)


@dataclass
class Job:
    id: int
    location: int
    setup: int
    service: int
    delivery: list[int]
    pickup: list[int]
    windows: list[tuple[int, int]]


@dataclass
class FleetProblem:
    name: str
    durations: list[list[int]]
    distances: list[list[int]]
    vehicles: list[Vehicle]
    jobs: list[Job]
    kind: str = "fleet"
    scale: int = 1

    def job(self, job_id: int) -> Job | None:
        return self._jobs.get(job_id)

    def __post_init__(self):
        self._jobs = {j.id: j for j in self.jobs}
        self._vehicles = {v.id: v for v in self.vehicles}

    def vehicle(self, vehicle_id: int) -> Vehicle | None:
        return self._vehicles.get(vehicle_id)

    @property
    def dims(self) -> int:
        return len(self.vehicles[0].capacity) if self.vehicles else 1


# ---- the problem with its matrices -------------------------------------------------------------


def _windows(raw, default=((0, OPEN),)) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in raw] if raw else list(default)


def with_matrices(scenario: dict, durations, distances) -> dict:
    """The scenario with every location replaced by its index in the matrices (points() order)."""
    points = points_of(scenario)
    index = {tuple(pt): i for i, pt in enumerate(points)}
    out = json.loads(json.dumps(scenario))
    for v in out["vehicles"]:
        for key in ("start", "end"):
            if key in v:
                v[f"{key}_index"] = index[tuple(v.pop(key))]
    for j in out["jobs"]:
        j["location_index"] = index[tuple(j.pop("location"))]
    out["matrices"] = {"car": {"durations": durations, "distances": distances}}
    return out


def points_of(scenario: dict) -> list[list[float]]:
    """Distinct coordinates, vehicles' starts and ends first, then the jobs, in file order."""
    seen: dict[tuple, None] = {}
    for v in scenario["vehicles"]:
        for key in ("start", "end"):
            if key in v:
                seen.setdefault(tuple(v[key]), None)
    for j in scenario["jobs"]:
        seen.setdefault(tuple(j["location"]), None)
    return [list(pt) for pt in seen]


def read_fleet(path: Path) -> FleetProblem:
    d = json.loads(Path(path).read_text())
    if d.get("shipments"):
        raise ValueError(f"{path}: shipments are not modelled for the migration scenarios")
    m = d["matrices"]["car"]
    vehicles = [Vehicle(int(v["id"]), v.get("start_index"), v.get("end_index"),
                        [int(c) for c in v.get("capacity", [0])],
                        tuple(v.get("time_window", (0, OPEN))),
                        [(int(b["id"]), _windows(b.get("time_windows")), int(b.get("service", 0)))
                         for b in v.get("breaks", [])])
                for v in d["vehicles"]]
    dims = len(vehicles[0].capacity) if vehicles else 1
    jobs = [Job(int(j["id"]), int(j["location_index"]), int(j.get("setup", 0)),
                int(j.get("service", 0)), [int(a) for a in j.get("delivery", [0] * dims)],
                [int(a) for a in j.get("pickup", [0] * dims)], _windows(j.get("time_windows")))
            for j in d["jobs"]]
    return FleetProblem(Path(path).stem, m["durations"], m.get("distances", m["durations"]),
                        vehicles, jobs)


# ---- replay ------------------------------------------------------------------------------------


@dataclass
class FleetStep:
    kind: str  # job | break
    id: int
    arrival: int
    waiting: int
    setup: int
    service: int
    load: list[int]
    travel: int  # cumulative travel duration
    distance: int  # cumulative distance


@dataclass
class FleetRoute:
    vehicle: int
    start_load: list[int]
    steps: list[FleetStep] = field(default_factory=list)
    start: int = 0
    end_arrival: int = 0
    duration: int = 0  # travel seconds = cost
    distance: int = 0
    service: int = 0
    setup: int = 0
    waiting: int = 0


@dataclass
class FleetReplay:
    cost: int = 0
    distance: int = 0
    vehicles: int = 0
    routes: list[FleetRoute] = field(default_factory=list)
    unassigned: list[int] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)


def _earliest(windows, t: int) -> int | None:
    for a, b in sorted(windows):
        if t <= b:
            return max(t, a)
    return None


def replay_fleet(p: FleetProblem, routes: list[dict]) -> FleetReplay:
    """routes: [{"vehicle": id, "steps": [["job" | "break", id], ...]}] (no start or end steps)."""
    out = FleetReplay()
    seen: dict[int, int] = {}
    used: set[int] = set()
    for k, r in enumerate(routes):
        steps = [(str(t), int(i)) for t, i in r["steps"]]
        if not any(t == "job" for t, _ in steps):
            continue
        where = f"route {k + 1} (vehicle {r['vehicle']})"
        v = p.vehicle(int(r["vehicle"]))
        if v is None:
            out.violations.append(f"{where}: unknown vehicle")
            continue
        if v.id in used:
            out.violations.append(f"{where}: vehicle used twice")
        used.add(v.id)
        load = [0] * len(v.capacity)
        for t, i in steps:
            j = p.job(i) if t == "job" else None
            if j is not None:
                load = [a + b for a, b in zip(load, j.delivery)]
        fr = FleetRoute(v.id, list(load), start=v.window[0])
        time, loc, travel, dist = v.window[0], v.start, 0, 0
        next_break = 0
        for t, i in steps:
            if t == "break":
                ids = [b[0] for b in v.breaks]
                if i not in ids[next_break:]:
                    out.violations.append(f"{where}: break {i} unknown, repeated or out of order")
                    continue
                b = v.breaks[ids.index(i, next_break)]
                next_break = ids.index(i, next_break) + 1
                start = _earliest(b[1], time)
                if start is None:
                    out.violations.append(f"{where}: break {i} reached at {time}, after its windows")
                    start = time
                fr.steps.append(FleetStep("break", i, time, start - time, 0, b[2], list(load),
                                          travel, dist))
                fr.waiting += start - time
                fr.service += b[2]
                time = start + b[2]
                continue
            j = p.job(i)
            if t != "job" or j is None:
                out.violations.append(f"{where}: unknown step {t} {i}")
                continue
            if i in seen:
                out.violations.append(f"{where}: job {i} already served on route {seen[i] + 1}")
            seen[i] = k
            if loc is not None:
                travel += p.durations[loc][j.location]
                dist += p.distances[loc][j.location]
                arrival = time + p.durations[loc][j.location]
            else:
                arrival = time
            start = _earliest(j.windows, arrival)
            if start is None:
                out.violations.append(f"{where}: job {i} reached at {arrival}, after its windows")
                start = arrival
            setup = j.setup if loc != j.location else 0
            load = [a - d + q for a, d, q in zip(load, j.delivery, j.pickup)]
            if any(a > c for a, c in zip(load, v.capacity)):
                out.violations.append(f"{where}: load {load} after job {i} > capacity {v.capacity}")
            fr.steps.append(FleetStep("job", i, arrival, start - arrival, setup, j.service,
                                      list(load), travel, dist))
            fr.waiting += start - arrival
            fr.setup += setup
            fr.service += j.service
            time = start + setup + j.service
            loc = j.location
        if any(a > c for a, c in zip(fr.start_load, v.capacity)):
            out.violations.append(f"{where}: start load {fr.start_load} > capacity {v.capacity}")
        if next_break < len(v.breaks):
            out.violations.append(f"{where}: {len(v.breaks) - next_break} break(s) not taken")
        if v.end is not None and loc is not None:
            travel += p.durations[loc][v.end]
            dist += p.distances[loc][v.end]
            time += p.durations[loc][v.end]
        if time > v.window[1]:
            out.violations.append(f"{where}: ends at {time} > vehicle window end {v.window[1]}")
        fr.end_arrival, fr.duration, fr.distance = time, travel, dist
        out.cost += travel
        out.distance += dist
        out.routes.append(fr)
    out.vehicles = len(out.routes)
    out.unassigned = [j.id for j in p.jobs if j.id not in seen]
    return out


def fleet_solution(p: FleetProblem, rp: FleetReplay) -> dict:
    """The replayed solution in VROOM's output format (without location indices: the validator
    takes each step's location from the problem)."""
    routes = []
    dims = p.dims
    for fr in rp.routes:
        v = p.vehicle(fr.vehicle)
        steps = [{"type": "start", "setup": 0, "service": 0, "waiting_time": 0,
                  "load": fr.start_load, "arrival": fr.start, "duration": 0, "distance": 0}]
        delivery, pickup = [0] * dims, [0] * dims
        for s in fr.steps:
            step = {"type": s.kind, "id": s.id, "setup": s.setup, "service": s.service,
                    "waiting_time": s.waiting, "load": s.load, "arrival": s.arrival,
                    "duration": s.travel, "distance": s.distance}
            if s.kind == "job":
                j = p.job(s.id)
                delivery = [a + b for a, b in zip(delivery, j.delivery)]
                pickup = [a + b for a, b in zip(pickup, j.pickup)]
            steps.append(step)
        if v is not None and v.end is not None:
            steps.append({"type": "end", "setup": 0, "service": 0, "waiting_time": 0,
                          "load": fr.steps[-1].load if fr.steps else fr.start_load,
                          "arrival": fr.end_arrival, "duration": fr.duration,
                          "distance": fr.distance})
        routes.append({"vehicle": fr.vehicle, "cost": fr.duration, "setup": fr.setup,
                       "service": fr.service, "duration": fr.duration, "waiting_time": fr.waiting,
                       "priority": 0, "distance": fr.distance, "delivery": delivery,
                       "pickup": pickup, "steps": steps})
    total = lambda key: [sum(r[key][d] for r in routes) for d in range(dims)]  # noqa: E731
    return {"code": 0,
            "summary": {"cost": rp.cost, "routes": len(routes), "unassigned": len(rp.unassigned),
                        "setup": sum(r.setup for r in rp.routes),
                        "service": sum(r.service for r in rp.routes), "duration": rp.cost,
                        "waiting_time": sum(r.waiting for r in rp.routes), "priority": 0,
                        "distance": rp.distance, "delivery": total("delivery"),
                        "pickup": total("pickup")},
            "unassigned": [{"id": i, "type": "job"} for i in rp.unassigned], "routes": routes}


def fleet_routes_from_vroom(solution: dict) -> list[dict]:
    """Vehicle and job/break sequence of each route of a VROOM-format solution."""
    return [{"vehicle": int(r["vehicle"]),
             "steps": [[s["type"], int(s["id"])] for s in r.get("steps", [])
                       if s.get("type") in ("job", "break")]}
            for r in solution.get("routes", [])]


# ---- the scenarios -----------------------------------------------------------------------------


def _tool(routesolve: Path, *args: str) -> None:
    r = subprocess.run([str(routesolve), *args], capture_output=True, text=True, timeout=900)
    if r.returncode != 0:
        raise ScenarioError(f"routesolve {args[0]} failed (exit {r.returncode}): "
                            f"{(r.stderr or r.stdout).strip()[-400:]}")


def network_cache(routesolve: Path, datasets: Path, work: Path, name: str) -> Path | None:
    """The network's .rsnet cache, built once; None when its dataset is missing."""
    cache = work / f"{name}.rsnet"
    if NETWORKS[name] is None:
        if not cache.exists():
            _tool(routesolve, "generate", "--stops", "1", "--trucks", "1", "-o",
                  str(work / "city-probe.json"), "--write-network", str(cache), "-q")
        return cache
    source = datasets / NETWORKS[name]
    if not source.exists():
        return None
    if not cache.exists() or cache.stat().st_mtime < source.stat().st_mtime:
        _tool(routesolve, "network", "build", str(source), "-o", str(cache), "-q")
    return cache


def prepare(routesolve: Path, net: Path, work: Path, name: str, stops: int, trucks: int,
            seed: int) -> tuple[Path, Path]:
    """The scenario (`routesolve generate`) and its problem with road matrices (`routesolve
    matrix` on the scenario's distinct points); both written once."""
    stem = f"{name}-{stops}x{trucks}-s{seed}"
    scen, with_m = work / f"{stem}.json", work / f"{stem}.matrix.json"
    if not scen.exists():
        _tool(routesolve, "generate", "--network", str(net), "--stops", str(stops), "--trucks",
              str(trucks), "--depots", str(max(1, trucks // 50)), "--seed", str(seed), "-o",
              str(scen), "-q")
    if not with_m.exists() or with_m.stat().st_mtime < scen.stat().st_mtime:
        scenario = json.loads(scen.read_text())
        pts, mat = work / f"{stem}.points.json", work / f"{stem}.road-matrix.json"
        pts.write_text(json.dumps(points_of(scenario)))
        _tool(routesolve, "matrix", "--network", str(net), "--points", str(pts), "-o", str(mat),
              "-q")
        m = json.loads(mat.read_text())["matrices"]["car"]
        with_m.write_text(json.dumps(with_matrices(scenario, m["durations"], m["distances"])))
    return scen, with_m


def plan(routesolve: Path | None, datasets: Path, work: Path, sizes, networks, seed: int,
         dry_run: bool) -> tuple[list[FleetInstance], list[str]]:
    """The migration instances (network x size) and the networks skipped for a missing dataset."""
    work.mkdir(parents=True, exist_ok=True)
    out, missing = [], []
    for name in networks:
        if dry_run:
            net = work / f"{name}.rsnet"
        else:
            net = network_cache(routesolve, datasets, work, name)
            if net is None:
                missing.append(f"{name} ({datasets / NETWORKS[name]})")
                continue
        for stops, trucks in sizes:
            iname = f"{name}-{stops}x{trucks}"
            if dry_run:
                stem = work / f"{name}-{stops}x{trucks}-s{seed}"
                scen, with_m = Path(f"{stem}.json"), Path(f"{stem}.matrix.json")
            else:
                scen, with_m = prepare(routesolve, net, work, name, stops, trucks, seed)
            out.append(FleetInstance("migration", iname, with_m, n=stops, fleet=trucks,
                                     scenario=scen, network=net, stops=stops, trucks=trucks))
    return out, missing


def instances(args) -> list[FleetInstance]:
    """benchmarks/suites/peers/peers' migration set from its arguments (--migration-sizes, --migration-networks,
    --migration-dir, --seed, --instances, --limit); problems are reported on stderr."""
    try:
        insts, missing = plan(args.routesolve, args.datasets, args.migration_dir.resolve(),
                              args.migration_sizes, args.migration_networks, args.seed, args.dry_run)
    except (ScenarioError, OSError, subprocess.SubprocessError) as e:
        print(f"peers: migration: {e}", file=sys.stderr)
        return []
    if missing:
        print(f"peers: migration: dataset missing, skipped: {', '.join(missing)}", file=sys.stderr)
    if args.instances:
        insts = [i for i in insts if i.name.lower() in args.instances]
    return insts[:args.limit] if args.limit else insts
