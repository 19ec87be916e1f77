"""Model, read() and Result: the LP in Python over the C API."""
from __future__ import annotations

import ctypes
import os
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np

from ._lib import (Info, InputError, Matrix, c_double_p, c_int64_p, check, lib, release,
                   statuses)

PathLike = Union[str, "os.PathLike[str]"]
Vector = Optional[Union[Sequence[float], np.ndarray]]
from ._solve_hooks import log_setup, run_with_hooks, use_communicator
from .settings import Settings

# The library's statuses (shardlp.h shardlp_status), named as the library names them.
Status = statuses()
STATUS_NAMES = tuple(s.name.lower() for s in Status)
_FORMAT = {"csc": 0, "csr": 1, "coo": 2}


def _dptr(a):
    return None if a is None else a.ctypes.data_as(c_double_p)


def _iptr(a):
    return None if a is None else a.ctypes.data_as(c_int64_p)


def _vector(value, length, name, default=None):
    """A contiguous float64 array of `length` (scalars are broadcast). No copy when
    `value` already is one."""
    if value is None:
        return None if default is None else np.full(length, default, dtype=np.float64)
    if np.isscalar(value):
        try:
            return np.full(length, float(value), dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{name}: expected numbers, got {value!r}") from None
    if hasattr(value, "toarray") and hasattr(value, "nnz"):
        raise TypeError(f"{name}: expected a 1-D array, got a sparse matrix")
    try:
        arr = np.ascontiguousarray(value, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{name}: expected a 1-D array of numbers ({e})") from None
    if arr.ndim == 2 and 1 in arr.shape:
        arr = arr.reshape(-1)
    if arr.ndim != 1:
        raise ValueError(f"{name}: expected a 1-D array, got shape {arr.shape}")
    if arr.shape[0] != length:
        raise ValueError(f"{name}: has length {arr.shape[0]}, expected {length}")
    if np.isnan(arr).any():
        raise ValueError(f"{name}[{int(np.flatnonzero(np.isnan(arr))[0])}] is NaN")
    return arr


def _index(a, name):
    arr = np.asarray(a)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"matrix {name}: integer indices expected, got {arr.dtype}")
    return np.ascontiguousarray(arr, dtype=np.int64)  # no copy when already int64


def _matrix(A, m, n):
    """(format, ptr, row, col, val, shape) views of A. scipy.sparse CSC/CSR/COO are
    passed as they are (indices widened to int64 when stored as int32); other sparse
    formats are converted sparsely; a dense array gives its nonzeros as COO."""
    if A is None:
        return 2, None, None, None, None, (m if m is not None else 0, n)
    fmt = getattr(A, "format", None)
    if fmt is not None and hasattr(A, "tocoo"):  # scipy.sparse matrix or array
        if fmt not in _FORMAT:
            A = A.tocsc()
            fmt = "csc"
        val = np.ascontiguousarray(A.data, dtype=np.float64)
        if fmt == "coo":
            row = A.row if hasattr(A, "row") else A.coords[0]
            col = A.col if hasattr(A, "col") else A.coords[1]
            return 2, None, _index(row, "row"), _index(col, "col"), val, A.shape
        ptr = _index(A.indptr, "indptr")
        idx = _index(A.indices, "indices")
        if fmt == "csc":
            return 0, ptr, idx, None, val, A.shape
        return 1, ptr, None, idx, val, A.shape
    try:
        D = np.asarray(A, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise TypeError(f"A: expected a scipy.sparse matrix or a 2-D array ({e})") from None
    if D.ndim != 2:
        raise ValueError(f"A: expected a 2-D matrix, got shape {D.shape}")
    row, col = np.nonzero(D)
    return 2, None, row.astype(np.int64), col.astype(np.int64), D[row, col], D.shape


def _sense(sense):
    if sense in (1, "min", "minimize", "MIN", "Minimize"):
        return 1
    if sense in (-1, "max", "maximize", "MAX", "Maximize"):
        return -1
    raise ValueError(f"sense: expected 'min' or 'max' (or 1 / -1), got {sense!r}")


class Result:
    """What a solve returned. Vectors are numpy arrays in the model's units and
    sense (HiGHS's sign convention: reduced_costs = c - A^T y)."""

    def __init__(self, info, x, y, rc, ax):
        self.status_code = Status(int(info.status))  # an IntEnum: Status.OPTIMAL, ...
        self.status = self.status_code.name.lower()    # "optimal", ... (the JSON's names)
        self.x = x
        self.y = y
        self.reduced_costs = rc
        self.row_activity = ax
        self.objective = info.objective
        self.dual_objective = info.dual_objective
        self.iterations = int(info.iterations)
        self.restarts = int(info.restarts)
        self.residuals = {
            "rel_primal": info.rel_primal_residual,
            "rel_dual": info.rel_dual_residual,
            "rel_gap": info.rel_gap,
            "abs_primal": info.abs_primal_residual,
            "abs_dual": info.abs_dual_residual,
            "abs_gap": info.abs_gap,
        }
        self.times = {
            "setup": info.setup_seconds,
            "scaling": info.scaling_seconds,
            "power": info.power_seconds,
            "solve": info.solve_seconds,
            "total": info.total_seconds,
        }
        self.warm_started = bool(info.warm_started)
        self.presolve = {"rows_removed": int(info.presolve_rows_removed),
                         "cols_removed": int(info.presolve_cols_removed),
                         "nnz_removed": int(info.presolve_nnz_removed)}
        self.grid = (int(info.grid_rows), int(info.grid_cols))
        self.vertex = None  # Model.solve(crossover=True): a shardlp.Vertex

    @property
    def optimal(self) -> bool:
        return self.status == "optimal"

    # common aliases
    rc = property(lambda self: self.reduced_costs)
    fun = property(lambda self: self.objective)

    def __repr__(self):
        return (f"Result(status={self.status!r}, objective={self.objective!r}, "
                f"iterations={self.iterations}, time={self.times['total']:.3g}s)")


class Model:
    """An LP   min/max c^T x + c0   s.t.  lc <= A x <= uc,  lv <= x <= uv.

    c: length n. A: scipy.sparse matrix/array (CSC, CSR or COO used without
    conversion; other formats converted sparsely) or a dense 2-D array, m x n.
    lc, uc: row bounds (None: -inf / +inf). lv, uv: variable bounds (None: 0 / +inf,
    like scipy.optimize.linprog). Scalars broadcast. Infinite bounds are +-np.inf.
    sense: 'min' or 'max'. The data are copied into the library; the arrays
    passed can be changed afterwards without affecting the model."""

    def __init__(self, c=None, A=None, lc=None, uc=None, lv=None, uv=None, c0=0.0,
                 sense="min", *, _handle=None):
        self._h = ctypes.c_void_p()
        if _handle is not None:
            self._h = _handle
        else:
            fmt, ptr, row, col, val, shape = _matrix(A, None, None)
            if c is None:
                if A is None:
                    raise ValueError("Model: give c or A (the number of variables is unknown)")
                n = int(shape[1])
            else:
                n = int(np.size(c)) if not np.isscalar(c) else None
                if n is None:
                    raise TypeError("c: expected a 1-D array")
            m = int(shape[0]) if A is not None else (0 if lc is None and uc is None else
                                                      int(np.size(lc if lc is not None else uc)))
            if A is not None and int(shape[1]) != n:
                raise ValueError(f"A has {shape[1]} columns but c has length {n}")
            cv = _vector(c, n, "c", 0.0)
            if not np.isfinite(cv).all():
                raise ValueError(f"c[{int(np.flatnonzero(~np.isfinite(cv))[0])}] is not finite")
            try:
                c0 = float(c0)
            except (TypeError, ValueError):
                raise TypeError(f"c0: expected a number, got {c0!r}") from None
            args = [_vector(lc, m, "lc"), _vector(uc, m, "uc"), _vector(lv, n, "lv"),
                    _vector(uv, n, "uv")]
            mat = Matrix(fmt, 0 if val is None else int(val.shape[0]), _iptr(ptr), _iptr(row),
                         _iptr(col), _dptr(val))
            if ptr is not None:
                expect = n + 1 if fmt == 0 else m + 1
                if ptr.shape[0] != expect:
                    raise ValueError(f"A: index pointer has length {ptr.shape[0]}, "
                                     f"expected {expect}")
            check(lib().shardlp_problem_create(m, n, _sense(sense), _dptr(cv), c0,
                                               ctypes.byref(mat), *[_dptr(a) for a in args],
                                               ctypes.byref(self._h)),
                  "Model")
        mm, nn, zz = ctypes.c_int64(), ctypes.c_int64(), ctypes.c_int64()
        lib().shardlp_problem_size(self._h, ctypes.byref(mm), ctypes.byref(nn), ctypes.byref(zz))
        self.m, self.n, self.nnz = mm.value, nn.value, zz.value
        self._x0 = self._y0 = None

    def __del__(self):
        release(lib().shardlp_problem_destroy, getattr(self, "_h", None))

    @property
    def row_names(self) -> list[str]:
        L = lib()
        return [L.shardlp_problem_row_name(self._h, i).decode() for i in range(self.m)]

    @property
    def col_names(self) -> list[str]:
        L = lib()
        return [L.shardlp_problem_col_name(self._h, j).decode() for j in range(self.n)]

    def set_warm_start(self, x0: Vector = None, y0: Vector = None) -> None:
        """Start the next solves from x0 (length n) and/or y0 (length m), in the
        model's units and sense (e.g. a previous Result's x and y). None clears."""
        x = _vector(x0, self.n, "x0")
        y = _vector(y0, self.m, "y0")
        for a, name in ((x, "x0"), (y, "y0")):
            if a is not None and not np.isfinite(a).all():
                raise ValueError(f"{name}: values must be finite")
        check(lib().shardlp_problem_set_warm_start(self._h, _dptr(x), _dptr(y)), "set_warm_start")
        self._x0, self._y0 = x, y

    def solve(self, tol: Optional[float] = None, time_limit: Optional[float] = None,
              threads: Optional[int] = None, iter_limit: Optional[int] = None,
              verbose: Union[bool, int] = False, presolve: Optional[bool] = None,
              polish: Optional[bool] = None,
              x0: Vector = None, y0: Vector = None,
              callback: Optional[Callable[[dict], Any]] = None,
              log_callback: Optional[Callable[[str], Any]] = None, comm: Any = None,
              crossover: bool = False, **options: Any) -> Result:
        """Solve and return a Result. tol: relative tolerance of the primal and dual
        residuals and the gap. None (here and for every option) is the library's default,
        read from its option table (Settings()["tol"]: 1e-4). time_limit: seconds. threads: CPU threads (None: all).
        x0 / y0: a warm start for this solve only (set_warm_start sets one that lasts
        for the following solves; this call's replaces it for this call). verbose: the log
        (True, or 2 for every check) printed through sys.stdout; log_callback(text)
        receives it instead. callback(info): called at every check with a dict
        (iteration, seconds, objective, dual_objective, the residuals, primal_weight,
        restarted); returning True stops the solve (status "interrupted"). Ctrl-C
        stops the solve at its next check and raises KeyboardInterrupt (the result
        is its .result). comm: an mpi4py communicator to solve on (with grid=(R, C));
        every rank calls solve, vectors come back on rank 0, scalars on every rank;
        a string ("dense" / "support") is the communication plan option instead.
        crossover=True: a vertex solution by HiGHS's crossover from this one, in
        Result.vertex (rank 0; needs highspy; docs/session.md "Vertex solutions").
        Any other option of `shardlp solve --help` is a keyword too
        (termination="detailed", eps_abs=1e-6, norm="linf", grid=(2, 2),
        comm_lib="mpi", relax=True, sol="x.sol", ...)."""
        if isinstance(comm, str):
            options["comm"] = comm
        else:
            use_communicator(comm)
        lasting = None
        if x0 is not None or y0 is not None:
            lasting = (self._x0, self._y0)  # set_warm_start's, back after this call
            self.set_warm_start(x0, y0)
        try:
            result = self._solve(tol, time_limit, threads, iter_limit, verbose, presolve,
                                 polish, callback, log_callback, options)
        finally:
            if lasting is not None:
                self.set_warm_start(*lasting)
        if crossover and rank() == 0:
            from .crossover import crossover as vertex_of
            result.vertex = vertex_of(self, result)
        return result

    def _solve(self, tol, time_limit, threads, iter_limit, verbose, presolve, polish, callback,
               log_callback, options):
        log, verbosity = log_setup(verbose, log_callback)
        s = Settings(tol=tol, time_limit=time_limit, threads=threads, iter_limit=iter_limit,
                     verbosity=verbosity, presolve=presolve, polish=polish, **options)
        info = Info()
        x = np.empty(self.n)
        rc = np.empty(self.n)
        y = np.empty(self.m)
        ax = np.empty(self.m)
        return run_with_hooks(
            "solve", s, callback, log,
            lambda: lib().shardlp_solve(self._h, s.handle, ctypes.byref(info), _dptr(x),
                                        _dptr(y), _dptr(rc), _dptr(ax)),
            lambda: Result(info, x, y, rc, ax))

    def __repr__(self):
        return f"Model(m={self.m}, n={self.n}, nnz={self.nnz})"


def read(path: PathLike) -> Model:
    """Read an MPS model (.mps, .mps.gz; free or fixed format) into a Model."""
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path}: no such file")
    h = ctypes.c_void_p()
    check(lib().shardlp_problem_read(path.encode(), ctypes.byref(h)), "read")
    return Model(_handle=h)


class ShardResult(Result):
    """What solve_shards returned on this rank: the scalars of a Result and this rank's
    slices, x and reduced_costs for columns [col_lo, col_lo + len(x)), y and
    row_activity for rows [row_lo, row_lo + len(y))."""

    def __init__(self, info, x, y, rc, ax, col_lo, row_lo):
        super().__init__(info, x, y, rc, ax)
        self.col_lo = col_lo
        self.row_lo = row_lo


def _take(ptr, length: int) -> np.ndarray:
    """A numpy copy of a library-allocated array, which the library then frees."""
    if not ptr:
        return np.empty(0)
    out = np.ctypeslib.as_array(ptr, shape=(length,)).copy() if length else np.empty(0)
    lib().shardlp_free(ctypes.cast(ptr, ctypes.c_void_p))
    return out


def solve_shards(path: PathLike, tol: Optional[float] = None, comm: Any = None,
                 callback: Optional[Callable[[dict], Any]] = None,
                 log_callback: Optional[Callable[[str], Any]] = None,
                 verbose: Union[bool, int] = False, **options: Any) -> ShardResult:
    """Solve a shard directory (`shardlp shard` / `shardlp gen` output) on as many ranks
    as its grid has: every rank calls it (under mpirun, with comm= an mpi4py
    communicator, or launched by mpirun without one) and reads only its own block; each
    rank gets its own slices (a ShardResult). Keywords as in Model.solve."""
    use_communicator(comm)
    path = os.fspath(path)
    if not os.path.isdir(path):
        raise FileNotFoundError(f"{path}: not a shard directory")
    log, verbosity = log_setup(verbose, log_callback)
    s = Settings(tol=tol, verbosity=verbosity, **options)
    info = Info()
    col_lo, n_loc, row_lo, m_loc = (ctypes.c_int64() for _ in range(4))
    bufs = [c_double_p() for _ in range(4)]  # x, rc, y, ax

    def slices():
        x, rc = _take(bufs[0], n_loc.value), _take(bufs[1], n_loc.value)
        y, ax = _take(bufs[2], m_loc.value), _take(bufs[3], m_loc.value)
        return ShardResult(info, x, y, rc, ax, col_lo.value, row_lo.value)

    return run_with_hooks(
        "solve_shards", s, callback, log,
        lambda: lib().shardlp_solve_shards(path.encode(), s.handle, ctypes.byref(info),
                                           ctypes.byref(col_lo), ctypes.byref(n_loc),
                                           ctypes.byref(bufs[0]), ctypes.byref(bufs[1]),
                                           ctypes.byref(row_lo), ctypes.byref(m_loc),
                                           ctypes.byref(bufs[2]), ctypes.byref(bufs[3])),
        slices)


def rank() -> int:
    """This process's rank and the number of ranks (0 and 1 without mpirun)."""
    return lib().shardlp_rank()


def ranks() -> int:
    return lib().shardlp_ranks()


def version() -> str:
    """The library's version string."""
    return lib().shardlp_version().decode()
