#!/usr/bin/env python3
"""Tests of benchmarks/suites/quality/quality against a stub routesolve and a tiny synthetic datasets folder:
gap arithmetic, bks name mapping, the arguments each set passes, and that every kind of
infeasibility (validator violation, unassigned task, too many routes, tool failure) gives a
non-zero exit. Standard library only; no build or real datasets needed.

    python3 benchmarks/suites/quality/quality_test.py
"""

import csv
import json
import os
import stat
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

HARNESS = Path(__file__).resolve().parent / "quality"

STUB = textwrap.dedent("""\
    #!/usr/bin/env python3
    # Stub routesolve: behaviour from STUB_MODE, every call logged to STUB_LOG.
    import json, os, sys
    mode = os.environ.get("STUB_MODE", "ok")
    with open(os.environ["STUB_LOG"], "a") as log:
        log.write(json.dumps(sys.argv[1:]) + "\\n")
    cmd = sys.argv[1]
    if cmd == "solve":
        if mode == "crash":
            print("internal error", file=sys.stderr)
            sys.exit(1)
        out = sys.argv[sys.argv.index("-o") + 1]
        routes = 2 if mode == "toomany" else 1
        summary = {"cost": float(os.environ.get("STUB_COST", "105")),
                   "distance": float(os.environ.get("STUB_DISTANCE", "105")),
                   "routes": routes, "unassigned": 1 if mode == "unassigned" else 0}
        with open(out, "w") as f:
            json.dump({"code": 0, "summary": summary, "unassigned": [], "routes": []}, f)
        sys.exit(0)
    if cmd == "validate":
        if mode == "invalid":
            print("sol.json: 1 violation(s)\\nroutes[0]: capacity exceeded")
            sys.exit(1)
        sys.exit(0)
    sys.exit(2)
    """)

VRP = "NAME : {name}\r\nTYPE : CVRP\r\nDIMENSION : \t4\t\r\nEDGE_WEIGHT_TYPE : EUC_2D\r\n" \
      "CAPACITY : 10\r\nNODE_COORD_SECTION\r\n1 0 0\r\n2 1 0\r\n3 0 1\r\n4 1 1\r\n" \
      "DEMAND_SECTION\r\n1 0\r\n2 1\r\n3 1\r\n4 1\r\nDEPOT_SECTION\r\n1\r\n-1\r\nEOF\r\n"

SOLOMON = ("C999\n\nVEHICLE\nNUMBER     CAPACITY\n  1         200\n\nCUSTOMER\n"
           "CUST NO.  XCOORD.   YCOORD.    DEMAND   READY TIME  DUE DATE   SERVICE   TIME\n\n"
           "    0      40         50          0          0       1236          0\n"
           "    1      45         68         10        912        967         90\n"
           "    2      45         70         30        825        870         90\n")

LILIM = "2\t200\t1\n0\t40\t50\t0\t0\t1236\t0\t0\t0\n1\t45\t68\t-10\t912\t967\t90\t2\t0\n" \
        "2\t45\t70\t10\t825\t870\t90\t0\t1\n"


class QualityHarnessTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="quality-test-")
        root = Path(self.tmp.name)
        self.data = root / "datasets"
        a = self.data / "cvrp/augerat/A"
        a.mkdir(parents=True)
        for name in ("A-n9-k1", "A-n10-k1"):
            (a / f"{name}.vrp").write_text(VRP.format(name=name))
        (self.data / "cvrp/augerat/bks.csv").write_text(
            "instance,bks_cost,source\nA/A-n9-k1,100,test\nA/A-n10-k1,200,test\n")
        sol = self.data / "vrptw/solomon"
        sol.mkdir(parents=True)
        (sol / "C999.txt").write_text(SOLOMON)
        (sol / "bks_distance_only.csv").write_text("instance,bks_cost,source\nC999,100.0,test\n")
        gh = self.data / "vrptw/gehring_homberger"
        gh.mkdir(parents=True)
        (gh / "c9_2_1.txt").write_text(SOLOMON.replace("  1         200", "  5         200"))
        (gh / "c9_4_1.txt").write_text(SOLOMON)  # a 400 file: not part of gh200
        (gh / "bks.csv").write_text("instance,bks_cost,source\nC9_2_1,100.0000,test\n")
        (gh / "bks_detailed.csv").write_text("instance,customers,vehicles,distance\n"
                                             "C9_2_1,2,1,100.0000\n")
        ll = self.data / "pdptw/li_lim"
        ll.mkdir(parents=True)
        (ll / "lc999.txt").write_text(LILIM)
        (ll / "lc9_2_1.txt").write_text(LILIM)  # a 200-customer file: not part of lilim
        (ll / "bks.csv").write_text("instance,bks_cost,source\nlc999,50.0,test\n")
        (ll / "bks_detailed.csv").write_text("instance,customers,vehicles,distance\n"
                                             "lc999,2,1,50.0\n")
        self.stub = root / "routesolve"
        self.stub.write_text(STUB)
        self.stub.chmod(self.stub.stat().st_mode | stat.S_IXUSR)
        self.log = root / "calls.log"
        self.csv = root / "out.csv"

    def tearDown(self):
        self.tmp.cleanup()

    def run_harness(self, *args, mode="ok", datasets=None, **env):
        e = dict(os.environ, STUB_MODE=mode, STUB_LOG=str(self.log), **env)
        cmd = [sys.executable, str(HARNESS), *args, "--routesolve", str(self.stub),
               "--datasets", str(datasets or self.data), "--csv", str(self.csv)]
        p = subprocess.run(cmd, capture_output=True, text=True, env=e, timeout=60)
        rows = self.read_csv(self.csv) if self.csv.exists() else []
        return p, rows

    @staticmethod
    def read_csv(path):
        with path.open(newline="") as f:
            return list(csv.DictReader(f))

    def calls(self):
        return [json.loads(line) for line in self.log.read_text().splitlines()]

    def test_feasible_run_reports_gap_and_exits_zero(self):
        p, rows = self.run_harness("augerat", "--time-limit", "0.5", STUB_COST="105")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual([r["instance"] for r in rows], ["A/A-n9-k1", "A/A-n10-k1"])  # natural order
        self.assertEqual([r["n"] for r in rows], ["3", "3"])
        self.assertEqual([float(r["gap_pct"]) for r in rows], [5.0, -47.5])
        self.assertTrue(all(r["feasible"] == "yes" for r in rows))
        summary = self.read_csv(self.csv.with_name("out.summary.csv"))
        self.assertAlmostEqual(float(summary[0]["mean_gap_pct"]), -21.25)
        self.assertAlmostEqual(float(summary[0]["worst_gap_pct"]), 5.0)
        self.assertIn("mean gap -21.25%", p.stdout)
        solve = [c for c in self.calls() if c[0] == "solve"][0]
        self.assertIn("--time-limit", solve)
        self.assertEqual(solve[solve.index("--time-limit") + 1], "0.5")
        self.assertEqual(solve[solve.index("--threads") + 1], "1")
        self.assertEqual(solve[solve.index("--format") + 1], "cvrplib")

    def test_limit_and_filter(self):
        p, rows = self.run_harness("augerat", "--limit", "1")
        self.assertEqual([r["instance"] for r in rows], ["A/A-n9-k1"])
        p, rows = self.run_harness("augerat", "--filter", "n10")
        self.assertEqual([r["instance"] for r in rows], ["A/A-n10-k1"])

    def test_validator_violation_is_infeasible(self):
        p, rows = self.run_harness("augerat", mode="invalid")
        self.assertEqual(p.returncode, 1)
        self.assertEqual({r["status"] for r in rows}, {"infeasible"})
        self.assertIn("capacity exceeded", rows[0]["notes"])

    def test_unassigned_task_is_infeasible(self):
        p, rows = self.run_harness("augerat", mode="unassigned")
        self.assertEqual(p.returncode, 1)
        self.assertEqual(rows[0]["feasible"], "no")
        self.assertIn("unassigned", rows[0]["notes"])

    def test_tool_failure_exits_nonzero(self):
        p, rows = self.run_harness("augerat", mode="crash")
        self.assertEqual(p.returncode, 1)
        self.assertEqual(rows[0]["status"], "error")
        self.assertIn("internal error", rows[0]["notes"])

    def test_solomon_truncates_and_checks_fleet(self):
        p, rows = self.run_harness("solomon", STUB_COST="101", STUB_DISTANCE="101")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertAlmostEqual(float(rows[0]["gap_pct"]), 1.0)
        self.assertEqual(rows[0]["n"], "2")
        for call in self.calls():
            self.assertIn("--truncate-distances", call)
        p, rows = self.run_harness("solomon", mode="toomany")
        self.assertEqual(p.returncode, 1)
        self.assertIn("fleet of 1", rows[0]["notes"])

    def test_hierarchical_sets_use_distance_and_bks_vehicles(self):
        p, rows = self.run_harness("lilim", "gh200", STUB_COST="1000", STUB_DISTANCE="55")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual([r["instance"] for r in rows], ["lc999", "C9_2_1"])
        self.assertAlmostEqual(float(rows[0]["gap_pct"]), 10.0)
        self.assertEqual(rows[0]["bks_vehicles"], "1")
        self.assertEqual(rows[0]["n"], "2")
        self.assertEqual(rows[1]["bks_vehicles"], "1")
        for call in self.calls():
            if call[0] == "solve":
                self.assertEqual(call[call.index("--objective") + 1], "vehicles-then-cost")

    def test_missing_datasets_exit_77(self):
        p, _ = self.run_harness("x", datasets=Path(self.tmp.name) / "nowhere")
        self.assertEqual(p.returncode, 77)


if __name__ == "__main__":
    unittest.main(verbosity=2)
