"""routesolve: vehicle routing (VROOM-style problems) from Python.

    import routesolve
    solution = routesolve.solve("fleet.json", time_limit=1.0, threads=2)
    print(solution.summary["cost"], len(solution.routes), solution.unassigned)

A problem is a VROOM-style dict, a JSON string, a path (VROOM JSON, CVRPLIB, Solomon, Li & Lim)
or a :class:`Problem` built in Python with numpy travel matrices. The search runs with the GIL
released; Ctrl+C stops it and returns the best solution found so far. Errors are
:class:`Error` subclasses whose messages name the JSON path and field, as the CLI's do.
"""

from ._core import (
    UNREACHABLE,
    DeviceError,
    Error,
    Infeasible,
    InternalError,
    InvalidInput,
    OutOfMemory,
    Unsupported,
    __version__,
)
from ._api import Network, Problem, Solution, Validation, matrix, read_problem, solve

__all__ = [
    "solve",
    "matrix",
    "read_problem",
    "Problem",
    "Solution",
    "Validation",
    "Network",
    "Error",
    "InvalidInput",
    "Infeasible",
    "OutOfMemory",
    "DeviceError",
    "Unsupported",
    "InternalError",
    "UNREACHABLE",
    "__version__",
]
