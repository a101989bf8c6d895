"""Plain-text tables of benchmarks/suites/quality/quality (fixed-width columns). Standard library only."""
from __future__ import annotations



def fmt_num(x: float | None, decimals: int) -> str:
    return "-" if x is None else f"{x:.{decimals}f}"


def fmt_int(x: int | None) -> str:
    return "-" if x is None else str(x)


class Columns:
    """Fixed-width columns: (name, width, alignment "<" or ">") each."""

    def __init__(self, cols: list[tuple[str, int, str]]):
        self.cols = cols

    def line(self, values: list[str]) -> str:
        return "  ".join(f"{v:{a}{w}}" for v, (_, w, a) in zip(values, self.cols)).rstrip()

    def header(self) -> str:
        return self.line([c[0] for c in self.cols])


class Table(Columns):
    """Rows of one set on stdout, aligned."""

    def __init__(self, spec: SetSpec, name_width: int):
        self.spec = spec
        self.w = max(8, name_width)
        if spec.hierarchical:
            cols = [("instance", self.w, "<"), ("n", 5, ">"), ("vehicles", 8, ">"),
                    ("bks_veh", 7, ">"), ("distance", 11, ">"), ("bks_dist", 11, ">"),
                    ("gap%", 7, ">"), ("seconds", 7, ">"), ("feasible", 8, "<")]
        else:
            cols = [("instance", self.w, "<"), ("n", 5, ">"), ("vehicles", 8, ">"),
                    ("cost", 11, ">"), ("bks", 11, ">"), ("gap%", 7, ">"),
                    ("seconds", 7, ">"), ("feasible", 8, "<")]
        super().__init__(cols)

    def row(self, r: Result) -> str:
        d = self.spec.decimals
        feas = "yes" if r.feasible else f"NO ({r.status})"
        common_tail = [fmt_num(r.gap, 2), f"{r.seconds:.2f}", feas]
        if self.spec.hierarchical:
            vals = [r.inst.name, str(r.inst.n), fmt_int(r.vehicles), fmt_int(r.inst.bks_vehicles),
                    fmt_num(r.distance, d), r.inst.bks_text or "-", *common_tail]
        else:
            vals = [r.inst.name, str(r.inst.n), fmt_int(r.vehicles), fmt_num(r.cost, d),
                    r.inst.bks_text or "-", *common_tail]
        text = self.line(vals)
        if r.notes:
            text += "  # " + "; ".join(r.notes)
        return text
