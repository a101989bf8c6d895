#!/usr/bin/env python3
"""summary.json of a device run (gpu-kit/run): the kit, the machine, each step's status, seconds
and figures, the device-check lines and the migration rows. A step that exited 0 but produced no
numbers is a failure ("no numbers").

  summary.py KIT RESULTS OUT STAGE
STAGE: run (every step ran), no-device, check, preflight-failed.
"""
import csv
import json
import platform
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path


def bench_figures(path):
    """Google Benchmark JSON: the measured rows (name, time, unit, counters) and the errors."""
    doc = json.loads(path.read_text())
    rows, errors = [], []
    for b in doc.get("benchmarks", []):
        if b.get("error_occurred"):
            errors.append({"name": b.get("name"), "error": b.get("error_message", "")})
            continue
        row = {"name": b.get("name"), "real_time": b.get("real_time"), "time_unit": b.get("time_unit")}
        row.update({k: v for k, v in b.items() if k not in row and isinstance(v, (int, float))
                    and k not in ("family_index", "per_family_instance_index", "repetitions",
                                  "repetition_index", "threads", "iterations", "cpu_time")})
        rows.append(row)
    return {"rows": rows, "errors": errors}, len(rows) > 0 and not errors


def test_figures(res):
    tests = failures = 0
    per_binary = {}
    for report in sorted((res / "tests").glob("*.xml")):
        try:
            root = ET.parse(report).getroot()
        except ET.ParseError:
            per_binary[report.stem] = "unreadable report"
            continue
        n, f = int(root.get("tests", 0)), int(root.get("failures", 0)) + int(root.get("errors", 0))
        tests, failures = tests + n, failures + f
        per_binary[report.stem] = {"tests": n, "failures": f}
    skips = {}
    if (res / "tests" / "skips.json").exists():
        doc = json.loads((res / "tests" / "skips.json").read_text())
        skips = {"skipped_for_lack_of_device": doc["skipped_for_lack_of_device"], "other_skips": len(doc["other_skips"])}
    return {"tests": tests, "failures": failures, "binaries": per_binary, **skips}, tests > 0


def figures_of(step, res):
    d = res / step
    if step == "preflight":
        lines = (d / "log.txt").read_text().splitlines() if (d / "log.txt").exists() else []
        return {"log": lines[-20:]}, bool(lines) and lines[-1].startswith("preflight passed")
    if step == "selftest":
        lines = (d / "device-check.txt").read_text().splitlines() if (d / "device-check.txt").exists() else []
        devices = [l for l in lines if l.startswith("device ")]
        return {"device_check": lines}, bool(devices)
    if step == "tests":
        return test_figures(res)
    if step.startswith("bench_"):
        return bench_figures(d / "bench.json") if (d / "bench.json").exists() else ({}, False)
    if step == "migration":
        rows = list(csv.DictReader(open(d / "migration.csv"))) if (d / "migration.csv").exists() else []
        # On a device the cuda rows must be measured, both transfer modes.
        measured = sorted({r.get("transfer", "") for r in rows if r.get("backend") == "cuda" and r.get("status") == "ok"})
        return {"rows": len(rows), "cuda_transfers_measured": measured}, len(measured) == 2
    if step == "memcheck":
        log = (d / "log.txt").read_text() if (d / "log.txt").exists() else ""
        summaries = [l.strip() for l in log.splitlines() if "ERROR SUMMARY" in l]
        return {"error_summaries": summaries}, len(summaries) >= 2
    return {}, True


def main(kit, res, out, stage):
    kit, res, out = Path(kit), Path(res), Path(out)
    doc = {"stage": stage}
    manifest = kit / "manifest.json"
    doc["kit"] = json.loads(manifest.read_text()) if manifest.exists() else {}
    doc["machine"] = {"host": platform.node(), "glibc": " ".join(platform.libc_ver()), "cpus": __import__("os").cpu_count()}
    runtime = Path(res) / "runtime.txt"
    doc["machine"]["runtime"] = runtime.read_text().strip() if runtime.exists() else "the machine's"
    try:
        doc["machine"]["gpus"] = subprocess.run(
            ["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"],
            capture_output=True, text=True, timeout=20).stdout.strip().splitlines()
    except (OSError, subprocess.SubprocessError):
        doc["machine"]["gpus"] = []
    steps = []
    tsv = res / "steps.tsv"
    for line in tsv.read_text().splitlines() if tsv.exists() else []:
        name, status, ms, limit = line.split("\t")
        figures, has_numbers = figures_of(name, res)
        rc = int(status)
        verdict = ("passed" if has_numbers else "no numbers") if rc == 0 else \
            ("stopped at its limit" if rc in (124, 137) else f"failed (exit {rc})")
        steps.append({"step": name, "status": verdict, "exit": rc, "seconds": int(ms) / 1000.0,
                      "limit_s": int(limit), "figures": figures})
    doc["steps"] = steps
    probe = res / "selftest" / "probe.txt"
    checks = res / "selftest" / "device-check.txt"
    doc["device_check"] = (checks if checks.exists() else probe).read_text().splitlines() \
        if (checks.exists() or probe.exists()) else []
    mig = res / "migration" / "migration.csv"
    doc["migration"] = list(csv.DictReader(open(mig))) if mig.exists() else []
    doc["passed"] = stage == "run" and bool(steps) and all(s["status"] == "passed" for s in steps)
    (out / "summary.json").write_text(json.dumps(doc, indent=2) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(*sys.argv[1:])
