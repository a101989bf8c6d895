"""The plots of benchmarks/report, drawn with matplotlib. matplotlib is a tool of the benchmarks
only: it comes from PyPI into the peers' virtual environment (benchmarks/suites/peers/peers creates it), never
into the project's dependencies. benchmarks/report computes each plot's data with the standard
library and hands the list of plots here, in process when its Python has matplotlib, otherwise
through the virtual environment's Python:

    build/peers-venv/bin/python benchmarks/lib/report_plots.py PLOTS.json

PLOTS.json: [{"kind": K, "path": SVG, "title": T, "data": ...}], kinds and data below. The SVGs
are written without a date and with a fixed id salt, so the same data gives the same file.
"""
from __future__ import annotations

import json
import math
import sys
import warnings
from pathlib import Path

STAGES = ["parse", "network_load", "snap", "matrix", "h2d", "kernels", "d2h", "search", "validate",
          "output", "other"]
STAGE_LABELS = {"network_load": "network load", "h2d": "H2D", "d2h": "D2H"}


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({"svg.hashsalt": "routesolve", "svg.fonttype": "none", "font.size": 9,
                         "axes.grid": True, "grid.alpha": 0.3})
    return plt


def _save(fig, path: str, title: str) -> None:
    fig.suptitle(title)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a layout it cannot tighten is still drawn
        fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fmt = Path(path).suffix.lstrip(".") or "svg"
    fig.savefig(path, format=fmt, bbox_inches="tight", dpi=80,
                metadata={"Date": None} if fmt == "svg" else {"Software": None})
    import matplotlib.pyplot as plt
    plt.close(fig)


def _grid(plt, count: int, width: float = 4.2, height: float = 3.2):
    cols = min(3, max(1, count))
    rows = math.ceil(max(1, count) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False)
    flat = [a for row in axes for a in row]
    for a in flat[count:]:
        a.set_visible(False)
    return fig, flat


def gap_vs_time(plt, data: dict, path: str, title: str) -> None:
    """data: {set: {solver: [[seconds, mean gap %], ...]}}; x on a log scale, 1 s to 60 s."""
    fig, axes = _grid(plt, len(data))
    for ax, (set_name, solvers) in zip(axes, sorted(data.items())):
        for solver, pts in sorted(solvers.items()):
            pts = sorted(pts)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=solver)
        ax.set_xscale("log")
        xs = [p[0] for pts in solvers.values() for p in pts]
        ax.set_xlim(min([1.0, *xs]) * 0.8, max([60.0, *xs]) * 1.25)
        ax.set_xticks([1, 2, 5, 10, 30, 60])
        ax.set_xticklabels(["1", "2", "5", "10", "30", "60"])
        ax.set_title(set_name)
        ax.set_xlabel("time limit (s)")
        ax.set_ylabel("mean gap to best known (%)")
        ax.legend(fontsize=8)
    _save(fig, path, title)


def profile(plt, data: dict, path: str, title: str) -> None:
    """data: {"ratios": {solver: [ratio or null (failed)]}, "problems": N}: the share of problems
    each solver solves within a factor tau of the best solver's objective (Dolan and More)."""
    ratios = data["ratios"]
    finite = [r for rs in ratios.values() for r in rs if r is not None]
    top = max([1.0, *finite]) * 1.02
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for solver, rs in sorted(ratios.items()):
        xs = sorted(r for r in rs if r is not None)
        n = len(rs)
        if not n:
            continue
        steps_x = [1.0] + xs + [top]
        steps_y = [0.0] + [(i + 1) / n for i in range(len(xs))] + [len(xs) / n]
        ax.step(steps_x, steps_y, where="post", label=f"{solver} ({len(xs)}/{n} solved)")
    ax.set_xlim(1.0, top)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("tau: objective / best objective among the solvers")
    ax.set_ylabel(f"share of the {data['problems']} problems within tau")
    ax.legend(fontsize=8, loc="lower right")
    _save(fig, path, title)


def backends(plt, data: list, path: str, title: str) -> None:
    """data: [{"scenario", "backend", "matrix", "to_target", "cost_vs_cpu", "note"}]: grouped bars
    per scenario; a backend without a measurement is marked "not measured"."""
    scenarios = list(dict.fromkeys(r["scenario"] for r in data))
    names = list(dict.fromkeys(r["backend"] for r in data))
    panels = [("matrix", "matrix stage (s)", True), ("to_target", "pipeline to the cpu's cost (s)", True),
              ("cost_vs_cpu", "cost at the budget vs cpu (%)", False)]
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    width = 0.8 / max(1, len(names))
    cell = {(r["scenario"], r["backend"]): r for r in data}
    for ax, (key, label, log) in zip(axes, panels):
        for k, b in enumerate(names):
            xs, ys = [], []
            for i, s in enumerate(scenarios):
                r = cell.get((s, b))
                x = i + (k - (len(names) - 1) / 2) * width
                if r is None or r.get(key) is None:
                    if r is not None and r.get("note"):
                        ax.text(x, 0, "not measured", rotation=90, ha="center", va="bottom",
                                fontsize=7, transform=ax.get_xaxis_transform())
                    continue
                xs.append(x)
                ys.append(r[key])
            ax.bar(xs, ys, width, label=b, color=plt.get_cmap("tab10")(k))
        if log and any(r.get(key) for r in data):
            ax.set_yscale("log")
        ax.set_xticks(range(len(scenarios)))
        ax.set_xticklabels(scenarios, rotation=20, ha="right", fontsize=8)
        ax.set_ylabel(label)
    axes[0].legend(fontsize=8)
    _save(fig, path, title)


def stage_shares(plt, data: list, path: str, title: str) -> None:
    """data: [[label, {stage: share 0..1}]]: one 100% bar per run."""
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(data) + 1.6))
    labels = [d[0] for d in data]
    left = [0.0] * len(data)
    cmap = plt.get_cmap("tab20")
    for k, st in enumerate(STAGES):
        widths = [d[1].get(st, 0.0) for d in data]
        if not any(widths):
            continue
        ax.barh(labels, widths, left=left, color=cmap(k), label=STAGE_LABELS.get(st, st))
        for i, w in enumerate(widths):
            if w >= 0.08:
                ax.text(left[i] + w / 2, i, f"{100 * w:.0f}%", ha="center", va="center", fontsize=7)
        left = [a + b for a, b in zip(left, widths)]
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of the run's wall time")
    ax.legend(fontsize=7, ncol=6, loc="upper center", bbox_to_anchor=(0.5, -0.25))
    _save(fig, path, title)


def scale(plt, data: dict, path: str, title: str) -> None:
    """data: {series: [[n, wall s, peak RSS MiB, iterations/s or null]]}."""
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.6))
    for label, pts in sorted(data.items()):
        pts = sorted(pts)
        for ax, col in zip(axes, (1, 2, 3)):
            sel = [(p[0], p[col]) for p in pts if p[col] is not None]
            if sel:
                ax.plot([s[0] for s in sel], [s[1] for s in sel], marker="o", label=label)
    for ax, name in zip(axes, ("wall time (s)", "peak RSS (MiB)", "search iterations per second")):
        ax.set_xscale("log")
        ax.set_xlabel("n (stops or customers)")
        ax.set_ylabel(name)
    axes[0].set_ylim(bottom=0)
    axes[1].set_ylim(bottom=0)
    axes[2].set_yscale("log")
    axes[0].legend(fontsize=8)
    _save(fig, path, title)


def matrix(plt, data: dict, path: str, title: str) -> None:
    """data: {series: [[n, milliseconds]]}, log-log."""
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for label, pts in sorted(data.items()):
        pts = sorted(pts)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n (points)")
    ax.set_ylabel("milliseconds")
    ax.legend(fontsize=8)
    _save(fig, path, title)


KINDS = {"gap_vs_time": gap_vs_time, "profile": profile, "backends": backends,
         "stage_shares": stage_shares, "scale": scale, "matrix": matrix}


def render(plots: list[dict]) -> None:
    plt = _plt()
    for p in plots:
        KINDS[p["kind"]](plt, p["data"], p["path"], p.get("title", ""))


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: report_plots.py PLOTS.json", file=sys.stderr)
        return 2
    render(json.loads(Path(argv[0]).read_text()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
