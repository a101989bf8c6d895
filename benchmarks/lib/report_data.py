"""benchmarks/report's readers, row provenance and the blocks of benchmarks/suites/peers/peers and
benchmarks/suites/scale/scale: tables and the data of their plots. Standard library only (the plots are drawn
by report_plots.py with matplotlib)."""
from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from quality_sets import SETS


class InputError(Exception):
    pass


def read_csv(path: Path) -> list[dict]:
    try:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}")


def read_json(path: Path) -> dict:
    try:
        return json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise InputError(f"{path}: {e}")


def num(text, default=None):
    try:
        return float(text)
    except (TypeError, ValueError):
        return default


# ---- provenance ---------------------------------------------------------------------------------

def run_info(path: Path) -> dict:
    """What produced an input: FILE.run.json beside it (written by benchmarks/run-all: command,
    date, load at the start and the end, solver version); {} when absent."""
    side = Path(f"{path}.run.json")
    try:
        return json.loads(side.read_text()) if side.exists() else {}
    except (OSError, json.JSONDecodeError) as e:
        raise InputError(f"{side}: {e}")


def load_text(info: dict) -> str:
    """The one-minute load average over the run: "a" or "low-high"."""
    lo, hi = num(info.get("load_start")), num(info.get("load_end"))
    if lo is None:
        return "?"
    a, b = sorted((f"{lo:.1f}", f"{lo if hi is None else hi:.1f}"), key=float)
    return a if a == b else f"{a}-{b}"


PROV_HEAD = " version | settings | load (1 min) | date | command |"
PROV_RULE = "---|---|--:|---|---|"


def prov_cells(info: dict, settings: str, load: str | None = None, date: str | None = None,
               command: str | None = None, version: str | None = None) -> str:
    version = version or info.get("version") or "?"
    date = date or str(info.get("date", "?"))[:10]
    command = command or info.get("command") or "?"
    return f" {version} | {settings} | {load or load_text(info)} | {date} | `{command}` |"


# ---- benchmarks/suites/peers/peers ---------------------------------------------------------------------------

PEER_SETTINGS = {"pyvrp": ("algorithm", "stop", "seed"),
                 "ortools": ("first_solution_strategy", "local_search_metaheuristic"),
                 "vroom": ("exploration_level", "nb_threads")}


def short_settings(solver: str, text: str, limit: float) -> str:
    """The settings that tell runs apart; the CSV has them in full."""
    if solver == "routesolve":
        return text.replace("--", "") or f"{limit:g} s"
    try:
        d = json.loads(text)
    except (TypeError, ValueError):
        return text or "?"
    keys = PEER_SETTINGS.get(solver, ())
    parts = [f"{k}={d[k]}" for k in keys if k in d]
    # What tells a peer's model apart on some sets: the vehicle cost of vehicles-then-distance,
    # how the breaks of the migration scenarios are handled.
    parts += [f"{k}={d[k]}" for k in ("fixed_cost_per_vehicle", "breaks") if d.get(k)]
    if "timeout_s" in d or "time_limit_s" in d:
        parts.append(f"{limit:g} s")
    return ", ".join(parts) or "?"


def hierarchical(set_name: str) -> bool:
    spec = SETS.get(set_name)
    return bool(spec and spec.hierarchical)


def profile_ratios(rows: list[dict]) -> tuple[dict, int]:
    """Per solver, the ratio of its objective to the best solver's on every problem (set,
    instance, time limit); None where it failed or, on vehicles-then-distance sets, used more
    vehicles than the best (a lexicographic objective has no ratio there)."""
    problems: dict[tuple, dict] = {}
    for r in rows:
        if r.get("status") == "not supported":
            continue
        problems.setdefault((r["set"], r["instance"], r["time_limit_s"]), {})[r["solver"]] = r
    solvers = sorted({s for runs in problems.values() for s in runs})
    ratios: dict[str, list] = {s: [] for s in solvers}
    for (set_name, _, _), runs in problems.items():
        ok = {s: r for s, r in runs.items() if r.get("feasible") == "yes" and num(r.get("distance"))}
        fewest = min((int(num(r.get("vehicles"), 0)) for r in ok.values()), default=0)
        if hierarchical(set_name):
            ok = {s: r for s, r in ok.items() if int(num(r.get("vehicles"), 0)) == fewest}
        best = min((num(r["distance"]) for r in ok.values()), default=None)
        for s in solvers:
            if s not in runs:
                continue
            ratios[s].append(num(ok[s]["distance"]) / best if s in ok and best else None)
    return ratios, len(problems)


def peers_block(inputs: list[tuple[list[dict], dict]], quality: list, prov_lines: list[str], rel):
    """One row per set, time limit and solver; the gap-against-time plot (with the quality suite's
    rows as more points) and the performance profile."""
    lines = prov_lines + [
        "", "Per set and time limit, per solver: feasible runs (validated by `routesolve validate` and "
        "recomputed by the suite), vehicles over its feasible runs (the first objective on vehicles-then-distance "
        "sets), mean objective (distance; travel seconds for the migration scenarios) and mean gap to the best "
        "known over its feasible instances, instances "
        "won (best among the solvers, ties shared), mean wall seconds.", "",
        "| set | time limit (s) | solver | instances | feasible | vehicles | mean objective | mean gap % | won | mean s |"
        + PROV_HEAD, "|---|--:|---|--:|--:|--:|--:|--:|--:|--:|" + PROV_RULE]
    groups: dict[tuple, list] = {}
    infos: dict[tuple, dict] = {}
    all_rows = []
    for rows, info in inputs:
        for r in rows:
            if "solver" not in r or "set" not in r:
                raise InputError("peers CSV: expected benchmarks/suites/peers/peers columns (set, solver, ...)")
            key = (r["set"], num(r.get("time_limit_s"), 0.0), r["solver"])
            groups.setdefault(key, []).append(r)
            infos[key] = info
            all_rows.append(r)
    series: dict[str, dict] = {}
    order = {"routesolve": 0, "pyvrp": 1, "ortools": 2, "vroom": 3}
    for (set_name, limit, solver), rows in sorted(groups.items(),
                                                  key=lambda kv: (kv[0][0], kv[0][1], order.get(kv[0][2], 9), kv[0][2])):
        if all(r.get("status") == "not supported" for r in rows):
            continue
        feas = [r for r in rows if r.get("feasible") == "yes"]
        gaps = [num(r["gap_pct"]) for r in feas if num(r.get("gap_pct")) is not None]
        secs = [num(r.get("seconds"), 0.0) for r in rows]
        loads = [f"{x:.1f}" for x in sorted(num(r.get("load_avg_1m"), 0.0) for r in rows)]  # by value
        load = loads[0] if loads[0] == loads[-1] else f"{loads[0]}-{loads[-1]}"
        dates = sorted(r.get("date", "")[:10] for r in rows)
        info = infos[(set_name, limit, solver)]
        prov = prov_cells(info, short_settings(solver, rows[0].get("settings", ""), limit), load=load,
                          date=dates[0] if dates[0] == dates[-1] else f"{dates[0]}..{dates[-1]}",
                          command=info.get("command") or rows[0].get("command"),
                          version=(info.get("version") if solver == "routesolve" else None)
                          or rows[0].get("version") or None)
        mean = sum(gaps) / len(gaps) if gaps else None
        costs = [num(r["distance"]) for r in feas if num(r.get("distance")) is not None]
        objective = f"{sum(costs) / len(costs):,.1f}" if costs else ""
        vehicles = sum(int(num(r.get("vehicles"), 0)) for r in feas)
        lines.append(f"| {set_name} | {limit:g} | {solver} | {len(rows)} | {len(feas)} | {vehicles if feas else ''} | {objective} | "
                     f"{'' if mean is None else f'{mean:.2f}'} | {sum(r.get('won') == 'yes' for r in rows)} | "
                     f"{sum(secs) / len(secs):.2f} |" + prov)
        if mean is not None:
            series.setdefault(set_name, {}).setdefault(solver, []).append([limit, mean])
    for label, rows, _ in quality:
        groups_q: dict[tuple, list] = {}
        for r in rows:
            if r.get("feasible") == "yes" and num(r.get("gap_pct")) is not None:
                groups_q.setdefault((r["set"], num(r.get("time_limit_s"), 0.0)), []).append(num(r["gap_pct"]))
        for (set_name, limit), gaps in groups_q.items():
            series.setdefault(set_name, {}).setdefault(f"{label} (quality)", []).append(
                [limit, sum(gaps) / len(gaps)])
    ratios, count = profile_ratios(all_rows)
    plots = [("peers-gap-vs-time.svg", "gap_vs_time",
              "Mean gap to the best known against the time limit, per solver and set", series),
             ("peers-profile.svg", "profile", "Performance profile over instances (every set and time limit)",
              {"ratios": ratios, "problems": count})]
    lines += ["", f"![gap against time per solver and set]({rel(plots[0][0])})", "",
              f"![performance profile]({rel(plots[1][0])})"]
    return "\n".join(lines), plots


# ---- benchmarks/suites/scale/scale ---------------------------------------------------------------------------

def size_of(name: str) -> int | None:
    m = re.search(r"(\d+)(?:x\d+)?$", name)
    return int(m.group(1)) if m else None


def scale_block(docs: list[tuple[dict, dict]], prov_lines: list[str], rel):
    lines = prov_lines + [
        "", "| problem | n | backend | time limit (s) | wall s | peak RSS MiB | iterations/s | cost | routes | valid |"
        + PROV_HEAD, "|---|--:|---|--:|--:|--:|--:|--:|--:|---|" + PROV_RULE]
    series: dict[str, list] = {}
    for doc, info in docs:
        if "rows" not in doc:
            raise InputError("scale JSON: expected benchmarks/suites/scale/scale --json ({date, time_limit, rows})")
        limit = num(doc.get("time_limit"), 0.0)
        for r in doc["rows"]:
            n = size_of(r.get("name", ""))
            rate = r["iterations"] / r["search"] if r.get("iterations") and r.get("search") else None
            prov = prov_cells(info, f"{limit:g} s, 1 thread", date=str(doc.get("date", ""))[:10] or None)
            cost = f"{r['cost']:,.0f}" if "cost" in r else r.get("error", "-")
            lines.append(f"| {r.get('name')} | {n or ''} | {r.get('backend')} | {limit:g} | {r['wall']:.1f} | "
                         f"{r.get('rss_mib', '')} | {'' if rate is None else f'{rate:,.0f}'} | {cost} | "
                         f"{r.get('routes', '')} | {'yes' if r.get('valid') else 'NO'} |" + prov)
            if n:
                series.setdefault(f"{r.get('family')} {r.get('backend')}", []).append(
                    [n, r["wall"], r.get("rss_mib"), rate])
    plots = [("scale.svg", "scale", "Scale: wall time, peak memory and search rate against n", series)]
    lines += ["", f"![scale: wall, peak RSS and iterations per second against n]({rel(plots[0][0])})"]
    return "\n".join(lines), plots
