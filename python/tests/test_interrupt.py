"""Stopping a solve: Ctrl+C (SIGINT to the process) and a stop event from another thread both
end the search early with the best solution so far, valid.

The solves are given a fixed amount of work far beyond what a test could wait for (BUDGET
iterations, no time limit), so "early" is checked on the iterations done, not on a clock; a solve
that ignored its stop would run into ctest's timeout instead of passing slowly."""
import os
import signal
import subprocess
import sys
import threading
import time

import routesolve
from conftest import grid_problem

BUDGET = 10**9

CHILD = r"""
import sys, routesolve
sys.path.insert(0, sys.argv[1])
from conftest import grid_problem
print("ready", flush=True)
s = routesolve.solve(grid_problem(300), time_limit=None, iterations=10**9, backend="cpu")
print(s.interrupted, s.validate().ok, len(s.unassigned), s.iterations, flush=True)
"""


def test_keyboard_interrupt_returns_the_best_solution_so_far():
    here = os.path.dirname(os.path.abspath(__file__))
    child = subprocess.Popen([sys.executable, "-c", CHILD, here], stdout=subprocess.PIPE, text=True,
                             env=dict(os.environ))
    assert child.stdout.readline().strip() == "ready"
    time.sleep(1.5)
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=60)
    assert child.returncode == 0, out
    interrupted, valid, unassigned, iterations = out.split()
    assert interrupted == "True" and valid == "True" and unassigned == "0"
    assert int(iterations) < BUDGET


def test_stop_event_from_another_thread():
    stop = threading.Event()
    threading.Timer(0.5, stop.set).start()
    s = routesolve.solve(grid_problem(300), time_limit=None, iterations=BUDGET, backend="cpu", stop=stop)
    assert s.iterations < BUDGET
    assert s.stopped and not s.interrupted
    assert s.validate().ok and not s.unassigned


def test_an_exception_in_the_progress_callback_stops_and_propagates():
    def boom(report):
        raise RuntimeError("from the callback")

    try:
        routesolve.solve(grid_problem(200), time_limit=None, iterations=BUDGET, backend="cpu", progress=boom)
    except RuntimeError as e:
        assert "from the callback" in str(e)
    else:
        raise AssertionError("the callback's exception was swallowed")
