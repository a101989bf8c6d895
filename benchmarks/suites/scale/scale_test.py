#!/usr/bin/env python3
"""Tests of benchmarks/suites/scale/scale's PyVRP comparison without PyVRP: its arguments, (routesolve - PyVRP)
/ PyVRP and the summary per backend, the table's PyVRP cells, the best-known lookup, and a PyVRP
run through a stub worker whose solutions are checked as benchmarks/suites/peers/peers checks them (with
PEERS_TEST_ROUTESOLVE set, by that routesolve's `validate`; else by a stub that accepts). Standard
library only.

    python3 benchmarks/suites/scale/scale_test.py
"""
import json
import os
import sys
import unittest
from importlib.machinery import SourceFileLoader
from importlib.util import module_from_spec, spec_from_loader
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

HERE = Path(__file__).resolve().parent
_loader = SourceFileLoader("scale", str(HERE / "scale"))
scale = module_from_spec(spec_from_loader("scale", _loader))
_loader.exec_module(scale)
sys.path.insert(0, str(HERE.parents[1] / "lib"))
from bench_testing import Files  # noqa: E402

# Depot (0,0), customers at (3,4) (5,0) (0,5) with demands 4, 5, 6 and capacity 10: arcs 5 from
# the depot, [[1, 2], [3]] costs 5 + 4 + 5 + 10 = 24.
VRP = ("NAME : tiny\nTYPE : CVRP\nDIMENSION : 4\nEDGE_WEIGHT_TYPE : EUC_2D\nCAPACITY : 10\n"
       "NODE_COORD_SECTION\n1 0 0\n2 3 4\n3 5 0\n4 0 5\nDEMAND_SECTION\n1 0\n2 4\n3 5\n4 6\n"
       "DEPOT_SECTION\n1\n-1\nEOF\n")
# Writes RESULT.json as peers_worker.py does, with the routes of STUB_ROUTES.
WORKER = ("#!{python}\nimport json, os, sys\nout = sys.argv[sys.argv.index('--out') + 1]\n"
          "json.dump({{'solver': 'pyvrp', 'version': 'stub', 'settings': {{}}, 'status': 'ok', 'message': '',\n"
          "           'routes': json.loads(os.environ['STUB_ROUTES']), 'reported_cost': 24,\n"
          "           'solve_seconds': 0.5}}, open(out, 'w'))\n")


def row(backend="cpu", cost=100.0, pyvrp=None, valid=True, status="ok"):
    r = {"family": "cvrp", "name": "gen-n100", "backend": backend, "valid": valid, "cost": cost,
         "pyvrp_status": status, "pyvrp_notes": [] if status == "ok" else ["replay: route 1: load 15 > capacity 10"]}
    if pyvrp is not None:
        r["pyvrp_cost"] = pyvrp
    r["vs_pyvrp_pct"] = scale.vs_pyvrp(r)
    return r


class Arguments(unittest.TestCase):
    def test_pyvrp_option(self):
        a = scale.parse_args(["--pyvrp", "/tmp/venv", "--cvrp", "300", "--time-limit", "3"])
        self.assertEqual((a.pyvrp, a.cvrp, a.time_limit, a.seed), (Path("/tmp/venv"), "300", 3.0, 1))
        self.assertIsNone(scale.parse_args([]).pyvrp)

    def test_pyvrp_is_not_for_mpi(self):
        with mock.patch("sys.stderr"), self.assertRaises(SystemExit):
            scale.parse_args(["--pyvrp", "/tmp/venv", "--mpi"])


class Comparison(unittest.TestCase):
    def test_relative_difference_needs_two_valid_solutions(self):
        self.assertAlmostEqual(row(cost=98.0, pyvrp=100)["vs_pyvrp_pct"], -2.0)
        self.assertAlmostEqual(row(cost=105.0, pyvrp=100)["vs_pyvrp_pct"], 5.0)
        self.assertIsNone(row(cost=98.0, pyvrp=100, valid=False)["vs_pyvrp_pct"])
        self.assertIsNone(row(cost=98.0, status="infeasible")["vs_pyvrp_pct"])

    def test_summary_per_backend(self):
        rows = [row(cost=98.0, pyvrp=100), row(cost=110.0, pyvrp=100), row(cost=50.0, pyvrp=50),
                row(cost=90.0, status="infeasible"), row("cuda", cost=99.0, pyvrp=100),
                {"family": "fleet", "name": "fleet-500x50", "backend": "cpu", "valid": True, "cost": 1.0}]
        s = scale.pyvrp_summary(rows)
        self.assertEqual(s["cpu"], {"compared": 3, "mean_pct": (-2.0 + 10.0 + 0.0) / 3, "routesolve_won": 1,
                                    "pyvrp_won": 1, "ties": 1, "not_counted": 1})
        self.assertEqual((s["cuda"]["compared"], s["cuda"]["routesolve_won"]), (1, 1))
        lines = scale.summary_lines(s)
        self.assertIn("mean +2.67% over 3 CVRP instance(s); routesolve won 1 of 3, PyVRP 1, ties 1", lines[0])
        self.assertIn("not counted: 1", lines[0])
        self.assertIn("no CVRP instance", scale.summary_lines(scale.pyvrp_summary([row(status="error")]))[0])

    def test_cells(self):
        r = row(cost=98.0, pyvrp=100)
        r.update(pyvrp_wall=3.4, pyvrp_solve_seconds=3.0, pyvrp_rss_mib=60, bks=None, bks_source="none (generated)")
        self.assertEqual(scale.pyvrp_cells(r), " 100 | 3.4 (3.0) | 60 | -2.00% | none (generated) | - | - |")
        bad = row(status="infeasible")
        self.assertTrue(scale.pyvrp_cells(bad).startswith(" INVALID (replay: route 1: load 15"))
        self.assertEqual(scale.pyvrp_cells({"backend": "cpu"}).count("-"), 7)


class BestKnown(Files):
    def test_bks_csv_of_the_set_then_sol_beside_the_file(self):
        x = self.write("data/cvrp/x/X-n4-k2.vrp", VRP)
        self.write("data/cvrp/x/bks.csv", "instance,bks_cost,source\nX-n4-k2,24,test\n")
        self.write("data/cvrp/x/X-n4-k2.sol", "Route #1: 1 2\nCost 30\n")
        self.assertEqual(scale.best_known(x, self.dir / "data"), (24.0, "cvrp/x/bks.csv"))
        other = self.write("xxl/Leuven1.vrp", VRP)
        self.assertIsNone(scale.best_known(other, self.dir / "data"))
        self.write("xxl/Leuven1.sol", "Route #1: 1 2 3\nCost 192848\n")
        self.assertEqual(scale.best_known(other, self.dir / "data"), (192848.0, "Leuven1.sol"))


class PyVRPRun(Files):
    def run_stub(self, routes):
        vrp = self.write("work/tiny.vrp", VRP)
        python = self.write("venv/bin/python", WORKER.format(python=sys.executable), 0o755)
        tool = os.environ.get("PEERS_TEST_ROUTESOLVE") or self.write("routesolve", "#!/bin/sh\nexit 0\n", 0o755)
        args = SimpleNamespace(time_limit=1.0, seed=1, routesolve=tool)
        with mock.patch.dict(os.environ, {"STUB_ROUTES": json.dumps(routes)}):
            return scale.solve_pyvrp(python, "tiny", vrp, 20.0, args, self.dir / "work")

    def test_valid_solution_cost_recomputed(self):
        out = self.run_stub([[1, 2], [3]])
        self.assertEqual(out["pyvrp_status"], "ok", out["pyvrp_notes"])
        self.assertEqual((out["pyvrp_cost"], out["pyvrp_routes"], out["pyvrp_solve_seconds"]), (24, 2, 0.5))
        self.assertAlmostEqual(out["pyvrp_gap_pct"], 20.0)
        self.assertGreater(out["pyvrp_wall"], 0.0)
        self.assertTrue((self.dir / "work/tiny.pyvrp.json").exists())  # the checked solution

    def test_invalid_solution_is_reported_and_not_counted(self):
        for routes in ([[1, 2, 3]], [[1, 2]], [[1, 2], [2, 3]]):  # capacity, a customer missing, twice
            out = self.run_stub(routes)
            self.assertEqual(out["pyvrp_status"], "infeasible", routes)
            self.assertNotIn("pyvrp_cost", out)
            self.assertIsNone(scale.vs_pyvrp({"valid": True, "cost": 24.0, **out}))

    def test_skipped_when_the_arcs_would_not_fit(self):
        vrp = self.write("work/tiny.vrp", VRP)
        with mock.patch.object(scale, "memory_available", return_value=100):
            out = scale.solve_pyvrp(self.dir / "none", "tiny", vrp, None, SimpleNamespace(), self.dir)
        self.assertEqual(out["pyvrp_status"], "skipped")
        self.assertIn("4 x 4 arcs", out["pyvrp_notes"][0])


if __name__ == "__main__":
    unittest.main()
