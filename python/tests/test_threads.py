"""Thread safety: several solves from Python threads at once (the GIL released), sharing one
Problem, give the results of the same solves run one after the other."""
import threading

import routesolve
from conftest import grid_problem


def test_parallel_solves_match_sequential_ones():
    problem = routesolve.Problem.from_dict(grid_problem(80))
    seeds = [1, 2, 3, 4]
    sequential = [routesolve.solve(problem, backend="cpu", iterations=400, seed=s).to_dict() for s in seeds]
    results = [None] * len(seeds)
    errors = []

    def run(i):
        try:
            results[i] = routesolve.solve(problem, backend="cpu", iterations=400, seed=seeds[i]).to_dict()
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(seeds))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for got, want in zip(results, sequential):
        assert got["routes"] == want["routes"] and got["summary"]["cost"] == want["summary"]["cost"]


def test_the_gil_is_released_while_solving():
    # A Python thread keeps counting while another solves: it would stall with the GIL held.
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(1)
            done.wait(0.01)

    counter = threading.Thread(target=count)
    counter.start()
    routesolve.solve(grid_problem(150), backend="cpu", time_limit=1.0)
    done.set()
    counter.join()
    assert len(ticks) > 30
