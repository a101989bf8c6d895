"""Stopping a solve: Ctrl+C (SIGINT to the process) and a stop event from another thread both
end the search early with the best solution so far, valid."""
import os
import signal
import subprocess
import sys
import threading
import time

import routesolve
from conftest import grid_problem

CHILD = r"""
import sys, time, routesolve
sys.path.insert(0, sys.argv[1])
from conftest import grid_problem
print("ready", flush=True)
t0 = time.monotonic()
s = routesolve.solve(grid_problem(300), time_limit=60, backend="cpu")
print(s.interrupted, s.validate().ok, len(s.unassigned), round(time.monotonic() - t0, 2), flush=True)
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
    interrupted, valid, unassigned, seconds = out.split()
    assert interrupted == "True" and valid == "True" and unassigned == "0"
    assert float(seconds) < 30


def test_stop_event_from_another_thread():
    stop = threading.Event()
    threading.Timer(0.5, stop.set).start()
    t0 = time.monotonic()
    s = routesolve.solve(grid_problem(300), time_limit=60, backend="cpu", stop=stop)
    assert time.monotonic() - t0 < 20
    assert s.stopped and not s.interrupted
    assert s.validate().ok and not s.unassigned


def test_an_exception_in_the_progress_callback_stops_and_propagates():
    def boom(report):
        raise RuntimeError("from the callback")

    t0 = time.monotonic()
    try:
        routesolve.solve(grid_problem(200), time_limit=60, backend="cpu", progress=boom)
    except RuntimeError as e:
        assert "from the callback" in str(e)
    else:
        raise AssertionError("the callback's exception was swallowed")
    assert time.monotonic() - t0 < 20
