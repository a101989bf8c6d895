"""Instance sets of benchmarks/suites/quality/quality: where each set's files and best-known solutions are, how
instances are listed and sized. Standard library only."""
from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path


# ---- instance sets -------------------------------------------------------------------------------


@dataclass
class SetSpec:
    name: str
    title: str
    time_limit: float
    input_format: str  # routesolve --format
    solve_args: list[str]  # extra `solve` arguments
    validate_args: list[str]  # extra `validate` arguments
    decimals: int  # digits the objective is reported with
    hierarchical: bool  # vehicles-then-cost: report vehicles and distance vs bks
    bks_file: str  # relative to the datasets folder
    bks_vehicles_file: str | None = None  # bks_detailed.csv with the vehicles of each bks
    bks_vehicles_column: str = "vehicles"  # that file's column of vehicle counts
    small_n: int | None = None  # also report the mean gap on n <= small_n
    gh_size: str = ""  # Gehring & Homberger: the hundreds of customers in the file names
    bks_note: str = ""  # what the gap is against, when not a best-known of this objective


SETS: dict[str, SetSpec] = {
    "x": SetSpec("x", "CVRPLIB X (nint distances)", 10.0, "cvrplib", [], [], 0, False,
                 "cvrp/x/bks.csv", small_n=300),
    # 120 s: about the time FILO2's default 100,000 iterations take on these (benchmarks/suites/peers/peers).
    "xxl": SetSpec("xxl", "CVRPLIB XXL Belgium, 7,000-20,000 customers (nint distances)", 120.0,
                   "cvrplib", [], [], 0, False, "cvrp/xxl/bks.csv"),
    "augerat": SetSpec("augerat", "Augerat A, B, P (nint distances)", 2.0, "cvrplib", [], [], 0,
                       False, "cvrp/augerat/bks.csv"),
    "solomon": SetSpec("solomon", "Solomon, distance only (1-decimal truncated arcs)", 10.0,
                       "solomon", ["--truncate-distances", "--objective", "cost"],
                       ["--truncate-distances"], 1, False,
                       "vrptw/solomon/bks_distance_only.csv"),
    "solomonvtc": SetSpec("solomonvtc", "Solomon, vehicles then distance", 10.0, "solomon",
                          ["--objective", "vehicles-then-cost"], [], 3, True,
                          "vrptw/solomon/bks.csv", "vrptw/solomon/bks_detailed.csv",
                          bks_vehicles_column="sintef_vehicles"),
    "gh200": SetSpec("gh200", "Gehring & Homberger 200, vehicles then distance", 30.0, "solomon",
                     ["--objective", "vehicles-then-cost"], [], 3, True,
                     "vrptw/gehring_homberger/bks.csv",
                     "vrptw/gehring_homberger/bks_detailed.csv", gh_size="2"),
    "gh200dist": SetSpec("gh200dist", "Gehring & Homberger 200, distance only (1-decimal truncated "
                         "arcs)", 30.0, "solomon", ["--truncate-distances", "--objective", "cost"],
                         ["--truncate-distances"], 1, False, "vrptw/gehring_homberger/bks.csv",
                         gh_size="2",
                         bks_note="gap against the vehicles-first best-known distance (exact arcs), "
                                  "an upper bound of the distance-only optimum: gaps can be "
                                  "negative"),
    "gh400": SetSpec("gh400", "Gehring & Homberger 400, vehicles then distance", 30.0, "solomon",
                     ["--objective", "vehicles-then-cost"], [], 3, True,
                     "vrptw/gehring_homberger/bks.csv",
                     "vrptw/gehring_homberger/bks_detailed.csv", gh_size="4"),
    "gh1000": SetSpec("gh1000", "Gehring & Homberger 1000, distance only (1-decimal truncated arcs)",
                      30.0, "solomon", ["--truncate-distances", "--objective", "cost"],
                      ["--truncate-distances"], 1, False,
                      "vrptw/gehring_homberger/bks_distance_only_1000.csv", gh_size="10"),
    "lilim": SetSpec("lilim", "Li & Lim 100-customer PDPTW, vehicles then distance", 10.0,
                     "lilim", ["--objective", "vehicles-then-cost"], [], 3, True,
                     "pdptw/li_lim/bks.csv", "pdptw/li_lim/bks_detailed.csv"),
}


@dataclass
class Instance:
    set: str
    name: str  # as in the set's bks.csv
    path: Path
    n: int = 0  # customers (locations other than the depot)
    fleet: int | None = None  # vehicles the file offers, when it says
    bks: float | None = None
    bks_text: str = ""
    bks_vehicles: int | None = None


def natural_key(s: str):
    return [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", s)]


def list_instances(spec: SetSpec, datasets: Path) -> list[tuple[str, Path]]:
    """(bks name, file) of every instance of a set, in natural order of the name."""
    found: list[tuple[str, Path]] = []
    if spec.name == "x":
        found = [(p.stem, p) for p in (datasets / "cvrp/x").glob("*.vrp")]
    elif spec.name == "xxl":
        found = [(p.stem, p) for p in (datasets / "cvrp/xxl").glob("*.vrp")]
    elif spec.name == "augerat":
        for sub in ("A", "B", "P"):
            found += [(f"{sub}/{p.stem}", p) for p in (datasets / "cvrp/augerat" / sub).glob("*.vrp")]
    elif spec.name in ("solomon", "solomonvtc"):
        found = [(p.stem, p) for p in (datasets / "vrptw/solomon").glob("*.txt")]
    elif spec.gh_size:
        found = [(p.stem.upper(), p)
                 for p in (datasets / "vrptw/gehring_homberger").glob(f"*_{spec.gh_size}_*.txt")]
    elif spec.name == "lilim":
        found = [(p.stem, p) for p in (datasets / "pdptw/li_lim").glob("*.txt") if "_" not in p.stem]
    return sorted(found, key=lambda t: natural_key(t[0]))


def read_bks(path: Path) -> dict[str, tuple[float, str]]:
    """instance (lower case) -> (bks_cost, text as written)."""
    out: dict[str, tuple[float, str]] = {}
    with path.open(newline="") as f:
        for row in csv.DictReader(f):
            out[row["instance"].strip().lower()] = (float(row["bks_cost"]), row["bks_cost"].strip())
    return out


def read_bks_vehicles(path: Path, column: str = "vehicles") -> dict[str, int]:
    out: dict[str, int] = {}
    with path.open(newline="") as f:
        for row in csv.DictReader(f):
            if row.get(column):
                out[row["instance"].strip().lower()] = int(row[column])
    return out


def read_size(path: Path, input_format: str) -> tuple[int, int | None]:
    """(customers, fleet size or None) read from an instance file."""
    lines = path.read_text().splitlines()
    if input_format == "cvrplib":
        for line in lines:
            key, _, value = line.partition(":")
            if key.strip().upper() == "DIMENSION":
                return int(value.strip()) - 1, None
        return 0, None
    if input_format == "lilim":
        fleet = int(lines[0].split()[0])
        nodes = sum(1 for line in lines[1:] if line.strip())
        return nodes - 1, fleet
    # Solomon / Gehring & Homberger: VEHICLE / NUMBER CAPACITY / k q, then CUSTOMER rows.
    fleet = None
    nodes = 0
    in_customers = False
    for i, line in enumerate(lines):
        up = line.strip().upper()
        if up.startswith("NUMBER") and fleet is None and i + 1 < len(lines):
            parts = lines[i + 1].split()
            if parts and parts[0].isdigit():
                fleet = int(parts[0])
        elif up.startswith("CUSTOMER"):
            in_customers = True
        elif in_customers:
            parts = line.split()
            if len(parts) >= 7 and all(re.fullmatch(r"-?\d+(\.\d+)?", p) for p in parts[:7]):
                nodes += 1
    return nodes - 1, fleet
