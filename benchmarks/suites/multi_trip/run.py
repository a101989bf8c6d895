#!/usr/bin/env python3
"""Multi-trip against single-trip on generated instances.

Each instance: one depot at the centre of a 10 km square, n jobs with deliveries of 1..5,
vehicles of capacity 20. Single trip: as many vehicles as jobs (no reloads needed). Multi-trip:
`--trucks` vehicles with a reload at the depot (reload service 300 s) and max_trips 8.
Reference (independent of the multi-trip search): the single-trip solution's routes put one
after the other on the multi-trip vehicles (each route a trip, a reload at the depot between
two), checked by `routesolve validate`; the multi-trip search must not be dearer than it.
Usage: run.py BINARY [--seeds 5] [--jobs 40] [--trucks 3] [--time-limit 5]
"""
import argparse, json, math, random, subprocess, tempfile, os

def instance(seed, jobs, vehicles, multi):
    rng = random.Random(seed)
    pts = [(5000, 5000)] + [(rng.randint(0, 10000), rng.randint(0, 10000)) for _ in range(jobs)]
    m = [[int(round(math.dist(a, b) / 10)) for b in pts] for a in pts]  # 10 m/s
    veh = []
    for i in range(vehicles):
        v = {"id": i + 1, "start_index": 0, "end_index": 0, "capacity": [20], "time_window": [0, 200000]}
        if multi:
            v.update({"reload_location_indices": [0], "reload_service": 300, "max_trips": 8})
        veh.append(v)
    return {"vehicles": veh, "matrices": {"car": {"durations": m}},
            "jobs": [{"id": j, "location_index": j, "delivery": [rng.randint(1, 5)], "service": 120}
                     for j in range(1, jobs + 1)]}

def solve(binary, problem, limit, tmp, name):
    p = os.path.join(tmp, name + ".json"); o = os.path.join(tmp, name + ".out.json")
    json.dump(problem, open(p, "w"))
    subprocess.run([binary, "solve", p, "-o", o, "-q", "--time-limit", str(limit), "--seed", "1",
                    "--threads", "1"], check=True)
    return p, json.load(open(o))

def reference(binary, problem_path, single, trucks, tmp, name):
    """Single-trip routes as trips of the multi-trip vehicles (round robin), figures recomputed
    by the validator's plan check (routesolve solve --check is for steps; here: validate)."""
    routes = sorted(single["routes"], key=lambda r: -r["cost"])
    days = [[] for _ in range(trucks)]
    for k, r in enumerate(routes): days[k % trucks].append(r)
    m = json.load(open(problem_path))["matrices"]["car"]["durations"]
    out_routes, total = [], 0
    for v, trips in enumerate(days):
        if not trips: continue
        steps, t, travel, prev = [], 0, 0, 0
        jobs = [[s for s in r["steps"] if s["type"] == "job"] for r in trips]
        load = sum(1 for _ in [])
        def load_of(trip): return sum(j_del[s["id"]] for s in trip)
        steps.append({"type": "start", "location_index": 0, "arrival": 0, "duration": 0, "load": [load_of(jobs[0])]})
        onboard = load_of(jobs[0])
        for k, trip in enumerate(jobs):
            if k > 0:
                t += m[prev][0]; travel += m[prev][0]; prev = 0
                onboard = load_of(trip)
                steps.append({"type": "reload", "location_index": 0, "arrival": t, "duration": travel,
                              "service": 300, "load": [onboard]})
                t += 300
            for s in trip:
                t += m[prev][s["location_index"]]; travel += m[prev][s["location_index"]]; prev = s["location_index"]
                onboard -= j_del[s["id"]]
                steps.append({"type": "job", "id": s["id"], "location_index": prev, "arrival": t, "duration": travel,
                              "service": 120, "load": [onboard]})
                t += 120
        t += m[prev][0]; travel += m[prev][0]
        steps.append({"type": "end", "location_index": 0, "arrival": t, "duration": travel, "load": [0]})
        service = 120 * sum(len(j) for j in jobs) + 300 * (len(jobs) - 1)
        out_routes.append({"vehicle": v + 1, "cost": travel, "duration": travel, "service": service, "steps": steps})
        total += travel
    sol = {"code": 0, "summary": {"cost": total, "routes": len(out_routes), "unassigned": 0, "duration": total,
                                   "service": sum(r["service"] for r in out_routes)},
           "unassigned": [], "routes": out_routes}
    path = os.path.join(tmp, name + ".reference.json")
    json.dump(sol, open(path, "w"))
    ok = subprocess.run([binary, "validate", problem_path, path], capture_output=True, text=True)
    return total, ok.returncode == 0, ok.stdout + ok.stderr

j_del = {}
if __name__ == "__main__":
    a = argparse.ArgumentParser()
    a.add_argument("binary"); a.add_argument("--seeds", type=int, default=5)
    a.add_argument("--jobs", type=int, default=40); a.add_argument("--trucks", type=int, default=3)
    a.add_argument("--time-limit", type=float, default=5)
    args = a.parse_args()
    tmp = tempfile.mkdtemp()
    print("| seed | jobs | single-trip cost (routes) | multi-trip cost (vehicles, reloads) | reference (concatenated) | reference valid |")
    print("|---|---|---|---|---|---|")
    for seed in range(1, args.seeds + 1):
        single_p = instance(seed, args.jobs, args.jobs, False)
        j_del.clear(); j_del.update({j["id"]: j["delivery"][0] for j in single_p["jobs"]})
        _, single = solve(args.binary, single_p, args.time_limit, tmp, f"s{seed}")
        multi_path, multi = solve(args.binary, instance(seed, args.jobs, args.trucks, True), args.time_limit, tmp, f"m{seed}")
        reloads = sum(1 for r in multi["routes"] for s in r["steps"] if s["type"] == "reload")
        ref, ok, msg = reference(args.binary, multi_path, single, args.trucks, tmp, f"m{seed}")
        print(f"| {seed} | {args.jobs} | {single['summary']['cost']} ({single['summary']['routes']}) | "
              f"{multi['summary']['cost']} ({multi['summary']['routes']}, {reloads}) unassigned {multi['summary']['unassigned']} | "
              f"{ref} | {'yes' if ok else 'no: ' + msg.strip()[:80]} |")
