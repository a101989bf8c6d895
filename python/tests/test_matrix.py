"""Travel matrices from Python equal the CLI's (`routesolve matrix`), on a road network built
and loaded through routesolve.Network, and great-circle without one."""
import json
import subprocess

import numpy as np
import pytest

import routesolve
from conftest import dataset

# Stops in Liechtenstein (the examples' fleet), [lon, lat]; two of them are more than 1 km from
# every road of the extract, so unreachable pairs are compared too.
POINTS = [[9.5209, 47.141], [9.506, 47.23], [9.555, 47.166], [9.5354, 47.1727], [9.5117, 47.2002],
          [9.4978, 47.2096], [9.5716, 47.2393], [9.6013, 47.1589]]


@pytest.fixture(scope="module")
def network(tmp_path_factory):
    source = dataset("roads", "osm", "liechtenstein-latest.osm.pbf")
    cache = tmp_path_factory.mktemp("net") / "li.rsnet"
    built = routesolve.Network.build(source, cache)
    assert cache.exists() and built.nodes > 1000 and built.arcs > built.nodes and built.coordinates
    return built


def test_network_load_reads_the_cache(network):
    again = routesolve.Network.load(network.path)
    assert (again.nodes, again.arcs) == (network.nodes, network.arcs)


@pytest.mark.parametrize("backend", ["cpu", "cuda-host"])
def test_road_matrices_equal_the_cli(network, cli, tmp_path, backend):
    durations, distances = routesolve.matrix(network, POINTS, backend=backend)
    assert durations.dtype == np.int64 and durations.shape == (len(POINTS), len(POINTS))
    assert durations.flags.c_contiguous and durations.flags.owndata is not None
    points = tmp_path / "points.json"
    points.write_text(json.dumps(POINTS))
    out = tmp_path / "m.json"
    subprocess.run([str(cli), "matrix", "--network", network.path, "--points", str(points), "--backend", "cpu",
                    "--allow-unreachable", "-o", str(out), "-q"], check=True)
    car = json.loads(out.read_text())["matrices"]["car"]
    np.testing.assert_array_equal(durations, np.array(car["durations"]))
    np.testing.assert_array_equal(distances, np.array(car["distances"]))
    assert np.all(np.diag(durations) == 0) and np.all(durations[~np.eye(len(POINTS), dtype=bool)] > 0)


def test_great_circle_without_a_network():
    durations, distances = routesolve.matrix(None, np.array(POINTS[:3]))
    np.testing.assert_array_equal(durations, durations.T)
    assert distances[0, 1] > 9000 and distances[0, 1] < 11000  # about 10 km between Vaduz and Schaan
    assert abs(durations[0, 1] - distances[0, 1] / (50 / 3.6)) <= 1


def test_bad_points():
    with pytest.raises(routesolve.InvalidInput, match="points"):
        routesolve.matrix(None, [[1.0, 2.0, 3.0]])
    with pytest.raises(routesolve.InvalidInput, match=r"points\[1\]"):
        routesolve.matrix(None, [[9.5, 47.1], [200.0, 47.1]])
