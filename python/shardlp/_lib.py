"""Loading libshardlp.so and the ctypes declarations of include/shardlp.h."""
from __future__ import annotations

import atexit
import ctypes
import ctypes.util
import enum
import os
from pathlib import Path
from typing import Iterator

_LIB_NAMES = ("libshardlp.so", "libshardlp.dylib")

# SHARDLP_API_VERSION of include/shardlp.h that the declarations below mirror (the
# layouts of Info and Progress, the statuses' numbers). A library of another version
# would be misread, so it is refused at import.
API_VERSION = 5


class ShardlpError(RuntimeError):
    """A call into libshardlp failed. ``code`` is the shardlp_error value."""

    def __init__(self, message: str, code: int = 5):
        super().__init__(message)
        self.code = code


class InputError(ShardlpError, ValueError):
    """The model or an argument is malformed (SHARDLP_ERR_INPUT)."""


class LibraryNotFoundError(ShardlpError, ImportError):
    """libshardlp.so could not be located, or it is of another API version."""


def _candidates() -> Iterator[Path]:
    env = os.environ.get("SHARDLP_LIB")
    if env:
        p = Path(env)
        yield p if p.is_file() else p / _LIB_NAMES[0]
        return
    # Next to the package (the wheel's copy), then the build directory of the source
    # tree the package is run from (python/shardlp -> ../../build). The working
    # directory is not searched: what loads must not depend on where Python runs.
    here = Path(__file__).resolve().parent
    for name in _LIB_NAMES:
        yield here / name
    for name in _LIB_NAMES:
        yield here.parent.parent / "build" / name


def find_library() -> str:
    """Path of libshardlp.so: $SHARDLP_LIB (file or directory), the package
    directory, ``build/`` of the source tree the package lives in, then the system's
    library path."""
    tried = []
    for cand in _candidates():
        tried.append(str(cand))
        if cand.is_file():
            return str(cand)
    found = ctypes.util.find_library("shardlp")  # a name for the dynamic loader
    if found and not os.environ.get("SHARDLP_LIB"):
        return found
    raise LibraryNotFoundError(
        "cannot find libshardlp.so (run `make build` in the shardlp repository, or set "
        "SHARDLP_LIB to the library file); looked at: " + ", ".join(tried[:6]),
        code=ErrorCode.UNSUPPORTED,
    )


c_int64_p = ctypes.POINTER(ctypes.c_int64)
c_double_p = ctypes.POINTER(ctypes.c_double)


class Matrix(ctypes.Structure):
    _fields_ = [
        ("format", ctypes.c_int),
        ("nnz", ctypes.c_int64),
        ("ptr", c_int64_p),
        ("row", c_int64_p),
        ("col", c_int64_p),
        ("val", c_double_p),
    ]


class Info(ctypes.Structure):
    _fields_ = [
        ("status", ctypes.c_int),
        ("objective", ctypes.c_double),
        ("dual_objective", ctypes.c_double),
        ("rel_primal_residual", ctypes.c_double),
        ("rel_dual_residual", ctypes.c_double),
        ("rel_gap", ctypes.c_double),
        ("abs_primal_residual", ctypes.c_double),
        ("abs_dual_residual", ctypes.c_double),
        ("abs_gap", ctypes.c_double),
        ("iterations", ctypes.c_int64),
        ("restarts", ctypes.c_int64),
        ("m", ctypes.c_int64),
        ("n", ctypes.c_int64),
        ("nnz", ctypes.c_int64),
        ("grid_rows", ctypes.c_int),
        ("grid_cols", ctypes.c_int),
        ("warm_started", ctypes.c_int),
        ("setup_seconds", ctypes.c_double),
        ("scaling_seconds", ctypes.c_double),
        ("power_seconds", ctypes.c_double),
        ("solve_seconds", ctypes.c_double),
        ("total_seconds", ctypes.c_double),
        ("presolve_rows_removed", ctypes.c_int64),
        ("presolve_cols_removed", ctypes.c_int64),
        ("presolve_nnz_removed", ctypes.c_int64),
    ]


class Progress(ctypes.Structure):
    """shardlp_progress: what the progress callback receives at each check."""
    _fields_ = [
        ("iteration", ctypes.c_int64),
        ("seconds", ctypes.c_double),
        ("objective", ctypes.c_double),
        ("dual_objective", ctypes.c_double),
        ("abs_primal_residual", ctypes.c_double),
        ("abs_dual_residual", ctypes.c_double),
        ("rel_primal_residual", ctypes.c_double),
        ("rel_dual_residual", ctypes.c_double),
        ("rel_gap", ctypes.c_double),
        ("primal_weight", ctypes.c_double),
        ("restarted", ctypes.c_int),
    ]


PROGRESS_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(Progress), ctypes.c_void_p)
LOG_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_void_p)

_lib = None


def check_api_version(L: ctypes.CDLL, path: str) -> None:
    """Refuse a library built from another header (its structs would be misread)."""
    try:
        fn = L.shardlp_api_version
    except AttributeError:
        got = "older than 4 (it has no shardlp_api_version)"
    else:
        fn.restype, fn.argtypes = ctypes.c_int, []
        got = fn()
        if got == API_VERSION:
            return
    raise LibraryNotFoundError(
        f"{path} has shardlp API version {got}, this package needs {API_VERSION}: rebuild "
        "the library from the same source (make build) or reinstall the package",
        code=ErrorCode.UNSUPPORTED)


def lib() -> ctypes.CDLL:
    """The loaded library (loaded on first use)."""
    global _lib
    if _lib is not None:
        return _lib
    path = find_library()
    try:
        L = ctypes.CDLL(path)
    except OSError as e:
        raise LibraryNotFoundError(f"cannot load {path}: {e}", code=ErrorCode.UNSUPPORTED) from None
    check_api_version(L, path)  # before any declaration reads the library's layout
    P = ctypes.c_void_p
    PP = ctypes.POINTER(ctypes.c_void_p)
    PD = ctypes.POINTER(c_double_p)
    decl = {
        "shardlp_problem_create": (ctypes.c_int, [ctypes.c_int64, ctypes.c_int64, ctypes.c_int,
                                                  c_double_p, ctypes.c_double,
                                                  ctypes.POINTER(Matrix), c_double_p, c_double_p,
                                                  c_double_p, c_double_p, PP]),
        "shardlp_problem_read": (ctypes.c_int, [ctypes.c_char_p, PP]),
        "shardlp_problem_destroy": (None, [PP]),
        "shardlp_problem_write": (ctypes.c_int, [P, ctypes.c_char_p]),
        "shardlp_problem_size": (None, [P, c_int64_p, c_int64_p, c_int64_p]),
        "shardlp_problem_row_name": (ctypes.c_char_p, [P, ctypes.c_int64]),
        "shardlp_problem_col_name": (ctypes.c_char_p, [P, ctypes.c_int64]),
        "shardlp_problem_set_warm_start": (ctypes.c_int, [P, c_double_p, c_double_p]),
        "shardlp_settings_create": (ctypes.c_int, [PP]),
        "shardlp_settings_destroy": (None, [PP]),
        "shardlp_set_option": (ctypes.c_int, [P, ctypes.c_char_p, ctypes.c_char_p]),
        "shardlp_get_option": (ctypes.c_int, [P, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int64]),
        "shardlp_option_count": (ctypes.c_int, []),
        "shardlp_option_name": (ctypes.c_char_p, [ctypes.c_int]),
        "shardlp_option_kind": (ctypes.c_char_p, [ctypes.c_int]),
        "shardlp_option_help": (ctypes.c_char_p, [ctypes.c_int]),
        "shardlp_solve": (ctypes.c_int, [P, P, ctypes.POINTER(Info),
                                         c_double_p, c_double_p, c_double_p, c_double_p]),
        "shardlp_set_progress_callback": (ctypes.c_int, [P, PROGRESS_CALLBACK, P]),
        "shardlp_set_log_callback": (ctypes.c_int, [P, LOG_CALLBACK, P]),
        "shardlp_init_comm": (ctypes.c_int, [P]),
        "shardlp_solve_shards": (ctypes.c_int, [ctypes.c_char_p, P, ctypes.POINTER(Info),
                                                c_int64_p, c_int64_p, PD, PD, c_int64_p,
                                                c_int64_p, PD, PD]),
        "shardlp_last_error": (ctypes.c_char_p, []),
        "shardlp_finalize": (None, []),
        "shardlp_rank": (ctypes.c_int, []),
        "shardlp_ranks": (ctypes.c_int, []),
        "shardlp_status_name": (ctypes.c_char_p, [ctypes.c_int]),
        "shardlp_version": (ctypes.c_char_p, []),
        "shardlp_free": (None, [P]),
        "shardlp_session_create": (ctypes.c_int, [P, P, PP]),
        "shardlp_session_create_shards": (ctypes.c_int, [ctypes.c_char_p, P, PP]),
        "shardlp_session_solve": (ctypes.c_int, [P, ctypes.c_int, ctypes.POINTER(Info),
                                                 c_double_p, c_double_p, c_double_p,
                                                 c_double_p]),
        "shardlp_session_set_objective": (ctypes.c_int, [P, c_double_p]),
        "shardlp_session_set_col_bounds": (ctypes.c_int, [P, c_double_p, c_double_p]),
        "shardlp_session_set_row_bounds": (ctypes.c_int, [P, c_double_p, c_double_p]),
        "shardlp_session_size": (None, [P, c_int64_p, c_int64_p]),
        "shardlp_session_destroy": (None, [PP]),
    }
    for name, (res, args) in decl.items():
        fn = getattr(L, name)
        fn.restype = res
        fn.argtypes = args
    _lib = L
    # Under mpirun the library starts MPI at the first solve; end it with the program.
    atexit.register(L.shardlp_finalize)
    return L


def release(destroy, handle) -> None:
    """Call a library destructor on a ctypes handle (from __del__; quiet at shutdown)."""
    if handle is not None and handle.value:
        try:
            destroy(ctypes.byref(handle))
        except Exception:  # interpreter shutdown
            pass


class ErrorCode(enum.IntEnum):
    """shardlp_error of include/shardlp.h (the API version check guards the numbers)."""
    OK = 0
    INPUT = 1
    IO = 2
    NOMEM = 3
    MPI = 4
    INTERNAL = 5
    UNSUPPORTED = 6


def statuses() -> type[enum.IntEnum]:
    """The library's statuses as an IntEnum, named by shardlp_status_name (NOT_SOLVED = 0,
    OPTIMAL, PRIMAL_INFEASIBLE, ...)."""
    L, names, k = lib(), {}, 0
    while (name := L.shardlp_status_name(k).decode()) != "unknown":
        names[name.upper()] = k
        k += 1
    return enum.IntEnum("Status", names)


def check(code: int, what: str) -> None:
    """Raise the matching exception when a library call returned non-zero."""
    if code == ErrorCode.OK:
        return
    msg = lib().shardlp_last_error().decode(errors="replace") or "unknown error"
    text = f"{what}: {msg}"
    if code == ErrorCode.INPUT:
        raise InputError(text, code)
    if code == ErrorCode.IO:
        raise OSError(text)
    if code == ErrorCode.NOMEM:
        raise MemoryError(text)
    raise ShardlpError(text, code)
