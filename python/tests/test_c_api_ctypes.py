"""The C API through ctypes, as a Java, Go or C# program would call it through its FFI: solve,
validate, matrices, error codes and messages, cancellation from another thread."""
import ctypes
import json
import threading

import pytest

from conftest import LIB, grid_problem

RS_OK, RS_INVALID_INPUT = 0, 1
PROGRESS = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_double, ctypes.c_double, ctypes.c_double,
                            ctypes.c_size_t, ctypes.c_size_t)


class Options(ctypes.Structure):
    """rs_options field for field: rs_options_init writes the whole struct, so a mirror that
    lacked a field would let it write past the end of this one (Python's heap)."""
    _fields_ = [("struct_size", ctypes.c_uint32), ("backend", ctypes.c_char_p), ("time_limit_s", ctypes.c_double),
                ("iterations", ctypes.c_uint64), ("seed", ctypes.c_uint64), ("threads", ctypes.c_uint32),
                ("chains", ctypes.c_uint32), ("objective", ctypes.c_char_p), ("network", ctypes.c_char_p),
                ("device", ctypes.c_int32), ("cancel", ctypes.c_void_p), ("progress", PROGRESS),
                ("progress_user", ctypes.c_void_p), ("check", ctypes.c_int32), ("matrix_engine", ctypes.c_char_p),
                ("timeline", ctypes.c_char_p)]


@pytest.fixture(scope="module")
def lib():
    if not LIB.exists():
        pytest.skip(f"{LIB} not built")
    lib = ctypes.CDLL(str(LIB))
    out = ctypes.POINTER(ctypes.c_void_p)
    lib.rs_version.restype = ctypes.c_char_p
    lib.rs_options_init.argtypes = [ctypes.POINTER(Options)]
    lib.rs_solve_json.argtypes = [ctypes.c_char_p, ctypes.POINTER(Options), out, out]
    lib.rs_validate_json.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(Options), out, out]
    lib.rs_matrix.argtypes = [ctypes.c_char_p, ctypes.POINTER(Options), out, out]
    for f in ("rs_solve_json", "rs_validate_json", "rs_matrix"):
        getattr(lib, f).restype = ctypes.c_int
    lib.rs_free.argtypes = [ctypes.c_void_p]
    lib.rs_cancel_create.restype = ctypes.c_void_p
    lib.rs_cancel_request.argtypes = [ctypes.c_void_p]
    lib.rs_cancel_destroy.argtypes = [ctypes.c_void_p]
    return lib


def take(lib, pointer):
    """The string the library returned, freed with rs_free."""
    if not pointer.value:
        return None
    text = ctypes.string_at(pointer.value).decode()
    lib.rs_free(pointer.value)
    return text


def call(lib, name, *args, options=None):
    result, error = ctypes.c_void_p(), ctypes.c_void_p()
    o = None
    if options is not None:
        o = Options()
        lib.rs_options_init(ctypes.byref(o))
        for k, v in options.items():
            setattr(o, k, v)
    status = getattr(lib, name)(*[a.encode() if isinstance(a, str) else a for a in args],
                                ctypes.byref(o) if o is not None else None, ctypes.byref(result), ctypes.byref(error))
    return status, take(lib, result), take(lib, error)


SMALL = json.dumps({"vehicles": [{"id": 1, "start_index": 0, "end_index": 0, "capacity": [4]}],
                    "jobs": [{"id": 1, "location_index": 1, "delivery": [1]}, {"id": 2, "location_index": 2, "delivery": [1]}],
                    "matrices": {"car": {"durations": [[0, 100, 200], [100, 0, 150], [200, 150, 0]]}}})


def test_the_mirror_has_the_size_of_rs_options(lib):
    # rs_options_init writes sizeof(rs_options) into struct_size: into a buffer far larger than
    # the struct, so that a mirror short of a field is caught here instead of corrupting the heap.
    buffer = (ctypes.c_uint8 * 4096)()
    lib.rs_options_init(ctypes.cast(buffer, ctypes.POINTER(Options)))
    assert ctypes.c_uint32.from_buffer(buffer).value == ctypes.sizeof(Options)


def test_solve_and_validate(lib):
    assert lib.rs_version().decode() == "0.2.0"
    status, solution, error = call(lib, "rs_solve_json", SMALL, options={"backend": b"cpu"})
    assert status == RS_OK and error is None
    doc = json.loads(solution)
    assert doc["summary"]["cost"] == 450 and len(doc["routes"]) == 1
    status, report, error = call(lib, "rs_validate_json", SMALL, solution)
    assert status == RS_OK and json.loads(report) == {"ok": True, "violations": []}
    doc["routes"][0]["steps"] = [s for s in doc["routes"][0]["steps"] if s.get("id") != 2]
    status, report, _ = call(lib, "rs_validate_json", SMALL, json.dumps(doc))
    assert status == RS_OK and not json.loads(report)["ok"]


def test_errors(lib):
    bad = json.dumps({"vehicles": [{"id": 1, "capacity": [-3]}]})
    status, solution, error = call(lib, "rs_solve_json", bad)
    assert status == RS_INVALID_INPUT and solution is None and "vehicles[0].capacity" in error
    status, _, error = call(lib, "rs_solve_json", SMALL, options={"objective": b"joy"})
    assert status == RS_INVALID_INPUT and "objective" in error


def test_matrix(lib):
    status, text, error = call(lib, "rs_matrix", "[[9.5209, 47.141], [9.506, 47.23]]")
    assert status == RS_OK, error
    car = json.loads(text)["matrices"]["car"]
    assert car["durations"][0][0] == 0 and car["durations"][0][1] == car["durations"][1][0] > 0


def test_cancel_from_another_thread(lib):
    cancel = lib.rs_cancel_create()
    reports = []
    progress = PROGRESS(lambda user, elapsed, fraction, cost, routes, unassigned: reports.append(cost))
    timer = threading.Timer(0.5, lib.rs_cancel_request, args=(cancel,))
    timer.start()
    problem = json.dumps(grid_problem(300))
    # A fixed amount of work far beyond a test's patience: returning at all is the cancellation
    # (a solve that ignored it would run into ctest's timeout), no clock involved.
    status, solution, error = call(lib, "rs_solve_json", problem,
                                   options={"backend": b"cpu", "time_limit_s": 0.0, "iterations": 10**9,
                                            "cancel": cancel, "progress": progress})
    assert status == RS_OK, error
    assert not json.loads(solution)["unassigned"] and reports
    status, report, _ = call(lib, "rs_validate_json", problem, solution)
    assert json.loads(report)["ok"]
    lib.rs_cancel_destroy(cancel)
