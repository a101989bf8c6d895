#!/usr/bin/env python3
"""Tests of benchmarks/report on small fixture files (CTest: report_harness).

Fixtures: a migration CSV (cpu, cuda-host and a cuda row without a device), a Google Benchmark
JSON with both name layouts and a skipped device case, two quality CSVs, two peers CSVs (two time
limits, a vehicles-then-distance set, a failed and a not-supported run), a scale JSON; a document
with hand-written text around one marker block. Checks that the text outside the markers is kept,
blocks are replaced (and appended when absent), numbers and each row's provenance come from the
inputs, the performance profile's ratios; and, when this Python has matplotlib (the peers'
virtual environment: build/peers-venv/bin/python benchmarks/lib/tests/report_test.py), that every plot is
drawn as a well-formed SVG naming its series, the same bytes for the same data. Standard library
only otherwise; the plot tests are skipped without matplotlib.
"""

import csv
import importlib.util
import json
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPORT = HERE.parents[1] / "report"
sys.path.insert(0, str(HERE.parent))
from report_data import profile_ratios, short_settings, size_of  # noqa: E402

HAVE_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None
PEERS_FIELDS = ["set", "instance", "solver", "version", "settings", "time_limit_s", "date", "load_avg_1m",
                "command", "status", "feasible", "vehicles", "distance", "gap_pct", "won", "seconds"]


def peers_row(set_name, inst, solver, limit, distance, gap, vehicles=3, status="ok", won="no", load="2.50"):
    settings = "--time-limit 1 --threads 1 --seed 1" if solver == "routesolve" else \
        json.dumps({"exploration_level": 5, "nb_threads": 1, "timeout_s": limit})
    return {"set": set_name, "instance": inst, "solver": solver, "version": "1.15.2" if solver == "vroom" else "0.1.0",
            "settings": settings, "time_limit_s": str(limit), "date": "2026-12-01T10:00:00+00:00",
            "load_avg_1m": load, "command": f"{solver} {inst}", "status": status,
            "feasible": "yes" if status == "ok" else "no", "vehicles": str(vehicles),
            "distance": "" if distance is None else str(distance), "gap_pct": "" if gap is None else str(gap),
            "won": won, "seconds": str(limit)}

MIGRATION_FIELDS = ["network", "stops", "trucks", "backend", "transfer", "status", "parse", "network_load",
                    "snap", "matrix", "h2d", "kernels", "d2h", "search", "validate", "output", "other", "total",
                    "speedup", "matrix_speedup", "cost", "routes", "unassigned", "gpu_seconds",
                    "transfer_seconds", "transfer_share"]


def migration_row(**kw):
    row = {k: "" for k in MIGRATION_FIELDS}
    row.update({s: "0.0000" for s in ["parse", "network_load", "snap", "matrix", "h2d", "kernels", "d2h",
                                      "search", "validate", "output", "other"]})
    row.update(kw)
    return row


class ReportTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        mig = [
            migration_row(network="city", stops="50", trucks="5", backend="cpu", status="ok", matrix="0.4000",
                          search="1.5000", parse="0.1000", total="2.0000", speedup="1.00", matrix_speedup="1.00",
                          cost="9621", unassigned="0"),
            migration_row(network="city", stops="50", trucks="5", backend="cuda-host", status="ok",
                          matrix="0.0400", kernels="1.0000", search="0.5000", total="1.6000", speedup="1.25",
                          matrix_speedup="10.00", cost="10291", unassigned="1", transfer_share="0.0123"),
            migration_row(network="city", stops="50", trucks="5", backend="cuda", transfer="batched",
                          status="not measured: no device"),
        ]
        with open(self.dir / "migration.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=MIGRATION_FIELDS)
            w.writeheader()
            w.writerows(mig)
        bench = {"context": {}, "benchmarks": [
            {"name": "Matrix/Liechtenstein/cpu/100/threads:2/iterations:5", "run_type": "iteration",
             "real_time": 117.0, "time_unit": "ms"},
            {"name": "Matrix/Liechtenstein/cuda-host/100/threads:2/real_time", "run_type": "iteration",
             "real_time": 1200.0, "time_unit": "us"},
            {"name": "Matrix/Liechtenstein/1000/boost/threads:2", "run_type": "iteration",
             "real_time": 1.226, "time_unit": "s"},
            {"name": "Matrix/Liechtenstein/cuda/1000/batched", "run_type": "iteration", "error_occurred": True,
             "error_message": "no CUDA device: skipped", "real_time": 0, "time_unit": "ms"},
            {"name": "ChBuild/Liechtenstein", "run_type": "iteration", "real_time": 90.0, "time_unit": "ms"},
        ]}
        (self.dir / "matrix.json").write_text(json.dumps(bench))
        qfields = ["set", "instance", "n", "gap_pct", "seconds", "time_limit_s", "feasible"]
        for name, rows in {"q1": [["augerat", "A/A-n32-k5", "31", "2.0000", "0.500", "0.5", "yes"],
                                  ["augerat", "A/A-n33-k5", "32", "4.0000", "0.500", "0.5", "yes"]],
                           "q2": [["augerat", "A/A-n32-k5", "31", "1.0000", "1.000", "1", "yes"],
                                  ["augerat", "A/A-n33-k5", "32", "", "1.000", "1", "no"]]}.items():
            with open(self.dir / f"{name}.csv", "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(qfields)
                w.writerows(rows)
        peers = {1: [peers_row("augerat", "A/A-n32-k5", "routesolve", 1, 790, 0.5, won="yes"),
                     peers_row("augerat", "A/A-n32-k5", "vroom", 1, 800, 1.78, load="9.50"),
                     peers_row("augerat", "A/A-n33-k5", "routesolve", 1, 662, 0.0, won="yes", load="3.10"),
                     peers_row("augerat", "A/A-n33-k5", "vroom", 1, None, None, status="infeasible", load="10.50"),
                     peers_row("lilim", "lc101", "routesolve", 1, 900, 9.0, vehicles=10),
                     peers_row("lilim", "lc101", "vroom", 1, 828.9, 0.0, vehicles=11, won="no")],
                 2: [peers_row("augerat", "A/A-n32-k5", "routesolve", 2, 784, 0.0, won="yes"),
                     peers_row("augerat", "A/A-n32-k5", "vroom", 2, 790, 0.77),
                     peers_row("augerat", "A/A-n32-k5", "pyvrp", 2, None, None, status="not supported")]}
        for limit, rows in peers.items():
            with open(self.dir / f"peers-{limit}s.csv", "w", newline="") as f:
                w = csv.DictWriter(f, fieldnames=PEERS_FIELDS)
                w.writeheader()
                w.writerows(rows)
        (self.dir / "peers-2s.csv.run.json").write_text(json.dumps(
            {"command": "benchmarks/suites/peers/peers --sets augerat --time-limit 2", "date": "2026-12-01T10:05:00",
             "load_start": 2.0, "load_end": 2.6, "version": "0.1.0 (abc1234)"}))
        scale = {"date": "2026-12-01", "time_limit": 2.0, "rows": [
            {"family": "cvrp", "name": "gen-n1000", "backend": "cpu", "limit": 2.0, "wall": 2.31, "rss_mib": 41,
             "exit": 0, "cost": 123456.0, "routes": 70, "unassigned": 0, "iterations": 5000, "search": 1.25,
             "valid": True},
            {"family": "fleet", "name": "fleet-500x50", "backend": "cpu", "limit": 2.0, "wall": 2.5, "rss_mib": 60,
             "exit": 0, "cost": 50000.0, "routes": 30, "unassigned": 0, "iterations": 800, "search": 1.0,
             "valid": True}]}
        (self.dir / "scale.json").write_text(json.dumps(scale))
        (self.dir / "migration.csv.run.json").write_text(json.dumps(
            {"command": "benchmarks/suites/migration/migration --csv m.csv", "date": "2026-11-29T09:00:00", "load_start": 1.5,
             "load_end": 1.5, "version": "0.1.0 (abc1234)"}))
        self.doc = self.dir / "docs" / "BENCHMARKS.md"
        self.doc.parent.mkdir()
        self.doc.write_text("# Benchmarks\n\nHand-written intro.\n\n<!-- generated:migration -->\nold table\n"
                            "<!-- /generated:migration -->\n\nHand-written outro.\n")

    def tearDown(self):
        self.tmp.cleanup()

    def report(self, *args, python="/nonexistent/python"):
        return subprocess.run([sys.executable, str(REPORT), "--doc", str(self.doc), "--python", python, *args],
                              capture_output=True, text=True)

    def test_migration_block_replaced_and_text_kept(self):
        r = self.report("--migration", str(self.dir / "migration.csv"), "--date", "2026-11-29",
                        "--command", "benchmarks/suites/migration/migration --csv m.csv")
        self.assertEqual(r.returncode, 0, r.stderr)
        doc = self.doc.read_text()
        self.assertIn("Hand-written intro.", doc)
        self.assertIn("Hand-written outro.", doc)
        self.assertNotIn("old table", doc)
        self.assertEqual(doc.count("<!-- generated:migration -->"), 1)
        self.assertIn("2026-11-29", doc)
        self.assertIn("| city | 50 x 5 | cpu | 0.100 |", doc)
        self.assertIn("| 1.25x | 10.0x | 10291 | 1 | 1.2% | kernels 62% |", doc)
        self.assertIn("| city | 50 x 5 | cuda (batched) | not measured: no device |", doc)
        # Each row: version, settings, load, date and command (from migration.csv.run.json).
        self.assertIn("| 0.1.0 (abc1234) | 0 s, ? threads, seed ? | 1.5 | 2026-11-29 | "
                      "`benchmarks/suites/migration/migration --csv m.csv` |", doc)
        self.assertIn("](plots/migration-stage-shares.svg)", doc)
        self.assertIn("](plots/migration-backends.svg)", doc)
        if not HAVE_MATPLOTLIB:
            self.assertIn("not drawn", r.stderr)  # no matplotlib here and no such Python

    def test_matrix_and_quality_blocks_appended(self):
        r = self.report("--matrix", str(self.dir / "matrix.json"), "--quality", f"cpu={self.dir / 'q1.csv'}",
                        "--quality", f"cpu={self.dir / 'q2.csv'}")
        self.assertEqual(r.returncode, 0, r.stderr)
        doc = self.doc.read_text()
        self.assertIn("old table", doc)  # migration block untouched without --migration
        self.assertIn("| Liechtenstein | 100 | cpu | threads:2 | 117.00 |", doc)
        self.assertIn("| Liechtenstein | 100 | cuda-host | threads:2 | 1.20 |", doc)
        self.assertIn("| Liechtenstein | 1000 | cpu | threads:2 | 1226.00 |", doc)  # older name layout
        self.assertIn("| Liechtenstein | 1000 | cuda | batched | not measured: no device |", doc)
        self.assertNotIn("ChBuild", doc)
        self.assertIn("| cpu | augerat | 0.5 | 2 | 2 | 3.00 | 4.00 | 0.500 |", doc)
        self.assertIn("| cpu | augerat | 1 | 2 | 1 | 1.00 | 1.00 | 1.000 |", doc)
        self.assertIn("| 1 s, 1 thread, seed 1 | ? | ? | `?` |", doc)  # no run.json beside q1.csv
        # Running again gives the same document: blocks are replaced, not appended twice.
        first = doc
        self.report("--matrix", str(self.dir / "matrix.json"), "--quality", f"cpu={self.dir / 'q1.csv'}",
                    "--quality", f"cpu={self.dir / 'q2.csv'}")
        self.assertEqual(self.doc.read_text(), first)

    def test_peers_block(self):
        r = self.report("--peers", str(self.dir / "peers-1s.csv"), "--peers", str(self.dir / "peers-2s.csv"))
        self.assertEqual(r.returncode, 0, r.stderr)
        doc = self.doc.read_text()
        self.assertIn("| augerat | 1 | routesolve | 2 | 2 | 6 | 726.0 | 0.25 | 2 | 1.00 | 0.1.0 | time-limit 1 threads 1 seed 1 "
                      "| 2.5-3.1 | 2026-12-01 | `routesolve A/A-n32-k5` |", doc)
        self.assertIn("| augerat | 1 | vroom | 2 | 1 | 3 | 800.0 | 1.78 | 0 | 1.00 | 1.15.2 | exploration_level=5, nb_threads=1, 1 s "
                      "| 9.5-10.5 | 2026-12-01 | `vroom A/A-n32-k5` |", doc)  # a range by value, not by text
        self.assertIn("| augerat | 2 | vroom | 1 | 1 | 3 | 790.0 | 0.77 | 0 | 2.00 | 1.15.2 |", doc)
        self.assertIn("`benchmarks/suites/peers/peers --sets augerat --time-limit 2` |", doc)  # the run.json's command
        self.assertNotIn("| pyvrp |", doc)  # not supported everywhere: no row
        # Vehicles-then-distance: the vehicles before the distance.
        self.assertIn("| lilim | 1 | routesolve | 1 | 1 | 10 | 900.0 |", doc)
        self.assertIn("| lilim | 1 | vroom | 1 | 1 | 11 | 828.9 |", doc)
        self.assertIn("](plots/peers-gap-vs-time.svg)", doc)
        self.assertIn("](plots/peers-profile.svg)", doc)

    def test_short_settings_name_the_model_differences(self):
        pyvrp = json.dumps({"algorithm": "pyvrp.solve (ILS)", "stop": "MaxRuntime(5)", "seed": 1,
                            "fixed_cost_per_vehicle": 0, "breaks": "not modelled, placed after the solve"})
        self.assertEqual(short_settings("pyvrp", pyvrp, 5), "algorithm=pyvrp.solve (ILS), stop=MaxRuntime(5), "
                         "seed=1, breaks=not modelled, placed after the solve")
        ortools = json.dumps({"first_solution_strategy": "PARALLEL_CHEAPEST_INSERTION",
                              "local_search_metaheuristic": "GUIDED_LOCAL_SEARCH", "time_limit_s": 5,
                              "fixed_cost_per_vehicle": "sum of longest arcs"})
        self.assertEqual(short_settings("ortools", ortools, 5), "first_solution_strategy=PARALLEL_CHEAPEST_INSERTION, "
                         "local_search_metaheuristic=GUIDED_LOCAL_SEARCH, fixed_cost_per_vehicle=sum of longest arcs, 5 s")

    def test_profile_ratios(self):
        rows = [peers_row("augerat", "a", "routesolve", 1, 100, 0), peers_row("augerat", "a", "vroom", 1, 110, 10),
                peers_row("augerat", "b", "routesolve", 1, None, None, status="infeasible"),
                peers_row("augerat", "b", "vroom", 1, 50, 0),
                peers_row("lilim", "c", "routesolve", 1, 900, 0, vehicles=10),
                peers_row("lilim", "c", "vroom", 1, 800, 0, vehicles=11),
                peers_row("lilim", "c", "pyvrp", 1, None, None, status="not supported")]
        ratios, count = profile_ratios(rows)
        self.assertEqual(count, 3)
        self.assertEqual(ratios["routesolve"], [1.0, None, 1.0])
        self.assertEqual(ratios["vroom"], [1.1, 1.0, None])  # lilim: one vehicle more, no ratio
        self.assertNotIn("pyvrp", ratios)

    def test_scale_block_and_helpers(self):
        r = self.report("--scale", str(self.dir / "scale.json"))
        self.assertEqual(r.returncode, 0, r.stderr)
        doc = self.doc.read_text()
        self.assertIn("| gen-n1000 | 1000 | cpu | 2 | 2.3 | 41 | 4,000 | 123,456 | 70 | yes | ? | 2 s, 1 thread | ? "
                      "| 2026-12-01 |", doc)
        self.assertIn("| fleet-500x50 | 500 | cpu |", doc)
        self.assertEqual((size_of("fleet-500x50"), size_of("gen-n3000"), size_of("X")), (500, 3000, None))
        self.assertEqual(short_settings("pyvrp", json.dumps({"algorithm": "ILS", "seed": 1, "x": 2}), 5),
                         "algorithm=ILS, seed=1")

    @unittest.skipUnless(HAVE_MATPLOTLIB, "matplotlib not in this Python (the peers' virtual environment has it)")
    def test_plots_drawn_and_reproducible(self):
        args = ["--migration", str(self.dir / "migration.csv"), "--matrix", str(self.dir / "matrix.json"),
                "--quality", f"cpu={self.dir / 'q1.csv'}", "--quality", f"cpu={self.dir / 'q2.csv'}",
                "--peers", str(self.dir / "peers-1s.csv"), "--peers", str(self.dir / "peers-2s.csv"),
                "--scale", str(self.dir / "scale.json")]
        r = self.report(*args, python=sys.executable)
        self.assertEqual(r.returncode, 0, r.stderr)
        plots = self.doc.parent / "plots"
        expected = {"migration-stage-shares.svg": ["search", "kernels"],
                    "migration-backends.svg": ["cuda-host", "not measured"],
                    "matrix-time-vs-size.svg": ["Liechtenstein cpu"],
                    "quality-gap-vs-time.svg": ["augerat"],
                    "peers-gap-vs-time.svg": ["augerat", "lilim", "cpu (quality)"],
                    "peers-profile.svg": ["routesolve (4/4 solved)", "vroom (2/4 solved)"],
                    "scale.svg": ["cvrp cpu", "fleet cpu"]}
        first = {}
        for name, words in expected.items():
            ET.parse(plots / name)
            text = (plots / name).read_text()
            for w in words:
                self.assertIn(w, text, name)
            first[name] = text
        self.assertEqual(self.report(*args, python=sys.executable).returncode, 0)
        for name in expected:
            self.assertEqual((plots / name).read_text(), first[name], name)

    def test_bad_input(self):
        (self.dir / "bad.json").write_text("not json")
        r = self.report("--matrix", str(self.dir / "bad.json"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("bad.json", r.stderr)
        r = self.report()
        self.assertEqual(r.returncode, 2)


if __name__ == "__main__":
    unittest.main()
