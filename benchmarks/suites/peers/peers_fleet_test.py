#!/usr/bin/env python3
"""Tests of the migration scenarios' model in benchmarks/suites/peers/peers (peers_fleet.py) without the
peers' virtual environment: matrices written into the problem, the replay (cost, windows, breaks,
capacity, missing and repeated jobs), the VROOM solution file and, with PEERS_TEST_ROUTESOLVE set
to a routesolve binary, `routesolve validate` on it; the breaks placed after a solve without them
and what PyVRP and OR-Tools cannot model (peers_fleet_solvers.py). Standard library only; run
with the peers' Python (build/peers-venv/bin/python) it also solves the scenario with PyVRP and
OR-Tools."""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "lib"))
from peers_fleet import (fleet_routes_from_vroom, fleet_solution, points_of, read_fleet,  # noqa: E402
                         replay_fleet, with_matrices)
from peers_fleet_solvers import place_breaks, run_ortools_fleet, run_pyvrp_fleet  # noqa: E402
from peers_model import Unsupported  # noqa: E402

HAVE_PEERS = all(importlib.util.find_spec(m) for m in ("pyvrp", "ortools"))

# One depot (shared start and end), three stops; the second vehicle's point repeats the depot.
SCENARIO = {
    "vehicles": [
        {"id": 1, "start": [9.5, 47.1], "end": [9.5, 47.1], "capacity": [10],
         "time_window": [0, 1000], "breaks": [{"id": 7, "time_windows": [[100, 200]], "service": 30}]},
        {"id": 2, "start": [9.5, 47.1], "end": [9.5, 47.1], "capacity": [10],
         "time_window": [0, 1000]}],
    "jobs": [
        {"id": 11, "location": [9.6, 47.1], "service": 10, "delivery": [4], "time_windows": [[0, 500]]},
        {"id": 12, "location": [9.7, 47.1], "service": 10, "delivery": [5], "time_windows": [[150, 300]]},
        {"id": 13, "location": [9.5, 47.2], "service": 10, "delivery": [6]}]}
DUR = [[0, 50, 90, 40], [50, 0, 45, 60], [90, 45, 0, 95], [40, 60, 95, 0]]
DIST = [[10 * x for x in row] for row in DUR]


class Fleet(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        self.path = self.dir / "m.json"
        self.path.write_text(json.dumps(with_matrices(SCENARIO, DUR, DIST)))
        self.p = read_fleet(self.path)

    def tearDown(self):
        self.tmp.cleanup()

    def route(self, vehicle, *steps):
        return {"vehicle": vehicle, "steps": [list(s) for s in steps]}

    def test_points_and_indices(self):
        self.assertEqual(points_of(SCENARIO), [[9.5, 47.1], [9.6, 47.1], [9.7, 47.1], [9.5, 47.2]])
        d = json.loads(self.path.read_text())
        self.assertEqual((d["vehicles"][1]["start_index"], d["jobs"][2]["location_index"]), (0, 3))
        self.assertNotIn("location", d["jobs"][0])

    def test_schedule_with_a_break_and_a_window(self):
        rp = replay_fleet(self.p, [self.route(1, ("job", 11), ("break", 7), ("job", 12)),
                                   self.route(2, ("job", 13))])
        self.assertEqual((rp.violations, rp.unassigned), ([], []))
        r = rp.routes[0]
        # 11 at 50, leaves 60; break waits to 100, leaves 130; 12 at 175; back at 185 + 90.
        self.assertEqual([(s.kind, s.arrival, s.waiting) for s in r.steps],
                         [("job", 50, 0), ("break", 60, 40), ("job", 175, 0)])
        self.assertEqual((r.duration, r.end_arrival, r.start_load), (50 + 45 + 90, 275, [9]))
        self.assertEqual(rp.cost, 185 + 80)
        self.assertEqual(rp.distance, 10 * rp.cost)

    def test_violations(self):
        no_break = replay_fleet(self.p, [self.route(1, ("job", 11), ("job", 12), ("job", 13))])
        self.assertTrue(any("break" in v for v in no_break.violations))
        self.assertTrue(any("capacity" in v for v in no_break.violations))
        ok = replay_fleet(self.p, [self.route(2, ("job", 11), ("job", 12))])
        self.assertEqual(ok.violations, [])  # 12 reached at 50 + 10 + 45 = 105, waits to 150
        self.p.jobs[1].windows[:] = [(0, 100)]
        late = replay_fleet(self.p, [self.route(2, ("job", 11), ("job", 12))])
        self.assertTrue(any("job 12" in v and "after its windows" in v for v in late.violations))
        twice = replay_fleet(self.p, [self.route(2, ("job", 11)), self.route(1, ("job", 11))])
        self.assertTrue(any("already served" in v for v in twice.violations))
        self.assertEqual(twice.unassigned, [12, 13])

    def test_solution_round_trip(self):
        routes = [self.route(1, ("job", 11), ("break", 7), ("job", 12)), self.route(2, ("job", 13))]
        sol = fleet_solution(self.p, replay_fleet(self.p, routes))
        self.assertEqual(fleet_routes_from_vroom(sol), routes)
        self.assertEqual(sol["summary"]["cost"], 265)
        self.assertEqual([s["load"] for s in sol["routes"][0]["steps"]], [[9], [5], [5], [0], [0]])

    def test_breaks_placed_after_a_solve_without_them(self):
        # Before job 11 the 30 s break fits (waits to 100; 11 at 180, 12 at 235 <= 300).
        placed, missing = place_breaks(self.p, self.route(1, ("job", 11), ("job", 12)))
        self.assertEqual((placed, missing), (self.route(1, ("break", 7), ("job", 11), ("job", 12)), []))
        # 200 s: before 12 it pushes 12 to 390 > 300; after 12 (at 160, in [100, 200]) it fits.
        self.p.vehicle(1).breaks[0] = (7, [(100, 200)], 200)
        placed, missing = place_breaks(self.p, self.route(1, ("job", 12)))
        self.assertEqual((placed, missing), (self.route(1, ("job", 12), ("break", 7)), []))
        # Window [900, 950]: 200 s from 900 ends past the shift's 1000 wherever it goes.
        self.p.vehicle(1).breaks[0] = (7, [(900, 950)], 200)
        placed, missing = place_breaks(self.p, self.route(1, ("break", 7), ("job", 12)))
        self.assertEqual((placed, missing), (self.route(1, ("job", 12)), [7]))
        self.assertTrue(replay_fleet(self.p, [placed]).violations)

    def test_what_the_peers_cannot_model_is_not_supported(self):
        a = SimpleNamespace(time_limit=1.0, seed=1)
        self.p.jobs[0].windows[:] = [(0, 100), (300, 500)]
        with self.assertRaisesRegex(Unsupported, "PyVRP: job 11 has 2 time windows"):
            run_pyvrp_fleet(self.p, a)
        self.p.jobs[1].pickup[:] = [2]
        with self.assertRaisesRegex(Unsupported, "OR-Tools: jobs with pickups"):
            run_ortools_fleet(self.p, a, "PARALLEL_CHEAPEST_INSERTION", "GUIDED_LOCAL_SEARCH")

    @unittest.skipUnless(HAVE_PEERS, "PyVRP and OR-Tools: run with build/peers-venv/bin/python")
    def test_pyvrp_and_ortools_solve_the_scenario_with_its_break(self):
        a = SimpleNamespace(time_limit=1.0, seed=1)
        for name, out in [("pyvrp", run_pyvrp_fleet(self.p, a)),
                          ("ortools", run_ortools_fleet(self.p, a, "PARALLEL_CHEAPEST_INSERTION",
                                                        "GUIDED_LOCAL_SEARCH"))]:
            self.assertEqual(out["status"], "ok", name)
            rp = replay_fleet(self.p, out["routes"])
            self.assertEqual((rp.violations, rp.unassigned), ([], []), name)
            steps = [s for r in out["routes"] for s in r["steps"]]
            self.assertEqual(sorted(i for t, i in steps if t == "job"), [11, 12, 13], name)
            used = {r["vehicle"] for r in out["routes"]}
            self.assertEqual(["break", 7] in steps, 1 in used, name)  # vehicle 1 takes its break
            self.assertEqual(out["reported_cost"], rp.cost, name)

    @unittest.skipUnless(os.environ.get("PEERS_TEST_ROUTESOLVE"), "PEERS_TEST_ROUTESOLVE not set")
    def test_routesolve_validate_agrees(self):
        exe = os.environ["PEERS_TEST_ROUTESOLVE"]
        cases = [([self.route(1, ("job", 11), ("break", 7), ("job", 12)), self.route(2, ("job", 13))], 0),
                 ([self.route(1, ("job", 11), ("job", 12)), self.route(2, ("job", 13))], 1),  # no break
                 ([self.route(2, ("job", 11), ("job", 12), ("job", 13))], 1)]  # over capacity
        for routes, expected in cases:
            sol = self.dir / "sol.json"
            sol.write_text(json.dumps(fleet_solution(self.p, replay_fleet(self.p, routes))))
            v = subprocess.run([exe, "validate", str(self.path), str(sol), "-q"],
                               capture_output=True, text=True)
            self.assertEqual(v.returncode, expected, f"{routes}: {v.stdout}{v.stderr}")


if __name__ == "__main__":
    unittest.main()
