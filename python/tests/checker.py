"""An independent check of solutions in Python: reads the benchmark files itself and recomputes
coverage, loads, time windows and the cost of every route from the VROOM output."""
import math


def read_cvrplib(path):
    """CVRPLIB EUC_2D: capacity, coordinates and demands by node id (1 = depot)."""
    capacity, coords, demand, section = None, {}, {}, None
    for line in open(path):
        parts = line.replace(":", " : ").split()
        if not parts:
            continue
        if parts[0] == "CAPACITY":
            capacity = int(parts[-1])
        elif parts[0] in ("NODE_COORD_SECTION", "DEMAND_SECTION", "DEPOT_SECTION", "EOF"):
            section = parts[0]
        elif section == "NODE_COORD_SECTION":
            coords[int(parts[0])] = (float(parts[1]), float(parts[2]))
        elif section == "DEMAND_SECTION":
            demand[int(parts[0])] = int(parts[1])
    return capacity, coords, demand


def check_cvrp(path, solution):
    """Every customer once, loads within capacity, and the summary cost equals the sum of the
    routes' rounded Euclidean arcs (CVRPLIB's convention)."""
    capacity, coords, demand = read_cvrplib(path)
    depot = 1
    nint = lambda a, b: int(math.floor(math.hypot(coords[a][0] - coords[b][0], coords[a][1] - coords[b][1]) + 0.5))
    seen, total = [], 0
    for route in solution.routes:
        jobs = [step["id"] for step in route["steps"] if step["type"] == "job"]
        assert sum(demand[j] for j in jobs) <= capacity
        nodes = [depot] + jobs + [depot]
        total += sum(nint(a, b) for a, b in zip(nodes, nodes[1:]))
        seen += jobs
    assert sorted(seen) == sorted(k for k in coords if k != depot)
    assert not solution.unassigned
    assert solution.summary["cost"] == total
    return total


def read_solomon(path):
    """Solomon VRPTW: vehicles, capacity and (x, y, demand, ready, due, service) by customer."""
    lines = [l.split() for l in open(path) if l.strip()]
    at = next(i for i, l in enumerate(lines) if l[0] == "NUMBER")
    vehicles, capacity = int(lines[at + 1][0]), int(lines[at + 1][1])
    customers = {}
    for l in lines[at + 2:]:
        if l[0].isdigit():
            cid, x, y, q, ready, due, service = (float(v) for v in l[:7])
            customers[int(cid)] = (x, y, q, ready, due, service)
    return vehicles, capacity, customers


def check_solomon(path, solution):
    """Every customer once or unassigned, at most the instance's vehicles, loads within capacity,
    service starting inside each window when the route is driven at Euclidean distance = time,
    and the summary distance equal to the routes' Euclidean length (up to rounding)."""
    vehicles, capacity, cust = read_solomon(path)
    dist = lambda a, b: math.hypot(cust[a][0] - cust[b][0], cust[a][1] - cust[b][1])
    seen, length = [], 0.0
    assert len(solution.routes) <= vehicles
    for route in solution.routes:
        jobs = [step["id"] for step in route["steps"] if step["type"] == "job"]
        assert sum(cust[j][2] for j in jobs) <= capacity
        t, prev = 0.0, 0
        for j in jobs:
            t = max(t + dist(prev, j), cust[j][3])
            assert t <= cust[j][4] + 1e-3, (route["vehicle"], j, t, cust[j][4])
            t += cust[j][5]
            length += dist(prev, j)
            prev = j
        t += dist(prev, 0)
        length += dist(prev, 0)
        assert t <= cust[0][4] + 1e-3
        seen += jobs
    seen += [u["id"] for u in solution.unassigned]
    assert sorted(seen) == sorted(k for k in cust if k != 0)
    assert abs(solution.summary["distance"] - length) <= 1e-3 * max(1, len(seen)) + 1e-6
    return length
