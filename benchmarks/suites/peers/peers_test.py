#!/usr/bin/env python3
"""Tests of benchmarks/suites/peers/peers without the peers' virtual environment or FILO2 built: arc values
(a full matrix and computed when read), the readers, the replay (cost, capacity, windows, pairs,
fleet, missing and repeated tasks), the VROOM solution files it writes, wins and summaries,
--dry-run on a tiny datasets folder, and FILO2's part (its solution files, its command line,
--match-time's order and limits, the peak RSS of a run, exit 77 without its source).
With PEERS_TEST_ROUTESOLVE set to a routesolve binary, the written files are also checked by
`routesolve validate` (CTest passes the built one). Standard library only.

    python3 benchmarks/suites/peers/peers_test.py
"""
import json
import os
import subprocess
import sys
import threading
import unittest
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "lib"))
from peers_model import (Unsupported, bounded_fleet, nint_distance, read_problem, replay,  # noqa: E402
                         routes_from_vroom, truncated_distance, vroom_solution)
import peers_filo2  # noqa: E402
from peers_report import mark_wins, run_figures, set_summary  # noqa: E402
from peers_run import Run, raw_path, run_limit, solve_command  # noqa: E402
from bench_testing import Files  # noqa: E402

# Depot (0,0), customers at (3,4) (5,0) (0,5): arcs 5 everywhere from the depot.
VRP = ("NAME : tiny\nTYPE : CVRP\nDIMENSION : 4\nEDGE_WEIGHT_TYPE : EUC_2D\nCAPACITY : 10\n"
       "NODE_COORD_SECTION\n1 0 0\n2 3 4\n3 5 0\n4 0 5\nDEMAND_SECTION\n1 0\n2 4\n3 5\n4 6\n"
       "DEPOT_SECTION\n1\n-1\nEOF\n")
VRP_FILO2 = VRP.replace("\nTYPE :", "\nCOMMENT : as FILO2 reads it\nTYPE :")  # its header order
SOLOMON = ("TINY\n\nVEHICLE\nNUMBER     CAPACITY\n  2         10\n\nCUSTOMER\n"
           "CUST NO.  XCOORD.   YCOORD.    DEMAND   READY TIME  DUE DATE   SERVICE   TIME\n\n"
           "    0      0          0          0          0        100          0\n"
           "    1      1          1          4         20         30          5\n"
           "    2      2          2          4          0         10          5\n")
LILIM = ("2 10 1\n0 0 0 0 0 1000 0 0 0\n1 3 4 3 0 1000 10 0 2\n2 5 0 -3 0 1000 10 1 0\n")


class Arcs(unittest.TestCase):
    def test_nint_rounds_half_up_exactly(self):
        self.assertEqual(nint_distance(3, 4), 5)
        self.assertEqual(nint_distance(1, 1), 1)  # 1.414
        self.assertEqual(nint_distance(1, 2), 2)  # 2.236
        self.assertEqual(nint_distance(1, 1, 1000), 1414)
        self.assertEqual(nint_distance(2, 3), 4)  # 3.606
        self.assertEqual(nint_distance(0.5, 0), 1)  # fractional coordinates: floor(x + 0.5)

    def test_truncation_to_one_decimal(self):
        self.assertEqual(truncated_distance(1, 1), 14)  # 1.414 -> 1.4
        self.assertEqual(truncated_distance(3, 4), 50)
        self.assertEqual(truncated_distance(1, 2), 22)  # 2.236 -> 2.2


class Readers(Files):
    def test_cvrplib(self):
        p = read_problem(self.write("t.vrp", VRP), "cvrplib", False)
        self.assertEqual((p.kind, p.scale, p.capacity, p.fleet), ("cvrp", 1, 10, 3))
        self.assertEqual(p.dist[0], [0, 5, 5, 5])
        self.assertEqual(p.dist[1][2], nint_distance(2, 4))
        self.assertEqual(p.ids, [1, 2, 3, 4])  # job id = node number
        self.assertEqual(bounded_fleet(p), 3)  # min(3 customers, 2 * 2 + 2)

    def test_cvrplib_without_euclidean_arcs_is_unsupported(self):
        with self.assertRaises(Unsupported):
            read_problem(self.write("t.vrp", VRP.replace("EUC_2D", "GEO")), "cvrplib", False)

    def test_solomon_truncated_and_exact(self):
        path = self.write("t.txt", SOLOMON)
        p = read_problem(path, "solomon", True)
        self.assertEqual((p.kind, p.scale, p.fleet, p.capacity), ("vrptw", 10, 2, 10))
        self.assertEqual(p.dist[0][1], 14)
        self.assertEqual(p.tw[1], (200, 300))
        self.assertEqual(p.service[1], 50)
        exact = read_problem(path, "solomon", False)
        self.assertEqual((exact.scale, exact.dist[0][1], exact.tw[1]), (1000, 1414, (20000, 30000)))

    def test_lazy_arcs_are_the_matrix(self):
        for name, text, fmt, truncate in (("t.vrp", VRP, "cvrplib", False),
                                          ("s.txt", SOLOMON, "solomon", True),
                                          ("l.txt", LILIM, "lilim", False)):
            path = self.write(name, text)
            full, lazy = read_problem(path, fmt, truncate), read_problem(path, fmt, truncate, lazy_arcs=True)
            self.assertEqual([list(row) for row in lazy.dist], full.dist)
            self.assertEqual(lazy.upper_bound(), full.upper_bound())
        with self.assertRaises(IndexError):
            lazy.dist[0][len(full.dist)]

    def test_lilim_pairs(self):
        p = read_problem(self.write("t.txt", LILIM), "lilim", False)
        self.assertEqual(p.pairs(), [(1, 2)])
        self.assertEqual([p.task_type(1), p.task_type(2)], ["pickup", "delivery"])


class Replay(Files):
    def cvrp(self):
        return read_problem(self.write("t.vrp", VRP), "cvrplib", False)

    def test_cost_and_loads(self):
        p = self.cvrp()
        rp = replay(p, [[1, 2], [3], []])  # empty routes are dropped
        self.assertTrue(rp.feasible, rp.violations)
        self.assertEqual(rp.vehicles, 2)
        self.assertEqual(rp.cost, 5 + nint_distance(2, 4) + 5 + 10)
        self.assertEqual(rp.routes[0].start_load, 9)
        self.assertEqual([s.load for s in rp.routes[0].stops], [5, 0])

    def test_capacity_missing_repeated_and_fleet(self):
        p = self.cvrp()
        self.assertTrue(any("capacity" in v for v in replay(p, [[1, 2, 3]]).violations))
        self.assertEqual(replay(p, [[1]]).unassigned, [2, 3])
        self.assertTrue(any("already served" in v for v in replay(p, [[1, 2], [2, 3]]).violations))
        p.fleet = 1
        self.assertTrue(any("fleet" in v for v in replay(p, [[1], [2, 3]]).violations))

    def test_time_windows(self):
        p = read_problem(self.write("t.txt", SOLOMON), "solomon", True)
        ok = replay(p, [[2, 1]])  # 2 at 28 (window 0..100), 1 at 28+50+14=92 -> waits to 200
        self.assertTrue(ok.feasible, ok.violations)
        self.assertEqual([(s.arrival, s.waiting) for s in ok.routes[0].stops], [(28, 0), (92, 108)])
        late = replay(p, [[1, 2]])  # 1 served 200..250, 2 reached at 264 > 100
        self.assertTrue(any("node 2" in v and "due" in v for v in late.violations))

    def test_pairs(self):
        p = read_problem(self.write("t.txt", LILIM), "lilim", False)
        self.assertTrue(replay(p, [[1, 2]]).feasible)
        self.assertTrue(any("not earlier" in v for v in replay(p, [[2, 1]]).violations))
        split = replay(p, [[1], [2]])
        self.assertTrue(any("not on the route" in v for v in split.violations))


class VroomFiles(Files):
    def test_figures_and_ids(self):
        p = read_problem(self.write("t.txt", SOLOMON), "solomon", True)
        sol = vroom_solution(p, replay(p, [[2, 1]]))
        route = sol["routes"][0]
        self.assertEqual([s["type"] for s in route["steps"]], ["start", "job", "job", "end"])
        self.assertEqual([s.get("id") for s in route["steps"][1:3]], [2, 1])
        self.assertEqual(route["steps"][2]["arrival"], 9.2)
        self.assertEqual(route["steps"][2]["waiting_time"], 10.8)
        self.assertEqual([s["load"] for s in route["steps"]], [[8], [4], [0], [0]])
        self.assertEqual(route["distance"], (28 + 14 + 14) / 10)
        self.assertEqual(sol["summary"]["cost"], route["cost"])
        self.assertEqual(sol["summary"]["delivery"], [8])

    def test_unassigned_and_round_trip(self):
        p = read_problem(self.write("t.txt", LILIM), "lilim", False)
        sol = vroom_solution(p, replay(p, []))
        self.assertEqual(sol["unassigned"], [{"id": 1, "type": "pickup"},
                                             {"id": 2, "type": "delivery"}])
        full = vroom_solution(p, replay(p, [[1, 2]]))
        self.assertEqual(routes_from_vroom(p, full), [[1, 2]])
        self.assertEqual([s["load"] for s in full["routes"][0]["steps"]], [[0], [3], [0], [0]])

    @unittest.skipUnless(os.environ.get("PEERS_TEST_ROUTESOLVE"), "PEERS_TEST_ROUTESOLVE not set")
    def test_routesolve_validate_agrees(self):
        exe = os.environ["PEERS_TEST_ROUTESOLVE"]
        cases = [("t.vrp", VRP, "cvrplib", [], [[1, 2], [3]], 0),
                 ("t.vrp", VRP, "cvrplib", [], [[1, 2, 3]], 1),  # over capacity
                 ("s.txt", SOLOMON, "solomon", ["--truncate-distances"], [[2, 1]], 0),
                 ("s.txt", SOLOMON, "solomon", ["--truncate-distances"], [[1, 2]], 1),  # late
                 ("l.txt", LILIM, "lilim", [], [[1, 2]], 0),
                 ("l.txt", LILIM, "lilim", [], [[2, 1]], 1)]  # delivery first
        for name, text, fmt, extra, routes, expected in cases:
            path = self.write(name, text)
            p = read_problem(path, fmt, bool(extra))
            sol = self.write("sol.json", json.dumps(vroom_solution(p, replay(p, routes))))
            v = subprocess.run([exe, "validate", str(path), str(sol), "--format", fmt, "-q", *extra],
                               capture_output=True, text=True)
            self.assertEqual(v.returncode, expected, f"{name} {routes}: {v.stdout}{v.stderr}")


def fake_run(inst, solver, cost, vehicles=1, status="ok", gap=None):
    return SimpleNamespace(inst=SimpleNamespace(name=inst), solver=solver, cost=cost,
                           vehicles=vehicles, status=status, gap=gap, won=False, version="v",
                           seconds=1.0, feasible=status == "ok")


class Report(unittest.TestCase):
    def test_wins_share_ties_and_skip_infeasible(self):
        runs = [fake_run("a", "r", 10), fake_run("a", "p", 10), fake_run("a", "o", 5, status="infeasible")]
        mark_wins(runs, False)
        self.assertEqual([r.won for r in runs], [True, True, False])

    def test_hierarchical_wins_on_vehicles_first(self):
        runs = [fake_run("a", "r", 100, vehicles=9), fake_run("a", "p", 90, vehicles=10)]
        mark_wins(runs, True)
        self.assertEqual([r.won for r in runs], [True, False])

    def test_summary_common_instances(self):
        insts = [SimpleNamespace(name="a"), SimpleNamespace(name="b")]
        runs = [fake_run("a", "r", 10, gap=1.0), fake_run("a", "p", 11, gap=2.0),
                fake_run("b", "r", 10, gap=3.0), fake_run("b", "p", 0, status="infeasible"),
                fake_run("a", "v", 0, status="not supported"),
                fake_run("b", "v", 0, status="not supported")]
        s = set_summary(SimpleNamespace(hierarchical=False), insts, runs, ["r", "p", "v"])
        self.assertEqual((s["r"]["mean_gap"], s["r"]["common_gap"], s["r"]["common"]), (2.0, 1.0, 1))
        self.assertEqual((s["p"]["infeasible"], s["p"]["wins"]), (1, 0))
        self.assertEqual((s["r"]["wins"], s["v"]["not_supported"], s["v"]["common"]), (2, 2, 0))


class DryRun(Files):
    def run_peers(self, *args):
        return subprocess.run([sys.executable, str(HERE / "peers"), *args], capture_output=True,
                              text=True, timeout=60)

    def test_lists_every_solver_run(self):
        self.write("cvrp/augerat/A/A-n4-k1.vrp", VRP)
        self.write("cvrp/augerat/bks.csv", "instance,bks_cost,source\nA/A-n4-k1,20,test\n")
        r = self.run_peers("--sets", "augerat", "--datasets", str(self.dir), "--dry-run",
                           "--time-limit", "2", "--venv", str(self.dir / "venv"))
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = [ln for ln in r.stdout.splitlines() if "A-n4-k1.vrp" in ln]
        self.assertEqual(len(lines), 4)
        self.assertIn("--threads 1", lines[0])
        self.assertTrue(all("--time-limit 2" in ln for ln in lines))
        self.assertFalse((self.dir / "venv").exists())  # nothing installed

    def test_vehicles_then_distance_commands(self):
        self.write("vrptw/solomon/R101.txt", SOLOMON)
        self.write("vrptw/solomon/bks.csv", "instance,bks_cost,source\nR101,20,test\n")
        self.write("vrptw/solomon/bks_distance_only.csv", "instance,bks_cost,source\nR101,19,test\n")
        self.write("vrptw/solomon/bks_detailed.csv", "instance,sintef_vehicles\nR101,2\n")
        r = self.run_peers("--sets", "solomon,solomonvtc", "--datasets", str(self.dir), "--dry-run",
                           "--time-limit", "2", "--solvers", "routesolve,pyvrp")
        self.assertEqual(r.returncode, 0, r.stderr)
        runs = [ln for ln in r.stdout.splitlines() if "R101.txt" in ln]
        vtc = runs[-2:]  # the solomonvtc set comes second
        self.assertIn("--objective vehicles-then-cost", vtc[0])
        self.assertNotIn("--truncate-distances", vtc[0])
        self.assertTrue(vtc[1].endswith("--hierarchical"), vtc[1])
        self.assertNotIn("--hierarchical", " ".join(runs[:-2]))

    def test_migration_commands(self):
        r = self.run_peers("--sets", "migration", "--datasets", str(self.dir), "--dry-run",
                           "--migration-sizes", "50x5", "--migration-networks", "city",
                           "--migration-dir", str(self.dir / "mig"), "--time-limit", "3")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = [ln for ln in r.stdout.splitlines() if "city-50x5-s1" in ln]
        self.assertEqual(len(lines), 4)
        self.assertIn("solve " + str(self.dir / "mig" / "city-50x5-s1.json") + " --network "
                      + str(self.dir / "mig" / "city.rsnet"), lines[0])
        self.assertIn("peers_worker.py vroom " + str(self.dir / "mig" / "city-50x5-s1.matrix.json")
                      + " --format vroom", lines[3])
        self.assertEqual(self.run_peers("--sets", "migration", "--migration-sizes", "5y", "--dry-run",
                                        "--datasets", str(self.dir)).returncode, 2)

    def test_missing_datasets_and_bad_solver(self):
        self.assertEqual(self.run_peers("--datasets", str(self.dir / "none")).returncode, 77)
        self.assertEqual(self.run_peers("--solvers", "gurobi", "--dry-run").returncode, 2)


class Filo2Solution(Files):
    SOL = "Route #1: 1 2\r\nRoute #2: 3\r\nCost 30\r\n"  # as FILO2 and CVRPLIB write them

    def test_routes_and_cost_replay(self):
        routes, cost = peers_filo2.read_solution(self.SOL, 4)
        self.assertEqual((routes, cost), ([[1, 2], [3]], 30))
        p = read_problem(self.write("t.vrp", VRP), "cvrplib", False)
        rp = replay(p, routes)
        self.assertTrue(rp.feasible, rp.violations)
        self.assertEqual(rp.cost, 5 + nint_distance(2, 4) + 5 + 10)
        self.assertEqual(peers_filo2.read_solution("Route #1: 3 1 2\nCost 294463.000000", 4),
                         ([[3, 1, 2]], 294463))

    def test_bad_files_are_errors(self):
        for text in ("Route #1: 0 1\nCost 5", "Route #1: 4\n", "Route #1: 1 x\n", "Vehicles 3\n"):
            with self.assertRaises(ValueError, msg=text):
                peers_filo2.read_solution(text, 4)

    def test_own_seconds_and_header_check(self):
        self.assertEqual(peers_filo2.reported_seconds(self.write("a.out", "294463\t112\n")), 112.0)
        self.assertIsNone(peers_filo2.reported_seconds(self.dir / "none.out"))
        self.assertTrue(peers_filo2.reads(self.write("t.vrp", VRP_FILO2)))
        self.assertFalse(peers_filo2.reads(self.write("t.vrp", VRP)))  # no COMMENT
        swapped = VRP_FILO2.replace("TYPE : CVRP\nDIMENSION : 4\n", "DIMENSION : 4\nTYPE : CVRP\n")
        self.assertFalse(peers_filo2.reads(self.write("u.vrp", swapped)))


def filo2_args(**kw):
    return SimpleNamespace(filo2=Path("/opt/filo2/build/filo2"), seed=3, time_limit=None,
                           routesolve=Path("/bin/routesolve"), **kw)


class Filo2Command(Files):
    def test_defaults_outpath_and_seed(self):
        spec = SimpleNamespace(name="xxl", time_limit=120.0, input_format="cvrplib", solve_args=[])
        run = Run(spec, SimpleNamespace(name="Antwerp2", path=Path("/d/Antwerp2.vrp")), "filo2")
        raw = raw_path(run, Path("/out/xxl/Antwerp2.filo2"), filo2_args())
        self.assertEqual(raw, Path("/out/xxl/Antwerp2.filo2/Antwerp2.vrp_seed-3.vrp.sol"))
        self.assertEqual(solve_command(run, filo2_args(), raw),
                         ["/opt/filo2/build/filo2", "/d/Antwerp2.vrp", "--outpath",
                          "/out/xxl/Antwerp2.filo2/", "--seed", "3"])
        rs = Run(spec, run.inst, "routesolve", time_limit=98.7)
        cmd = solve_command(rs, filo2_args(), Path("/out/r.json"))
        self.assertEqual(cmd[cmd.index("--time-limit") + 1], "98.7")
        self.assertEqual(run_limit(Run(spec, run.inst, "routesolve"), filo2_args()), 120.0)

    def test_dry_run_lists_filo2_first_with_match_time(self):
        self.write("cvrp/augerat/A/A-n4-k1.vrp", VRP_FILO2)
        self.write("cvrp/augerat/bks.csv", "instance,bks_cost,source\nA/A-n4-k1,20,test\n")
        r = run_peers("--sets", "augerat", "--datasets", str(self.dir), "--dry-run",
                      "--solvers", "routesolve,filo2", "--match-time", "filo2",
                      "--filo2-dir", str(self.dir / "f"))
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = [ln for ln in r.stdout.splitlines() if "A-n4-k1" in ln]
        self.assertTrue(lines[0].startswith(str(self.dir / "f" / "build" / "filo2")), lines)
        self.assertIn("--outpath OUT/augerat/A-n4-k1.filo2/ --seed 1", lines[0])
        self.assertIn("filo2's wall time", lines[1])
        self.assertIn(" solve ", lines[2])
        self.assertFalse((self.dir / "f").exists())  # nothing built
        self.write("cvrp/augerat/A/A-n4-k1.vrp", VRP)
        r = run_peers("--sets", "augerat", "--datasets", str(self.dir), "--dry-run",
                      "--solvers", "routesolve,filo2", "--match-time", "filo2")
        lines = [ln for ln in r.stdout.splitlines() if "A-n4-k1" in ln]
        self.assertIn("not supported: FILO2's reader wants the header", lines[0])
        self.assertIn("--time-limit 2 ", lines[1])  # the set's limit: no FILO2 time to match

    def test_every_kth_instance(self):
        for i in range(5):
            self.write(f"cvrp/x/X-n{i + 1}01-k1.vrp", VRP_FILO2)
        self.write("cvrp/x/bks.csv", "instance,bks_cost,source\n")
        r = run_peers("--sets", "x", "--datasets", str(self.dir), "--dry-run", "--every", "2",
                      "--solvers", "filo2")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual([ln.split()[1].rsplit("/", 1)[1] for ln in r.stdout.splitlines()
                          if "--outpath" in ln], ["X-n101-k1.vrp", "X-n301-k1.vrp", "X-n501-k1.vrp"])

    def test_match_time_needs_the_solver(self):
        r = run_peers("--solvers", "routesolve,pyvrp", "--match-time", "filo2", "--dry-run")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--match-time filo2", r.stderr)


def queued(inst, solver):
    return Run(SimpleNamespace(name="x"), SimpleNamespace(name=inst), solver)


class MatchTime(unittest.TestCase):
    def test_limit_is_the_wall_time_to_a_tenth(self):
        self.assertEqual(peers_filo2.matched_limit(118.64), 118.6)
        self.assertEqual(peers_filo2.matched_limit(0.01), 0.1)

    def test_matched_runs_wait_then_go_first(self):
        fa, ra, fb, rb = (queued("a", "filo2"), queued("a", "routesolve"), queued("b", "filo2"),
                          queued("b", "routesolve"))
        q = peers_filo2.RunQueue([fa, ra, fb, rb], "filo2")
        self.assertIs(q.take(), fa)
        self.assertIs(q.take(), fb)  # routesolve of a waits for filo2 of a
        fa.seconds = 101.27
        q.done(fa)
        self.assertIs(q.take(), ra)
        self.assertEqual(ra.time_limit, 101.3)
        fb.status, fb.seconds = "timeout", 3600.0
        q.done(fb)
        self.assertIs(q.take(), rb)
        self.assertEqual((rb.status, rb.time_limit), ("error", None))
        self.assertIn("no time to match", rb.notes[0])
        self.assertIsNone(q.take())

    def test_without_match_in_order_and_unsupported_keeps_the_limit(self):
        runs = [queued("a", "routesolve"), queued("a", "filo2")]
        q = peers_filo2.RunQueue(runs)
        self.assertEqual([q.take(), q.take(), q.take()], [*runs, None])
        f, r = queued("s", "filo2"), queued("s", "routesolve")
        q = peers_filo2.RunQueue([r, f], "filo2")
        self.assertIs(q.take(), f)
        f.status = "not supported"
        q.done(f)
        self.assertIs(q.take(), r)
        self.assertEqual((r.status, r.time_limit), ("ok", None))

    def test_waiting_take_wakes_on_done(self):
        f, r = queued("a", "filo2"), queued("a", "routesolve")
        q = peers_filo2.RunQueue([f, r], "filo2")
        q.take()
        got = []
        t = threading.Thread(target=lambda: got.append(q.take()))
        t.start()
        f.seconds = 2.0
        q.done(f)
        t.join(5)
        self.assertEqual(got, [r])
        self.assertEqual(run_figures(r), "routesolve 0.0 (-) / -, limit 2 s")


class PeakRss(unittest.TestCase):
    def test_measured_per_child_and_timeout(self):
        touch = "b = bytearray(64 << 20); b[::4096] = b'x' * len(b[::4096])"  # 64 MiB resident
        proc = subprocess.Popen([sys.executable, "-c", touch])
        timed_out, rss, cpu = peers_filo2.wait_measured(proc, 60)
        self.assertEqual((timed_out, proc.returncode), (False, 0))
        self.assertGreater(rss, 64)
        self.assertGreater(cpu, 0.0)
        proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
        timed_out, _, _ = peers_filo2.wait_measured(proc, 0.2)
        self.assertTrue(timed_out)
        self.assertNotEqual(proc.returncode, 0)


class Filo2Source(Files):
    def peers(self, *args, env=None):
        self.write("cvrp/augerat/A/A-n4-k1.vrp", VRP)
        self.write("cvrp/augerat/bks.csv", "instance,bks_cost,source\nA/A-n4-k1,20,test\n")
        return run_peers("--sets", "augerat", "--datasets", str(self.dir), "--solvers", "filo2",
                         "--routesolve", sys.executable, "--filo2-dir", str(self.dir / "f"), *args,
                         env={k: v for k, v in os.environ.items() if k != peers_filo2.SOURCE_ENV}
                         | (env or {}))

    def test_missing_source_exits_77_saying_how_to_get_it(self):
        r = self.peers()
        self.assertEqual(r.returncode, 77, r.stdout + r.stderr)
        for words in ("git clone https://github.com/acco93/filo2", "--filo2-source",
                      peers_filo2.SOURCE_ENV, str(self.dir / "f")):
            self.assertIn(words, r.stderr)
        self.assertEqual(r.stdout, "")

    def test_a_source_that_is_not_filo2_is_a_usage_error(self):
        self.write("notfilo2/readme.md", "x")
        r = self.peers(env={peers_filo2.SOURCE_ENV: str(self.dir / "notfilo2")})
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("neither a FILO2 source tree", r.stderr)
        self.assertEqual(peers_filo2.source_kind(self.dir), None)
        self.write("tree/CMakeLists.txt", "")
        self.write("tree/main.cpp", "")
        self.assertEqual(peers_filo2.source_kind(self.dir / "tree"), "tree")

    def test_a_build_is_reused(self):
        folder = self.dir / "f"
        exe = self.write("f/build/filo2", "", 0o755)
        self.write("f/peers-filo2.json", json.dumps({"source": "ffee4ce1b445", "cmake_flags":
                                                     peers_filo2.CMAKE_FLAGS}))
        self.assertEqual(peers_filo2.ensure_filo2(folder, None), (exe, "ffee4ce", 0))
        self.write("f/peers-filo2.json", json.dumps({"source": "ffee4ce1b445", "cmake_flags": []}))
        self.assertIsNone(peers_filo2.built_id(folder))  # other flags: built again


def run_peers(*args, env=None):
    return subprocess.run([sys.executable, str(HERE / "peers"), *args], capture_output=True,
                          text=True, timeout=60, env=env)


if __name__ == "__main__":
    unittest.main()
