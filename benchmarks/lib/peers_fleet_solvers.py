"""PyVRP and OR-Tools on the migration scenarios, for benchmarks/lib/peers_worker.py: the problem with
its road matrices (benchmarks/lib/peers_fleet.py) as each peer can model it, and the peer's routes
back as [{vehicle, steps: [[job|break, id], ...]}], the form the harness replays and validates.

What each peer models of a scenario (the generator writes single-window jobs with deliveries,
trucks with a start and an end depot, a shift and breaks with one window):
- Cost: travel seconds (the durations matrix) for both, as VROOM's default and routesolve's.
- PyVRP 0.14 has no driver breaks. Each vehicle's shift_duration is its shift less its breaks'
  durations (room for them), the solve ignores the breaks, and place_breaks() inserts each break
  afterwards at the first position of the route where the replayed schedule stays feasible; a
  break with no such position stays out and the route fails the checks (infeasible).
- OR-Tools models the breaks (break intervals on the time dimension, inside the route's span,
  never overlapping a visit); each break is written after the jobs started before it, and if
  that order does not replay feasibly (OR-Tools lets a break interrupt travel, VROOM's format
  does not), place_breaks() chooses the positions instead. Mixed pickups and deliveries are not
  modelled (one cumulative load dimension per capacity dimension holds deliveries only).
- Both: a job's setup is added to its service (never shorter than the real schedule); jobs with
  several windows and routes without a start or an end are reported as not supported by PyVRP;
  OR-Tools takes several windows (the gaps removed from the time variable).

place_breaks() is standard library only; the solver functions import their peer when called.
"""
from __future__ import annotations

from dataclasses import replace

from peers_fleet import FleetProblem, replay_fleet
from peers_model import Unsupported


def _check_common(p: FleetProblem, solver: str) -> None:
    for v in p.vehicles:
        if v.start is None or v.end is None:
            raise Unsupported(f"{solver}: vehicle {v.id} has no start or no end (open routes)")


def _depots(p: FleetProblem) -> list[int]:
    """Distinct matrix indices of the vehicles' starts and ends, in vehicle order."""
    return list(dict.fromkeys(i for v in p.vehicles for i in (v.start, v.end)))


# ---- breaks after the solve ----------------------------------------------------------------------


def _route_ok(p: FleetProblem, vehicle, steps: list) -> bool:
    """The route replays without violations when the vehicle has only the breaks in steps."""
    ids = {i for t, i in steps if t == "break"}
    v = replace(vehicle, breaks=[b for b in vehicle.breaks if b[0] in ids])
    q = FleetProblem(p.name, p.durations, p.distances,
                     [v if w.id == v.id else w for w in p.vehicles], p.jobs)
    return not replay_fleet(q, [{"vehicle": v.id, "steps": steps}]).violations


def place_breaks(p: FleetProblem, route: dict) -> tuple[dict, list[int]]:
    """route with the vehicle's breaks inserted, in order, each at the first position (after the
    previous break) that keeps the replayed route feasible; also the ids of the breaks that fit
    nowhere (left out, so the route fails the checks)."""
    v = p.vehicle(int(route["vehicle"]))
    steps = [s for s in route["steps"] if s[0] != "break"]
    if v is None or not any(t == "job" for t, _ in steps):
        return {"vehicle": route["vehicle"], "steps": steps}, []
    missing, lo = [], 0
    for bid, _, _ in v.breaks:
        for pos in range(lo, len(steps) + 1):
            trial = steps[:pos] + [["break", bid]] + steps[pos:]
            if _route_ok(p, v, trial):
                steps, lo = trial, pos + 1
                break
        else:
            missing.append(bid)
    return {"vehicle": v.id, "steps": steps}, missing


def _note(missing: list[int], fixed: int, how: str) -> str:
    out = [how] if how else []
    if fixed:
        out.append(f"break positions re-chosen on {fixed} route(s)")
    if missing:
        out.append(f"{len(missing)} break(s) fit nowhere on the routes")
    return "; ".join(out)


# ---- PyVRP ---------------------------------------------------------------------------------------


def run_pyvrp_fleet(p: FleetProblem, a) -> dict:
    _check_common(p, "PyVRP")
    for j in p.jobs:
        if len(j.windows) > 1:
            raise Unsupported(f"PyVRP: job {j.id} has {len(j.windows)} time windows (one only)")
    import time

    import numpy as np
    import pyvrp
    from pyvrp.stop import MaxRuntime
    depots = _depots(p)
    depot_of = {loc: k for k, loc in enumerate(depots)}
    # Vehicles alike in everything but their ids share a type (one group, no symmetric search).
    groups: dict[tuple, list] = {}
    for v in p.vehicles:
        key = (tuple(v.capacity), v.start, v.end, tuple(v.window),
               tuple((tuple(map(tuple, ws)), s) for _, ws, s in v.breaks))
        groups.setdefault(key, []).append(v)
    types = []
    for (cap, start, end, window, brk), vs in groups.items():
        room = window[1] - window[0] - sum(s for _, s in brk)
        types.append(pyvrp.VehicleType(num_available=len(vs), capacity=list(cap),
                                       start_depot=depot_of[start], end_depot=depot_of[end],
                                       tw_early=window[0], tw_late=window[1],
                                       shift_duration=max(0, room)))
    clients = [pyvrp.Client(location=j.location, delivery=list(j.delivery), pickup=list(j.pickup),
                            service_duration=j.service + j.setup, tw_early=j.windows[0][0],
                            tw_late=j.windows[0][1]) for j in p.jobs]
    m = np.asarray(p.durations, dtype=np.int64)
    data = pyvrp.ProblemData(locations=[pyvrp.Location(x=0, y=0) for _ in range(len(m))],
                             clients=clients, depots=[pyvrp.Depot(location=d) for d in depots],
                             vehicle_types=types, distance_matrices=[m], duration_matrices=[m])
    t0 = time.monotonic()
    res = pyvrp.solve(data, stop=MaxRuntime(a.time_limit), seed=a.seed, display=False)
    seconds = time.monotonic() - t0
    best = res.best
    free = [list(vs) for vs in groups.values()]
    routes, missing = [], []
    for route in best.routes():
        v = free[route.vehicle_type()].pop(0)
        jobs = [["job", p.jobs[act.idx].id] for act in route if act.is_client()]
        placed, left = place_breaks(p, {"vehicle": v.id, "steps": jobs})
        routes.append(placed)
        missing += left
    feasible = best.is_feasible()
    return {"routes": routes, "reported_cost": best.distance(), "solve_seconds": seconds,
            "status": "ok" if feasible else "no solution",
            "message": _note(missing, 0, "breaks not modelled by PyVRP: placed after the solve")
            if feasible else "PyVRP's best solution is infeasible"}


# ---- OR-Tools ------------------------------------------------------------------------------------


def run_ortools_fleet(p: FleetProblem, a, first_solution: str, metaheuristic: str) -> dict:
    _check_common(p, "OR-Tools")
    if any(any(j.pickup) for j in p.jobs):
        raise Unsupported("OR-Tools: jobs with pickups next to deliveries are not modelled")
    for v in p.vehicles:
        for bid, ws, _ in v.breaks:
            if len(ws) != 1:
                raise Unsupported(f"OR-Tools: break {bid} has {len(ws)} windows (one only)")
    import time

    from ortools.constraint_solver import pywrapcp, routing_enums_pb2
    depots = _depots(p)
    loc = depots + [j.location for j in p.jobs]  # node -> matrix index
    nd = len(depots)
    service = [0] * nd + [j.service + j.setup for j in p.jobs]
    n = len(loc)
    node_of = {d: k for k, d in enumerate(depots)}
    manager = pywrapcp.RoutingIndexManager(n, len(p.vehicles),
                                           [node_of[v.start] for v in p.vehicles],
                                           [node_of[v.end] for v in p.vehicles])
    routing = pywrapcp.RoutingModel(manager)
    travel = [[p.durations[loc[i]][loc[k]] for k in range(n)] for i in range(n)]
    routing.SetArcCostEvaluatorOfAllVehicles(routing.RegisterTransitMatrix(travel))
    for d in range(p.dims):
        cb = routing.RegisterUnaryTransitVector([0] * nd + [j.delivery[d] for j in p.jobs])
        routing.AddDimensionWithVehicleCapacity(cb, 0, [v.capacity[d] for v in p.vehicles], True,
                                                f"Load{d}")
    horizon = max([v.window[1] for v in p.vehicles] + [w[1] for j in p.jobs for w in j.windows])
    timecb = routing.RegisterTransitMatrix([[service[i] + travel[i][k] for k in range(n)]
                                            for i in range(n)])
    routing.AddDimension(timecb, horizon, horizon, False, "Time")
    tdim = routing.GetDimensionOrDie("Time")
    for k, j in enumerate(p.jobs):
        var = tdim.CumulVar(manager.NodeToIndex(nd + k))
        ws = sorted(j.windows)
        var.SetRange(ws[0][0], ws[-1][1])
        for (_, b0), (a1, _) in zip(ws, ws[1:]):
            if a1 > b0 + 1:
                var.RemoveInterval(b0 + 1, a1 - 1)
    solver = routing.solver()
    visit = [service[manager.IndexToNode(i)] for i in range(routing.Size())]
    breaks = {}
    for vi, v in enumerate(p.vehicles):
        start, end = tdim.CumulVar(routing.Start(vi)), tdim.CumulVar(routing.End(vi))
        start.SetRange(*v.window)
        end.SetRange(*v.window)
        intervals = []
        for bid, ws, dur in v.breaks:
            iv = solver.FixedDurationIntervalVar(ws[0][0], ws[0][1], dur, False, f"b{vi}_{bid}")
            solver.Add(iv.StartExpr() >= start)
            solver.Add(iv.EndExpr() <= end)
            intervals.append(iv)
            breaks[iv.Name()] = (vi, bid)
        if intervals:
            tdim.SetBreakIntervalsOfVehicle(intervals, vi, visit)
    params = pywrapcp.DefaultRoutingSearchParameters()
    params.first_solution_strategy = getattr(routing_enums_pb2.FirstSolutionStrategy, first_solution)
    params.local_search_metaheuristic = getattr(routing_enums_pb2.LocalSearchMetaheuristic,
                                                metaheuristic)
    params.time_limit.FromMilliseconds(int(a.time_limit * 1000))
    t0 = time.monotonic()
    sol = routing.SolveWithParameters(params)
    seconds = time.monotonic() - t0
    if sol is None:
        return {"routes": [], "status": "no solution", "solve_seconds": seconds,
                "message": f"OR-Tools found no solution (status {routing.status()})"}
    starts: dict[int, list[tuple[int, int]]] = {}
    ivs = sol.IntervalVarContainer()
    for k in range(ivs.Size()):
        e = ivs.Element(k)
        if e.Var().Name() in breaks and e.PerformedValue():
            vi, bid = breaks[e.Var().Name()]
            starts.setdefault(vi, []).append((e.StartValue(), bid))
    routes, missing, fixed = [], [], 0
    for vi, v in enumerate(p.vehicles):
        i = sol.Value(routing.NextVar(routing.Start(vi)))
        visits = []  # (service start, job id)
        while not routing.IsEnd(i):
            visits.append((sol.Value(tdim.CumulVar(i)), p.jobs[manager.IndexToNode(i) - nd].id))
            i = sol.Value(routing.NextVar(i))
        if not visits:
            continue
        # Each break after the jobs that started before it.
        events = [(t, 0, ["job", jid]) for t, jid in visits] + \
            [(t, 1, ["break", bid]) for t, bid in starts.get(vi, [])]
        steps = [s for _, _, s in sorted(events, key=lambda e: (e[0], e[1]))]
        route = {"vehicle": v.id, "steps": steps}
        if not _route_ok(p, v, steps) or len(starts.get(vi, [])) < len(v.breaks):
            route, left = place_breaks(p, route)
            fixed += 1
            missing += left
        routes.append(route)
    return {"routes": routes, "reported_cost": sol.ObjectiveValue(), "solve_seconds": seconds,
            "status": "ok", "message": _note(missing, fixed, "")}
