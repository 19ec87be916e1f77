"""Solver: a session over the C API (docs/session.md, docs/python.md "Solver sessions"):
set up once, then solve the model and its updates many times, warm by default."""
from __future__ import annotations

import ctypes
import os
from typing import Any, Callable, Iterable, Mapping, Optional, Union

import numpy as np

from ._lib import LOG_CALLBACK, PROGRESS_CALLBACK, Info, check, lib, release
from ._solve_hooks import SolveHooks, log_setup, run_with_hooks, use_communicator
from .model import Model, PathLike, Result, Vector, _dptr, _vector, read
from .settings import Settings

_UPDATES = ("c", "lv", "uv", "lc", "uc")


class Solver:
    """Solver(model, **options): a session on `model` (a Model, an MPS path, or a shard
    directory). The set-up (grid, distribution, backend, log file) happens here, once;
    options are those of Model.solve and `shardlp solve --help` (tol=, threads=,
    time_limit=, presolve=, grid=, log_file=, ...), fixed for the session. Under MPI
    every rank makes the same calls (rank 0's model and vectors are used), with comm=
    an mpi4py communicator as in Model.solve.

        with shardlp.Solver(model, tol=1e-6) as s:
            first = s.solve()
            s.update(c=new_costs, uv=new_upper)
            second = s.solve()          # warm from first's point
            results = s.solve_batch([{"c": c1}, {"c": c2, "lc": b2, "uc": b2}])
    """

    def __init__(self, model: Union[Model, PathLike], *, comm: Any = None,
                 verbose: Union[bool, int] = False,
                 log_callback: Optional[Callable[[str], Any]] = None, **options: Any):
        self._h = ctypes.c_void_p()
        if isinstance(comm, str):
            options["comm"] = comm
        else:
            use_communicator(comm)
        self._log, verbosity = log_setup(verbose, log_callback)
        self._settings = Settings(verbosity=verbosity, **options)
        # The session keeps these two trampolines for its life; each solve points them at
        # its own hooks (the caller's callback, Ctrl-C).
        self._hooks: Optional[SolveHooks] = None
        self._progress_c = PROGRESS_CALLBACK(self._on_progress)
        self._log_c = LOG_CALLBACK(self._on_log)
        L = lib()
        check(L.shardlp_set_progress_callback(self._settings.handle, self._progress_c, None),
              "Solver")
        if self._log is not None:
            check(L.shardlp_set_log_callback(self._settings.handle, self._log_c, None), "Solver")
        if isinstance(model, Model):
            check(L.shardlp_session_create(model._h, self._settings.handle,
                                           ctypes.byref(self._h)), "Solver")
        else:
            path = os.fspath(model)
            if os.path.isdir(path):
                check(L.shardlp_session_create_shards(path.encode(), self._settings.handle,
                                                      ctypes.byref(self._h)), "Solver")
            else:
                model = read(path)
                check(L.shardlp_session_create(model._h, self._settings.handle,
                                               ctypes.byref(self._h)), "Solver")
        m, n = ctypes.c_int64(), ctypes.c_int64()
        L.shardlp_session_size(self._h, ctypes.byref(m), ctypes.byref(n))
        self.m, self.n = m.value, n.value

    def _on_progress(self, p, user):
        return self._hooks.on_progress(p, user) if self._hooks is not None else 0

    def _on_log(self, text, user):
        if self._hooks is not None:
            self._hooks.on_log(text, user)
        elif self._log is not None:
            self._log(text.decode(errors="replace"))

    def _handle(self) -> ctypes.c_void_p:
        if not self._h.value:
            raise ValueError("Solver: the session is closed")
        return self._h

    def solve(self, warm: bool = True,
              callback: Optional[Callable[[dict], Any]] = None) -> Result:
        """Solve the session's LP as it stands. warm: from the last solve's x and y (the
        first solve: the Model's warm start, if set); False: from zero. callback and
        Ctrl-C as in Model.solve. Vectors come back on rank 0."""
        h = self._handle()
        info = Info()
        x, rc = np.empty(self.n), np.empty(self.n)
        y, ax = np.empty(self.m), np.empty(self.m)
        self._hooks = SolveHooks(None, callback=callback, log=self._log)
        try:
            return run_with_hooks(
                "Solver.solve", None, callback, self._log,
                lambda: lib().shardlp_session_solve(h, int(bool(warm)), ctypes.byref(info),
                                                    _dptr(x), _dptr(y), _dptr(rc), _dptr(ax)),
                lambda: Result(info, x, y, rc, ax), hooks=self._hooks)
        finally:
            self._hooks = None

    def update(self, c: Vector = None, lv: Vector = None, uv: Vector = None,
               lc: Vector = None, uc: Vector = None) -> None:
        """The next solves' objective c (length n), variable bounds lv/uv (n) and row
        bounds lc/uc (m), in the model's units and sense; None leaves a vector as it is,
        scalars broadcast. Checked as a new Model's data (an InputError changes nothing).
        The matrix and the sense stay the session's."""
        h = self._handle()
        L = lib()
        cv = _vector(c, self.n, "c")
        if cv is not None and not np.isfinite(cv).all():
            raise ValueError(f"c[{int(np.flatnonzero(~np.isfinite(cv))[0])}] is not finite")
        bounds = [_vector(v, k, name) for v, k, name in
                  ((lv, self.n, "lv"), (uv, self.n, "uv"), (lc, self.m, "lc"), (uc, self.m, "uc"))]
        if cv is not None:
            check(L.shardlp_session_set_objective(h, _dptr(cv)), "Solver.update")
        if bounds[0] is not None or bounds[1] is not None:
            check(L.shardlp_session_set_col_bounds(h, _dptr(bounds[0]), _dptr(bounds[1])),
                  "Solver.update")
        if bounds[2] is not None or bounds[3] is not None:
            check(L.shardlp_session_set_row_bounds(h, _dptr(bounds[2]), _dptr(bounds[3])),
                  "Solver.update")

    def solve_batch(self, changes: Iterable[Mapping[str, Vector]],
                    warm: bool = True) -> list[Result]:
        """Solve a batch of LPs that share the matrix: for each mapping of changes (keys
        among c, lv, uv, lc, uc; see update), apply it and solve, each LP warm from the
        previous one's point unless warm=False. A change lasts until another replaces it:
        give every LP its full set of changed vectors when they differ from the last."""
        results = []
        for k, change in enumerate(changes):
            unknown = set(change) - set(_UPDATES)
            if unknown:
                raise ValueError(f"solve_batch: LP {k}: unknown keys {sorted(unknown)} "
                                 f"(expected {', '.join(_UPDATES)})")
            self.update(**change)
            results.append(self.solve(warm=warm))
        return results

    def close(self) -> None:
        """End the session (collective under MPI); the Solver cannot solve afterwards."""
        release(lib().shardlp_session_destroy, self._h)

    def __enter__(self) -> "Solver":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self):
        h = getattr(self, "_h", None)
        if h is not None and h.value:
            release(lib().shardlp_session_destroy, h)

    def __repr__(self):
        state = "open" if self._h.value else "closed"
        return f"Solver(m={self.m}, n={self.n}, {state})"
