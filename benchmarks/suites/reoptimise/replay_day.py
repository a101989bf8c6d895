#!/usr/bin/env python3
"""Replays a generated day through `routesolve reoptimise`, warm (from the plan) and cold (the
rest solved from scratch) from the same previous plan at every event, and prints one table row
per event and the totals (docs/BENCHMARKS.md, "Re-optimisation of a day under way").

Events, every 1,500 s from 05:30: a driver who has not left yet starts 30 minutes late (events
0, 1 and every fifth), an order not yet frozen is cancelled (every third), otherwise a new order
for later today at an existing customer's place. The warm plan is carried to the next event.

usage: replay_day.py ROUTESOLVE WORKDIR [--trucks 50] [--stops 500] [--events 20]
"""
import argparse
import json
import os
import re
import subprocess
import time

HORIZON = 600


def run(cmd):
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit {p.returncode}\n{p.stdout}{p.stderr}")
    return time.monotonic() - t0, p.stderr


def frozen(plan, until):
    out = {}
    for r in plan["routes"]:
        keys = out.setdefault(r["vehicle"], [])
        for s in r["steps"]:
            if s["type"] in ("start", "end"):
                continue
            if s["arrival"] >= until:
                break
            keys.append((s["type"], s["id"]))
        if all(t == "break" for t, _ in keys):  # breaks alone are not frozen: not set out yet
            keys.clear()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("routesolve")
    ap.add_argument("workdir")
    ap.add_argument("--trucks", type=int, default=50)
    ap.add_argument("--stops", type=int, default=500)
    ap.add_argument("--events", type=int, default=20)
    a = ap.parse_args()
    os.makedirs(a.workdir, exist_ok=True)
    w = lambda name: os.path.join(a.workdir, name)
    rs = a.routesolve
    run([rs, "generate", "--trucks", str(a.trucks), "--stops", str(a.stops), "--seed", "1", "-q",
         "-o", w("day.json"), "--write-network", w("city.rsnet")])
    net = ["--network", w("city.rsnet")]
    cold_s, _ = run([rs, "solve", w("day.json"), *net, "-q", "--seed", "1", "-o", w("plan_0.json")])
    day = json.load(open(w("day.json")))
    print(f"initial solve: {cold_s:.2f} s")
    print("| event | kind | warm s | cold s | warm cost | cold cost | moved warm | moved cold |")
    print("|---|---|---|---|---|---|---|---|")
    plan_file, next_id = w("plan_0.json"), 100000
    totals = [0.0, 0.0, 0, 0, 0, 0]
    for e in range(a.events):
        now = 19800 + 1500 * e
        plan = json.load(open(plan_file))
        fz = frozen(plan, now + HORIZON)
        kind = None
        if e < 2 or e % 5 == 0:
            for v in day["vehicles"]:
                if fz.get(v["id"], None) == [] and max(v["time_window"][0], now) + 1800 < v["time_window"][1]:
                    v["time_window"][0] = max(v["time_window"][0], now) + 1800
                    kind = "late driver"
                    break
        if kind is None and e % 3 == 1:
            frozen_jobs = {i for keys in fz.values() for t, i in keys if t == "job"}
            for j, job in enumerate(day["jobs"]):
                if job["id"] not in frozen_jobs:
                    del day["jobs"][j]
                    kind = "cancelled"
                    break
        if kind is None:
            job = dict(day["jobs"][e % len(day["jobs"])])
            job["id"] = next_id
            next_id += 1
            job["time_windows"] = [[now + 1800, 64800]]
            day["jobs"].append(job)
            kind = "new order"
        day_file = w(f"day_{e + 1}.json")
        json.dump(day, open(day_file, "w"))
        row = []
        for mode in ("warm", "cold"):
            out = w(f"plan_{e + 1}_{mode}.json")
            cmd = [rs, "reoptimise", day_file, plan_file, "--now", str(now), "--frozen-horizon", str(HORIZON),
                   *net, "--seed", "1", "-o", out] + (["--cold"] if mode == "cold" else [])
            secs, err = run(cmd)
            moved = int(re.search(r"(\d+) tasks moved", err).group(1))
            cost = json.load(open(out))["summary"]["cost"]
            row.append((secs, cost, moved))
        (ws, wc, wm), (cs, cc, cm) = row
        totals = [totals[0] + ws, totals[1] + cs, totals[2] + wc, totals[3] + cc, totals[4] + wm, totals[5] + cm]
        print(f"| {e} | {kind} | {ws:.2f} | {cs:.2f} | {wc} | {cc} | {wm} | {cm} |")
        plan_file = w(f"plan_{e + 1}_warm.json")
    print(f"| all | | {totals[0]:.2f} | {totals[1]:.2f} | {totals[2]} | {totals[3]} | {totals[4]} | {totals[5]} |")


if __name__ == "__main__":
    main()
