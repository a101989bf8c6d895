"""Instances, solution checks and VROOM solution files for benchmarks/suites/peers/peers.

Reads CVRPLIB, Solomon / Gehring & Homberger and Li & Lim files into one integer model with the
arc values routesolve uses (nint Euclidean for CVRPLIB; x10 and truncated with
--truncate-distances; x1000 and rounded otherwise), replays a solution given as node sequences
(cost, loads, earliest-time schedule, windows, pairs, fleet) and writes it as the VROOM solution
JSON that `routesolve validate` reads. Standard library only: the harness and its test import
it, and so does the solver worker inside the peers' virtual environment.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

INF_TIME = 2**31 - 1  # an open time window end (fits every peer's integer types)


class Unsupported(Exception):
    """The file uses something the peer comparison does not model."""


@dataclass
class Problem:
    name: str
    kind: str  # "cvrp" | "vrptw" | "pdptw"
    scale: int  # internal units per output unit (1, 10 or 1000)
    coords: list[tuple[float, float]]
    dist: list[list[int]]  # travel time = distance = cost, internal units (or PlanarArcs)
    depot: int
    capacity: int
    fleet: int  # vehicles available (the file's; CVRPLIB without VEHICLES: customers)
    demand: list[int]  # per node; a Li & Lim delivery has the negative of its pickup's
    service: list[int]
    tw: list[tuple[int, int]]
    ids: list[int]  # node -> task id in routesolve's solution files
    partner: dict[int, int] = field(default_factory=dict)  # pickup <-> delivery node (pdptw)

    @property
    def customers(self) -> list[int]:
        return [i for i in range(len(self.dist)) if i != self.depot]

    def is_pickup(self, node: int) -> bool:
        return self.kind == "pdptw" and self.demand[node] >= 0

    def task_type(self, node: int) -> str:
        if self.kind != "pdptw":
            return "job"
        return "pickup" if self.is_pickup(node) else "delivery"

    def pairs(self) -> list[tuple[int, int]]:
        """(pickup, delivery) nodes of every shipment, in pickup order."""
        return [(p, d) for p, d in sorted(self.partner.items()) if self.is_pickup(p)]

    def upper_bound(self) -> int:
        """More than the distance of any solution: the sum of each node's longest arc."""
        return sum(max(row) for row in self.dist) + 1


# ---- arc values, as io/src/text.cpp computes them --------------------------------------------


def _int_square(dx: float, dy: float, factor: int) -> int | None:
    if float(dx).is_integer() and float(dy).is_integer():
        return (int(dx) ** 2 + int(dy) ** 2) * factor * factor
    return None


def nint_distance(dx: float, dy: float, factor: int = 1) -> int:
    n = _int_square(dx, dy, factor)
    if n is not None:
        r = math.isqrt(n)
        return r + 1 if n - r * r > r else r
    return int(math.floor(math.hypot(dx, dy) * factor + 0.5))


def truncated_distance(dx: float, dy: float, factor: int = 10) -> int:
    n = _int_square(dx, dy, factor)
    if n is not None:
        return math.isqrt(n)
    return int(math.floor(math.hypot(dx, dy) * factor + 1e-7))


def planar_matrix(coords: list[tuple[float, float]], arc) -> list[list[int]]:
    n = len(coords)
    m = [[0] * n for _ in range(n)]
    for i in range(n):
        xi, yi = coords[i]
        row = m[i]
        for j in range(i + 1, n):
            row[j] = m[j][i] = arc(xi - coords[j][0], yi - coords[j][1])
    return m


class PlanarArcs:
    """planar_matrix's values, each computed when read (dist[i][j]): for checks that read a few
    arcs per node, without the n x n lists (100 million Python ints at 10,000 customers)."""

    def __init__(self, coords: list[tuple[float, float]], arc):
        self.coords, self.arc = coords, arc

    def __len__(self) -> int:
        return len(self.coords)

    def __getitem__(self, i: int) -> "_ArcRow":
        if not 0 <= i < len(self.coords):
            raise IndexError(i)
        return _ArcRow(self, i)

    def value(self, i: int, j: int) -> int:
        a, b = min(i, j), max(i, j)  # as planar_matrix: from the lower index to the higher
        if a == b:
            return 0
        return self.arc(self.coords[a][0] - self.coords[b][0], self.coords[a][1] - self.coords[b][1])


class _ArcRow:
    def __init__(self, arcs: PlanarArcs, i: int):
        self.arcs, self.i = arcs, i

    def __len__(self) -> int:
        return len(self.arcs)

    def __getitem__(self, j: int) -> int:
        if not 0 <= j < len(self.arcs):
            raise IndexError(j)
        return self.arcs.value(self.i, j)


def arc_values(coords: list[tuple[float, float]], arc, lazy: bool):
    return PlanarArcs(coords, arc) if lazy else planar_matrix(coords, arc)


# ---- readers ---------------------------------------------------------------------------------


def _number(token: str) -> float:
    v = float(token)
    return int(v) if v.is_integer() else v


def read_cvrplib(path: Path, lazy_arcs: bool = False) -> Problem:
    header: dict[str, str] = {}
    coords: dict[int, tuple[float, float]] = {}
    demands: dict[int, int] = {}
    depots: list[int] = []
    section = None
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line:
            continue
        key, sep, value = line.partition(":")
        word = line.split()[0].upper()
        if word.endswith("_SECTION"):
            section = word
            continue
        if word == "EOF":
            break
        if section is None and sep:
            header[key.strip().upper()] = value.strip()
            continue
        t = line.split()
        if section == "NODE_COORD_SECTION":
            coords[int(t[0])] = (_number(t[1]), _number(t[2]))
        elif section == "DEMAND_SECTION":
            demands[int(t[0])] = int(t[1])
        elif section == "DEPOT_SECTION":
            if int(t[0]) == -1:
                section = None
            else:
                depots.append(int(t[0]))
    if header.get("EDGE_WEIGHT_TYPE", "").upper() != "EUC_2D":
        raise Unsupported(f"{path.name}: EDGE_WEIGHT_TYPE {header.get('EDGE_WEIGHT_TYPE')} (EUC_2D only)")
    for key in ("DISTANCE", "SERVICE_TIME"):
        if key in header:
            raise Unsupported(f"{path.name}: {key} is not modelled")
    n = int(header["DIMENSION"])
    if depots != [1]:
        raise Unsupported(f"{path.name}: depot {depots} (node 1 only)")
    pts = [coords[i] for i in range(1, n + 1)]
    fleet = int(header["VEHICLES"]) if "VEHICLES" in header else max(1, n - 1)
    return Problem(name=header.get("NAME", path.stem), kind="cvrp", scale=1, coords=pts,
                   dist=arc_values(pts, nint_distance, lazy_arcs), depot=0,
                   capacity=int(header["CAPACITY"]), fleet=fleet,
                   demand=[demands[i] for i in range(1, n + 1)], service=[0] * n,
                   tw=[(0, INF_TIME)] * n, ids=list(range(1, n + 1)))


def _planar(truncate: bool):
    if truncate:
        return 10, (lambda dx, dy: truncated_distance(dx, dy, 10))
    return 1000, (lambda dx, dy: nint_distance(dx, dy, 1000))


def read_solomon(path: Path, truncate: bool, lazy_arcs: bool = False) -> Problem:
    lines = path.read_text().splitlines()
    factor, arc = _planar(truncate)
    fleet = capacity = None
    rows: list[list[float]] = []
    for i, line in enumerate(lines):
        up = line.strip().upper()
        if up.startswith("NUMBER") and fleet is None:
            for nxt in lines[i + 1:]:
                if nxt.strip():
                    fleet, capacity = (int(v) for v in nxt.split()[:2])
                    break
        t = line.split()
        if len(t) == 7 and all(re.fullmatch(r"-?\d+(\.\d+)?", v) for v in t):
            rows.append([_number(v) for v in t])
    if fleet is None or not rows or rows[0][0] != 0:
        raise ValueError(f"{path}: not a Solomon file")
    pts = [(r[1], r[2]) for r in rows]
    sc = lambda v: int(round(v * factor))  # noqa: E731
    return Problem(name=lines[0].strip() or path.stem, kind="vrptw", scale=factor, coords=pts,
                   dist=arc_values(pts, arc, lazy_arcs), depot=0, capacity=capacity, fleet=fleet,
                   demand=[int(r[3]) for r in rows], service=[sc(r[6]) for r in rows],
                   tw=[(sc(r[4]), sc(r[5])) for r in rows], ids=list(range(len(rows))))


def read_lilim(path: Path, truncate: bool, lazy_arcs: bool = False) -> Problem:
    lines = [ln.split() for ln in path.read_text().splitlines() if ln.strip()]
    fleet, capacity = int(lines[0][0]), int(lines[0][1])
    rows = [[_number(v) for v in t] for t in lines[1:]]
    factor, arc = _planar(truncate)
    sc = lambda v: int(round(v * factor))  # noqa: E731
    partner: dict[int, int] = {}
    for i, r in enumerate(rows[1:], start=1):
        partner[i] = int(r[8]) if r[7] == 0 else int(r[7])
    pts = [(r[1], r[2]) for r in rows]
    return Problem(name=path.stem, kind="pdptw", scale=factor, coords=pts,
                   dist=arc_values(pts, arc, lazy_arcs), depot=0, capacity=capacity, fleet=fleet,
                   demand=[int(r[3]) for r in rows], service=[sc(r[6]) for r in rows],
                   tw=[(sc(r[4]), sc(r[5])) for r in rows], ids=list(range(len(rows))),
                   partner=partner)


def read_problem(path: Path, input_format: str, truncate: bool, lazy_arcs: bool = False) -> Problem:
    """The instance's model; lazy_arcs: dist is a PlanarArcs (each arc computed when read)."""
    if input_format == "cvrplib":
        return read_cvrplib(path, lazy_arcs)
    if input_format == "solomon":
        return read_solomon(path, truncate, lazy_arcs)
    if input_format == "lilim":
        return read_lilim(path, truncate, lazy_arcs)
    raise Unsupported(f"format {input_format}")


def bounded_fleet(p: Problem) -> int:
    """Vehicles offered to solvers that model each vehicle (OR-Tools, VROOM) on CVRPLIB files
    without a fleet size: twice the bin-packing bound plus two, at most the file's fleet."""
    if p.kind != "cvrp":
        return p.fleet
    need = -(-sum(p.demand) // p.capacity)
    return min(p.fleet, 2 * need + 2)


# ---- replay ----------------------------------------------------------------------------------


@dataclass
class Stop:
    node: int
    arrival: int
    waiting: int
    load: int  # after the stop
    travel: int  # cumulative travel before leaving the stop (= distance)


@dataclass
class RouteReplay:
    nodes: list[int]
    distance: int = 0
    service: int = 0
    waiting: int = 0
    start_load: int = 0
    end_arrival: int = 0
    stops: list[Stop] = field(default_factory=list)


@dataclass
class Replay:
    cost: int = 0  # distance, internal units
    vehicles: int = 0
    routes: list[RouteReplay] = field(default_factory=list)
    unassigned: list[int] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)

    @property
    def feasible(self) -> bool:
        return not self.violations and not self.unassigned


def replay(p: Problem, routes: list[list[int]]) -> Replay:
    """Replays node sequences (depot not included) with the earliest-time schedule."""
    out = Replay()
    routes = [r for r in routes if r]
    seen: dict[int, int] = {}
    for k, nodes in enumerate(routes):
        rr = RouteReplay(list(nodes))
        where = f"route {k + 1}"
        load = sum(p.demand[n] for n in nodes) if p.kind != "pdptw" else 0
        rr.start_load = load
        if load > p.capacity:
            out.violations.append(f"{where}: load {load} > capacity {p.capacity}")
        prev, time = p.depot, p.tw[p.depot][0]
        for n in nodes:
            if not (0 <= n < len(p.dist)) or n == p.depot:
                out.violations.append(f"{where}: node {n} is not a customer")
                continue
            if n in seen:
                out.violations.append(f"{where}: node {n} already served on route {seen[n] + 1}")
            seen[n] = k
            rr.distance += p.dist[prev][n]
            arrival = time + p.dist[prev][n]
            start = max(arrival, p.tw[n][0])
            if start > p.tw[n][1]:
                out.violations.append(f"{where}: node {n} starts at {start} > due {p.tw[n][1]}")
            if p.kind == "pdptw":
                load += p.demand[n]
                q = p.partner[n]
                if not p.is_pickup(n) and seen.get(q) != k:
                    out.violations.append(f"{where}: delivery {n}: its pickup {q} is not earlier "
                                          "on the same route")
                if p.is_pickup(n) and q not in nodes:
                    out.violations.append(f"{where}: pickup {n}: its delivery {q} is not on the route")
            else:
                load -= p.demand[n]
            if load > p.capacity or load < 0:
                out.violations.append(f"{where}: load {load} after node {n} outside 0..{p.capacity}")
            rr.stops.append(Stop(n, arrival, start - arrival, load, rr.distance))
            rr.service += p.service[n]
            rr.waiting += start - arrival
            time = start + p.service[n]
            prev = n
        rr.distance += p.dist[prev][p.depot]
        rr.end_arrival = time + p.dist[prev][p.depot]
        if rr.end_arrival > p.tw[p.depot][1]:
            out.violations.append(f"{where}: back at {rr.end_arrival} > depot due {p.tw[p.depot][1]}")
        out.cost += rr.distance
        out.routes.append(rr)
    out.vehicles = len(out.routes)
    if out.vehicles > p.fleet:
        out.violations.append(f"{out.vehicles} routes > fleet of {p.fleet}")
    out.unassigned = [n for n in p.customers if n not in seen]
    return out


# ---- VROOM solution JSON ---------------------------------------------------------------------


def _figure(value: int, scale: int):
    return value if scale == 1 else round(value / scale, 3)


def vroom_solution(p: Problem, rp: Replay) -> dict:
    """The replayed solution in VROOM's output format, with routesolve's ids and units."""
    f = lambda v: _figure(v, p.scale)  # noqa: E731
    routes = []
    for k, rr in enumerate(rp.routes):
        start = p.tw[p.depot][0]
        steps = [{"type": "start", "location_index": p.depot, "setup": 0, "service": 0,
                  "waiting_time": 0, "load": [rr.start_load], "arrival": f(start), "duration": 0,
                  "distance": 0}]
        delivery = pickup = 0
        for s in rr.stops:
            typ = p.task_type(s.node)
            if typ == "pickup":
                pickup += p.demand[s.node]
            else:
                delivery += abs(p.demand[s.node])
            steps.append({"type": typ, "id": p.ids[s.node], "location_index": s.node, "setup": 0,
                          "service": f(p.service[s.node]), "waiting_time": f(s.waiting),
                          "load": [max(0, s.load)], "arrival": f(s.arrival), "duration": f(s.travel),
                          "distance": f(s.travel)})
        # A negative load (a delivery before its pickup) is not a valid figure: 0 is written and
        # the validator reports the order.
        end_load = max(0, rr.stops[-1].load) if rr.stops else rr.start_load
        steps.append({"type": "end", "location_index": p.depot, "setup": 0, "service": 0,
                      "waiting_time": 0, "load": [end_load], "arrival": f(rr.end_arrival),
                      "duration": f(rr.distance), "distance": f(rr.distance)})
        routes.append({"vehicle": k + 1, "cost": f(rr.distance), "setup": 0,
                       "service": f(rr.service), "duration": f(rr.distance),
                       "waiting_time": f(rr.waiting), "priority": 0, "distance": f(rr.distance),
                       "delivery": [delivery], "pickup": [pickup], "steps": steps})
    unassigned = [{"id": p.ids[n], "type": p.task_type(n)} for n in rp.unassigned]
    total = lambda key: sum(r[key][0] for r in routes)  # noqa: E731
    return {"code": 0,
            "summary": {"cost": f(rp.cost), "routes": len(routes), "unassigned": len(unassigned),
                        "setup": 0, "service": f(sum(r.service for r in rp.routes)),
                        "duration": f(rp.cost),
                        "waiting_time": f(sum(r.waiting for r in rp.routes)), "priority": 0,
                        "distance": f(rp.cost), "delivery": [total("delivery")],
                        "pickup": [total("pickup")]},
            "unassigned": unassigned, "routes": routes}


def routes_from_vroom(p: Problem, solution: dict) -> list[list[int]]:
    """Node sequences of a VROOM-format solution written with routesolve's ids."""
    by_id = {(p.task_type(n), p.ids[n]): n for n in p.customers}
    out = []
    for route in solution.get("routes", []):
        nodes = []
        for step in route.get("steps", []):
            if step.get("type") in ("job", "pickup", "delivery"):
                key = (step["type"], int(step["id"]))
                if key not in by_id:
                    raise ValueError(f"unknown {key[0]} id {key[1]}")
                nodes.append(by_id[key])
        out.append(nodes)
    return out
