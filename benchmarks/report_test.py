#!/usr/bin/env python3
"""Tests of benchmarks/report on small fixture files (CTest: report_harness).

Fixtures: a migration CSV (cpu, cuda-host and a cuda row without a device), a Google Benchmark
JSON with both name layouts and a skipped device case, two quality CSVs; a document with
hand-written text around one marker block. Checks that the text outside the markers is kept,
blocks are replaced (and appended when absent), numbers come from the inputs, and the SVGs are
well-formed XML.
"""

import csv
import json
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPORT = HERE / "report"

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
        self.doc = self.dir / "docs" / "BENCHMARKS.md"
        self.doc.parent.mkdir()
        self.doc.write_text("# Benchmarks\n\nHand-written intro.\n\n<!-- generated:migration -->\nold table\n"
                            "<!-- /generated:migration -->\n\nHand-written outro.\n")

    def tearDown(self):
        self.tmp.cleanup()

    def report(self, *args):
        return subprocess.run([sys.executable, str(REPORT), "--doc", str(self.doc), *args],
                              capture_output=True, text=True)

    def test_migration_block_replaced_and_text_kept(self):
        r = self.report("--migration", str(self.dir / "migration.csv"), "--date", "2026-11-29",
                        "--command", "benchmarks/migration --csv m.csv")
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
        self.assertIn("](plots/migration-stage-shares.svg)", doc)
        svg = self.doc.parent / "plots" / "migration-stage-shares.svg"
        ET.parse(svg)  # well-formed
        self.assertEqual(svg.read_text().count("<title>"), 6)  # cpu: parse, matrix, search; host: 3

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
        for name in ("matrix-time-vs-size.svg", "quality-gap-vs-time.svg"):
            ET.parse(self.doc.parent / "plots" / name)
        # Running again gives the same document: blocks are replaced, not appended twice.
        first = doc
        self.report("--matrix", str(self.dir / "matrix.json"), "--quality", f"cpu={self.dir / 'q1.csv'}",
                    "--quality", f"cpu={self.dir / 'q2.csv'}")
        self.assertEqual(self.doc.read_text(), first)

    def test_bad_input(self):
        (self.dir / "bad.json").write_text("not json")
        r = self.report("--matrix", str(self.dir / "bad.json"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("bad.json", r.stderr)
        r = self.report()
        self.assertEqual(r.returncode, 2)


if __name__ == "__main__":
    unittest.main()
