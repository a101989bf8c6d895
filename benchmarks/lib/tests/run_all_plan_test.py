#!/usr/bin/env python3
"""Tests of benchmarks/run-all's plan and duration estimate (run_all_plan.py) on a tiny datasets
folder, and `run-all --estimate`, which prints the estimate and runs nothing. Standard library only."""
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from run_all_plan import estimate, fmt_duration, plan_for  # noqa: E402


class Estimate(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        for i in range(5):  # five Augerat files: --quick takes 4 for quality, 3 for the peers
            (self.dir / "cvrp/augerat/A").mkdir(parents=True, exist_ok=True)
            (self.dir / f"cvrp/augerat/A/A-n{30 + i}-k5.vrp").write_text("")
        (self.dir / "vrptw/solomon").mkdir(parents=True)
        (self.dir / "vrptw/solomon/R101.txt").write_text("")

    def tearDown(self):
        self.tmp.cleanup()

    def test_counts_times_limits_and_repeats(self):
        stages = {name: (sec, how) for name, sec, how in
                  estimate(plan_for(True), self.dir, jobs=2, build=False, venv_ready=True)}
        self.assertNotIn("build", stages)
        # quality: 4 instances x (1 + 2 + 5) s + 0.3 s per run.
        self.assertAlmostEqual(stages["quality"][0], 4 * (8 + 3 * 0.3))
        # peers: (3 augerat + 1 solomon + 1 solomonvtc + 1 migration scenario on the city, the
        # Liechtenstein dataset being absent) x 4 solvers, two at a time.
        self.assertIn("= 24 runs per limit", stages["peers"][1])
        self.assertAlmostEqual(stages["peers"][0], 24 * (8 + 3 * 0.6) / 2)
        # migration: 2 sizes x 1 network x 2 backends x 6 s; scale 4 x 3 s + 5 s.
        self.assertAlmostEqual(stages["migration"][0], 24.0)
        self.assertAlmostEqual(stages["scale"][0], 17.0)

    def test_full_plan_is_longer_and_peers_optional(self):
        quick = sum(s for _, s, _ in estimate(plan_for(True), self.dir))
        full = estimate(plan_for(False), self.dir, peers=False, venv_ready=False)
        self.assertNotIn("peers", [name for name, _, _ in full])
        self.assertGreater(sum(s for _, s, _ in full), quick)
        self.assertEqual((fmt_duration(59), fmt_duration(61), fmt_duration(3 * 3600 + 125)),
                         ("59 s", "1 min 01 s", "3 h 02 min"))

    def test_run_all_estimate_runs_nothing(self):
        build = self.dir / "build"
        r = subprocess.run([sys.executable, str(HERE.parents[1] / "run-all"), "--quick", "--estimate", "--datasets",
                            str(self.dir), "--build-dir", str(build)], capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("estimated duration per stage", r.stderr)
        self.assertIn("total", r.stderr)
        self.assertNotIn("== ", r.stderr)  # no stage started
        self.assertFalse(build.exists())  # not even the results folder


if __name__ == "__main__":
    unittest.main()
