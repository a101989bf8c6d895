"""A dispatch-style program in Python: the day's problem from the dispatcher's own data (depot,
vans, orders with windows, a travel-time matrix as numpy arrays), solved, then re-solved after an
urgent order comes in and a van breaks down.

    pip install ./python            # once, from the repository root
    python3 examples/python/dispatch.py

Ctrl+C during a solve stops the search and keeps the best plan found so far.
"""
import math

import numpy as np

import routesolve


def orders_of_the_day():
    orders = []
    for i in range(1, 25):
        angle = i * 0.7
        opens = (8 + (i % 4) * 2) * 3600
        orders.append({"id": 100 + i, "x": 12 * math.cos(angle), "y": 9 * math.sin(angle * 1.3),
                       "parcels": 1 + i % 3, "window": [opens, opens + 3 * 3600]})
    return orders


def build(orders, vans):
    # Location 0 is the depot; travel at 40 km/h on straight lines (the dispatcher's own source).
    xy = np.array([[0.0, 0.0]] + [[o["x"], o["y"]] for o in orders])
    km = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    durations = np.rint(km / 40.0 * 3600).astype(np.int64)  # C-ordered int64: read in place
    distances = np.rint(km * 1000).astype(np.int64)
    vehicles = [{"id": v + 1, "start_index": 0, "end_index": 0, "capacity": [20],
                 "time_window": [8 * 3600, 18 * 3600]} for v in range(vans)]
    jobs = [{"id": o["id"], "location_index": i + 1, "delivery": [o["parcels"]], "service": 300,
             "time_windows": [o["window"]]} for i, o in enumerate(orders)]
    return routesolve.Problem(vehicles=vehicles, jobs=jobs, durations=durations, distances=distances)


def show(title, solution):
    print(f"{title}: cost {solution.cost}, {len(solution.routes)} routes, {len(solution.unassigned)} unassigned"
          + (" (interrupted: best so far)" if solution.interrupted else ""))
    for route in solution.routes:
        starts = [(s["id"], s["arrival"] + s["waiting_time"]) for s in route["steps"] if s["type"] == "job"]
        stops = [f"{i}@{t // 3600:02d}:{t % 3600 // 60:02d}" for i, t in starts]
        print(f"  van {route['vehicle']}: {' '.join(stops)}")


def main():
    print("routesolve", routesolve.__version__)
    orders = orders_of_the_day()
    try:
        morning = routesolve.solve(build(orders, vans=4), time_limit=0.5, threads=2, backend="cpu")
    except routesolve.InvalidInput as e:  # names the JSON path and field, e.g. jobs[3].delivery
        raise SystemExit(f"bad input: {e}")
    assert morning.validate().ok
    show("morning plan", morning)

    # 10:40: an urgent order, and van 4 is out of service.
    orders.append({"id": 999, "x": 3.5, "y": -2.0, "parcels": 4, "window": [11 * 3600, 12 * 3600]})
    replanned = routesolve.solve(build(orders, vans=3), time_limit=0.5, threads=2, backend="cpu")
    assert replanned.validate().ok
    show("after the change", replanned)


if __name__ == "__main__":
    main()
