"""Paths of the pytest suite: the build's tool and C library, the datasets, the repository.

Run by ctest (python_tests) with PYTHONPATH=<build>/python and the ROUTESOLVE_TEST_* variables
set; run by hand, the defaults are the repository's build/ and ../shared/datasets.
"""
import os
import pathlib

import pytest

REPO = pathlib.Path(os.environ.get("ROUTESOLVE_TEST_SOURCE", pathlib.Path(__file__).resolve().parents[2]))
BIN = pathlib.Path(os.environ.get("ROUTESOLVE_TEST_BIN", REPO / "build" / "bin"))
DATASETS = pathlib.Path(os.environ.get("ROUTESOLVE_TEST_DATASETS", REPO.parent / "shared" / "datasets"))
LIB = pathlib.Path(os.environ.get("ROUTESOLVE_TEST_LIB", REPO / "build" / "lib" / "libroutesolve_c.so"))


def dataset(*parts):
    path = DATASETS.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"dataset {path} not present")
    return path


@pytest.fixture
def cli():
    tool = BIN / "routesolve"
    if not tool.exists():
        pytest.skip(f"{tool} not built")
    return tool


def grid_problem(n, vehicles=None, capacity=12):
    """n jobs with coordinates around Vaduz (great-circle matrices): a problem big enough that a
    long time limit does not end on its own within a test."""
    vehicles = vehicles if vehicles is not None else 1 + n // 10
    return {
        "vehicles": [{"id": v + 1, "start": [9.52, 47.14], "end": [9.52, 47.14], "capacity": [capacity]}
                     for v in range(vehicles)],
        "jobs": [{"id": j + 1, "location": [9.45 + 0.004 * (j % 37), 47.05 + 0.003 * (j // 37)], "delivery": [1]}
                 for j in range(n)],
    }
