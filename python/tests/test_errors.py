"""Bad input raises routesolve.InvalidInput (a ValueError) with the CLI's message: the JSON path
and the field."""
import json
import subprocess

import numpy as np
import pytest

import routesolve


BAD = {"vehicles": [{"id": 1, "start_index": 0, "capacity": [-3]}],
       "jobs": [{"id": 1, "location_index": 1, "delivery": [1]}],
       "matrices": {"car": {"durations": [[0, 1], [1, 0]]}}}


def test_invalid_input_names_path_and_field():
    with pytest.raises(routesolve.InvalidInput) as err:
        routesolve.solve(BAD)
    assert "vehicles[0].capacity[0]" in str(err.value)
    assert isinstance(err.value, ValueError) and isinstance(err.value, routesolve.Error)


def test_same_message_as_the_cli(cli, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(BAD))
    with pytest.raises(routesolve.InvalidInput) as err:
        routesolve.solve(path)
    run = subprocess.run([str(cli), "solve", str(path), "-q"], capture_output=True, text=True)
    assert run.returncode == 2
    assert str(err.value) in run.stderr


@pytest.mark.parametrize("problem, where", [
    ({"vehicles": [{"id": -1, "start": [9.5, 47.1]}], "jobs": []}, "vehicles[0].id"),
    ({"vehicles": [{"id": 1, "start_index": 5}], "jobs": [{"id": 1, "location_index": 0}],
      "matrices": {"car": {"durations": [[0]]}}}, "vehicles[0].start"),
    ('{"vehicles": [', "problem"),
])
def test_malformed_documents(problem, where):
    with pytest.raises(routesolve.InvalidInput) as err:
        routesolve.solve(problem)
    assert where in str(err.value)


def test_bad_matrices_and_options():
    vehicles = [{"id": 1, "start_index": 0, "end_index": 0}]
    jobs = [{"id": 1, "location_index": 1}]
    with pytest.raises(routesolve.InvalidInput, match="square"):
        routesolve.Problem(vehicles=vehicles, jobs=jobs, durations=np.zeros((2, 3)))
    with pytest.raises(routesolve.InvalidInput, match="dtype"):
        routesolve.Problem(vehicles=vehicles, jobs=jobs, durations=np.array([["a", "b"], ["c", "d"]]))
    ok = routesolve.Problem(vehicles=vehicles, jobs=jobs, durations=np.array([[0, 5], [5, 0]]))
    with pytest.raises(routesolve.InvalidInput, match="backend"):
        routesolve.solve(ok, backend="quantum")
    with pytest.raises(routesolve.InvalidInput, match="objective"):
        routesolve.solve(ok, objective="happiness")
    with pytest.raises(routesolve.InvalidInput):
        routesolve.solve(ok, time_limit=-1)
    with pytest.raises(TypeError):
        routesolve.solve(42)


def test_missing_file():
    with pytest.raises(routesolve.InvalidInput, match="no-such-file"):
        routesolve.solve("/nonexistent/no-such-file.json")
