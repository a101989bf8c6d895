"""The Python side of routesolve: problems, solving, solutions, matrices and road networks."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core

ProblemLike = Union["Problem", Mapping[str, Any], str, bytes, "os.PathLike[str]"]

_MATRIX_KEYS = ("durations", "distances", "costs")


def _as_matrix(value: Any, where: str) -> np.ndarray:
    """An int64 C-ordered array; the same object (no copy) when it already is one."""
    array = np.asarray(value)
    if array.dtype.kind == "f":
        if not np.all(np.isfinite(array)):
            raise _core.InvalidInput(f"{where}: expected finite numbers")
        array = np.rint(array).astype(np.int64)
    elif array.dtype.kind in "iub":
        array = array.astype(np.int64, copy=False)
    else:
        raise _core.InvalidInput(f"{where}: expected an integer or float matrix, got dtype {array.dtype}")
    if array.ndim != 2 or array.shape[0] != array.shape[1]:
        raise _core.InvalidInput(f"{where}: expected a square matrix, got shape {array.shape}")
    return np.ascontiguousarray(array)


def _options(**values: Any) -> Dict[str, Any]:
    out = {k: v for k, v in values.items() if v is not None}
    if "network" in out:
        out["network"] = os.fspath(out["network"].path if isinstance(out["network"], Network) else out["network"])
    return out


class Problem:
    """A validated, immutable routing problem.

    Build one from VROOM-style parts with numpy matrices (indexed by each place's
    ``location_index``)::

        problem = routesolve.Problem(
            vehicles=[{"id": 1, "start_index": 0, "end_index": 0, "capacity": [10]}],
            jobs=[{"id": 7, "location_index": 1, "delivery": [3]}],
            durations=np.array([[0, 600], [600, 0]]),
        )

    Matrices given as C-ordered int64 arrays are read in place; float arrays are rounded.
    ``matrices`` maps a routing profile to its matrices, for several profiles
    (``{"car": {"durations": ..., "distances": ...}}``); ``durations=`` is the ``car`` profile.
    Without matrices, places need ``location`` coordinates: matrices then come from ``network``
    (a road network file or :class:`Network`) or great-circle distances at 50 km/h.
    Raises :class:`InvalidInput` naming the JSON path and field of the first error.
    """

    def __init__(
        self,
        vehicles: Sequence[Mapping[str, Any]],
        jobs: Sequence[Mapping[str, Any]] = (),
        shipments: Sequence[Mapping[str, Any]] = (),
        durations: Any = None,
        distances: Any = None,
        costs: Any = None,
        matrices: Optional[Mapping[str, Mapping[str, Any]]] = None,
        network: Union[str, "os.PathLike[str]", "Network", None] = None,
        backend: Optional[str] = None,
    ) -> None:
        document: Dict[str, Any] = {"vehicles": list(vehicles)}
        if jobs:
            document["jobs"] = list(jobs)
        if shipments:
            document["shipments"] = list(shipments)
        profiles: Dict[str, Dict[str, Any]] = {k: dict(v) for k, v in (matrices or {}).items()}
        if durations is not None or distances is not None or costs is not None:
            car = profiles.setdefault("car", {})
            for key, value in (("durations", durations), ("distances", distances), ("costs", costs)):
                if value is not None:
                    car[key] = value
        self._init(document, profiles, "problem", _options(network=network, backend=backend))

    def _init(self, document: Dict[str, Any], profiles: Mapping[str, Mapping[str, Any]], source: str,
              options: Dict[str, Any]) -> None:
        arrays = {}
        for profile, m in profiles.items():
            if "durations" not in m:
                raise _core.InvalidInput(f"matrices.{profile}: missing required field 'durations'")
            unknown = set(m) - set(_MATRIX_KEYS)
            if unknown:
                raise _core.InvalidInput(f"matrices.{profile}.{sorted(unknown)[0]}: unknown matrix")
            arrays[profile] = tuple(
                None if m.get(k) is None else _as_matrix(m[k], f"matrices.{profile}.{k}") for k in _MATRIX_KEYS)
        self._matrices = arrays
        self._handle = _core.problem_from_arrays(json.dumps(document), source, arrays, options)

    @classmethod
    def from_dict(cls, document: Mapping[str, Any], network: Any = None, backend: Optional[str] = None) -> "Problem":
        """A problem from a VROOM-style dict; its ``matrices`` may hold lists or numpy arrays."""
        return _from_document(document, "problem", _options(network=network, backend=backend))

    @classmethod
    def from_json(cls, text: Union[str, bytes], network: Any = None, backend: Optional[str] = None,
                  matrix_engine: Optional[str] = None) -> "Problem":
        """A problem from VROOM JSON text (``matrix_engine``: the road network's engine, default ``backend``)."""
        self = cls.__new__(cls)
        self._matrices = {}
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        self._handle = _core.problem_from_json(
            text, "problem", _options(network=network, backend=backend, matrix_engine=matrix_engine))
        return self

    @property
    def tasks(self) -> int:
        """Jobs plus shipment steps (a shipment counts twice: pickup and delivery)."""
        return self._handle.tasks

    @property
    def vehicles(self) -> int:
        return self._handle.vehicles

    def __repr__(self) -> str:
        return f"<routesolve.Problem: {self.tasks} tasks, {self.vehicles} vehicles>"


def _from_document(document: Mapping[str, Any], source: str, options: Dict[str, Any]) -> Problem:
    rest = {k: v for k, v in document.items() if k not in ("matrices", "matrix")}
    profiles: Dict[str, Dict[str, Any]] = {k: dict(v) for k, v in document.get("matrices", {}).items()}
    if "matrix" in document:
        profiles.setdefault("car", {})["durations"] = document["matrix"]
    self = Problem.__new__(Problem)
    self._init(rest, profiles, source, options)
    return self


def read_problem(path: Union[str, "os.PathLike[str]"], format: str = "auto", network: Any = None,
                 backend: Optional[str] = None, matrix_engine: Optional[str] = None) -> Problem:
    """Reads a fleet file of any format routesolve reads: ``format`` names it as the CLI's
    ``--format`` does (docs/FORMATS.md); ``"auto"`` guesses it from the content."""
    self = Problem.__new__(Problem)
    self._matrices = {}
    self._handle = _core.problem_from_file(os.fspath(path), format,
                                           _options(network=network, backend=backend, matrix_engine=matrix_engine))
    return self


def _to_problem(problem: ProblemLike, network: Any, backend: Optional[str],
                matrix_engine: Optional[str] = None) -> Problem:
    if isinstance(problem, Problem):
        return problem
    options = _options(network=network, backend=backend, matrix_engine=matrix_engine)
    if isinstance(problem, Mapping):
        return _from_document(problem, "problem", options)
    if isinstance(problem, bytes):
        problem = problem.decode("utf-8")
    if isinstance(problem, str) and problem.lstrip().startswith("{"):
        return Problem.from_json(problem, network=network, backend=backend, matrix_engine=matrix_engine)
    if isinstance(problem, (str, os.PathLike)):
        return read_problem(problem, network=network, backend=backend, matrix_engine=matrix_engine)
    raise TypeError(f"expected a Problem, a dict, JSON text or a path, got {type(problem).__name__}")


@dataclass
class Validation:
    """The validator's verdict: ``ok`` and one entry per violation (where, kind, message)."""

    ok: bool
    violations: List[Dict[str, str]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return self.ok


class Solution:
    """A solution in VROOM's output format.

    ``routes``, ``unassigned`` and ``summary`` are the VROOM output's fields (lists and dicts);
    ``backend`` names the engine that ran, ``interrupted`` is True when Ctrl+C ended the search
    (the solution is then the best found until then), ``stopped`` when any stop request did.
    """

    def __init__(self, problem: Problem, result: Mapping[str, Any]) -> None:
        self.problem = problem
        self._json: str = result["solution_json"]
        self._dict: Dict[str, Any] = json.loads(self._json)
        self.backend: str = result["backend"]
        self.fallback: str = result["fallback"]
        self.iterations: int = result["iterations"]
        self.interrupted: bool = result["interrupted"]
        self.stopped: bool = result["stopped"]

    @property
    def routes(self) -> List[Dict[str, Any]]:
        return self._dict["routes"]

    @property
    def unassigned(self) -> List[Dict[str, Any]]:
        return self._dict["unassigned"]

    @property
    def summary(self) -> Dict[str, Any]:
        return self._dict["summary"]

    @property
    def cost(self) -> float:
        return self._dict["summary"]["cost"]

    def to_dict(self) -> Dict[str, Any]:
        """The VROOM output document (a deep copy)."""
        return json.loads(self._json)

    def to_json(self, indent: Optional[int] = None) -> str:
        """The VROOM output JSON (the CLI's ``-o out.json`` when ``indent`` is None)."""
        return self._json if indent is None else json.dumps(self._dict, indent=indent)

    def validate(self) -> Validation:
        """Runs routesolve's independent validator on this solution against its problem."""
        report = _core.validate(self.problem._handle, self._json)
        return Validation(report["ok"], report["violations"])

    def __repr__(self) -> str:
        return (f"<routesolve.Solution: cost {self.cost}, {len(self.routes)} routes, "
                f"{len(self.unassigned)} unassigned>")


def solve(
    problem: ProblemLike,
    time_limit: Optional[float] = None,
    threads: int = 1,
    backend: str = "auto",
    seed: int = 1,
    iterations: Optional[int] = None,
    chains: Optional[int] = None,
    objective: str = "cost",
    network: Any = None,
    progress: Optional[Callable[[Dict[str, Any]], None]] = None,
    stop: Any = None,
    check: bool = False,
    matrix_engine: Optional[str] = None,
    timeline: Optional[str] = None,
) -> Solution:
    """Solves a problem and returns a validated :class:`Solution`.

    ``problem``: a :class:`Problem`, a VROOM-style dict, JSON text, or a path to a fleet file.
    ``time_limit`` in seconds (None or 0: a fixed amount of work, ``iterations`` per chain);
    ``backend``: a name the CLI's ``--backend`` takes (docs/CLI.md), default ``"auto"``; ``network``: a road network
    for problems given with coordinates only, its matrices computed by ``matrix_engine`` (the
    same names; default: as ``backend``). ``progress(report)`` is called on this thread
    with ``elapsed_s``, ``fraction``, ``best_cost``, ``routes`` and ``unassigned``; ``stop`` is
    anything with ``is_set()`` (a ``threading.Event``) that, once set, ends the search early.

    The GIL is released while the search runs, so solves in several Python threads run at once.
    Ctrl+C (KeyboardInterrupt) stops the search: the best solution so far is returned with
    ``interrupted`` set.

    ``check=True`` is plan mode (VROOM's ``-c``, ``routesolve solve --check``): every vehicle's
    ``steps`` are its whole route, nothing is solved, and what the plan breaks is reported in
    VROOM's ``violations`` (``summary["violations"]``, each route's and each step's).

    ``timeline``: the reported times, ``"vroom"`` (VROOM's: the earliest end, every step as late
    as it allows, so the least waiting) or ``"earliest"`` (an extension: every step at its
    earliest instant from the shift start); None: the problem's ``options.timeline``, else
    ``"vroom"``. The routes do not depend on it.
    """
    p = _to_problem(problem, network, backend, matrix_engine)
    options = _options(time_limit=time_limit, threads=threads, backend=backend, seed=seed, iterations=iterations,
                       chains=chains, objective=objective, check=check or None, timeline=timeline)
    result = _core.solve(p._handle, options, progress, stop)
    return Solution(p, result)


class Network:
    """A road network, loaded once per process and shared by every matrix computed on it."""

    def __init__(self, path: str, nodes: int, arcs: int, coordinates: bool) -> None:
        self.path = path
        self.nodes = nodes
        self.arcs = arcs
        self.coordinates = coordinates

    @classmethod
    def load(cls, path: Union[str, "os.PathLike[str]"]) -> "Network":
        """Loads a network: a ``.rsnet`` cache or a raw file (OSM, DIMACS ``.gr``, edge list)."""
        return cls(*_core.network_load(os.fspath(path)))

    @classmethod
    def build(cls, path: Union[str, "os.PathLike[str]"],
              output: Union[str, "os.PathLike[str]", None] = None) -> "Network":
        """Imports a raw road network, writes its ``.rsnet`` cache (with the contraction
        hierarchy) to ``output`` (default: beside the input) and loads it."""
        source = os.fspath(path)
        target = os.fspath(output) if output is not None else os.path.splitext(source)[0] + ".rsnet"
        return cls(*_core.network_build(source, target))

    def __repr__(self) -> str:
        return f"<routesolve.Network {self.path}: {self.nodes} nodes, {self.arcs} arcs>"


def matrix(network: Union["Network", str, "os.PathLike[str]", None], points: Any, backend: str = "auto",
           threads: int = 1) -> Tuple[np.ndarray, np.ndarray]:
    """Travel durations (s) and distances (m) between points (rows: from, columns: to).

    ``points``: an (n, 2) array-like of longitude, latitude. ``network``: a :class:`Network`
    or file (engine chosen by ``backend``), or None for great-circle distances at 50 km/h.
    Returns two int64 arrays; :data:`UNREACHABLE` marks a pair without a road path.
    """
    array = np.ascontiguousarray(np.asarray(points, dtype=np.float64))
    if array.ndim != 2 or (array.size and array.shape[1] != 2):
        raise _core.InvalidInput(f"points: expected an (n, 2) array of [lon, lat], got shape {array.shape}")
    array = array.reshape(-1, 2)
    options = _options(network=network, backend=backend, threads=threads)
    durations, distances = _core.matrix(array, options)
    return durations, distances
