#!/usr/bin/env python3
"""routesolve's reported timeline against VROOM's on the same routes.

Generates problems with a travel matrix written in (time windows, one or two per job, service,
setup, breaks with windows and max_load, shipments, skills, priorities, capacities, shifts) and
compares, for each route, the arrival, waiting_time and duration of every step, the route's
start, duration and waiting_time, and the summary's:

  vroom-routes: VROOM solves (`vroom -i`); its routes go back to routesolve as steps marked
                fixed (its unassigned tasks left out), which `routesolve solve` reports with its
                default timeline: the question is whether routesolve times VROOM's own routes
                as VROOM's format_route does.
  plan-mode:    routesolve solves; its routes go to `vroom -c` as steps (plan mode, whose ETAs
                come from VROOM's choose_ETA programme): no violation expected, and the same
                times wherever plan mode's objective picks VROOM's solving-mode timeline.
  vroom-start:  VROOM's routes as steps not fixed (VROOM's starting solution) in the whole
                problem: routesolve's search starts from them; its result against VROOM's
                (priority left out, tasks left out, then cost).

pyvroom's `vroom` command is a peer, never a dependency: it lives in a venv outside the tracked
tree (build/peers-venv). Usage:

  python3 benchmarks/suites/vroom_timeline/vroom_timeline.py --problems 500 --seed 1 \\
      --vroom build/peers-venv/bin/vroom --routesolve build/bin/routesolve
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from collections import Counter


def generate(rng, jobs=20, vehicles=3, shipments=3):
    """One problem: locations on a 60 km square, durations at ~40 km/h, distances in metres."""
    n = 1 + vehicles + jobs + 2 * shipments
    pts = [(rng.uniform(0, 60000), rng.uniform(0, 60000)) for _ in range(n)]
    dist = [[int(abs(a[0] - b[0]) + abs(a[1] - b[1])) for b in pts] for a in pts]
    dur = [[int(d / 11.1) for d in row] for row in dist]
    day = 8 * 3600
    problem = {"vehicles": [], "jobs": [], "shipments": [],
               "matrices": {"car": {"durations": dur, "distances": dist}}}
    for k in range(vehicles):
        start = rng.choice([0, 1 + k])
        v = {"id": k + 1, "start_index": start, "end_index": start, "capacity": [rng.randint(12, 25)],
             "time_window": [day + rng.choice([0, 1800, 3600]), day + rng.choice([9, 10, 11]) * 3600]}
        if rng.random() < 0.2:  # an open route: no end
            del v["end_index"]
        if rng.random() < 0.3:
            v["skills"] = [1]
        breaks = []
        t0 = day + 3 * 3600
        for b in range(rng.choice([0, 1, 1, 2])):
            s = t0 + b * 3 * 3600 + rng.randint(0, 3600)
            br = {"id": 100 * (k + 1) + b, "service": rng.choice([600, 900, 1800]),
                  "time_windows": [[s, s + rng.choice([1800, 3600, 5400])]]}
            if rng.random() < 0.4:
                br["max_load"] = [rng.randint(4, 20)]
            breaks.append(br)
        if breaks:
            v["breaks"] = breaks
        problem["vehicles"].append(v)

    def windows():
        if rng.random() < 0.25:
            return None
        first = day + rng.randint(0, 6) * 3600 + rng.randint(0, 3600)
        tws = [[first, first + rng.choice([1800, 3600, 7200])]]
        if rng.random() < 0.3:
            second = tws[0][1] + rng.randint(1800, 7200)
            tws.append([second, second + rng.choice([1800, 3600])])
        return tws

    for j in range(jobs):
        job = {"id": j + 1, "location_index": 1 + vehicles + j, "service": rng.choice([120, 300, 600]),
               "delivery": [rng.randint(0, 3)], "pickup": [rng.randint(0, 2)]}
        if rng.random() < 0.4:
            job["setup"] = rng.choice([60, 180])
        if rng.random() < 0.2:
            job["priority"] = rng.randint(1, 50)
        if rng.random() < 0.1:
            job["skills"] = [1]
        tws = windows()
        if tws:
            job["time_windows"] = tws
        problem["jobs"].append(job)
    for s in range(shipments):
        base = 1 + vehicles + jobs + 2 * s
        ship = {"amount": [rng.randint(1, 4)],
                "pickup": {"id": 1000 + s, "location_index": base, "service": 300},
                "delivery": {"id": 1000 + s, "location_index": base + 1, "service": 300}}
        tws = windows()
        if tws:
            ship["delivery"]["time_windows"] = tws
        problem["shipments"].append(ship)
    if not problem["shipments"]:
        del problem["shipments"]
    return problem


def objective(problem, solution):
    """Both solvers' order: priority left out, tasks left out, then cost."""
    priority = {("job", j["id"]): j.get("priority", 0) for j in problem["jobs"]}
    for s in problem.get("shipments", []):
        priority[("pickup", s["pickup"]["id"])] = s.get("priority", 0)
    lost = sum(priority.get((u["type"], u["id"]), 0) for u in solution["unassigned"])
    tasks = sum(1 for u in solution["unassigned"] if u["type"] != "delivery")
    return lost, tasks, solution["summary"]["cost"]


def run(cmd, stdin=None):
    out = subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {out.returncode}: {out.stderr.strip()[:400]}")
    return out.stdout


def task_steps(route):
    return [s for s in route["steps"] if s["type"] in ("job", "pickup", "delivery", "break")]


def as_steps(route, fixed):
    steps = [{"type": s["type"], "id": s["id"]} for s in task_steps(route)]
    if fixed and steps:
        steps[-1]["fixed"] = True
    return steps


def with_routes(problem, solution, fixed):
    """The problem with each route of `solution` as its vehicle's steps, unassigned tasks left out."""
    p = json.loads(json.dumps(problem))
    routed = {(s["type"], s["id"]) for r in solution["routes"] for s in task_steps(r)}
    p["jobs"] = [j for j in p["jobs"] if ("job", j["id"]) in routed]
    if "shipments" in p:
        p["shipments"] = [s for s in p["shipments"] if ("pickup", s["pickup"]["id"]) in routed]
    by_vehicle = {r["vehicle"]: r for r in solution["routes"]}
    for v in p["vehicles"]:
        if v["id"] in by_vehicle:
            v["steps"] = as_steps(by_vehicle[v["id"]], fixed)
    return p


FIELDS = ("arrival", "waiting_time", "duration")


def windows_of(problem):
    """(type, id) -> time windows of every task."""
    out = {("job", j["id"]): j.get("time_windows", []) for j in problem["jobs"]}
    for s in problem.get("shipments", []):
        out[("pickup", s["pickup"]["id"])] = s["pickup"].get("time_windows", [])
        out[("delivery", s["delivery"]["id"])] = s["delivery"].get("time_windows", [])
    return out


def window_index(windows, begin):
    return next((k for k, w in enumerate(windows) if w[0] <= begin <= w[1]), None)


def cause(problem, a, b):
    """Why two timings of one route differ: a task served in another of its windows, else unknown."""
    tws = windows_of(problem)
    for x, y in zip(a, b):
        w = tws.get((x["type"], x.get("id")), [])
        if len(w) > 1 and window_index(w, x["arrival"] + x["waiting_time"]) != window_index(w, y["arrival"] + y["waiting_time"]):
            return "another window of a task with several"
    return "unexplained"


def compare(mine, theirs, tally, where, notes, problem):
    """Per route and step, the fields of `mine` against `theirs` (the same routes)."""
    theirs_by_vehicle = {r["vehicle"]: r for r in theirs["routes"]}
    for r in mine["routes"]:
        t = theirs_by_vehicle.get(r["vehicle"])
        if t is None:
            tally["route missing"] += 1
            continue
        a, b = task_steps(r), task_steps(t)
        if [(s["type"], s["id"]) for s in a] != [(s["type"], s["id"]) for s in b]:
            tally["route order differs"] += 1
            continue
        same_route = True
        for x, y in zip(a, b):
            for f in FIELDS:
                tally[f"step {f} compared"] += 1
                if x.get(f) == y.get(f):
                    tally[f"step {f} equal"] += 1
                else:
                    same_route = False
        start_a = next((s["arrival"] for s in r["steps"] if s["type"] == "start"), None)
        start_b = next((s["arrival"] for s in t["steps"] if s["type"] == "start"), None)
        tally["route start compared"] += 1
        tally["route start equal"] += start_a == start_b
        for f in ("duration", "waiting_time"):
            tally[f"route {f} compared"] += 1
            tally[f"route {f} equal"] += r.get(f) == t.get(f)
            same_route = same_route and r.get(f) == t.get(f)
        tally["routes compared"] += 1
        tally["routes identical"] += same_route and start_a == start_b
        if not (same_route and start_a == start_b):
            why = cause(problem, a, b)
            tally[f"cause: {why}"] += 1
            if len(notes) < 20:
                notes.append(f"{where}: vehicle {r['vehicle']} ({why})")
    for f in ("duration", "waiting_time"):
        tally[f"summary {f} compared"] += 1
        tally[f"summary {f} equal"] += mine["summary"].get(f) == theirs["summary"].get(f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--problems", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--vroom", default="build/peers-venv/bin/vroom")
    ap.add_argument("--routesolve", default="build/bin/routesolve")
    ap.add_argument("--keep", help="folder to keep the problems and solutions in")
    ap.add_argument("--timeline", default="vroom", choices=("vroom", "earliest"),
                    help="routesolve's --timeline (earliest: to measure what the VROOM timeline changes)")
    args = ap.parse_args()
    if not os.path.exists(args.vroom):
        print(f"skipped: no VROOM command at {args.vroom} (python3 -m venv build/peers-venv && "
              "build/peers-venv/bin/pip install pyvroom)")
        return 0
    rng = random.Random(args.seed)
    work = args.keep or tempfile.mkdtemp(prefix="vroom_timeline_")
    os.makedirs(work, exist_ok=True)
    tally = {"vroom-routes": Counter(), "plan-mode": Counter()}
    notes = {"vroom-routes": [], "plan-mode": []}
    violations = Counter()
    started = Counter()
    for i in range(args.problems):
        problem = generate(rng)
        base = os.path.join(work, f"p{i:04d}")
        with open(base + ".json", "w") as f:
            json.dump(problem, f)
        # VROOM's routes, timed by routesolve.
        vroom_sol = json.loads(run([args.vroom, "-i", base + ".json", "-t", "1", "-x", "1"]))
        if vroom_sol.get("code", 0) != 0:
            raise RuntimeError(f"{base}.json: VROOM: {vroom_sol}")
        fixed = with_routes(problem, vroom_sol, fixed=True)
        with open(base + ".vroom-routes.json", "w") as f:
            json.dump(fixed, f)
        mine = json.loads(run([args.routesolve, "solve", base + ".vroom-routes.json", "--iterations", "10", "-q",
                               "--backend", "cpu", "--timeline", args.timeline]))
        compare(mine, vroom_sol, tally["vroom-routes"], f"p{i:04d} vroom-routes", notes["vroom-routes"], problem)
        # VROOM's solution as routesolve's starting solution.
        start = with_routes(problem, vroom_sol, fixed=False)
        start["jobs"], start["shipments"] = problem["jobs"], problem.get("shipments", [])
        if not start["shipments"]:
            del start["shipments"]
        with open(base + ".vroom-start.json", "w") as f:
            json.dump(start, f)
        mine = json.loads(run([args.routesolve, "solve", base + ".vroom-start.json", "--iterations", "200", "-q",
                               "--backend", "cpu", "--timeline", args.timeline]))
        ours, theirs = objective(problem, mine), objective(problem, vroom_sol)
        started["compared"] += 1
        started["no worse"] += ours <= theirs
        started["better"] += ours < theirs
        started["cost ratio sum"] += ours[2] / theirs[2] if theirs[2] else 1.0
        # routesolve's routes in VROOM's plan mode.
        mine = json.loads(run([args.routesolve, "solve", base + ".json", "--iterations", "200", "-q",
                               "--backend", "cpu", "--timeline", args.timeline]))
        plan = with_routes(problem, mine, fixed=False)
        with open(base + ".plan.json", "w") as f:
            json.dump(plan, f)
        checked = json.loads(run([args.vroom, "-c", "-i", base + ".plan.json", "-t", "1"]))
        for r in checked.get("routes", []):
            for v in r.get("violations", []):
                violations[v["cause"]] += 1
        compare(mine, checked, tally["plan-mode"], f"p{i:04d} plan-mode", notes["plan-mode"], problem)
    for name, t in tally.items():
        print(f"== {name}: {t['routes identical']}/{t['routes compared']} routes identical")
        for key in sorted(k for k in t if k.endswith(" compared") and k != "routes compared"):
            what = key[: -len(" compared")]
            print(f"  {what}: {t[what + ' equal']}/{t[key]}")
        for other in ["route order differs", "route missing"] + sorted(k for k in t if k.startswith("cause: ")):
            if t[other]:
                print(f"  {other}: {t[other]}")
        for n in notes[name]:
            print(f"  differs: {n}")
    print(f"plan-mode violations reported by vroom -c: {dict(violations) or 'none'}")
    if started["compared"]:
        print(f"== vroom-start: routesolve from VROOM's solution no worse on {started['no worse']}/{started['compared']}, "
              f"better on {started['better']}, mean cost ratio {started['cost ratio sum'] / started['compared']:.4f}")
    print(f"files in {work}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
