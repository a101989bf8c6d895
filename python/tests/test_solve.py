"""Solving from Python: shared benchmark instances checked independently, every problem form
(dict, JSON text, path, Problem with numpy matrices), the Solution object, progress."""
import json
import threading

import numpy as np
import pytest

import routesolve
from checker import check_cvrp, check_solomon
from conftest import REPO, dataset, grid_problem

FIXED = dict(backend="cpu", iterations=300, seed=3)  # a fixed amount of work: reproducible


@pytest.mark.parametrize("name", ["A-n32-k5.vrp", "A-n45-k6.vrp"])
def test_cvrplib_instances_pass_an_independent_check(name):
    path = dataset("cvrp", "augerat", "A", name)
    solution = routesolve.solve(path, **FIXED)
    assert solution.validate().ok
    check_cvrp(path, solution)


@pytest.mark.parametrize("name", ["C101.txt", "R101.txt"])
def test_solomon_instances_pass_an_independent_check(name):
    path = dataset("vrptw", "solomon", name)
    solution = routesolve.solve(str(path), threads=2, **FIXED)
    assert solution.validate().ok
    check_solomon(path, solution)


def small_document():
    return {
        "vehicles": [{"id": 1, "start_index": 0, "end_index": 0, "capacity": [4]},
                     {"id": 2, "start_index": 0, "end_index": 0, "capacity": [4]}],
        "jobs": [{"id": 10 + i, "location_index": i + 1, "delivery": [1]} for i in range(5)],
        "matrices": {"car": {"durations": [[abs(i - j) * 100 + (i != j) * 7 for j in range(6)] for i in range(6)]}},
    }


def test_every_problem_form_gives_the_same_solution(tmp_path):
    doc = small_document()
    path = tmp_path / "small.json"
    path.write_text(json.dumps(doc))
    durations = np.array(doc["matrices"]["car"]["durations"], dtype=np.int64)
    built = routesolve.Problem(vehicles=doc["vehicles"], jobs=doc["jobs"], durations=durations)
    forms = [doc, json.dumps(doc), json.dumps(doc).encode(), str(path), path, built,
             routesolve.Problem.from_dict(doc), routesolve.read_problem(path)]
    results = [routesolve.solve(p, **FIXED).to_dict() for p in forms]
    for r in results[1:]:
        assert r["routes"] == results[0]["routes"]
        assert r["summary"]["cost"] == results[0]["summary"]["cost"]
    assert built.tasks == 5 and built.vehicles == 2


def test_numpy_matrices_are_read_in_place_and_float_arrays_rounded():
    doc = small_document()
    durations = np.ascontiguousarray(np.array(doc["matrices"]["car"]["durations"], dtype=np.int64))
    problem = routesolve.Problem(vehicles=doc["vehicles"], jobs=doc["jobs"], durations=durations,
                                 distances=durations * 10)
    # The array handed to the extension is the caller's own (no conversion copy).
    assert problem._matrices["car"][0] is durations
    as_float = routesolve.Problem(vehicles=doc["vehicles"], jobs=doc["jobs"], durations=durations + 0.2)
    a = routesolve.solve(problem, **FIXED)
    b = routesolve.solve(as_float, **FIXED)
    visits = lambda s: [(r["vehicle"], [step.get("id") for step in r["steps"]]) for r in s.routes]
    assert visits(a) == visits(b) and a.cost == b.cost
    assert a.summary["distance"] == 10 * a.summary["duration"]
    # Fortran-ordered or int32 input works too (converted once).
    f = routesolve.Problem(vehicles=doc["vehicles"], jobs=doc["jobs"], durations=np.asfortranarray(durations).astype(np.int32))
    assert routesolve.solve(f, **FIXED).cost == a.cost


def test_solution_object():
    s = routesolve.solve(small_document(), **FIXED)
    d = s.to_dict()
    assert d["routes"] == s.routes and d["unassigned"] == s.unassigned and d["summary"] == s.summary
    assert json.loads(s.to_json()) == d and json.loads(s.to_json(indent=2)) == d
    assert s.backend == "cpu" and not s.interrupted and not s.stopped
    served = sorted(step["id"] for r in s.routes for step in r["steps"] if step["type"] == "job")
    assert served == [10, 11, 12, 13, 14]
    report = s.validate()
    assert report.ok and bool(report) and report.violations == []
    # The validator catches a tampered solution.
    d["routes"][0]["steps"] = [st for st in d["routes"][0]["steps"] if st["type"] != "job"]
    tampered = routesolve._core.validate(s.problem._handle, json.dumps(d))
    assert not tampered["ok"] and tampered["violations"][0]["where"]


def test_progress_is_reported_on_the_calling_thread():
    calls = []
    routesolve.solve(grid_problem(60), backend="cpu", iterations=2000,
                     progress=lambda p: calls.append((threading.get_ident(), p)))
    assert calls, "no progress report"
    assert {ident for ident, _ in calls} == {threading.get_ident()}
    assert set(calls[0][1]) == {"elapsed_s", "fraction", "best_cost", "routes", "unassigned"}


def test_coordinates_only_problem_uses_great_circle_matrices():
    example = REPO / "examples" / "fleet_coordinates.json"
    s = routesolve.solve(example, backend="cpu", iterations=200)
    assert s.validate().ok and s.routes


def test_version():
    assert routesolve.__version__ == "0.2.0"


def test_plan_mode_reports_violations_instead_of_solving():
    # Vehicle 1's steps are its whole route: job 12 before job 10 (the order kept), the capacity
    # of 1 broken by the two deliveries; job 11 is in no vehicle's steps, so it stays unassigned.
    doc = small_document()
    doc["vehicles"][0]["capacity"] = [1]
    doc["vehicles"][0]["steps"] = [{"type": "start"}, {"type": "job", "id": 12}, {"type": "job", "id": 10},
                                   {"type": "end"}]
    doc["jobs"][0]["time_windows"] = [[0, 100]]  # job 10 reached at 307 + 207 = 514: 414 late
    plan = routesolve.solve(doc, check=True)
    steps = plan.routes[0]["steps"]
    assert [s.get("id") for s in steps] == [None, 12, 10, None]
    causes = {v["cause"] for v in plan.summary["violations"]}
    assert causes == {"load", "delay"}
    late = [v for s in steps for v in s["violations"] if v["cause"] == "delay"]
    assert late == [{"cause": "delay", "duration": 414}]
    assert {u["id"] for u in plan.unassigned} == {11, 13, 14}
    assert not plan.validate().ok  # the validator reports the same broken rules
    # Without check the same steps are a starting solution, which a solve refuses (over capacity).
    with pytest.raises(routesolve.InvalidInput, match=r"vehicles\[0\]\.steps"):
        routesolve.solve(doc, **FIXED)


def test_timeline_vroom_by_default_earliest_on_request():
    # One job 107 s away, window [1000, 2000]. VROOM's timeline leaves at 893 and waits nowhere;
    # the earliest one leaves at 0 and waits 893 at the job. The route is the same.
    doc = {"vehicles": [{"id": 1, "start_index": 0, "end_index": 0}],
           "jobs": [{"id": 10, "location_index": 1, "time_windows": [[1000, 2000]]}],
           "matrices": {"car": {"durations": [[0, 107], [107, 0]]}}}
    times = lambda s: [(st["arrival"], st["waiting_time"]) for st in s.routes[0]["steps"]]
    vroom = routesolve.solve(doc, **FIXED)
    assert times(vroom) == [(893, 0), (1000, 0), (1107, 0)]
    assert vroom.summary["waiting_time"] == 0
    earliest = routesolve.solve(doc, timeline="earliest", **FIXED)
    assert times(earliest) == [(0, 0), (107, 893), (1107, 0)]
    assert earliest.summary["waiting_time"] == 893
    assert vroom.validate().ok and earliest.validate().ok
    assert vroom.summary["cost"] == earliest.summary["cost"]
    # The problem's option, and the call's over it.
    doc["options"] = {"timeline": "earliest"}
    assert times(routesolve.solve(doc, **FIXED)) == times(earliest)
    assert times(routesolve.solve(doc, timeline="vroom", **FIXED)) == times(vroom)
    with pytest.raises(routesolve.InvalidInput, match="timeline"):
        routesolve.solve(doc, timeline="latest", **FIXED)
    doc["options"] = {"timeline": "soon"}
    with pytest.raises(routesolve.InvalidInput, match=r"options\.timeline"):
        routesolve.solve(doc, **FIXED)
