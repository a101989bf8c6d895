"""Per-set tables of benchmarks/suites/peers/peers: a row per instance with each solver's result (and a line
with each run's wall and CPU time, peak RSS and time limit), then a summary per solver (mean gap,
mean gap on the instances all solvers solved, wins, infeasible, mean wall time and peak RSS).
Standard library only."""
from __future__ import annotations

from quality_table import Columns, fmt_num

FAILED = ("infeasible", "error", "timeout")


def objective(run, hierarchical: bool) -> tuple:
    return (run.vehicles, run.cost) if hierarchical else (run.cost,)


def mark_wins(runs, hierarchical: bool) -> None:
    """The best feasible result(s) of each instance win; ties win for each solver tied."""
    by_inst: dict[str, list] = {}
    for r in runs:
        by_inst.setdefault(r.inst.name, []).append(r)
    for rs in by_inst.values():
        ok = [r for r in rs if r.feasible]
        best = min((objective(r, hierarchical) for r in ok), default=None)
        for r in rs:
            r.won = r.feasible and objective(r, hierarchical) == best


def _mean(xs: list[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def set_summary(spec, insts, runs, solvers) -> dict[str, dict]:
    mark_wins(runs, spec.hierarchical)
    cell = {(r.inst.name, r.solver): r for r in runs}
    supported = [s for s in solvers
                 if any(r.solver == s and r.status != "not supported" for r in runs)]
    common = [i.name for i in insts if all(cell[(i.name, s)].feasible for s in supported)]
    out: dict[str, dict] = {}
    for s in solvers:
        mine = [r for r in runs if r.solver == s]
        ok = [r for r in mine if r.feasible]
        both = [cell[(name, s)] for name in common] if s in supported else []
        out[s] = {
            "version": next((r.version for r in mine if r.version), ""),
            "runs": len(mine),
            "feasible": len(ok),
            "infeasible": sum(1 for r in mine if r.status in FAILED),
            "not_supported": sum(1 for r in mine if r.status == "not supported"),
            "mean_gap": _mean([r.gap for r in ok if r.gap is not None]),
            "common": len(both),
            "common_gap": _mean([r.gap for r in both if r.gap is not None]),
            "common_vehicles": sum(r.vehicles for r in both) if both else None,
            "wins": sum(1 for r in mine if r.won),
            "mean_seconds": _mean([r.seconds for r in mine if r.status != "not supported"]),
            "mean_rss_mib": _mean([r.rss_mib for r in mine
                                   if getattr(r, "rss_mib", None) is not None]),
        }
    return out


def cell_text(run, hierarchical: bool, decimals: int, scale: int) -> str:
    if run.status == "not supported":
        return "n/s"
    if not run.feasible:
        return f"NO ({run.status})"
    value = fmt_num(run.cost / scale, decimals)
    if hierarchical:
        value = f"{run.vehicles}/{value}"
    gap = "" if run.gap is None else f" {run.gap:+.2f}%"
    return ("*" if run.won else "") + value + gap


def run_figures(run) -> str:
    """A run's wall time (CPU time) / peak RSS, and its own time limit when it had one
    (--match-time)."""
    rss = "-" if getattr(run, "rss_mib", None) is None else f"{run.rss_mib:.0f}"
    cpu = "-" if getattr(run, "cpu_seconds", None) is None else f"{run.cpu_seconds:.1f}"
    limit = getattr(run, "time_limit", None)
    return f"{run.solver} {run.seconds:.1f} ({cpu}) / {rss}" + (f", limit {limit:g} s" if limit else "")


def print_set(spec, insts, runs, solvers, summary, scale: int) -> None:
    cell = {(r.inst.name, r.solver): r for r in runs}
    w = max(8, *(len(i.name) for i in insts))
    rows = Columns([("instance", w, "<"), ("n", 5, ">"),
                    ("bks", 13 if spec.hierarchical else 10, ">"),
                    *((s, 22 if spec.hierarchical else 19, ">") for s in solvers)])
    print(rows.header())
    for inst in insts:
        bks = inst.bks_text or "-"
        if spec.hierarchical and inst.bks_vehicles is not None:
            bks = f"{inst.bks_vehicles}/{bks}"
        print(rows.line([inst.name, str(inst.n), bks,
                         *(cell_text(cell[(inst.name, s)], spec.hierarchical, spec.decimals, scale)
                           for s in solvers)]))
        print("    # wall s (CPU s) / peak RSS MiB: " + "; ".join(
            run_figures(cell[(inst.name, s)]) for s in solvers
            if cell[(inst.name, s)].status != "not supported"))
        for s in solvers:
            r = cell[(inst.name, s)]
            if r.notes:
                print(f"    # {s}: {'; '.join(r.notes)}")
    print("(* best among the solvers; vehicles/distance" if spec.hierarchical else
          "(* best among the solvers", end="")
    print(", gap to the best known in %)")
    cols = Columns([("solver", 10, "<"), ("version", 10, "<"), ("feasible", 8, ">"),
                    ("infeasible", 10, ">"), ("n/s", 3, ">"), ("mean gap%", 9, ">"),
                    ("common gap%", 11, ">"), ("common", 6, ">"),
                    *([("veh", 5, ">")] if spec.hierarchical else []),
                    ("won", 4, ">"), ("mean s", 7, ">"), ("mean MiB", 8, ">")])
    print(cols.header())
    for s in solvers:
        m = summary[s]
        print(cols.line([s, m["version"], f"{m['feasible']}/{m['runs']}", str(m["infeasible"]),
                         str(m["not_supported"]), fmt_num(m["mean_gap"], 2),
                         fmt_num(m["common_gap"], 2), str(m["common"]),
                         *([str(m["common_vehicles"] or "-")] if spec.hierarchical else []),
                         str(m["wins"]), fmt_num(m["mean_seconds"], 2),
                         fmt_num(m["mean_rss_mib"], 0)]))
