"""One peer solver on one instance, for benchmarks/suites/peers/peers. Runs with the peers' virtual
environment's Python (PyVRP, OR-Tools, pyvroom); everything else is benchmarks/lib/peers_model.py.

    peers_worker.py SOLVER FILE --format F [--truncate] [--hierarchical] --time-limit S
                    --seed N --out RESULT.json

Writes RESULT.json: {solver, version, settings, status (ok | no solution | not supported),
message, routes (node sequences, depot excluded; for --format vroom, the migration scenarios:
[{vehicle, steps: [[job|break, id], ...]}]), reported_cost, solve_seconds}. One thread.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import timedelta
from importlib import metadata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peers_fleet import FleetProblem, read_fleet  # noqa: E402
from peers_fleet_solvers import run_ortools_fleet, run_pyvrp_fleet  # noqa: E402
from peers_model import Problem, Unsupported, bounded_fleet, read_problem  # noqa: E402


class NotSupported(Exception):
    pass


def version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "?"


# ---- PyVRP -------------------------------------------------------------------------------------


def pyvrp_settings(seed: int, limit: float) -> dict:
    import pyvrp
    params = pyvrp.SolveParams()
    ils = params.ils
    pen = params.penalty
    return {"seed": seed, "stop": f"MaxRuntime({limit:g})", "algorithm": "pyvrp.solve (ILS)",
            "ils": {k: getattr(ils, k) for k in ("num_iters_no_improvement", "history_length",
                                                   "exhaustive_on_best")},
            "penalty": {k: getattr(pen, k) for k in ("solutions_between_updates", "penalty_increase",
                                                       "penalty_decrease", "target_feasible",
                                                       "feas_tolerance", "min_penalty",
                                                       "max_penalty")},
            "neighbourhood": {k: getattr(params.neighbourhood, k)
                              for k in dir(params.neighbourhood) if not k.startswith("_")},
            "perturbation": {k: getattr(params.perturbation, k)
                             for k in dir(params.perturbation) if not k.startswith("_")},
            "operators": [op.__name__ for op in params.operators]}


def pyvrp_data(p: Problem, path: Path, hierarchical: bool):
    import numpy as np
    import pyvrp
    if p.kind == "cvrp":
        # PyVRP's own VRPLIB reader; the arcs must be routesolve's.
        data = pyvrp.read(path, round_func="round")
        if not np.array_equal(data.distance_matrix(0), np.asarray(p.dist)):
            raise RuntimeError("pyvrp.read gives other arc values than routesolve")
        return data
    if p.kind == "pdptw" and not hasattr(pyvrp, "Shipment"):
        raise NotSupported(f"PyVRP {version('pyvrp')} has no pickup-and-delivery shipments")
    d0 = p.depot
    locations = [pyvrp.Location(x=x, y=y) for x, y in p.coords]
    depots = [pyvrp.Depot(location=d0, tw_early=p.tw[d0][0], tw_late=p.tw[d0][1])]
    clients, shipments = [], []
    for n in p.customers:
        if p.kind == "vrptw":
            clients.append(pyvrp.Client(location=n, delivery=[p.demand[n]],
                                        service_duration=p.service[n], tw_early=p.tw[n][0],
                                        tw_late=p.tw[n][1]))
    for pu, de in p.pairs():
        shipments.append(pyvrp.Shipment(
            pickup_location=pu, delivery_location=de, pickup_tw_early=p.tw[pu][0],
            pickup_tw_late=p.tw[pu][1], pickup_service_duration=p.service[pu],
            delivery_tw_early=p.tw[de][0], delivery_tw_late=p.tw[de][1],
            delivery_service_duration=p.service[de], amount=[p.demand[pu]]))
    vtype = pyvrp.VehicleType(num_available=p.fleet, capacity=[p.capacity], start_depot=0,
                              end_depot=0, tw_early=p.tw[d0][0], tw_late=p.tw[d0][1],
                              fixed_cost=p.upper_bound() if hierarchical else 0)
    m = np.asarray(p.dist, dtype=np.int64)
    return pyvrp.ProblemData(locations=locations, clients=clients, depots=depots,
                             vehicle_types=[vtype], distance_matrices=[m], duration_matrices=[m],
                             shipments=shipments)


def run_pyvrp(p: Problem, path: Path, a) -> dict:
    if isinstance(p, FleetProblem):
        return run_pyvrp_fleet(p, a)
    import pyvrp
    from pyvrp.stop import MaxRuntime
    data = pyvrp_data(p, path, a.hierarchical)
    t0 = time.monotonic()
    res = pyvrp.solve(data, stop=MaxRuntime(a.time_limit), seed=a.seed, display=False)
    seconds = time.monotonic() - t0
    best = res.best
    routes = []
    for route in best.routes():
        nodes = []
        for act in route:
            if act.is_depot():
                continue
            if act.is_client():
                nodes.append(data.client(act.idx).location)
            elif act.is_pickup():
                nodes.append(data.shipment(act.idx).pickup.location)
            else:
                nodes.append(data.shipment(act.idx).delivery.location)
        routes.append(nodes)
    return {"routes": routes, "reported_cost": best.distance(), "solve_seconds": seconds,
            "status": "ok" if best.is_feasible() else "no solution",
            "message": "" if best.is_feasible() else "PyVRP's best solution is infeasible"}


# ---- OR-Tools ----------------------------------------------------------------------------------


def ortools_settings(p: Problem | None, limit: float, hierarchical: bool) -> dict:
    # Time windows: PATH_CHEAPEST_ARC finds no first solution on tight ones (Solomon R101).
    first = "PARALLEL_CHEAPEST_INSERTION" if p is not None and p.kind != "cvrp" \
        else "PATH_CHEAPEST_ARC"
    if isinstance(p, FleetProblem):
        return {"model": "RoutingModel on the road durations (arc cost = travel seconds), time "
                         "dimension with windows, break intervals, one load dimension per capacity",
                "first_solution_strategy": first, "local_search_metaheuristic": "GUIDED_LOCAL_SEARCH",
                "time_limit_s": limit, "vehicles": "the scenario's, with shifts and breaks",
                "breaks": "break intervals"}
    return {"model": "RoutingModel, integer transit matrix", "first_solution_strategy": first,
            "local_search_metaheuristic": "GUIDED_LOCAL_SEARCH", "time_limit_s": limit,
            "vehicles": "file's fleet; CVRPLIB: min(customers, 2*ceil(demand/capacity)+2)",
            "fixed_cost_per_vehicle": "sum of longest arcs" if hierarchical else 0}


def run_ortools(p: Problem, path: Path, a) -> dict:
    if isinstance(p, FleetProblem):
        s = ortools_settings(p, a.time_limit, False)
        return run_ortools_fleet(p, a, s["first_solution_strategy"], s["local_search_metaheuristic"])
    from ortools.constraint_solver import pywrapcp, routing_enums_pb2
    vehicles = bounded_fleet(p)
    n = len(p.dist)
    manager = pywrapcp.RoutingIndexManager(n, vehicles, p.depot)
    routing = pywrapcp.RoutingModel(manager)
    arc = routing.RegisterTransitMatrix(p.dist)
    routing.SetArcCostEvaluatorOfAllVehicles(arc)
    if a.hierarchical:
        routing.SetFixedCostOfAllVehicles(p.upper_bound())
    load = routing.RegisterUnaryTransitVector(
        [p.demand[i] if p.kind == "pdptw" else (0 if i == p.depot else p.demand[i])
         for i in range(n)])
    routing.AddDimensionWithVehicleCapacity(load, 0, [p.capacity] * vehicles, True, "Load")
    if p.kind != "cvrp":
        horizon = p.tw[p.depot][1]
        travel = [[p.service[i] + p.dist[i][j] for j in range(n)] for i in range(n)]
        timecb = routing.RegisterTransitMatrix(travel)
        routing.AddDimension(timecb, horizon, horizon, False, "Time")
        tdim = routing.GetDimensionOrDie("Time")
        for i in p.customers:
            tdim.CumulVar(manager.NodeToIndex(i)).SetRange(*p.tw[i])
        for v in range(vehicles):
            tdim.CumulVar(routing.Start(v)).SetRange(*p.tw[p.depot])
            tdim.CumulVar(routing.End(v)).SetRange(*p.tw[p.depot])
        solver = routing.solver()
        for pu, de in p.pairs():
            pi, di = manager.NodeToIndex(pu), manager.NodeToIndex(de)
            routing.AddPickupAndDelivery(pi, di)
            solver.Add(routing.VehicleVar(pi) == routing.VehicleVar(di))
            solver.Add(tdim.CumulVar(pi) <= tdim.CumulVar(di))
    params = pywrapcp.DefaultRoutingSearchParameters()
    s = ortools_settings(p, a.time_limit, a.hierarchical)
    params.first_solution_strategy = getattr(routing_enums_pb2.FirstSolutionStrategy,
                                             s["first_solution_strategy"])
    params.local_search_metaheuristic = getattr(routing_enums_pb2.LocalSearchMetaheuristic,
                                                s["local_search_metaheuristic"])
    params.time_limit.FromMilliseconds(int(a.time_limit * 1000))
    t0 = time.monotonic()
    sol = routing.SolveWithParameters(params)
    seconds = time.monotonic() - t0
    if sol is None:
        return {"routes": [], "status": "no solution", "solve_seconds": seconds,
                "message": f"OR-Tools found no solution (status {routing.status()})"}
    routes = []
    for v in range(vehicles):
        i = sol.Value(routing.NextVar(routing.Start(v)))
        nodes = []
        while not routing.IsEnd(i):
            nodes.append(manager.IndexToNode(i))
            i = sol.Value(routing.NextVar(i))
        if nodes:
            routes.append(nodes)
    fixed = p.upper_bound() * len(routes) if a.hierarchical else 0
    return {"routes": routes, "reported_cost": sol.ObjectiveValue() - fixed,
            "solve_seconds": seconds, "status": "ok", "message": ""}


# ---- VROOM -------------------------------------------------------------------------------------


def vroom_settings(limit: float, hierarchical: bool, fleet: bool = False) -> dict:
    if fleet:
        return {"exploration_level": 5, "nb_threads": 1, "timeout_s": limit,
                "matrices": "road durations and distances (routesolve matrix); cost = duration",
                "vehicles": "the scenario's, with windows and breaks", "breaks": "VROOM breaks"}
    return {"exploration_level": 5, "nb_threads": 1, "timeout_s": limit,
            "matrices": "durations = distances = costs = the integer matrix",
            "vehicles": "file's fleet; CVRPLIB: min(customers, 2*ceil(demand/capacity)+2)",
            "fixed_cost_per_vehicle": "sum of longest arcs" if hierarchical else 0}


def run_vroom_fleet(p: FleetProblem, a) -> dict:
    """A migration scenario through pyvroom's matrices input: the road durations and distances
    as the problem file gives them, vehicles with windows and breaks, jobs with windows."""
    import numpy as np
    import vroom
    inp = vroom.Input()
    inp.set_durations_matrix("car", np.asarray(p.durations, dtype=np.uint32))
    inp.set_distances_matrix("car", np.asarray(p.distances, dtype=np.uint32))
    for v in p.vehicles:
        inp.add_vehicle(vroom.Vehicle(
            id=v.id, start=v.start, end=v.end, profile="car", capacity=v.capacity,
            time_window=vroom.TimeWindow(*v.window),
            breaks=[vroom.Break(id=i, time_windows=[vroom.TimeWindow(*w) for w in ws],
                                service=service) for i, ws, service in v.breaks]))
    for j in p.jobs:
        inp.add_job(vroom.Job(id=j.id, location=j.location, default_setup=j.setup,
                              default_service=j.service, delivery=j.delivery, pickup=j.pickup,
                              time_windows=[vroom.TimeWindow(*w) for w in j.windows]))
    t0 = time.monotonic()
    sol = inp.solve(exploration_level=5, nb_threads=1, timeout=timedelta(seconds=a.time_limit))
    seconds = time.monotonic() - t0
    out = sol.to_dict()
    routes = [{"vehicle": int(r["vehicle"]),
               "steps": [[s["type"], int(s["id"])] for s in r["steps"]
                         if s["type"] in ("job", "break")]}
              for r in out.get("routes", [])]
    unassigned = len(out.get("unassigned", []))
    return {"routes": routes, "reported_cost": out["summary"]["cost"], "solve_seconds": seconds,
            "status": "ok",
            "message": f"VROOM left {unassigned} task(s) unassigned" if unassigned else ""}


def run_vroom(p: Problem, path: Path, a) -> dict:
    if isinstance(p, FleetProblem):
        return run_vroom_fleet(p, a)
    import numpy as np
    import vroom
    inp = vroom.Input()
    m = np.asarray(p.dist, dtype=np.uint32)
    inp.set_durations_matrix("car", m)
    inp.set_distances_matrix("car", m)
    inp.set_costs_matrix("car", m)
    d0 = p.depot
    fixed = p.upper_bound() if a.hierarchical else 0
    if fixed >= 2**32:
        raise NotSupported("fixed vehicle cost beyond VROOM's 32-bit costs")
    window = None if p.kind == "cvrp" else vroom.TimeWindow(*p.tw[d0])
    for k in range(bounded_fleet(p)):
        inp.add_vehicle(vroom.Vehicle(id=k + 1, start=d0, end=d0, capacity=[p.capacity],
                                      time_window=window,
                                      costs=vroom.VehicleCosts(fixed=fixed)))

    def windows(n):
        return [] if p.kind == "cvrp" else [vroom.TimeWindow(*p.tw[n])]
    if p.kind == "pdptw":
        for pu, de in p.pairs():
            inp.add_shipment(
                vroom.ShipmentStep(id=pu, location=pu, default_service=p.service[pu],
                                   time_windows=windows(pu)),
                vroom.ShipmentStep(id=de, location=de, default_service=p.service[de],
                                   time_windows=windows(de)),
                amount=vroom.Amount([p.demand[pu]]))
    else:
        for n in p.customers:
            inp.add_job(vroom.Job(id=n, location=n, default_service=p.service[n],
                                  delivery=[p.demand[n]], time_windows=windows(n)))
    t0 = time.monotonic()
    sol = inp.solve(exploration_level=5, nb_threads=1, timeout=timedelta(seconds=a.time_limit))
    seconds = time.monotonic() - t0
    out = sol.to_dict()
    routes = [[int(s["id"]) for s in r["steps"] if s["type"] in ("job", "pickup", "delivery")]
              for r in out.get("routes", [])]
    unassigned = len(out.get("unassigned", []))
    return {"routes": routes, "reported_cost": out["summary"]["cost"] - fixed * len(routes),
            "solve_seconds": seconds, "status": "ok",
            "message": f"VROOM left {unassigned} task(s) unassigned" if unassigned else ""}


# ---- main --------------------------------------------------------------------------------------

SOLVERS = {"pyvrp": ("pyvrp", run_pyvrp), "ortools": ("ortools", run_ortools),
           "vroom": ("pyvroom", run_vroom)}


def settings(solver: str, p: Problem | None, a) -> dict:
    if solver == "pyvrp" and isinstance(p, FleetProblem):
        return {**pyvrp_settings(a.seed, a.time_limit),
                "model": "road durations as distance and duration (cost = travel seconds), "
                         "shift_duration = shift - breaks",
                "breaks": "not modelled, placed after the solve"}
    if solver == "pyvrp":
        return {**pyvrp_settings(a.seed, a.time_limit),
                "fixed_cost_per_vehicle": "sum of longest arcs" if a.hierarchical else 0}
    if solver == "ortools":
        return ortools_settings(p, a.time_limit, a.hierarchical)
    return vroom_settings(a.time_limit, a.hierarchical, isinstance(p, FleetProblem))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="peers_worker.py")
    ap.add_argument("solver", choices=list(SOLVERS))
    ap.add_argument("file", type=Path)
    ap.add_argument("--format", required=True, choices=["cvrplib", "solomon", "lilim", "vroom"])
    ap.add_argument("--truncate", action="store_true")
    ap.add_argument("--hierarchical", action="store_true")
    ap.add_argument("--time-limit", type=float, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--settings-only", action="store_true", help="write the settings and stop")
    a = ap.parse_args(argv)
    package, run = SOLVERS[a.solver]
    result = {"solver": a.solver, "version": version(package), "routes": [],
              "status": "error", "message": ""}
    try:
        result["settings"] = settings(a.solver, None, a)
        if not a.settings_only:
            if a.format == "vroom":
                p = read_fleet(a.file)
            else:
                p = read_problem(a.file, a.format, a.truncate)
            result["settings"] = settings(a.solver, p, a)
            result.update(run(p, a.file, a))
        else:
            result["status"] = "ok"
    except (NotSupported, Unsupported) as e:
        result.update(status="not supported", message=str(e))
    except Exception as e:  # noqa: BLE001 - any solver failure becomes a row, not a crash
        result.update(status="error", message=f"{type(e).__name__}: {e}")
    a.out.write_text(json.dumps(result, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
